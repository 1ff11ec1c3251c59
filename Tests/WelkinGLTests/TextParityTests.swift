// Text, groups with masks, and shadows on the GPU: parity with the CPU reference (the tolerance of
// ParityTests: per-channel difference ≤ 2 on all but 0.05 % of pixels), and the example scenes at
// 0, 1.5 and 7 s. Set WELKIN_SAVE_RENDERS=DIR to keep every GPU and CPU picture as PNG.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class TextParityTests: XCTestCase {
    /// Renders `scene` both ways at each time and size and checks the pictures agree; returns the
    /// largest channel difference seen.
    @discardableResult
    func checkParity(_ scene: Scene, _ label: String, times: [Double] = [0], sizes: [SIMD2<Int>?] = [nil],
                     line: UInt = #line) throws -> Int {
        var largest = 0
        for time in times {
            for size in sizes {
                let frame = Frame(scene: scene, time: time, pixelSize: size)
                let (gpu, cpu) = try assertParity(frame, label: "text \(label) \(frame.pixelSize.x)×\(frame.pixelSize.y)", line: line)
                largest = max(largest, ImageDifference(gpu, cpu).maxDifference)
            }
        }
        return largest
    }

    func decode(_ json: String, _ name: String) throws -> Scene { try SceneLoader.decode(json, file: name + ".json") }

    /// Translucent and keyframed colours, opacity, lines clipped by the frame's edges, several
    /// scripts and fonts, at the scene size and an odd one, dithered and not.
    func testText() throws {
        for dither in [true, false] {
            let scene = try decode("""
                {"size": [320, 180], "background": "#20304080", "dither": \(dither),
                 "layers": [
                  {"type": "radialGradient", "stops": ["#FF950080", "#00000000"]},
                  {"type": "text", "string": "Welkin AV fi\\nsky 天空", "size": 30, "color": "#FFFFFFC0", "opacity": 0.8},
                  {"type": "text", "string": "edge", "size": 60, "position": [-0.05, 1.02], "alignment": "baselineLeading",
                   "weight": "bold", "color": {"keyframes": [[0, "#FF3B30"], [2, "#34C75980"]]}},
                  {"type": "text", "string": "سماء שלום 42", "size": 22, "position": [1.01, 0.02], "alignment": "topTrailing", "color": "#5AC8FA"},
                  {"type": "text", "string": "{time:mm:ss}", "size": 17.3, "position": [0.5, 0.9], "alignment": "bottom", "color": "black"}
                 ]}
                """, "text-\(dither)")
            try checkParity(scene, "text-dither-\(dither)", times: [0, 1.5], sizes: [nil, SIMD2(97, 61)])
        }
    }

    /// Groups: a mesh and a gradient masked by text; an inverted, translucent mask; a group as the
    /// mask of another; a gradient as a mask; group opacity.
    func testGroupsAndMasks() throws {
        let mesh = """
            {"type": "meshGradient", "width": 3, "height": 3,
             "points": [[0, 0], [0.5, 0], [1, 0], [0, 0.5], [0.6, 0.45], [1, 0.5], [0, 1], [0.5, 1], [1, 1]],
             "colors": ["#FF3B30", "#FFCC00", "#34C759", "#007AFF", "white", "#AF52DE", "black", "#00C7BE", "#FF2D55"]}
            """
        let scene = try decode("""
            {"size": [320, 180], "background": "#102030",
             "layers": [
              {"type": "group", "layers": [\(mesh), {"type": "linearGradient", "stops": ["#00000000", "#00000080"]}],
               "mask": {"type": "text", "string": "Mask 遮罩", "weight": "bold", "size": 56, "position": [0.5, 0.3]}},
              {"type": "group", "opacity": 0.6, "invert": true,
               "layers": [{"type": "linearGradient", "start": [0, 0.5], "end": [1, 0.5], "stops": ["#FFFFFF", "#5856D6"]}],
               "mask": {"type": "text", "string": "INVERT", "size": 40, "position": [0.5, 0.75], "color": "#FFFFFF80"}},
              {"type": "group", "layers": [{"type": "angularGradient", "stops": ["red", "yellow", "red"]}],
               "mask": {"type": "group", "layers": [{"type": "text", "string": "nested", "size": 36, "position": [0.2, 0.9]}],
                        "mask": {"type": "linearGradient", "start": [0, 0], "end": [0.4, 0], "stops": ["#FFFFFF", "#FFFFFF00"]}}}
             ]}
            """, "groups")
        try checkParity(scene, "groups", sizes: [nil, SIMD2(97, 61)])
    }

    /// Shadows: on text, on a gradient, on a group; offsets out of the frame, keyframed radius and
    /// opacity, non-square pixel scale (different horizontal and vertical kernels).
    func testShadows() throws {
        let scene = try decode("""
            {"size": [320, 180], "background": "#F0F0F0",
             "layers": [
              {"type": "text", "string": "Shadow", "weight": "heavy", "size": 64, "color": "#007AFF",
               "shadow": {"color": {"keyframes": [[0, "black"], [0.5, "green"], [1, "black"]], "repeats": true, "easing": "easeInOut"},
                          "radius": {"keyframes": [[0, 4], [7, 20]]}, "opacity": {"keyframes": [[0, 0.3], [1, 0.8], [2, 0.3]], "repeats": true}}},
              {"type": "radialGradient", "center": [0.05, 0.9], "endRadius": 40, "stops": ["#FF9500", "#FF950000"],
               "shadow": {"color": "#000000", "radius": 12, "offset": [-30, 25]}},
              {"type": "group", "opacity": 0.7, "layers": [{"type": "text", "string": "group", "size": 30, "position": [0.85, 0.1]}],
               "shadow": {"color": "#FF2D55", "radius": 3, "offset": [4, -6]}}
             ]}
            """, "shadows")
        // 117 rows: the blur's targets hold four rows a texel, the last packed row here one real row.
        try checkParity(scene, "shadows", times: [0, 1.5, 7], sizes: [nil, SIMD2(200, 60), SIMD2(203, 117)])
    }

    /// Groups of text and groups masked by text blur and composite only within their glyphs' reach:
    /// the picture is the one the full-frame passes draw, byte for byte — shadows reaching past the
    /// frame's edges and offset out of it, a shadowed group masked by text, an inverted mask (drawn
    /// whole), the example scenes.
    func testScissoredGroupsDrawWhatFullFramePassesDraw() throws {
        let edges = try decode("""
            {"size": [200, 120], "background": "#F0F0F0",
             "layers": [
              {"type": "text", "string": "edge", "size": 48, "position": [0.05, 0.1], "color": "#007AFF",
               "shadow": {"color": "#000000", "radius": 14, "offset": [-20, -12]}},
              {"type": "group", "layers": [{"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]}],
               "mask": {"type": "text", "string": "MASK", "weight": "bold", "size": 40, "position": [0.7, 0.85]},
               "shadow": {"color": "#00000099", "radius": 6, "offset": [5, 30]}},
              {"type": "group", "invert": true, "opacity": 0.5, "layers": [{"type": "radialGradient", "stops": ["white", "black"]}],
               "mask": {"type": "text", "string": "inv", "size": 30, "position": [0.5, 0.5]},
               "shadow": {"color": "#FF2D55", "radius": 3}}
             ]}
            """, "edges")
        var scenes: [(Scene, String)] = [(edges, "edges")]
        for name in ["mesh-text", "text-clock", "text-scripts"] {
            scenes.append((try SceneLoader.load(path: Repository.root.appendingPathComponent("Scenes/\(name).json").path), name))
        }
        for (scene, label) in scenes {
            for time in [0.0, 1.5, 7] {
                // Edges also at 203 × 118: the blur's last packed row half past the frame.
                for size in label == "edges" ? [nil, SIMD2(203, 118)] : [SIMD2(320, 180)] {
                    try assertScissorsChangeNothing(Frame(scene: scene, time: time, pixelSize: size), label: label)
                }
            }
        }
    }

    /// The boxes: a text's shadow reaches its blur and offset; an inverted mask keeps the content's
    /// box, which a gradient does not have.
    func testGroupRegions() throws {
        let scene = try decode("""
            {"size": [200, 100], "layers": [
              {"type": "text", "string": "x", "size": 20, "position": [0.5, 0.5], "shadow": {"color": "black", "radius": 4, "offset": [10, 0]}},
              {"type": "group", "invert": true, "layers": [{"type": "text", "string": "y", "size": 20}],
               "mask": {"type": "text", "string": "z", "size": 20}},
              {"type": "group", "invert": true, "layers": [{"type": "linearGradient", "stops": ["red", "blue"]}],
               "mask": {"type": "text", "string": "z", "size": 20}}]}
            """, "regions")
        let frame = Frame(scene: scene, time: 0, pixelSize: nil)
        let groups = frame.layers.compactMap { $0 as? GroupDraw }
        XCTAssertEqual(groups.count, 3)
        let shadowed = try XCTUnwrap(GLRenderer.groupRegions(groups[0], pixelSize: SIMD2(200, 100)))
        let glyphs = try XCTUnwrap(GLRenderer.groupAlphaBox(groups[0].layers[0]))
        let reach = groups[0].shadow!.horizontalWeights.count - 1
        XCTAssertGreaterThan(reach, 0)
        XCTAssertEqual(shadowed.composite, SIMD4(glyphs.x - reach, glyphs.y - reach, glyphs.z + reach + 10, glyphs.w + reach))
        XCTAssertEqual(shadowed.vertical, SIMD4(glyphs.x - reach - 10, glyphs.y - reach, glyphs.z + reach + 10, glyphs.w + reach))
        let inverted = try XCTUnwrap(GLRenderer.groupRegions(groups[1], pixelSize: SIMD2(200, 100)))
        XCTAssertEqual(inverted.composite, try XCTUnwrap(GLRenderer.groupAlphaBox(groups[1].layers[0])))
        XCTAssertNil(GLRenderer.groupRegions(groups[2], pixelSize: SIMD2(200, 100)))
    }

    /// A label that changes every frame: more layouts than TextPass keeps uploaded, drawn twice over,
    /// so atlases are uploaded, reused and evicted, and every frame still matches the CPU.
    func testChangingLabelsReuseAndReplaceAtlases() throws {
        let scene = try decode("""
            {"size": [96, 40], "background": "black",
             "layers": [{"type": "text", "string": "{time:mm:ss}", "size": 20},
                        {"type": "text", "string": "{time:ss}", "size": 10, "position": [0.1, 0.2]}]}
            """, "labels")
        let times = (0..<20).map { Double($0) }
        for time in times + times.reversed() { try checkParity(scene, "labels", times: [time]) }
    }

    /// Every text example scene at 0, 1.5 and 7 s, at a quarter of its size (EndToEndTests' compare
    /// sweep covers 640×360; the CPU's groups are the slow part in debug builds).
    func testExampleScenes() throws {
        var figures: [String] = []
        for name in ["mesh-text", "text-clock", "text-scripts"] {
            let scene = try SceneLoader.load(path: Repository.scenes.path + "/\(name).json")
            for time in [0.0, 1.5, 7] {
                let size = SIMD2(scene.size.x / 4, scene.size.y / 4)
                figures.append("\(name) t=\(time): max \(try checkParity(scene, name, times: [time], sizes: [size]))")
            }
        }
        print("text example parity: " + figures.joined(separator: "; "))
    }
}
