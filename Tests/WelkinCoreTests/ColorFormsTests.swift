// CSS Color 4's rgb()/rgba() and hsl()/hsla(), #rgb, and the sentence an unknown colour gets.

import XCTest
@testable import WelkinCore

final class ColorFormsTests: XCTestCase {
    func color(_ text: String) throws -> RGBA {
        try Node(JSONParser.parse("\"\(text)\""), path: "layers[0].color", file: "s.json").color()
    }

    func message(_ json: String) -> String? {
        do {
            _ = try Node(JSONParser.parse(json), path: "layers[0].color", file: "s.json").color()
            return nil
        } catch { return "\(error)" }
    }

    func testRGBForms() throws {
        XCTAssertEqual(try color("rgb(255 0 0 / 50%)"), RGBA(1, 0, 0, 0.5))
        XCTAssertEqual(try color("rgb(10,20,30)"), RGBA(10.0 / 255, 20.0 / 255, 30.0 / 255, 1))
        XCTAssertEqual(try color("rgb(10, 20, 30)"), RGBA(10.0 / 255, 20.0 / 255, 30.0 / 255, 1))
        XCTAssertEqual(try color("rgba(255, 255, 0, 0.25)"), RGBA(1, 1, 0, 0.25))
        XCTAssertEqual(try color("rgb(255, 255, 0, 25%)"), RGBA(1, 1, 0, 0.25))
        XCTAssertEqual(try color("rgb(100% 50% 0%)"), RGBA(1, 0.5, 0, 1))
        XCTAssertEqual(try color("rgba(0 0 255 / 0.5)"), RGBA(0, 0, 1, 0.5))
        XCTAssertEqual(try color("rgb( 0  0 255 )"), RGBA(0, 0, 1, 1))
    }

    func testHSLForms() throws {
        XCTAssertEqual(try color("hsl(120deg 100% 50%)"), RGBA(0, 1, 0, 1))
        XCTAssertEqual(try color("hsl(120, 100%, 50%)"), RGBA(0, 1, 0, 1))
        XCTAssertEqual(try color("hsl(0 100% 50%)"), RGBA(1, 0, 0, 1))
        XCTAssertEqual(try color("hsl(240deg 100% 50% / 50%)"), RGBA(0, 0, 1, 0.5))
        XCTAssertEqual(try color("hsla(480, 100%, 50%, 0.5)"), RGBA(0, 1, 0, 0.5))
        XCTAssertEqual(try color("hsl(-240 100% 50%)"), RGBA(0, 1, 0, 1))
        XCTAssertEqual(try color("hsl(0 0% 100%)"), RGBA(1, 1, 1, 1))
        XCTAssertEqual(try color("hsl(0.5turn 100% 50%)"), RGBA(0, 1, 1, 1))
    }

    func testShortHex() throws {
        XCTAssertEqual(try color("#f80"), RGBA(1, 0x88 / 255.0, 0, 1))
        XCTAssertEqual(try color("#F80"), try color("#FF8800"))
    }

    func testMalformedFunctionsSayWhatTheyTake() {
        let rgb = "expected rgb(r, g, b), rgb(r, g, b, a) or rgb(r g b / a) with r, g, b in 0…255 or 0%…100% and a in 0…1 or 0%…100%"
        let hsl = "expected hsl(h, s%, l%), hsl(h, s%, l%, a) or hsl(h s% l% / a) with h in degrees, s and l in 0%…100% and a in 0…1 or 0%…100%"
        for bad in ["rgb(10,20)", "rgb(300, 0, 0)", "rgb(10 20 30", "rgb(1, 2 3)", "rgb(1 2 3 / 2)", "rgb(1, 2, 3 / 0.5)",
                    "rgba(1 2 3 4)", "rgb(0x10 0 0)", "rgb(inf 0 0)", "rgb(1 2 3 / )"] {
            XCTAssertEqual(message("\"\(bad)\""), "s.json: layers[0].color: \(rgb), got \"\(bad)\"", bad)
        }
        for bad in ["hsl(120 100 50)", "hsl(120deg, 100%)", "hsl(120 150% 50%)", "hsl(abc 1% 1%)"] {
            XCTAssertEqual(message("\"\(bad)\""), "s.json: layers[0].color: \(hsl), got \"\(bad)\"", bad)
        }
        XCTAssertEqual(message("\"#ff80\""), "s.json: layers[0].color: expected a colour \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\" (hex digits), got \"#ff80\"")
    }

    func testAnUnknownColourListsTheAcceptedForms() {
        XCTAssertEqual(message("\"rbg(10,20,30)\""), """
            s.json: layers[0].color: unknown colour name 'rbg(10,20,30)'; a colour is a name (red, orange, yellow, green, \
            mint, teal, cyan, blue, indigo, purple, pink, brown, gray, white, black, clear), "#rgb", "#rrggbb", "#rrggbbaa", \
            [r, g, b] or [r, g, b, a] in 0…1, "rgb(r, g, b)", "hsl(h, s%, l%)" or "color(display-p3 r g b)" (also srgb, srgb-linear)
            """)
        XCTAssertEqual(message("12"), """
            s.json: layers[0].color: expected a colour: a name (red, orange, yellow, green, \
            mint, teal, cyan, blue, indigo, purple, pink, brown, gray, white, black, clear), "#rgb", "#rrggbb", "#rrggbbaa", \
            [r, g, b] or [r, g, b, a] in 0…1, "rgb(r, g, b)", "hsl(h, s%, l%)" or "color(display-p3 r g b)" (also srgb, srgb-linear); got 12
            """)
        // A near name is still suggested.
        XCTAssertEqual(message("\"purpel\""), "s.json: layers[0].color: unknown colour name 'purpel'; did you mean 'purple'?")
    }

    /// The forms work wherever a colour goes: a scene loads with them.
    func testASceneTakesTheNewForms() throws {
        let scene = try SceneLoader.decode("""
            {"background": "hsl(120deg 100% 50%)",
             "layers": [{"type": "linearGradient", "stops": ["rgb(255 0 0 / 50%)", "#00f"]}]}
            """, file: "s.json")
        XCTAssertEqual(scene.background, RGBA(0, 1, 0, 1))
    }
}
