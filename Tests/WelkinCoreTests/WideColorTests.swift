// Wide colour: color() in display-p3, srgb and srgb-linear, the Display P3 matrices from the
// primaries, the output transform and the 16-bit quantiser (OutputColorSpace.swift, Dither.swift).

import XCTest
@testable import WelkinCore

final class WideColorTests: XCTestCase {
    func color(_ text: String) throws -> RGBA {
        try Node(JSONParser.parse("\"\(text)\""), path: "layers[0].color", file: "s.json").color()
    }

    func message(_ text: String) -> String? {
        do {
            _ = try color(text)
            return nil
        } catch { return "\(error)" }
    }

    func assertClose(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double, _ label: String = "", line: UInt = #line) {
        for i in 0..<3 { XCTAssertEqual(a[i], b[i], accuracy: tolerance, "\(label)[\(i)] \(a) vs \(b)", line: line) }
    }

    /// The matrices against the values published for these primaries (CSS Color 4's sample code,
    /// W3C, to 10 digits), and each other's inverse.
    func testMatricesFromThePrimaries() {
        let m = ColorMath.linearSRGBToDisplayP3.rows
        let expected: [[Double]] = [[0.8224619687, 0.1775380313, 0], [0.0331941989, 0.9668058011, 0], [0.0170826307, 0.0723974407, 0.9105199286]]
        for r in 0..<3 { for c in 0..<3 { XCTAssertEqual(m[r][c], expected[r][c], accuracy: 1e-9, "row \(r) column \(c)") } }
        let identity = (ColorMath.linearDisplayP3ToSRGB * ColorMath.linearSRGBToDisplayP3).rows
        for r in 0..<3 { for c in 0..<3 { XCTAssertEqual(identity[r][c], r == c ? 1 : 0, accuracy: 1e-12) } }
    }

    func testDisplayP3IsDecodedToExtendedSRGBAndRemembersItsWords() throws {
        let red = try color("color(display-p3 1 0 0)")
        assertClose(SIMD3(red.r, red.g, red.b), SIMD3(1.0930663624, -0.2267419736, -0.1501345809), 1e-9, "P3 red")
        XCTAssertEqual(red.a, 1)
        XCTAssertEqual(red.written, WrittenColor(space: .displayP3, components: SIMD3(1, 0, 0)))
        XCTAssertFalse(red.isInSRGBGamut)
        XCTAssertEqual(red.description, "color(display-p3 1 0 0)")
        let green = try color("color(display-p3 0% 100% 0% / 50%)")
        assertClose(SIMD3(green.r, green.g, green.b), SIMD3(-0.5116049826, 1.0182656579, -0.3106746213), 1e-9, "P3 green")
        XCTAssertEqual(green.a, 0.5)
        XCTAssertEqual(green.description, "color(display-p3 0 1 0 / 0.5)")
        // White and grey are the same in both spaces (both D65, both the sRGB curve).
        let grey = try color("color(display-p3 0.5 0.5 0.5)")
        assertClose(SIMD3(grey.r, grey.g, grey.b), SIMD3(repeating: 0.5), 1e-12, "grey")
    }

    func testSRGBAndSRGBLinear() throws {
        let plain = try color("color(srgb 0.5 0.25 1 / 0.5)")
        XCTAssertEqual(plain, RGBA(0.5, 0.25, 1, 0.5))
        XCTAssertNil(plain.written, "an srgb colour is an ordinary colour")
        let linear = try color("color(srgb-linear 0.5 0 1)")
        assertClose(SIMD3(linear.r, linear.g, linear.b), SIMD3(0.7353569831, 0, 1), 1e-9, "srgb-linear")
        XCTAssertEqual(linear.written?.space, .srgbLinear)
        XCTAssertEqual(try color("color(srgb 100% 0% 50%)"), RGBA(1, 0, 0.5, 1))
    }

    func testMalformedColorFunctionsSayWhatTheyTake() {
        let forms = "expected color(SPACE r g b) or color(SPACE r g b / a) with SPACE one of srgb, srgb-linear, display-p3, "
            + "r, g, b in 0…1 or 0%…100% and a in 0…1 or 0%…100%"
        for bad in ["color(display-p3 1 0)", "color(display-p3 1, 0, 0)", "color(display-p3 1.5 0 0)", "color(display-p3 1 0 0 / 2)",
                    "color(display-p3 1 0 0", "color()", "color(srgb 1 0 0 0)", "color(display-p3 -0.1 0 0)", "color(display-p3 1 0 0 / )"] {
            XCTAssertEqual(message(bad), "s.json: layers[0].color: \(forms), got \"\(bad)\"", bad)
        }
        XCTAssertEqual(message("color(rec2020 1 0 0)"),
                       "s.json: layers[0].color: unknown colour space 'rec2020' in \"color(rec2020 1 0 0)\"; color() takes srgb, srgb-linear, display-p3")
        XCTAssertTrue(RGBA.acceptedForms.hasSuffix("\"color(display-p3 r g b)\" (also srgb, srgb-linear)"), RGBA.acceptedForms)
    }

