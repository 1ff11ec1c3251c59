// Consecutive radial, angular and elliptical gradient layers drawn as one GradientStack pass
// (Shaders/gradient-stack.frag): which layers fuse, and that the picture matches the CPU's and the
// layer-by-layer GPU picture.

import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinGL
import WelkinReference

final class GradientStackTests: XCTestCase {
    /// gradients.json's five layers (linear, radial, angular with 17 stops, elliptical, linear), then
    /// the three middle kinds again on their own at the end, so one stack draws into the float
    /// target and one resolves the frame.
    static let json = """
    {"size": [320, 180], "background": "#101018", "layers": [
      {"type": "linearGradient", "start": [0, 0], "end": [1, 1], "colorSpace": "oklab",
       "stops": [{"color": [0.3, 0.2, 0.6], "location": 0}, {"color": [1, 0.4, 0.2], "location": 0.55}, {"color": [1, 0.8, 0.5], "location": 1}]},
      {"type": "radialGradient", "center": [0.3, 0.62], "startRadius": 5, "endRadius": 55,
       "stops": [{"color": [1, 0.95, 0.8, 0.95], "location": 0}, {"color": [1, 0.9, 0.6, 0], "location": 1}]},
      {"type": "angularGradient", "center": [0.3, 0.62], "startAngle": -90, "endAngle": 270,
       "stops": ["#FFF2D000", "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000",
                 "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000", "#FFF2D040", "#FFF2D000"]},
      {"type": "ellipticalGradient", "center": "center", "startRadiusFraction": 0.35, "endRadiusFraction": 0.75, "colorSpace": "linearSRGB",
       "stops": [{"color": "#00000000", "location": 0}, {"color": "#000000B0", "location": 1}]},
      {"type": "linearGradient", "start": [0.5, 0.7], "end": [0.5, 1], "colorSpace": "linearSRGB",
       "stops": [{"color": "clear", "location": 0}, {"color": "clear", "location": 0.5}, {"color": [0.05, 0.05, 0.15], "location": 0.5}, {"color": "indigo", "location": 1}]},
      {"type": "radialGradient", "center": [0.8, 0.3], "startRadius": 10, "endRadius": 10, "opacity": 0.6,
       "stops": ["#FF3B30", "#FF3B3000"]},
      {"type": "angularGradient", "center": [0.7, 0.5], "startAngle": 0, "endAngle": 90, "colorSpace": "oklab",
       "stops": ["#34C75980", "#5856D6"]},
      {"type": "ellipticalGradient", "center": [0.4, 0.4], "startRadiusFraction": 0, "endRadiusFraction": 0.5,
       "stops": ["#FFFFFF30", "#FFFFFF00"]}
    ]}
    """

    func testRunsOfRadialAngularAndEllipticalLayersFuse() throws {
        let renderer = try TestGL.renderer()
        let frame = Frame(scene: try SceneLoader.decode(Self.json, file: "stack.json"), time: 0, pixelSize: nil)
        let drawn = renderer.passes.layers.fusing(frame.layers)
        // linear, stack(radial, angular, elliptical), linear, stack(radial, angular, elliptical)
        XCTAssertEqual(drawn.map(\.position), [0, 1, 4, 5])
        XCTAssertEqual(drawn.map { ($0.draw as? GradientStack)?.layers.count ?? 0 }, [0, 3, 0, 3])
        renderer.fusesGradients = false
        defer { renderer.fusesGradients = true }
        XCTAssertEqual(renderer.passes.layers.fusing(frame.layers).map(\.position), Array(0..<8))
    }

    /// Evenly spaced stops (colours listed without locations) are found directly, ⌊t (n − 1)⌋ and a
    /// comparison either side (WELKIN_STOPS_EVEN, the stack's `even`): the very stop the search
    /// finds. The picture, stacked and layer by layer, is bit for bit the one a copy of Shaders/
    /// without the shortcut draws; uneven stops keep the search.
    func testEvenlySpacedStopsAreFoundDirectlyAndExactly() throws {
        func stops(_ json: String) throws -> ResolvedStops {
            let scene = try SceneLoader.decode(#"{"size": [8, 8], "layers": [{"type": "radialGradient", "center": "center", "startRadius": 0, "endRadius": 4, "stops": \#(json)}]}"#, file: "s.json")
            return try XCTUnwrap(Frame(scene: scene, time: 0).layers.first as? GradientDraw, "a gradient draw").stops
        }
        XCTAssertTrue(try stops(##"["#FF0000", "#00FF00", "#0000FF", "#FFFFFF", "#000000", "#FF00FF", "#00FFFF"]"##).evenlySpaced)
        XCTAssertFalse(try stops(##"["#FF0000", "#0000FF"]"##).evenlySpaced, "two stops need no search")
        XCTAssertFalse(try stops(#"[{"color": "red", "location": 0}, {"color": "blue", "location": 0.3}, {"color": "green", "location": 1}]"#).evenlySpaced)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-stops-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Shaders"), to: directory)
        for (file, from, to) in [("gradient-stack.frag", "        if (even != 0) {", "        if (false) {"),
                                 ("gradient.glsl", "#if defined(WELKIN_STOP_COUNT) && defined(WELKIN_STOPS_EVEN)", "#if 0")] {
            let url = directory.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(text.contains(from), "\(file) has the shortcut")
            try text.replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
        }
        let renderer = try TestGL.renderer()
        let searching = try GLRenderer(context: renderer.context, shaders: try ShaderLibrary.locate(override: directory.path))
        defer { renderer.fusesGradients = true }
        let scene = try SceneLoader.decode(Self.json, file: "stack.json")
        for fuses in [true, false] {
            renderer.fusesGradients = fuses
            searching.fusesGradients = fuses
            for size in [SIMD2(320, 180), SIMD2(97, 61)] {
                let frame = Frame(scene: scene, time: 0, pixelSize: size)
                XCTAssertEqual(try renderer.render(frame), try searching.render(frame), "fused \(fuses), \(size)")
            }
        }
    }

    func testStacksMatchTheCPUAndLayerByLayer() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.fusesGradients = true }
        for dither in [true, false] {
            let json = Self.json.replacingOccurrences(of: "{\"size\"", with: "{\"dither\": \(dither), \"size\"")
            let scene = try SceneLoader.decode(json, file: "stack.json")
            for size in [nil, SIMD2(97, 61)] as [SIMD2<Int>?] {
                let frame = Frame(scene: scene, time: 0, pixelSize: size)
                renderer.fusesGradients = true
                let fused = try renderer.render(frame)
                renderer.fusesGradients = false
                let layered = try renderer.render(frame)
                let cpu = try ReferenceRenderer().render(frame)
                let label = "\(frame.pixelSize.x)×\(frame.pixelSize.y) dither \(dither)"
                XCTAssertTrue(ImageDifference(fused, cpu).passes, "fused vs CPU \(label): \(ImageDifference(fused, cpu))")
                XCTAssertTrue(ImageDifference(fused, layered).passes, "fused vs layer by layer \(label): \(ImageDifference(fused, layered))")
            }
        }
    }
}
