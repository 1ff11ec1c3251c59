// GPU-vs-CPU parity: GLRenderer and ReferenceRenderer draw the same Frame; the pictures must agree.
//
// Tolerance (issue 3): per-channel difference ≤ 2 for all but at most 0.05 % of pixels.
// Set WELKIN_SAVE_RENDERS=DIR to keep every GPU and CPU picture as PNG.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class ParityTests: XCTestCase {
    /// Scenes covering every gradient kind, colour space, hard stops, opacity and translucency.
    static let scenes: [(name: String, json: String)] = [
        ("linear-srgb", """
         {"size": [320, 180], "background": "#102030",
          "layers": [{"type": "linearGradient", "start": [0, 0], "end": [1, 1],
                      "stops": ["#FF3B30", "#FFCC00", "#007AFF"]}]}
         """),
        ("linear-vertical-linearSRGB", """
         {"size": [320, 180], "colorSpace": "linearSRGB",
          "layers": [{"type": "linearGradient", "stops": ["#1B2A4A", "#F4A261", "#FFFFFF"]}]}
         """),
        ("radial-oklab", """
         {"size": [320, 180], "colorSpace": "oklab", "background": "white",
          "layers": [{"type": "radialGradient", "center": [0.3, 0.6], "startRadius": 10, "endRadius": 150,
                      "stops": [{"color": "#0000FF", "location": 0}, {"color": "#FFFF00", "location": 0.7},
                                {"color": "#FF000000", "location": 1}]}]}
         """),
        ("angular-all-spaces", """
         {"size": [320, 180], "background": "black",
          "layers": [{"type": "angularGradient", "center": [0.5, 0.5], "startAngle": 30, "endAngle": 300,
                      "stops": ["red", "green", "blue", "yellow"]},
                     {"type": "angularGradient", "center": [0.25, 0.25], "startAngle": 90, "endAngle": -450,
                      "colorSpace": "oklab", "opacity": 0.5, "stops": ["#00C7BE", "#AF52DE80"]},
                     {"type": "angularGradient", "center": [0.75, 0.7], "startAngle": 0, "endAngle": 360,
                      "colorSpace": "linearSRGB", "opacity": 0.7, "stops": ["#FF2D55", "#5856D6", "#FF2D55"]}]}
         """),
        ("elliptical-hard-stops", """
         {"size": [320, 180], "background": "#203040",
          "layers": [{"type": "ellipticalGradient", "center": [0.5, 0.5], "startRadiusFraction": 0,
                      "endRadiusFraction": 0.5,
                      "stops": [{"color": "#FFFFFF", "location": 0}, {"color": "#FFCC00", "location": 0.3},
                                {"color": "#FF3B30", "location": 0.3}, {"color": "#FF3B30", "location": 0.6},
                                {"color": "#00000000", "location": 0.6}]},
                     {"type": "linearGradient", "start": [0, 0.5], "end": [1, 0.5],
                      "stops": [{"color": "#000000", "location": 0.5}, {"color": "#FFFFFF80", "location": 0.5}]},
                     {"type": "radialGradient", "center": [0.8, 0.2], "startRadius": 30, "endRadius": 30,
                      "stops": ["#34C759", "#34C75900"]}]}
         """),
        ("translucent-opacity", """
         {"size": [320, 180], "background": "#20406080", "colorSpace": "oklab",
          "layers": [{"type": "linearGradient", "start": [0, 1], "end": [1, 0], "opacity": 0.6,
                      "stops": ["#FF950080", "#32ADE6", "#A2845E00"]},
                     {"type": "radialGradient", "colorSpace": "linearSRGB", "opacity": 0.35,
                      "stops": ["#FFFFFFFF", "#FFFFFF00"]},
                     {"type": "ellipticalGradient", "colorSpace": "srgb", "opacity": 0.8,
                      "startRadiusFraction": 0.2, "endRadiusFraction": 0.9,
                      "stops": ["#00000000", "#000000C0"]}]}
         """),
        ("clear-background", """
         {"size": [320, 180], "background": "clear",
          "layers": [{"type": "radialGradient", "center": [0.5, 0.4], "startRadius": 0, "endRadius": 120,
                      "stops": ["#FFCC0080", "#FF3B3040", "#00000000"]}]}
         """),
        ("linear-pads-inside-the-frame", """
         {"size": [320, 180], "background": "#101018",
          "layers": [{"type": "linearGradient", "start": [0.3, 0.2], "end": [0.6, 0.9], "colorSpace": "linearSRGB",
                      "stops": [{"color": "clear", "location": 0}, {"color": "clear", "location": 0.4},
                                {"color": "#FF9500", "location": 0.4}, {"color": "indigo", "location": 1}]},
                     {"type": "linearGradient", "start": [0.8, 0.5], "end": [0.2, 0.5],
                      "stops": [{"color": "#00000000", "location": 0}, {"color": "#34C75980", "location": 0.5},
                                {"color": "#FFFFFF", "location": 0.5}]}]}
         """),
    ]

    /// Two pixel sizes: the scene size and an odd size (pixel centres land on gradient centres).
    static let sizes: [SIMD2<Int>?] = [nil, SIMD2(97, 61)]

    func checkParity(_ name: String, _ json: String, line: UInt = #line) throws {
        // The default (last layer resolves itself, specialised programs) and the plain way
        // (every layer blended into the float target, generic programs, a separate resolve pass).
        for plain in [false, true] {
            for dither in [true, false] {
                let edited = json.replacingOccurrences(of: "{\"size\"", with: "{\"dither\": \(dither), \"size\"")
                let scene = try SceneLoader.decode(edited, file: name + ".json")
                for size in Self.sizes {
                    let frame = Frame(scene: scene, time: 0, pixelSize: size)
                    try assertParity(frame, label: "\(name) \(frame.pixelSize.x)×\(frame.pixelSize.y) dither \(dither)",
                                     plain: plain, specializes: !plain, line: line)
                }
            }
        }
    }

    func testLinearSRGB() throws { try checkParity(Self.scenes[0].name, Self.scenes[0].json) }
    func testLinearVerticalLinearSRGB() throws { try checkParity(Self.scenes[1].name, Self.scenes[1].json) }
    func testRadialOklab() throws { try checkParity(Self.scenes[2].name, Self.scenes[2].json) }
    func testAngularAllSpaces() throws { try checkParity(Self.scenes[3].name, Self.scenes[3].json) }
    func testEllipticalHardStops() throws { try checkParity(Self.scenes[4].name, Self.scenes[4].json) }
    func testTranslucentOpacity() throws { try checkParity(Self.scenes[5].name, Self.scenes[5].json) }
    func testClearBackground() throws { try checkParity(Self.scenes[6].name, Self.scenes[6].json) }
    func testLinearPadsInsideTheFrame() throws { try checkParity(Self.scenes[7].name, Self.scenes[7].json) }

    /// Sizes change between frames: targets are re-made, and pixels still match.
    func testSizeChangesAndTopRowFirst() throws {
        let renderer = try TestGL.renderer()
        let scene = try SceneLoader.decode("""
            {"size": [64, 32], "dither": false, "background": "black",
             "layers": [{"type": "linearGradient", "start": [0.5, 0], "end": [0.5, 1],
                         "stops": [{"color": "white", "location": 0.5}, {"color": "black", "location": 0.5}]}]}
            """, file: "rows.json")
        let empty = try SceneLoader.decode("{\"size\": [8, 8], \"background\": \"#FF950080\"}", file: "empty.json")
        XCTAssertEqual(try renderer.render(Frame(scene: empty, time: 0)), try ReferenceRenderer().render(Frame(scene: empty, time: 0)),
                       "a frame with no layers is its background")
        for size in [SIMD2(64, 32), SIMD2(5, 7), SIMD2(64, 32)] {
            let image = try renderer.render(Frame(scene: scene, time: 0, pixelSize: size))
            XCTAssertEqual(image.width, size.x); XCTAssertEqual(image.height, size.y)
            XCTAssertEqual(image[0, 0], SIMD4(255, 255, 255, 255), "row 0 is the top (white)")
            XCTAssertEqual(image[0, size.y - 1], SIMD4(0, 0, 0, 255), "the last row is the bottom (black)")
        }
    }
}