    /// The output transform: a colour on Display P3's face comes out on it, exactly; sRGB output
    /// clips in linear light (the quantiser's clamp, as encoded 0…1 is linear 0…1).
    func testOutputTransform() throws {
        let red = try color("color(display-p3 1 0 0)")
        let v = SIMD3<Float>(Float(red.r), Float(red.g), Float(red.b))
        XCTAssertEqual(ColorMath.outputTransform(v, .displayP3), SIMD3(1, 0, 0))
        XCTAssertEqual(ColorMath.outputTransform(v, .srgb), v, "sRGB output leaves the clip to the quantiser")
        for bias: Float in [0, 0.5, 63.0 / 64] {
            XCTAssertEqual(Dither.resolve(red.premultiplied, bias: bias, space: .displayP3), SIMD4(255, 0, 0, 255))
            XCTAssertEqual(Dither.resolve(red.premultiplied, bias: bias, space: .srgb), SIMD4(255, 0, 0, 255))
        }
        // sRGB red in Display P3: (234, 51, 35) (0.9175, 0.2003, 0.1386 encoded).
        XCTAssertEqual(Dither.resolve(SIMD4(1, 0, 0, 1), bias: 0.5, space: .displayP3), SIMD4(234, 51, 35, 255))
        // Half-transparent: un-premultiplied first, alpha kept.
        XCTAssertEqual(Dither.resolve(SIMD4(0.5, 0, 0, 0.5), bias: 0.5, space: .displayP3), SIMD4(234, 51, 35, 128))
        // Grey is grey in both.
        let grey = Dither.resolve(SIMD4(0.5, 0.5, 0.5, 1), bias: 0.5, space: .displayP3)
        XCTAssertEqual(grey, SIMD4(128, 128, 128, 255))
    }

    func testSixteenBitQuantiser() {
        XCTAssertEqual(Dither.quantize16(0), 0)
        XCTAssertEqual(Dither.quantize16(1), 65535)
        XCTAssertEqual(Dither.quantize16(2), 65535)
        XCTAssertEqual(Dither.quantize16(-1), 0)
        XCTAssertEqual(Dither.quantize16(.nan), 0)
        XCTAssertEqual(Dither.quantize16(0.5), 32768)
        XCTAssertEqual(Dither.quantize16(1000.4 / 65535), 1000)
        XCTAssertEqual(Dither.resolve16(SIMD4(0.25, 0.5, 1, 0.5), space: .srgb), SIMD4(32768, 65535, 65535, 32768))
    }

    func testOutputColorSpaceKey() throws {
        XCTAssertEqual(try SceneLoader.decode(#"{"outputColorSpace": "display-p3"}"#).outputColorSpace, .displayP3)
        XCTAssertEqual(try SceneLoader.decode("{}").outputColorSpace, .srgb)
        XCTAssertThrowsError(try SceneLoader.decode(#"{"outputColorSpace": "p3"}"#, file: "s.json")) { error in
            XCTAssertEqual("\(error)", "s.json: outputColorSpace: unknown output colour space 'p3' (expected one of: srgb, display-p3)")
        }
        let frame = Frame(scene: try SceneLoader.decode(#"{"size": [4, 4], "outputColorSpace": "display-p3"}"#), time: 0)
        XCTAssertEqual(frame.outputColorSpace, .displayP3)
    }

    /// Nothing between decoding and the output clamps a wide colour: a gradient of P3 colours in
    /// every interpolation space, a mesh and a particle cell keep their extended-sRGB components.
    func testWideColoursReachTheOutputUnclamped() throws {
        let red = try color("color(display-p3 1 0 0)")
        for space in ColorSpace.allCases {
            let p = ColorMath.fromInterpolationSpace(ColorMath.toInterpolationSpace(red, space), space)
            XCTAssertEqual(Double(p.x), red.r, accuracy: 1e-4, "\(space)")
            XCTAssertEqual(Double(p.y), red.g, accuracy: 1e-4, "\(space)")
        }
        var cell = EmitterCell()
        cell.color = red
        cell.redRange = 0.5
        let range = cell.channelRange
        XCTAssertEqual(range.high.x, red.r)
        XCTAssertEqual(range.low.y, red.g)
        XCTAssertEqual(range.high.w, 1)
        XCTAssertEqual(EmitterCell().channelRange.low, SIMD4(0, 0, 0, 0), "sRGB cells clamp to 0…1 as before")
        XCTAssertEqual(EmitterCell().channelRange.high, SIMD4(1, 1, 1, 1))
        let mesh = try SceneLoader.decode("""
            {"size": [8, 8], "layers": [{"type": "meshGradient", "width": 2, "height": 2,
              "points": [[0, 0], [1, 0], [0, 1], [1, 1]],
              "colors": ["color(display-p3 1 0 0)", "color(display-p3 1 0 0)", "color(display-p3 1 0 0)", "color(display-p3 1 0 0)"]}]}
            """)
        let draw = try XCTUnwrap(Frame(scene: mesh, time: 0).layers.first as? MeshDraw)
        let c = draw.color(patch: 0, u: 0.5, v: 0.5)
        XCTAssertEqual(Double(c.x), red.r, accuracy: 1e-5)
        XCTAssertEqual(Double(c.y), red.g, accuracy: 1e-5)
    }
}
