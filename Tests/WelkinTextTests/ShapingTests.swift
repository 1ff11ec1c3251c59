// Shaping: glyph order and clusters as HarfBuzz defines them (right-to-left runs in visual order,
// clusters as UTF-8 offsets), fallback fonts, kerning, ligatures, and the pixel rule.

import XCTest
@testable import WelkinText

final class ShapingTests: XCTestCase {
    static let dejaVu = FontRequest(.family("DejaVu Sans"))
    static let microHei = FontRequest(.family("WenQuanYi Micro Hei"))

    func layout(_ text: String, _ font: FontRequest = dejaVu, size: Double = 40) throws -> TextLayout {
        try TextLayout.make(text, style: TextStyle(font: font, pixelsPerEm: SIMD2(size, size), horizontal: .leading, vertical: .baseline),
                            origin: .zero)
    }

    /// Each glyph is its character's glyph from the character map (no contextual forms expected).
    func nominal(_ characters: String, _ font: FontRequest) throws -> [UInt32] {
        try characters.unicodeScalars.map { try TextEngine.glyphIndex($0, font) }
    }

    func testHebrewComesBackInVisualOrder() throws {
        // שלום: four letters of two UTF-8 bytes; right to left, so the last letter is drawn first.
        let l = try layout("שלום")
        XCTAssertEqual(l.glyphs.map(\.cluster), [6, 4, 2, 0])
        XCTAssertEqual(l.glyphs.map(\.glyph), try nominal("םולש", Self.dejaVu))
        XCTAssertEqual(l.glyphs.map(\.pixel.x), l.glyphs.map(\.pixel.x).sorted(), "placed left to right on screen")
    }

    func testArabicJoinsRightToLeft() throws {
        // سماء: س م ا ء; HarfBuzz picks joining forms, so the glyphs are not the nominal ones.
        let l = try layout("سماء")
        XCTAssertEqual(l.glyphs.map(\.cluster), [6, 4, 2, 0])
        let nominal = try nominal("ءامس", Self.dejaVu)
        XCTAssertEqual(l.glyphs.last?.glyph == nominal.last, false, "the first letter takes its initial form")
        XCTAssertEqual(l.glyphs.first?.glyph, nominal.first, "hamza does not join")
    }

    func testChineseInLogicalOrderWithItsFont() throws {
        let l = try layout("天空你好", Self.microHei, size: 48)
        XCTAssertEqual(l.glyphs.map(\.cluster), [0, 3, 6, 9])
        XCTAssertEqual(l.glyphs.map(\.glyph), try nominal("天空你好", Self.microHei))
        XCTAssertEqual(Set(l.glyphs.map(\.family)), ["WenQuanYi Micro Hei"])
        // Full-width: each advance is one em (48 px).
        XCTAssertEqual(zip(l.glyphs.dropFirst(), l.glyphs).map { $0.position.x - $1.position.x }, [48 * 64, 48 * 64, 48 * 64])
    }

    func testChineseFallsBackFromTheLatinFont() throws {
        let l = try layout("Sky 天空")
        XCTAssertEqual(l.glyphs.map(\.family), ["DejaVu Sans", "DejaVu Sans", "DejaVu Sans", "DejaVu Sans", "WenQuanYi Micro Hei", "WenQuanYi Micro Hei"])
        XCTAssertEqual(l.fallbacks, ["天": "WenQuanYi Micro Hei", "空": "WenQuanYi Micro Hei"])
        XCTAssertEqual(l.glyphs.map(\.cluster), [0, 1, 2, 3, 4, 7])
    }

    /// A left-to-right line with an Arabic word and a number: the Unicode bidi algorithm's order.
    func testMixedLineFollowsTheBidiRules() throws {
        let l = try layout("Sky 42 سماء 天空")
        // "Sky 42 " (0…6), then سماء reversed (13, 11, 9, 7), then " " (15) and 天空 (16, 19).
        XCTAssertEqual(l.glyphs.map(\.cluster), [0, 1, 2, 3, 4, 5, 6, 13, 11, 9, 7, 15, 16, 19])
        // A right-to-left line: its number stays left to right, to the left of the word before it.
        let r = try layout("שמיים 42")
        XCTAssertEqual(r.glyphs.map(\.cluster), [11, 12, 10, 8, 6, 4, 2, 0])
    }

    func testKerningAndLigatures() throws {
        let av = try layout("AV"), a = try layout("A"), v = try layout("V")
        let pair = av.glyphs[1].position.x - av.glyphs[0].position.x
        XCTAssertLessThan(pair, try layout("AA").glyphs[1].position.x, "AV is kerned closer than A's own advance")
        XCTAssertEqual(a.glyphs.count + v.glyphs.count, av.glyphs.count)
        XCTAssertEqual(try layout("fi").glyphs.count, 1, "DejaVu Sans joins f and i")
        XCTAssertEqual(try layout("ffl").glyphs.count, 1)
    }

    /// Glyph origins are their 26.6 pen positions rounded to the nearest pixel (ties up), and the same
    /// arguments give the same layout.
    func testPixelRuleAndDeterminism() throws {
        let style = TextStyle(font: Self.dejaVu, pixelsPerEm: SIMD2(17.3, 17.3), lineSpacing: 3.5, horizontal: .center, vertical: .center)
        let l = try TextLayout.make("Welkin\nsky, 7:05", style: style, origin: SIMD2(100.4, 50.7))
        for g in l.glyphs { XCTAssertEqual(g.pixel, SIMD2((g.position.x + 32) >> 6, (g.position.y + 32) >> 6)) }
        XCTAssertEqual(TextLayout.pixel(-32), 0)
        XCTAssertEqual(TextLayout.pixel(-33), -1)
        XCTAssertEqual(TextLayout.pixel(31), 0)
        XCTAssertEqual(TextLayout.pixel(32), 1)
        XCTAssertEqual(Set(l.glyphs.map(\.line)), [0, 1])
        // Not the cached value: a fresh layout of the same text.
        let again = try TextEngine.locked { try TextLayout.makeUncached("Welkin\nsky, 7:05", style: style, origin: SIMD2(100.4, 50.7)) }
        XCTAssertEqual(again.glyphs, l.glyphs)
        XCTAssertEqual(again.quads, l.quads)
        XCTAssertEqual(again.atlas.pixels, l.atlas.pixels)
    }

    func testMissingCharacterAndFontErrors() {
        XCTAssertThrowsError(try layout("a\u{F0000}")) { error in
            XCTAssertEqual("\(error)", "no installed font has '\u{F0000}' (U+F0000); DejaVu Sans lacks it and so does every fallback")
        }
        XCTAssertThrowsError(try layout("a", FontRequest(.family("No Such Family")))) { error in
            guard case FontError.unknownFamily("No Such Family", let installed)? = error as? FontError else { return XCTFail("\(error)") }
            XCTAssertTrue(installed.contains("DejaVu Sans"))
        }
        XCTAssertThrowsError(try layout("a", FontRequest(.file(path: "/nonexistent/x.ttf", index: 0)))) { error in
            XCTAssertEqual(error as? FontError, .noSuchFile(path: "/nonexistent/x.ttf"))
        }
        XCTAssertThrowsError(try layout("a", size: 5000)) { error in
            XCTAssertEqual("\(error)", "text 5000 pixels per em is too large; at most 2048 (a smaller size or output)")
        }
    }
}
