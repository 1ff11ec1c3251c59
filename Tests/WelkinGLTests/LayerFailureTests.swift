// A layer that cannot be drawn leaves the others drawn: the renderer draws every layer it can,
// a hatched placeholder where the broken one would be, and still reports the error.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImage
import WelkinGL
import WelkinReference

final class LayerFailureTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "welkin-layer-failure-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
            #version 330 core
            out vec4 fragColor;
            void main() {
                fragColor = vec4(1.0) * oops;
            }
            """.write(toFile: directory + "/broken.frag", atomically: true, encoding: .utf8)
        try """
            #version 330 core
            uniform float u_speed;
            out vec4 fragColor;
            void main() { fragColor = vec4(u_speed, 0.0, 0.0, 1.0); }
            """.write(toFile: directory + "/speed.frag", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func scene(_ layers: [String]) throws -> Scene {
        try SceneLoader.decode("""
            {"size": [64, 32], "background": "#203040", "dither": false, "layers": [\(layers.joined(separator: ", "))]}
            """, file: directory + "/scene.json", directory: directory)
    }

    static let gradient = ##"{"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]}"##
    static let glow = ##"{"type": "radialGradient", "stops": ["#FFFFFF80", "#FFFFFF00"]}"##
    static let broken = ##"{"type": "shader", "fragment": "broken.frag"}"##
    static let wrongUniform = ##"{"type": "shader", "fragment": "speed.frag", "uniforms": {"u_speed": [1, 2]}}"##

    /// Each broken layer, first, in the middle and last (the last layer resolves the frame itself
    /// when it can, so it takes a different path), against the same scene without it. Under the
    /// opaque gradient the placeholder is hidden, as the layer would be.
    static let cases: [(layers: [String], broken: Int, visible: Bool, message: String)] = [
        ([gradient, broken], 1, true, "/broken.frag:4: "),
        ([gradient, broken, glow], 1, true, "/broken.frag:4: "),
        ([broken, gradient, glow], 0, false, "/broken.frag:4: "),
        ([broken], 0, true, "/broken.frag:4: "),
        ([gradient, wrongUniform], 1, true, "layers[1].uniforms.u_speed: speed.frag declares float but the scene gives 2 numbers"),
        ([gradient, wrongUniform, glow], 1, true, "layers[1].uniforms.u_speed: speed.frag declares float but the scene gives 2 numbers"),
    ]

    func testOtherLayersStillDrawWhenOneFails() throws {
        let renderer = try TestGL.renderer()
        for c in Self.cases {
            let working = c.layers.enumerated().filter { $0.offset != c.broken }.map(\.element)
            let expected = try renderer.render(Frame(scene: try scene(working), time: 0))
            // Something else in the output first, so a frame that draws nothing cannot pass.
            _ = try renderer.render(Frame(scene: try scene([##"{"type": "linearGradient", "stops": ["#000000", "#000000"]}"##]), time: 0))

            XCTAssertThrowsError(try renderer.draw(Frame(scene: try scene(c.layers), time: 0)), "\(c.layers)") { error in
                XCTAssertTrue("\(error)".contains(c.message), "\(error)")
            }
            let image = renderer.readImage()
            XCTAssertEqual(image.width, expected.width)
            var same = 0, total = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    total += 1
                    // Within one step: the frame with the broken layer composites the working ones
                    // through the half-float accumulation, the frame without it may draw them straight
                    // into the picture (FramePlan.Builder.compositingFormat).
                    let a = image[x, y], b = expected[x, y]
                    if (0..<4).allSatisfy({ abs(Int(a[$0]) - Int(b[$0])) <= 1 }) { same += 1 }
                }
            }
            // The placeholder's hatching covers a quarter of the pixels; the rest are the working layers.
            XCTAssertGreaterThanOrEqual(Double(same) / Double(total), 0.7, "\(c.layers): the layers that work are drawn")
            if c.visible {
                XCTAssertLessThan(same, total, "\(c.layers): the broken layer is marked by a placeholder")
            } else {
                XCTAssertEqual(same, total, "\(c.layers): the placeholder is under an opaque layer")
            }
        }
    }

    func testThePlaceholderIsExactlyTheHatchingAndTheFailuresAreListed() throws {
        let renderer = try TestGL.renderer()
        for c in Self.cases {
            let working = c.layers.enumerated().filter { $0.offset != c.broken }.map(\.element)
            let expected = try renderer.render(Frame(scene: try scene(working), time: 0))
            XCTAssertThrowsError(try renderer.draw(Frame(scene: try scene(c.layers), time: 0)))
            XCTAssertEqual(renderer.layerFailures.map(\.position), [c.broken], "\(c.layers)")
            XCTAssertTrue(renderer.layerFailures.first?.description.contains(c.message) ?? false, "\(renderer.layerFailures)")
            let image = renderer.readImage()
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let onStripe = c.visible && LayerPlaceholder.covers(x: x, y: y)
                    let a = image[x, y], b = expected[x, y]
                    let difference = (0..<4).map { abs(Int(a[$0]) - Int(b[$0])) }.max()!
                    if onStripe {
                        XCTAssertGreaterThan(difference, 20, "\(c.layers) (\(x), \(y)) is on a stripe")
                    } else {
                        // One step at most: the half-float accumulation (see above).
                        XCTAssertLessThanOrEqual(difference, 1, "\(c.layers) (\(x), \(y)) shows the working layers")
                    }
                    if onStripe ? difference <= 20 : difference > 1 { return }   // one message, not thousands
                }
            }
        }
        // A frame with nothing broken lists nothing.
        try renderer.draw(Frame(scene: try scene([Self.gradient]), time: 0))
        XCTAssertTrue(renderer.layerFailures.isEmpty)
    }
}
