// Layer transforms: the maths of LayerAffine, how a transformed layer resolves, and decoding.

import XCTest
@testable import WelkinCore

final class TransformTests: XCTestCase {
    func forward(_ a: LayerAffine, _ q: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(a.forward.x * q.x + a.forward.y * q.y, a.forward.z * q.x + a.forward.w * q.y) + a.forwardOffset
    }

    /// The anchor stays put under scale and rotation; +90° turns a point right of it to below it
    /// (clockwise on screen, y down); the offset moves everything; `source` undoes `forward`.
    func testAffineMaths() throws {
        let anchor = SIMD2(100.0, 50.0)
        let turn = try XCTUnwrap(LayerAffine(offset: .zero, scale: SIMD2(2, 2), rotation: 90, anchor: anchor, pixelsPerPoint: SIMD2(1, 1)))
        XCTAssertEqual(forward(turn, anchor).x, 100, accuracy: 1e-9)
        XCTAssertEqual(forward(turn, anchor).y, 50, accuracy: 1e-9)
        let right = forward(turn, anchor + SIMD2(10, 0))
        XCTAssertEqual(right.x, 100, accuracy: 1e-9)
        XCTAssertEqual(right.y, 70, accuracy: 1e-9)   // 10 right, doubled, turned clockwise: 20 down
        // Offsets are points; 2 pixels per point doubles them.
        let moved = try XCTUnwrap(LayerAffine(offset: SIMD2(3, -1), scale: SIMD2(1, 1), rotation: 0, anchor: .zero, pixelsPerPoint: SIMD2(2, 2)))
        XCTAssertEqual(forward(moved, SIMD2(5, 5)), SIMD2(11, 3))
        // source(p) is forward⁻¹ of the pixel centre, less ½.
        let odd = try XCTUnwrap(LayerAffine(offset: SIMD2(1.25, 2.5), scale: SIMD2(0.7, 1.3), rotation: -33, anchor: SIMD2(40, 30), pixelsPerPoint: SIMD2(1.5, 1.5)))
        let u = odd.source(SIMD2(17, 9))
        let back = forward(odd, SIMD2(Double(u.x) + 0.5, Double(u.y) + 0.5))
        XCTAssertEqual(back.x, 17.5, accuracy: 1e-3)
        XCTAssertEqual(back.y, 9.5, accuracy: 1e-3)
        // backward undoes forward (the viewer's mesh handles of a transformed layer).
        let q = odd.backward(odd.forward(SIMD2(12.25, -3.5)))
        XCTAssertEqual(q.x, 12.25, accuracy: 1e-9)
        XCTAssertEqual(q.y, -3.5, accuracy: 1e-9)
        // A scale of 0 collapses the layer; the identity moves nothing.
        XCTAssertNil(LayerAffine(offset: .zero, scale: SIMD2(0, 1), rotation: 10, anchor: .zero, pixelsPerPoint: SIMD2(1, 1)))
        XCTAssertTrue(try XCTUnwrap(LayerAffine(offset: .zero, scale: SIMD2(1, 1), rotation: 0, anchor: SIMD2(3, 4), pixelsPerPoint: SIMD2(2, 2))).isIdentity)
    }

