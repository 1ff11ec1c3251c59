import WelkinBaselines
import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinReference
import WelkinImage

final class ReferenceRendererTests: XCTestCase {
    func scene(_ json: String) throws -> Scene { try SceneLoader.decode(json, file: "test.json") }

    func testEveryThreadCountGivesTheSameImage() throws {
        let s = try scene(String(decoding: try Data(contentsOf: Fixtures.scenes.appendingPathComponent("gradients.json")), as: UTF8.self))
        let frame = Frame(scene: s, time: 0, pixelSize: [333, 187])
        let one = try ReferenceRenderer(threads: 1).render(frame)
        for threads in [2, 3, 7, 16] {
            XCTAssertEqual(try ReferenceRenderer(threads: threads).render(frame), one, "\(threads) threads")
        }
        XCTAssertEqual(try ReferenceRenderer().render(frame), one)
    }

    /// Frames constant along rows or columns are copied from a few pixels or rows drawn by the
    /// general code: the bytes must be the general path's, for any size, dither and thread count.
    func testRowAndColumnFastPathsAreByteIdentical() throws {
        let layers = [
            // Vertical: one colour per row.
            ##"{"type": "linearGradient", "stops": ["#1A4DCC", "#FF804D"]}"##,
            ##"{"type": "linearGradient", "start": [0.3, 1], "end": [0.3, 0.2], "stops": [{"color": "red", "location": 0.1}, {"color": "#0000FF80", "location": 0.7}], "opacity": 0.6, "colorSpace": "oklab"}"##,
            // Horizontal: one colour per column.
            ##"{"type": "linearGradient", "start": "leading", "end": "trailing", "stops": ["black", "white", "orange"], "colorSpace": "linearSRGB"}"##,
            ##"{"type": "linearGradient", "start": [1.2, 0.5], "end": [-0.1, 0.5], "stops": [{"color": "clear", "location": 0.2}, {"color": "teal", "location": 0.9}]}"##,
            // Start = end: one colour everywhere.
            ##"{"type": "linearGradient", "start": [0.5, 0.5], "end": [0.5, 0.5], "stops": ["#33669980"]}"##,
        ]
        let combinations = [[0], [1], [0, 1], [2], [3], [2, 3], [4], [0, 4], [2, 4]]
        var checked = (row: 0, column: 0)
        for combination in combinations {
            for dither in [true, false] {
                for size in [[1, 1], [5, 3], [13, 11], [64, 9], [333, 187]] {
                    let json = """
                    {"size": [\(size[0]), \(size[1])], "dither": \(dither), "background": "#10203040",
                     "layers": [\(combination.map { layers[$0] }.joined(separator: ","))]}
                    """
                    let frame = Frame(scene: try scene(json), time: 0)
                    let axis = ReferenceRenderer.invariantAxis(frame)
                    XCTAssertNotNil(axis, json)
                    if axis == .row { checked.row += 1 } else { checked.column += 1 }
                    var general = ReferenceRenderer(threads: 1)
                    general.axisFastPath = false
                    let expected = try general.render(frame)
                    for threads in [1, 3] {
                        XCTAssertEqual(try ReferenceRenderer(threads: threads).render(frame), expected, "\(threads) threads: \(json)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked.row, 30)
        XCTAssertGreaterThan(checked.column, 20)
        // Diagonal and radial gradients, and any other layer, take the general path.
        let diagonal = Frame(scene: try scene(##"{"layers": [{"type": "linearGradient", "start": [0, 0], "end": [1, 1], "stops": ["red", "blue"]}]}"##), time: 0)
        XCTAssertNil(ReferenceRenderer.invariantAxis(diagonal))
        let mixed = Frame(scene: try scene("{\"layers\": [\(layers[0]), \(layers[2])]}"), time: 0)
        XCTAssertNil(ReferenceRenderer.invariantAxis(mixed))
    }

    func testRenderingIntoAReusedImageWritesEveryPixel() throws {
        let s = try scene(String(decoding: try Data(contentsOf: Fixtures.scenes.appendingPathComponent("gradients.json")), as: UTF8.self))
        let frame = Frame(scene: s, time: 0, pixelSize: [97, 61])
        var image = Image(width: 97, height: 61, fill: SIMD4(7, 200, 13, 99))
        try ReferenceRenderer().render(frame, into: &image)
        XCTAssertEqual(image, try ReferenceRenderer().render(frame))
        var wrongSize = Image(width: 3, height: 3)
        try ReferenceRenderer().render(frame, into: &wrongSize)
        XCTAssertEqual(wrongSize, image)
    }

    func testPixelCentresAreAtHalfIntegers() throws {
        // A hard edge at x = 5 px in a 10 px frame: columns 0…4 black, 5…9 white (centre 4.5 < 5 ≤ 5.5).
        let s = try scene("""
        {"size": [10, 2], "dither": false, "layers": [{"type": "linearGradient", "start": [0, 0], "end": [1, 0],
          "stops": [{"color": "black", "location": 0.5}, {"color": "white", "location": 0.5}]}]}
        """)
        let image = try ReferenceRenderer().render(Frame(scene: s, time: 0))
        XCTAssertEqual((0..<10).map { image[$0, 1].x }, [0, 0, 0, 0, 0, 255, 255, 255, 255, 255])
    }

    func testBackgroundAndSourceOver() throws {
        let s = try scene("""
        {"size": [4, 4], "dither": false, "background": [0, 0, 1, 1],
         "layers": [{"type": "linearGradient", "stops": [[1, 0, 0, 0.5]]}]}
        """)
        let image = try ReferenceRenderer().render(Frame(scene: s, time: 0))
        XCTAssertEqual(image[2, 2], SIMD4(128, 0, 128, 255))  // 0.5 red over blue
    }

    func testTranslucentOutputIsStraightAlpha() throws {
        let s = try scene("""
        {"size": [4, 4], "dither": false, "background": "clear",
         "layers": [{"type": "linearGradient", "stops": [[1, 0.5, 0, 0.5]]}]}
        """)
        XCTAssertEqual(try ReferenceRenderer().render(Frame(scene: s, time: 0))[0, 0], SIMD4(255, 128, 0, 128))
    }

    func testDitherChangesLowBitsOnly() throws {
        let json = { (dither: Bool) in """
        {"size": [64, 64], "dither": \(dither), "layers": [{"type": "linearGradient", "start": [0, 0], "end": [1, 0],
          "stops": [[0.2, 0.2, 0.2], [0.25, 0.25, 0.25]]}]}
        """ }
        let on = try ReferenceRenderer().render(Frame(scene: try scene(json(true)), time: 0))
        let off = try ReferenceRenderer().render(Frame(scene: try scene(json(false)), time: 0))
        XCTAssertNotEqual(on, off)
        for (a, b) in zip(on.pixels, off.pixels) { XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1) }
        XCTAssertEqual(on, try ReferenceRenderer().render(Frame(scene: try scene(json(true)), time: 0)))
    }

    // MARK: against cairo

    func maxDifference(_ a: Image, _ b: Image) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    func testLinearAndRadialMatchCairoWithinOneStep() throws {
        let stops = [GradientStop(color: RGBA(0.1, 0.3, 0.8), location: 0), GradientStop(color: RGBA(1, 0.5, 0.3), location: 0.6),
                     GradientStop(color: RGBA(0.4, 0.6, 1), location: 1)]
        let gradients: [Gradient] = [
            Gradient(shape: .linear(start: [0, 0], end: [1, 1]), stops: stops),
            Gradient(shape: .linear(start: [0.5, 0], end: [0.5, 1]), stops: stops),
            Gradient(shape: .linear(start: [0.9, 0.2], end: [0.1, 0.7]), stops: stops),
            Gradient(shape: .radial(center: [0.5, 0.5], startRadius: 0, endRadius: 120), stops: stops),
            Gradient(shape: .radial(center: [0.3, 0.6], startRadius: 20, endRadius: 90), stops: stops),
        ]
        for g in gradients {
            var s = Scene()
            s.size = [320, 200]
            s.dither = false
            s.layers = [Layer(content: g)]
            let ours = try ReferenceRenderer().render(Frame(scene: s, time: 0))
            let cairo = CairoBaseline.render(g, width: 320, height: 200)
            let difference = maxDifference(ours, cairo)
            print("cairo vs reference, \(g.shape): largest channel difference \(difference)")
            XCTAssertLessThanOrEqual(difference, 1, "\(g.shape)")
        }
    }
}

enum Fixtures {
    /// The package's Scenes/ folder, found from this source file.
    static let scenes = Repository.scenes
}

final class ReferenceRefusesUserShadersTests: XCTestCase {
    func testUserShaderLayerIsAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.path
        let path = dir + "/welkin-refuse-\(UUID().uuidString).frag"
        try "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = try SceneLoader.decode("{\"layers\": [{\"type\": \"linearGradient\", \"stops\": [\"red\"]}, {\"type\": \"shader\", \"fragment\": \"\(path)\"}]}")
        XCTAssertThrowsError(try ReferenceRenderer().render(Frame(scene: scene, time: 0))) { error in
            XCTAssertTrue("\(error)".hasPrefix("layers[1] is a user shader (\(path)); the CPU reference cannot run arbitrary GLSL."), "\(error)")
        }
    }
}
