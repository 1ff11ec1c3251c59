import XCTest
import WelkinTestSupport
@testable import WelkinCore

/// Editing a scene's text one value at a time: everything not edited keeps its bytes.
final class SceneDocumentTests: XCTestCase {
    let text = """
    {
      "name": "Edit me",
      "size": [1280, 720],
      "layers": [
        {
          "type": "linearGradient",
          "start": "top",
          "stops": [
            {"color": [0.1, 0.3, 0.80], "location": 0},
            {"color": "#6699FF", "location": 1.0}
          ]
        },
        {"type": "radialGradient", "endRadius": 2.5e2, "stops": ["white", "clear"]}
      ]
    }

    """

    func path(_ s: String) throws -> JSONPath { try JSONPath(parsing: s) }

    func testByteRangesCoverEachValueExactly() throws {
        let bytes = Array(text.utf8)
        let root = try JSONParser.parse(bytes)
        func spelled(_ v: JSONValue?) -> String { String(decoding: bytes[v!.byteRange], as: UTF8.self) }
        XCTAssertEqual(root.byteRange, 0..<(bytes.count - 1))
        XCTAssertEqual(spelled(root["size"]), "[1280, 720]")
        XCTAssertEqual(spelled(root["name"]), "\"Edit me\"")
        guard case .array(let layers) = root["layers"]!.kind else { return XCTFail() }
        XCTAssertEqual(spelled(layers[1]["endRadius"]), "2.5e2")
        XCTAssertEqual(spelled(layers[1]), #"{"type": "radialGradient", "endRadius": 2.5e2, "stops": ["white", "clear"]}"#)
        // Keys: where each member's key starts, and positions are as before.
        XCTAssertEqual(root.keyOffsets.map { String(decoding: bytes[$0..<$0 + 6], as: UTF8.self) }, ["\"name\"", "\"size\"", "\"layer"])
        XCTAssertEqual(root["layers"]!.position, SourcePosition(line: 4, column: 13))
    }

    func testPaths() throws {
        XCTAssertEqual(try path("layers[1].stops[0].color").components,
                       [.key("layers"), .index(1), .key("stops"), .index(0), .key("color")])
        XCTAssertEqual(try path("$").components, [])
        XCTAssertEqual(try path("$.weather.transition").description, "weather.transition")
        XCTAssertEqual(try path("$schema").components, [.key("$schema")])
        for bad in ["", "layers[", "layers[-1]", "layers[x]", "a..b", "a.", "[0]]"] {
            XCTAssertThrowsError(try path(bad), bad)
        }
    }

    func testReplacingAValueKeepsEveryOtherByte() throws {
        let document = try SceneDocument(text: text)
        let edited = String(decoding: try document.replacing(path("layers[0].stops[0].color"), with: " [1, 0, 0] "), as: UTF8.self)
        XCTAssertEqual(edited, text.replacingOccurrences(of: "[0.1, 0.3, 0.80]", with: "[1, 0, 0]"))
        let radius = String(decoding: try document.replacing(path("layers[1].endRadius"), with: "300"), as: UTF8.self)
        XCTAssertEqual(radius, text.replacingOccurrences(of: "2.5e2", with: "300"))
        XCTAssertNoThrow(try SceneLoader.decode(edited))
    }

    func testAddingAMissingKeyIndentsItAsItsSiblings() throws {
        let document = try SceneDocument(text: text)
        // A multi-line object: a line of its own, indented as the other keys.
        let top = String(decoding: try document.replacing(path("background"), with: "\"#102030\""), as: UTF8.self)
        XCTAssertEqual(top, text.replacingOccurrences(of: "\"clear\"]}\n  ]\n}", with: "\"clear\"]}\n  ],\n  \"background\": \"#102030\"\n}"))
        let layer = String(decoding: try document.replacing(path("layers[0].opacity"), with: "0.5"), as: UTF8.self)
        XCTAssertTrue(layer.contains("        {\"color\": \"#6699FF\", \"location\": 1.0}\n      ],\n      \"opacity\": 0.5\n    },"), layer)
        // A one-line object: on the same line.
        let inline = String(decoding: try document.replacing(path("layers[1].opacity"), with: "0.25"), as: UTF8.self)
        XCTAssertTrue(inline.contains(#""stops": ["white", "clear"], "opacity": 0.25}"#), inline)
        // An empty object.
        let empty = try SceneDocument(text: "{\"metadata\": {}}")
        XCTAssertEqual(String(decoding: try empty.replacing(path("metadata.note"), with: "1"), as: UTF8.self), "{\"metadata\": {\"note\": 1}}")
        // A multi-line value added on its own line is indented with it.
        let palette = String(decoding: try document.replacing(path("metadata"), with: "{\n  \"a\": 1\n}"), as: UTF8.self)
        XCTAssertTrue(palette.hasSuffix("  ],\n  \"metadata\": {\n    \"a\": 1\n  }\n}\n"), palette)
    }

    /// Issue 27: the viewer materialises a default (the sky's palette) as indented JSON; inserted
    /// into a one-line layer it stays on that line, and in a multi-line one each keyframe takes one
    /// line at the siblings' indentation, not a 30-line block at column 0.
    func testInsertedDefaultsFollowTheLayersFormatting() throws {
        guard let palette = SkyLayer.kind.properties["palette"]?.defaultJSON else { return XCTFail("the palette has a default") }
        let pretty = palette.serialized(indent: 2)
        XCTAssertGreaterThan(pretty.split(separator: "\n").count, 20, "the viewer's text is many lines")
        guard case .array(let keyframes) = palette.kind else { return XCTFail() }

        let oneLine = "{\n  \"layers\": [\n    {\"type\": \"sky\", \"sunElevation\": 10}\n  ]\n}\n"
        let edited = String(decoding: try SceneDocument(text: oneLine).replacing(path("layers[0].palette"), with: pretty), as: UTF8.self)
        XCTAssertEqual(edited.split(separator: "\n").count, 5, edited)
        XCTAssertTrue(edited.contains("    {\"type\": \"sky\", \"sunElevation\": 10, \"palette\": [{\"elevation\": "), edited)
        let decoded = try SceneLoader.decode(edited)
        XCTAssertEqual(try SceneDocument(text: edited).value(at: path("layers[0].palette"))?.serialized(), palette.serialized())
        XCTAssertEqual(decoded.layers.count, 1)

        let multiLine = "{\n\t\"layers\": [\n\t\t{\n\t\t\t\"type\": \"sky\",\n\t\t\t\"sunElevation\": 10\n\t\t}\n\t]\n}\n"
        let indented = String(decoding: try SceneDocument(text: multiLine).replacing(path("layers[0].palette"), with: pretty), as: UTF8.self)
        let lines = indented.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, multiLine.split(separator: "\n", omittingEmptySubsequences: false).count + keyframes.count + 2, indented)
        XCTAssertTrue(indented.contains("\t\t\t\"sunElevation\": 10,\n\t\t\t\"palette\": [\n\t\t\t\t{\"elevation\": "), indented)
        XCTAssertTrue(indented.contains("}\n\t\t\t]\n\t\t}\n"), indented)
        XCTAssertEqual(try SceneDocument(text: indented).value(at: path("layers[0].palette"))?.serialized(), palette.serialized())

        // Editing it again (the value now exists) keeps the same layout: one keyframe per line.
        let again = String(decoding: try SceneDocument(text: indented).replacing(path("layers[0].palette"), with: pretty), as: UTF8.self)
        XCTAssertEqual(again, indented)
        let againInline = String(decoding: try SceneDocument(text: edited).replacing(path("layers[0].palette"), with: pretty), as: UTF8.self)
        XCTAssertEqual(againInline, edited)
    }

    func testEditErrorsNameThePath() throws {
        let document = try SceneDocument(text: text)
        func message(_ p: String, _ v: String = "1") -> String {
            do { _ = try document.replacing(path(p), with: v); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("layers[5].opacity"), "layers[5]: out of range (layers has 2 elements)")
        XCTAssertEqual(message("name.first"), "name.first: name is a string, not an object")
        XCTAssertEqual(message("size.x"), "size.x: size is an array, not an object")
        XCTAssertEqual(message("name[0]"), "name[0]: name is a string, not an array")
        XCTAssertEqual(message("weather.transition"), "weather: no such key (add it first)")
        XCTAssertEqual(message("layers[0].opacity", "[1,"), "'[1,' is not a JSON value: unexpected end of file, expected a value (at column 4)")
    }

    func testLookupFollowsLayerKindsAndNestedTables() throws {
        let root = try SceneDocument(text: text).root
        XCTAssertEqual(SceneFormat.lookup(try path("layers[1].endRadius"), in: root)?.property?.unit, "pt")
        XCTAssertEqual(SceneFormat.lookup(try path("layers[0].stops[0].location"), in: root)?.property?.key, "location")
        XCTAssertEqual(SceneFormat.lookup(try path("layers[0].opacity"), in: root)?.property?.defaultValue.displayText, "1")
        XCTAssertEqual(SceneFormat.lookup(try path("background"), in: root)?.property?.defaultValue.displayText, "[0, 0, 0, 1]")
        XCTAssertNil(SceneFormat.lookup(try path("layers[0].nonsense"), in: root))
        let sky = try SceneDocument(text: #"{"weather": {"preset": "rain"}, "layers": [{"type": "sky"}]}"#).root
        XCTAssertEqual(SceneFormat.lookup(try path("layers[0].palette[0].zenith"), in: sky)?.property?.summary, "The colour overhead.")
        XCTAssertEqual(SceneFormat.lookup(try path("weather.transition"), in: sky)?.property?.unit, "s")
    }

    /// The panel shows and edits a copy of a sky's default palette: written into a file, it is the
    /// palette a sky without one has.
    func testTheDefaultPaletteAsJSONIsTheDefaultPalette() throws {
        let property = try XCTUnwrap(LayerKinds.kind("sky")?.properties["palette"])
        let json = try XCTUnwrap(property.defaultJSON).serialized(indent: 2)
        let scene = try SceneLoader.decode(#"{"layers": [{"type": "sky", "palette": "# + json + #"}]}"#)
        guard case .sky(let sky)? = scene.layers[0].content as? SkyContent else { return XCTFail() }
        XCTAssertEqual(sky.palette, SkyLayer.defaultPalette)
    }

    func testReplacingInsideAValueMadeInCode() throws {
        let value = try JSONParser.parse(#"{"a": [1, {"b": 2}], "c": 3}"#)
        XCTAssertEqual(value.replacing(try path("a[1].b").components[...], with: .number(5)).serialized(), #"{"a": [1, {"b": 5}], "c": 3}"#)
        XCTAssertEqual(value.replacing(try path("d").components[...], with: .bool(true)).serialized(), #"{"a": [1, {"b": 2}], "c": 3, "d": true}"#)
    }

    func testOneLineTextFoldsLinesButKeepsSpelling() throws {
        let document = try SceneDocument(text: text)
        let stops = try XCTUnwrap(try document.value(at: path("layers[0].stops")))
        XCTAssertEqual(document.oneLineText(of: stops), ##"[{"color": [0.1, 0.3, 0.80], "location": 0}, {"color": "#6699FF", "location": 1.0}]"##)
    }
}