    /// Bilinear reads: a whole-texel position reads that texel; between texels, the blend; outside, transparent.
    func testBilinear() {
        let size = SIMD2(2, 1)
        let texels: [SIMD4<Float>] = [SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)]
        func read(_ x: Float, _ y: Float) -> SIMD4<Float> { LayerAffine.bilinear(SIMD2(x, y), size: size) { texels[$1 * 2 + $0] } }
        XCTAssertEqual(read(0, 0), texels[0])
        XCTAssertEqual(read(0.25, 0), SIMD4(0.75, 0, 0.25, 1))
        XCTAssertEqual(read(1, 0.5), SIMD4(0, 0, 0.5, 0.5))   // half the row below is outside
        XCTAssertEqual(read(-1, 0), .zero)
        XCTAssertEqual(read(.nan, 0), .zero)
        XCTAssertEqual(read(1e30, -1e30), .zero)
    }

    func decode(_ layer: String) throws -> Scene {
        try SceneLoader.decode("{\"size\": [200, 100], \"layers\": [\(layer)]}", file: "t.json")
    }

    /// A transformed text layer resolves to a group around it (carrying the shadow and opacity); a
    /// group takes the transform itself; the identity leaves no transform; a scale of 0 hides it.
    func testResolution() throws {
        let text = try decode("""
            {"type": "text", "string": "Hi", "size": 20, "opacity": 0.5, "shadow": {"radius": 4},
             "transform": {"rotation": 90, "offset": [0.5, 0]}}
            """)
        let draw = try XCTUnwrap(Frame(scene: text, time: 0).layers.first as? GroupDraw)
        XCTAssertEqual(draw.opacity, 0.5)
        XCTAssertNotNil(draw.shadow)
        let inner = try XCTUnwrap(draw.layers.first as? TextDraw)
        XCTAssertNil(inner.error)
        XCTAssertEqual(inner.color.w, 1)   // drawn at full opacity inside the group
        // Anchored at the centre of the text's box: that point stays where it was (plus the offset).
        let box = try XCTUnwrap(inner.frameBox)
        let centre = SIMD2((box.x + box.z) / 2, (box.y + box.w) / 2)
        let t = try XCTUnwrap(draw.transform)
        XCTAssertEqual(forward(t, centre).x, centre.x + 0.5, accuracy: 1e-9)
        XCTAssertEqual(forward(t, centre).y, centre.y, accuracy: 1e-9)

        let group = try decode("""
            {"type": "group", "layers": [{"type": "linearGradient", "stops": ["red"]}], "mask": {"type": "text", "string": "M"},
             "transform": {"scale": 2}}
            """)
        let g = try XCTUnwrap(Frame(scene: group, time: 0).layers.first as? GroupDraw)
        XCTAssertNotNil(g.mask)
        XCTAssertNotNil(g.transform)

        let identity = try decode("{\"type\": \"linearGradient\", \"stops\": [\"red\"], \"transform\": {\"scale\": 1}}")
        // An identity transform at this instant needs no group: the layer draws as it would without one.
        XCTAssertTrue(Frame(scene: identity, time: 0).layers.first is GradientDraw)
        let hidden = try decode("{\"type\": \"linearGradient\", \"stops\": [\"red\"], \"transform\": {\"scale\": [0, 1]}}")
        XCTAssertEqual(try XCTUnwrap(Frame(scene: hidden, time: 0).layers.first as? GroupDraw).opacity, 0)
    }

    /// Animated parts take every animation form; numbers are points for scale.
    func testAnimatedTransform() throws {
        let scene = try decode("""
            {"type": "text", "string": "Hi", "transform": {
              "offset": {"keyframes": [[0, [0, 0]], [1, [10, -4]]]},
              "scale": {"from": 1, "to": [1.5, 2], "animation": "linear"},
              "rotation": {"from": "0deg", "to": "-0.25turn", "animation": {"linear": {"duration": 2}}}}}
            """)
        let t = try XCTUnwrap(scene.layers[0].transform).at(0.5)
        XCTAssertEqual(t.offset, SIMD2(5, -2))
        XCTAssertEqual(t.rotation, -22.5, accuracy: 1e-9)
        // linear over SwiftUI's default 0.35 s: done by 0.5 s.
        XCTAssertEqual(t.scale, SIMD2(1.5, 2))
    }

    func testDecodingErrors() {
        func error(_ layer: String) -> String {
            do { _ = try decode(layer); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(error("{\"type\": \"text\", \"string\": \"a\", \"transform\": {\"scale\": \"big\"}}")
            .contains("layers[0].transform.scale"), error("{\"type\": \"text\", \"string\": \"a\", \"transform\": {\"scale\": \"big\"}}"))
        XCTAssertTrue(error("{\"type\": \"text\", \"string\": \"a\", \"transform\": {\"offset\": [1, 2, 3]}}").contains("layers[0].transform.offset"))
        XCTAssertTrue(error("{\"type\": \"text\", \"string\": \"a\", \"transform\": {\"spin\": 3}}").contains("unknown key 'spin'"))
        // Sky-space layers turn with the camera, not with a 2-D transform.
        XCTAssertTrue(error("{\"type\": \"sky\", \"transform\": {\"scale\": 2}}").contains("transform"))
    }
}

/// Gradients animate their points, numbers and stops (every animation form).
final class GradientAnimationTests: XCTestCase {
    func testGradientAtTime() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 100], "layers": [
              {"type": "linearGradient", "start": {"from": [0, 0], "to": [1, 0], "animation": {"linear": {"duration": 2}}}, "end": "bottom",
               "stops": [{"color": {"from": "black", "to": "white", "animation": {"linear": {"duration": 1}}}, "location": 0},
                         {"color": "red", "location": {"keyframes": [[0, 0.9], [1, 0.1]]}},
                         {"color": "blue", "location": 0.5}]},
              {"type": "angularGradient", "startAngle": {"from": 0, "to": "0.5turn", "animation": "linear"}, "stops": ["red", "blue"]}
            ]}
            """, file: "g.json")
        let g = try XCTUnwrap(scene.layers[0].content as? Gradient)
        XCTAssertNotNil(g.animation)
        let half = g.at(0.5)
        XCTAssertEqual(half.shape, .linear(start: SIMD2(0.25, 0), end: SIMD2(0.5, 1)))
        XCTAssertEqual(half.stops.map(\.location), [0, 0.5, 0.5])   // sorted: red (0.5) and blue (0.5) keep file order
        XCTAssertEqual(half.stops[0].color.r, 0.5, accuracy: 1e-12)
        // At 1 s red has passed blue: sorted again.
        XCTAssertEqual(g.at(1).stops.map(\.color), [RGBA(1, 1, 1, 1), RGBA.named("red")!, RGBA.named("blue")!])
        XCTAssertEqual(g.at(1).stops.map(\.location), [0, 0.1, 0.5])
        let angular = try XCTUnwrap(scene.layers[1].content as? Gradient)
        XCTAssertEqual(angular.at(10).shape, .angular(center: SIMD2(0.5, 0.5), startAngle: 180, endAngle: 360))
        // A gradient with nothing animated keeps no animation.
        let still = try SceneLoader.decode("{\"layers\": [{\"type\": \"radialGradient\", \"center\": \"top\", \"stops\": [\"red\"]}]}", file: "s.json")
        XCTAssertNil(try XCTUnwrap(still.layers[0].content as? Gradient).animation)
    }
}

/// Animated colours move in the scene's colour space (a gradient's own when it has one).
final class ColorAnimationSpaceTests: XCTestCase {
    func testMixInEachSpace() {
        let black = RGBA(0, 0, 0, 1), white = RGBA(1, 1, 1, 1)
        XCTAssertEqual(RGBA.mix(black, white, 0.5, in: .srgb).r, 0.5, accuracy: 1e-12)
        XCTAssertEqual(RGBA.mix(black, white, 0.5, in: .linearSRGB).r, 0.735356, accuracy: 1e-5)   // linear 0.5 encoded
        XCTAssertEqual(RGBA.mix(black, white, 0.5, in: .oklab).r, 0.388572, accuracy: 1e-4)        // L = 0.5: Y = 0.125
        XCTAssertEqual(RGBA.mix(black, RGBA(1, 1, 1, 0), 0.25, in: .oklab).a, 0.75, accuracy: 1e-12)
    }

    func testScenesSpaceReachesShadowsTextAndValues() throws {
        let json = """
            {"size": [100, 50], "colorSpace": "oklab", "layers": [
              {"type": "text", "string": "A", "color": {"from": "black", "to": "white", "animation": {"linear": {"duration": 1}}},
               "shadow": {"color": {"from": "black", "to": "white", "animation": {"linear": {"duration": 1}}}}},
              {"type": "linearGradient", "colorSpace": "linearSRGB",
               "stops": [{"color": {"from": "black", "to": "white", "animation": {"linear": {"duration": 1}}}, "location": 0}]}
            ]}
            """
        let scene = try SceneLoader.decode(json, file: "s.json")
        let frame = Frame(scene: scene, time: 0.5)
        let group = try XCTUnwrap(frame.layers[0] as? GroupDraw)
        XCTAssertEqual(try XCTUnwrap(group.shadow).color.x, 0.388572, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(group.layers[0] as? TextDraw).color.x, 0.388572, accuracy: 1e-4)
        let gradient = try XCTUnwrap(scene.layers[1].content as? Gradient).at(0.5, sceneSpace: scene.colorSpace)
        XCTAssertEqual(gradient.stops[0].color.r, 0.735356, accuracy: 1e-5)
        let document = try SceneDocument(text: json)
        for (path, expected) in [("layers[0].color", 0.388572), ("layers[1].stops[0].color", 0.735356)] {
            let track = try PropertyTrack(document: document, path: try JSONPath(parsing: path), file: "s.json")
            guard case .color(let c) = track.value(at: 0.5) else { return XCTFail(path) }
            XCTAssertEqual(c.r, expected, accuracy: 1e-4, path)
        }
    }
}

/// A mesh's vertices and colours each take keyframes or an animation.
final class MeshAnimationTests: XCTestCase {
    func testVerticesAndColoursAnimate() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 100], "layers": [{"type": "meshGradient", "width": 2, "height": 2,
              "points": [[0, 0], {"from": [1, 0], "to": [0.5, 0.5], "animation": {"linear": {"duration": 2}}}, [0, 1], "bottomTrailing"],
              "colors": [{"keyframes": [[0, "black"], [1, "white"]]}, "red", "green", "blue"]}]}
            """, file: "m.json")
        let mesh = try XCTUnwrap(scene.layers[0].content as? MeshGradient)
        XCTAssertEqual(mesh.vertices, .points([SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1), SIMD2(1, 1)]))
        let half = mesh.at(1)
        XCTAssertEqual(half.vertices, .points([SIMD2(0, 0), SIMD2(0.75, 0.25), SIMD2(0, 1), SIMD2(1, 1)]))
        XCTAssertEqual(half.colors[0], RGBA(1, 1, 1, 1))
        XCTAssertEqual(half.colors[1], mesh.colors[1])
        // A vertex out of the coordinate limit is an error at its path.
        XCTAssertThrowsError(try SceneLoader.decode("""
            {"layers": [{"type": "meshGradient", "width": 2, "height": 2,
              "points": [[0, 0], {"from": [1, 0], "to": [1e9, 0]}, [0, 1], [1, 1]], "colors": ["red", "red", "red", "red"]}]}
            """, file: "m.json")) { XCTAssertTrue("\($0)".contains("layers[0].points[1].to"), "\($0)") }
    }
}
