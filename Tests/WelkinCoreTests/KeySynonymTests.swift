// "Did you mean" for keys written from habit (CSS, SwiftUI): one synonym table for every kind.

import XCTest
@testable import WelkinCore

final class KeySynonymTests: XCTestCase {
    /// The first error decoding `json` gives, as the CLI prints it.
    func error(_ json: String) -> String? {
        do {
            _ = try SceneLoader.decode(json, file: "s.json")
            return nil
        } catch { return "\(error)" }
    }

    func text(_ keys: String) -> String? {
        error("{\"layers\": [{\"type\": \"text\", \"string\": \"Hi\", \(keys)}]}")
    }

    func testTextLayerSynonyms() {
        XCTAssertEqual(text("\"fontSize\": 40"), "s.json: layers[0].fontSize: unknown key 'fontSize'; did you mean 'size'?")
        XCTAssertEqual(text("\"font-size\": 40"), "s.json: layers[0].font-size: unknown key 'font-size'; did you mean 'size'?")
        XCTAssertEqual(text("\"fontWeight\": \"bold\""), "s.json: layers[0].fontWeight: unknown key 'fontWeight'; did you mean 'weight'?")
        XCTAssertEqual(text("\"fontFamily\": \"Sans\""), "s.json: layers[0].fontFamily: unknown key 'fontFamily'; did you mean 'font'?")
        XCTAssertEqual(text("\"text\": \"Hello\""), "s.json: layers[0].text: unknown key 'text'; did you mean 'string'?")
        XCTAssertEqual(text("\"textColor\": \"red\""), "s.json: layers[0].textColor: unknown key 'textColor'; did you mean 'color'?")
        XCTAssertEqual(text("\"colour\": \"red\""), "s.json: layers[0].colour: unknown key 'colour'; did you mean 'color'?")
        XCTAssertEqual(text("\"textAlign\": \"center\""), "s.json: layers[0].textAlign: unknown key 'textAlign'; did you mean 'alignment'?")
        XCTAssertEqual(text("\"lineHeight\": 4"), "s.json: layers[0].lineHeight: unknown key 'lineHeight'; did you mean 'lineSpacing'?")
    }

    /// The same table serves every kind, and each gets the key its own table has.
    func testOtherKindsUseTheSameTable() {
        XCTAssertEqual(error("{\"color\": \"red\"}"), "s.json: color: unknown key 'color'; did you mean 'background'?")
        XCTAssertEqual(error("{\"backgroundColor\": \"red\"}"), "s.json: backgroundColor: unknown key 'backgroundColor'; did you mean 'background'?")
        XCTAssertEqual(error("{\"layers\": [{\"type\": \"linearGradient\", \"colors\": [\"red\"], \"stops\": [\"red\"]}]}"),
                       "s.json: layers[0].colors: unknown key 'colors'; did you mean 'stops'?")
        XCTAssertEqual(error("{\"layers\": [{\"type\": \"linearGradient\", \"startPoint\": \"top\", \"stops\": [\"red\"]}]}"),
                       "s.json: layers[0].startPoint: unknown key 'startPoint'; did you mean 'start'?")
        XCTAssertEqual(error("{\"layers\": [{\"type\": \"linearGradient\", \"stops\": [{\"color\": \"red\", \"offset\": 0}]}]}"),
                       "s.json: layers[0].stops[0].offset: unknown key 'offset'; did you mean 'location'?")
        XCTAssertEqual(error("{\"layers\": [{\"type\": \"radialGradient\", \"alpha\": 0.5, \"stops\": [\"red\"]}]}"),
                       "s.json: layers[0].alpha: unknown key 'alpha'; did you mean 'opacity'?")
    }

    /// Near spellings still work, and a synonym whose key the table lacks falls back to them.
    func testNearSpellingsStillWork() {
        XCTAssertEqual(text("\"sise\": 4"), "s.json: layers[0].sise: unknown key 'sise'; did you mean 'size'?")
        XCTAssertEqual(error("{\"layers\": [{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"color\": []}]}"),
                       "s.json: layers[0].color: unknown key 'color'; did you mean 'colors'?")
    }

    /// Every synonym points at keys some table has, and no synonym is itself a key of a table
    /// that also holds its target (it would never be reported there).
    func testTheTableNamesRealKeys() {
        let tables = SceneFormat.tables
        let allKeys = Set(tables.flatMap(\.keys))
        for (synonym, targets) in KeySynonyms.table {
            for target in targets { XCTAssertTrue(allKeys.contains(target), "\(synonym) → \(target)") }
        }
    }
}
