// Layer transforms on the GPU: parity with the CPU reference (ParityTests' tolerance) at fractional
// offsets, scales and angles, on every kind that may sit in a group, on masks and under shadows; the
// scissored group passes draw what full-frame passes draw; and the picture moves as the maths says.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class TransformParityTests: XCTestCase {
    func decode(_ json: String, _ name: String) throws -> Scene { try SceneLoader.decode(json, file: name + ".json") }

    /// A scene with one transform on a text layer, a gradient, a mesh and a masked group (the mask
    /// transformed too), with shadows.
    func scene(offset: SIMD2<Double>, scale: SIMD2<Double>, rotation: Double) throws -> Scene {
        let t = "{\"offset\": [\(offset.x), \(offset.y)], \"scale\": [\(scale.x), \(scale.y)], \"rotation\": \(rotation)}"
        return try decode("""
            {"size": [240, 136], "background": "#E8ECF0",
             "layers": [
              {"type": "linearGradient", "stops": ["#5856D6", "#FF9500"], "opacity": 0.9, "transform": \(t)},
              {"type": "meshGradient", "width": 2, "height": 2, "points": [[0, 0], [1, 0], [0, 1], [1, 1]],
               "colors": ["red", "#00000000", "blue", "green"], "transform": {"scale": 0.4, "anchor": "topLeading", "offset": [\(offset.y), \(offset.x)]}},
              {"type": "text", "string": "Sky 天", "size": 30, "weight": "bold", "color": "#FFFFFFE0", "transform": \(t),
               "shadow": {"color": "#000000A0", "radius": 5, "offset": [3, 4]}},
              {"type": "group", "opacity": 0.85, "transform": {"rotation": \(-rotation / 2), "offset": [\(offset.x), 0]},
               "layers": [{"type": "radialGradient", "stops": ["#FFCC00", "#FF2D55"]}],
               "mask": {"type": "text", "string": "MASK", "size": 28, "position": "bottom", "transform": \(t)},
               "shadow": {"color": "#003366", "radius": 4}}
             ]}
            """, "transform")
    }

    func testFractionalOffsetsScalesAndAngles() throws {
        let cases: [(SIMD2<Double>, SIMD2<Double>, Double)] = [
            ([0.25, 0.5], [1, 1], 0),         // sub-pixel moves alone
            ([3.7, -2.3], [1.1, 1.1], -10),   // seed 001's mask at its far end
            ([-12.4, 6.1], [0.63, 1.37], 33.3),
            ([0.5, 0.5], [-1, 1], 181),       // mirrored and upside down
        ]
        for (offset, scale, rotation) in cases {
            let s = try scene(offset: offset, scale: scale, rotation: rotation)
            for size in [nil, SIMD2(173, 97)] as [SIMD2<Int>?] {
                try assertParity(Frame(scene: s, time: 0, pixelSize: size), label: "transform \(offset) \(scale) \(rotation)°")
            }
        }
    }

    /// The group passes scissored to the transformed boxes draw exactly what full-frame passes draw.
    func testScissoredTransformedGroupsDrawWhatFullFramePassesDraw() throws {
        let mesh = try SceneLoader.load(path: Repository.root.appendingPathComponent("Scenes/mesh-text.json").path)
        for (s, label) in [(try scene(offset: [7.5, -3.25], scale: [1.3, 0.8], rotation: 47), "assorted"), (mesh, "mesh-text")] {
            for time in [0.0, 0.2, 0.5] {
                try assertScissorsChangeNothing(Frame(scene: s, time: time, pixelSize: SIMD2(240, 136)), label: label)
            }
        }
    }

    /// Seed 001: the mask grows and turns (undamped snappy, clamped), GPU and CPU agree as it does.
    func testMeshTextMaskScalesAndTurns() throws {
        let scene = try SceneLoader.load(path: Repository.root.appendingPathComponent("Scenes/mesh-text.json").path)
        var pictures: [Image] = []
        for time in [0.0, 0.165, 0.33] {
            let frame = Frame(scene: scene, time: time, pixelSize: SIMD2(320, 180))
            pictures.append(try assertParity(frame, label: "mesh-text mask").cpu)
        }
        // The mask is larger and turned at 0.33 s: the pictures differ in many pixels.
        XCTAssertGreaterThan(ImageDifference(pictures[0], pictures[2]).pixelsDiffering, 5_000)
    }

    /// A white frame-filling layer moved ½ pixel right and down: the first column and row are half
    /// covered, the corner a quarter, the rest whole; the same on both renderers.
    func testHalfPixelOffsetCoversHalfAPixel() throws {
        let s = try decode("""
            {"size": [16, 8], "background": "black", "dither": false,
             "layers": [{"type": "linearGradient", "stops": ["white", "white"], "transform": {"offset": [0.5, 0.5]}}]}
            """, "half")
        let (gpu, cpu) = try assertParity(Frame(scene: s, time: 0), label: "half pixel")
        for image in [gpu, cpu] {
            XCTAssertEqual(Int(image[0, 0].x), 64, accuracy: 1)     // ¼ white over black (Welkin composites sRGB values)
            XCTAssertEqual(Int(image[5, 0].x), 128, accuracy: 1)
            XCTAssertEqual(Int(image[0, 5].x), 128, accuracy: 1)
            XCTAssertEqual(Int(image[5, 5].x), 255)
        }
    }

    /// Animated gradient values and mesh vertices and colours: parity at several times.
    func testAnimatedGradientsAndMeshes() throws {
        let s = try decode("""
            {"size": [200, 112], "colorSpace": "oklab", "layers": [
              {"type": "linearGradient", "start": {"from": [0, 0], "to": [1, 0.3], "animation": "bouncy", "repeat": "forever"},
               "stops": [{"color": {"from": "#5856D6", "to": "#FF9500", "animation": {"easeInOut": {"duration": 1}}}, "location": 0},
                         {"color": "black", "location": {"keyframes": [[0, 0.2], [2, 1]]}}]},
              {"type": "meshGradient", "width": 2, "height": 2, "opacity": 0.8,
               "points": [[0, 0], {"from": [1, 0], "to": [0.6, 0.4], "animation": "snappy", "repeat": "forever", "autoreverses": true}, [0, 1], [1, 1]],
               "colors": [{"keyframes": [[0, "red"], [1, "#00000000"]]}, "yellow", "green", {"from": "black", "to": "white"}]}
            ]}
            """, "animated")
        for time in [0, 0.37, 1.2] { try assertParity(Frame(scene: s, time: time), label: "animated values") }
    }
}
