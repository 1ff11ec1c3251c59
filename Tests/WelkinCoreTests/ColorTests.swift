import XCTest
@testable import WelkinCore

final class ColorTests: XCTestCase {
    func color(_ json: String) throws -> RGBA {
        try Node(JSONParser.parse(json), path: "c", file: "t.json").color()
    }

    func testHexColors() throws {
        XCTAssertEqual(try color("\"#FF8000\""), RGBA(1, 128.0 / 255, 0, 1))
        XCTAssertEqual(try color("\"#ff800080\""), RGBA(1, 128.0 / 255, 0, 128.0 / 255))
        for bad in ["\"#FF80\"", "\"#GG0000\"", "\"#FF80000\"", "\"#+F0000\""] {
            XCTAssertThrowsError(try color(bad)) { error in
                XCTAssertEqual((error as? SceneError)?.code, .invalidColor, bad)
            }
        }
    }

    func testArrayColors() throws {
        XCTAssertEqual(try color("[0.1, 0.2, 0.3]"), RGBA(0.1, 0.2, 0.3, 1))
        XCTAssertEqual(try color("[0.1, 0.2, 0.3, 0.5]"), RGBA(0.1, 0.2, 0.3, 0.5))
        XCTAssertThrowsError(try color("[0.1, 0.2]"))
        XCTAssertThrowsError(try color("[0.1, 0.2, 1.5]")) { error in
            XCTAssertEqual((error as? SceneError)?.description, "t.json: c[2]: expected a number in 0…1, got 1.5")
        }
    }

    func testNamedColors() throws {
        XCTAssertEqual(RGBA.named.count, 16)
        XCTAssertEqual(try color("\"blue\""), RGBA(0, 122.0 / 255, 1, 1))
        XCTAssertEqual(try color("\"clear\""), RGBA(0, 0, 0, 0))
        XCTAssertEqual(try color("\"purple\"").description, "#AF52DE")
        XCTAssertThrowsError(try color("\"purpel\"")) { error in
            XCTAssertEqual((error as? SceneError)?.message, "unknown colour name 'purpel'; did you mean 'purple'?")
        }
    }

    func testSRGBTransferRoundTrip() {
        for i in 0...255 {
            let c = Float(i) / 255
            XCTAssertEqual(ColorMath.linearToSRGB(ColorMath.srgbToLinear(c)), c, accuracy: 2e-6)
        }
        XCTAssertEqual(ColorMath.srgbToLinear(0.5), 0.21404114, accuracy: 1e-6)
        XCTAssertEqual(ColorMath.linearToSRGB(0.0031308), 0.04044, accuracy: 1e-4)
    }

    /// The sky's pow-free encode stays within 7e-6 of the real curve (≪ 1/255) and keeps rising.
    func testFastSRGBEncodeFollowsTheCurve() {
        var previous: Float = 0
        var worst: Float = 0
        for i in 0...1_000_000 {
            let c = Float(i) / 1_000_000
            let fast = ColorMath.encodeSRGBUnit(c)
            worst = max(worst, abs(fast - ColorMath.linearToSRGB(c)))
            if c > 0.0032 { XCTAssertGreaterThanOrEqual(fast, previous, "at \(c)") }
            previous = fast
        }
        XCTAssertLessThan(worst, 7e-6)
        XCTAssertEqual(ColorMath.encodeSRGBUnit(0), 0)
        XCTAssertEqual(ColorMath.encodeSRGBUnit(1), 1, accuracy: 7e-6)
        XCTAssertEqual(ColorMath.encodeSRGBUnit(SIMD3(0.001, 0.2, 0.9)),
                       SIMD3(ColorMath.encodeSRGBUnit(0.001), ColorMath.encodeSRGBUnit(0.2), ColorMath.encodeSRGBUnit(0.9)))
    }

    /// AgX's two powers without powf stay within 1e-6 of the powers they stand for (the look's
    /// power is ToneMapping.agxLookPower: a new value needs a new fit, and this fails until then).
    func testAgXPowersFollowTheCurves() {
        var worstLook: Double = 0, worstDisplay: Double = 0
        for i in 0...1_000_000 {
            let x = Float(i) / 1_000_000
            worstLook = max(worstLook, abs(Double(ToneMapping.agxLook(x)) - pow(Double(x), Double(ToneMapping.agxLookPower))))
            worstDisplay = max(worstDisplay, abs(Double(ToneMapping.agxDisplayPower(x)) - pow(Double(x), 2.2)))
        }
        XCTAssertLessThan(worstLook, 1e-6)
        XCTAssertLessThan(worstDisplay, 1e-6)
        XCTAssertEqual(ToneMapping.agxLook(0), 0)
        XCTAssertEqual(ToneMapping.agxDisplayPower(0), 0)
    }

    func testOklabKnownValuesAndRoundTrip() {
        // Reference values from Ottosson's definition.
        let white = ColorMath.linearToOklab([1, 1, 1])
        XCTAssertEqual(white.x, 1, accuracy: 1e-4)
        XCTAssertEqual(white.y, 0, accuracy: 1e-4)
        XCTAssertEqual(white.z, 0, accuracy: 1e-4)
        let red = ColorMath.linearToOklab([1, 0, 0])
        XCTAssertEqual(red.x, 0.62796, accuracy: 1e-4)
        XCTAssertEqual(red.y, 0.22486, accuracy: 1e-4)
        XCTAssertEqual(red.z, 0.12585, accuracy: 1e-4)
        for r in stride(from: Float(0), through: 1, by: 0.125) {
            for g in stride(from: Float(0), through: 1, by: 0.125) {
                for b in stride(from: Float(0), through: 1, by: 0.125) {
                    let back = ColorMath.oklabToLinear(ColorMath.linearToOklab([r, g, b]))
                    XCTAssertEqual(back.x, r, accuracy: 1e-4); XCTAssertEqual(back.y, g, accuracy: 1e-4)
                    XCTAssertEqual(back.z, b, accuracy: 1e-4)
                }
            }
        }
    }

    func testInterpolationSpaceRoundTripIsPremultiplied() {
        let c = RGBA(0.8, 0.4, 0.2, 0.5)
        for space in ColorSpace.allCases {
            let p = ColorMath.toInterpolationSpace(c, space)
            XCTAssertEqual(p.w, 0.5)
            let back = ColorMath.fromInterpolationSpace(p, space)
            XCTAssertEqual(back.x, 0.4, accuracy: 1e-5, "\(space)")
            XCTAssertEqual(back.y, 0.2, accuracy: 1e-5, "\(space)")
            XCTAssertEqual(back.z, 0.1, accuracy: 1e-5, "\(space)")
        }
    }
}
