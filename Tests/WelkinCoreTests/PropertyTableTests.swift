import XCTest
import WelkinTestSupport
@testable import WelkinCore

/// The property tables and the decoders agree: every key a table declares is read, checked against
/// its range, and accepts its own default; the generated docs and schema are what is checked in.
final class PropertyTableTests: XCTestCase {
    static let repository = Repository.root

    /// How to place an object of each table inside a scene: the object's other members (raw JSON,
    /// in order) and a function that wraps the object into a whole scene, with the JSON path of the object.
    struct Fixture: Sendable {
        var members: [(String, String)]
        var wrap: @Sendable (String) -> String
        var path: String
    }

    static let aurora = repository.appendingPathComponent("Scenes/aurora.frag").path
    static let noise = repository.appendingPathComponent("Scenes/noise-rgba.png").path
    static let square = "[[0, 0], [1, 0], [0, 1], [1, 1]]"
    static let fourReds = "[\"red\", \"red\", \"red\", \"red\"]"

    static func layer(_ inner: String) -> String { "{\"layers\": [\(inner)]}" }
    /// A text layer's shadow radius set to `value` (the animated number the animation tables are tried on).
    static func shadowRadius(_ value: String) -> String { layer("{\"type\": \"text\", \"string\": \"Hi\", \"shadow\": {\"radius\": \(value)}}") }
    /// A radius animated by `{name: parameters}`.
    static func animation(_ name: String, _ parameters: String) -> String {
        shadowRadius("{\"from\": 0, \"to\": 1, \"animation\": {\"\(name)\": \(parameters)}}")
    }
    static func mesh(_ extra: String) -> String {
        layer("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"points\": \(square), \"colors\": \(fourReds)\(extra)}")
    }
    static func walk(_ extra: String) -> String {
        mesh(", \"animation\": {\"type\": \"randomWalk\", \"interval\": 1, \"step\": 0.1, \"ranges\": [\(extra)]}")
    }

    static let fixtures: [String: Fixture] = {
        var f: [String: Fixture] = [
            "scene": Fixture(members: [], wrap: { $0 }, path: ""),
            "shader": Fixture(members: [("type", "\"shader\""), ("fragment", "\"\(aurora)\"")], wrap: layer, path: "layers[0]."),
            "shaderChannel": Fixture(members: [("image", "\"\(noise)\"")],
                                     wrap: { layer("{\"type\": \"shader\", \"fragment\": \"\(aurora)\", \"channels\": [\($0)]}") },
                                     path: "layers[0].channels[0]."),
            "shaderBuffer": Fixture(members: [("fragment", "\"\(aurora)\"")],
                                    wrap: { layer("{\"type\": \"shader\", \"fragment\": \"\(aurora)\", \"buffers\": {\"A\": \($0)}}") },
                                    path: "layers[0].buffers.A."),
            "shaderCube": Fixture(members: [("fragment", "\"\(aurora)\"")],
                                  wrap: { layer("{\"type\": \"shader\", \"fragment\": \"\(aurora)\", \"cube\": \($0)}") },
                                  path: "layers[0].cube."),
            "meshGradient": Fixture(members: [("type", "\"meshGradient\""), ("width", "2"), ("height", "2"), ("points", square), ("colors", fourReds)],
                                    wrap: layer, path: "layers[0]."),
            // Physical, so the physical model's keys are accepted too (the palette's are read either way).
            "sky": Fixture(members: [("type", "\"sky\""), ("model", "\"physical\"")], wrap: layer, path: "layers[0]."),
            "atmosphere": Fixture(members: [], wrap: { layer("{\"type\": \"sky\", \"model\": \"physical\", \"atmosphere\": \($0)}") },
                                  path: "layers[0].atmosphere."),
            "lightPollution": Fixture(members: [("zenith", "19")], wrap: { layer("{\"type\": \"sky\", \"model\": \"physical\", \"lightPollution\": \($0)}") },
                                      path: "layers[0].lightPollution."),
            "fog": Fixture(members: [("visibility", "120")], wrap: { layer("{\"type\": \"sky\", \"model\": \"physical\", \"fog\": \($0)}") },
                           path: "layers[0].fog."),
            "cloudSprites": Fixture(members: [("type", "\"cloudSprites\"")], wrap: layer, path: "layers[0]."),
            "cloudCover": Fixture(members: [("type", "\"cloudCover\"")], wrap: layer, path: "layers[0]."),
            "clouds": Fixture(members: [("type", "\"clouds\"")], wrap: layer, path: "layers[0]."),
            "emitter": Fixture(members: [("type", "\"emitter\""), ("cells", "[]")], wrap: layer, path: "layers[0]."),
            "gradientStop": Fixture(members: [("color", "\"red\""), ("location", "0")],
                                    wrap: { layer("{\"type\": \"linearGradient\", \"stops\": [\($0)]}") }, path: "layers[0].stops[0]."),
            "weather": Fixture(members: [], wrap: { "{\"weather\": \($0)}" }, path: "weather."),
            "camera": Fixture(members: [], wrap: { "{\"camera\": \($0)}" }, path: "camera."),
            "numberAnimation": Fixture(members: [("from", "0"), ("to", "1")], wrap: shadowRadius, path: "layers[0].shadow.radius."),
            "colorAnimation": Fixture(members: [("from", "\"red\""), ("to", "\"blue\"")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Hi\", \"shadow\": {\"color\": \($0)}}") }, path: "layers[0].shadow.color."),
            "animation": Fixture(members: [("easeIn", "{}")], wrap: { shadowRadius("{\"from\": 0, \"to\": 1, \"animation\": \($0)}") },
                                 path: "layers[0].shadow.radius.animation."),
            "timingCurveAnimation": Fixture(members: [("controlPoints", "[0.4, 0, 0.6, 1]")], wrap: { animation("timingCurve", $0) },
                                            path: "layers[0].shadow.radius.animation.timingCurve."),
            "easingCurve": Fixture(members: [("timingCurve", "{\"controlPoints\": [0, 0, 1, 1]}")],
                                   wrap: { shadowRadius("{\"keyframes\": [[0, 0], [1, 1]], \"easing\": \($0)}") }, path: "layers[0].shadow.radius.easing."),
            "springAnimation": Fixture(members: [], wrap: { animation("spring", $0) }, path: "layers[0].shadow.radius.animation.spring."),
            "linearAnimation": Fixture(members: [], wrap: { animation("linear", $0) }, path: "layers[0].shadow.radius.animation.linear."),
            "easeInAnimation": Fixture(members: [], wrap: { animation("easeIn", $0) }, path: "layers[0].shadow.radius.animation.easeIn."),
            "easeOutAnimation": Fixture(members: [], wrap: { animation("easeOut", $0) }, path: "layers[0].shadow.radius.animation.easeOut."),
            "easeInOutAnimation": Fixture(members: [], wrap: { animation("easeInOut", $0) }, path: "layers[0].shadow.radius.animation.easeInOut."),
            "smoothAnimation": Fixture(members: [], wrap: { animation("smooth", $0) }, path: "layers[0].shadow.radius.animation.smooth."),
            "snappyAnimation": Fixture(members: [], wrap: { animation("snappy", $0) }, path: "layers[0].shadow.radius.animation.snappy."),
            "bouncyAnimation": Fixture(members: [], wrap: { animation("bouncy", $0) }, path: "layers[0].shadow.radius.animation.bouncy."),
            "weatherScheduleEntry": Fixture(members: [("at", "0"), ("preset", "\"rain\"")],
                                            wrap: { "{\"weather\": {\"schedule\": [\($0)]}}" }, path: "weather.schedule[0]."),
            "precipitation": Fixture(members: [], wrap: { "{\"weather\": {\"precipitation\": \($0)}}" }, path: "weather.precipitation."),
            "skyKeyframe": Fixture(members: [("elevation", "0"), ("zenith", "\"red\""), ("horizon", "\"blue\"")],
                                   wrap: { layer("{\"type\": \"sky\", \"palette\": [\($0)]}") }, path: "layers[0].palette[0]."),
            "emitterCell": Fixture(members: [], wrap: { layer("{\"type\": \"emitter\", \"cells\": [\($0)]}") }, path: "layers[0].cells[0]."),
            "sway": Fixture(members: [], wrap: { layer("{\"type\": \"emitter\", \"cells\": [{\"sway\": \($0)}]}") }, path: "layers[0].cells[0].sway."),
            "orbit": Fixture(members: [], wrap: { layer("{\"type\": \"emitter\", \"cells\": [{\"orbit\": \($0)}]}") }, path: "layers[0].cells[0].orbit."),
            "meshBezierPoint": Fixture(members: ["position", "leading", "top", "trailing", "bottom"].map { ($0, "[0.5, 0.5]") },
                                       wrap: { o in layer("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"bezierPoints\": [\(o), \(o), \(o), \(o)], \"colors\": \(fourReds)}") },
                                       path: "layers[0].bezierPoints[0]."),
            "meshColorKeyframe": Fixture(members: [("time", "1"), ("colors", fourReds)], wrap: { mesh(", \"colorKeyframes\": [\($0)]") },
                                         path: "layers[0].colorKeyframes[0]."),
            "meshRandomWalk": Fixture(members: [("type", "\"randomWalk\""), ("interval", "1"), ("step", "0.1"), ("ranges", "[]")],
                                      wrap: { mesh(", \"animation\": \($0)") }, path: "layers[0].animation."),
            "meshRandomWalkRange": Fixture(members: [("index", "0")], wrap: { walk($0) }, path: "layers[0].animation.ranges[0]."),
            "text": Fixture(members: [("type", "\"text\""), ("string", "\"Sky\"")], wrap: layer, path: "layers[0]."),
            "group": Fixture(members: [("type", "\"group\""), ("layers", "[{\"type\": \"linearGradient\", \"stops\": [\"red\"]}]")],
                             wrap: layer, path: "layers[0]."),
            "shadow": Fixture(members: [], wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"shadow\": \($0)}") },
                              path: "layers[0].shadow."),
            "numberKeyframes": Fixture(members: [("keyframes", "[[0, 0.5], [1, 1]]")],
                                       wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"shadow\": {\"opacity\": \($0)}}") },
                                       path: "layers[0].shadow.opacity."),
            "colorKeyframes": Fixture(members: [("keyframes", "[[0, \"red\"], [1, \"blue\"]]")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"color\": \($0)}") },
                                      path: "layers[0].color."),
            "transform": Fixture(members: [], wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"transform\": \($0)}") },
                                 path: "layers[0].transform."),
            "pointKeyframes": Fixture(members: [("keyframes", "[[0, [0, 0]], [1, [10, 5]]]")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"transform\": {\"offset\": \($0)}}") },
                                      path: "layers[0].transform.offset."),
            "pointAnimation": Fixture(members: [("from", "[0, 0]"), ("to", "[10, 5]")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"transform\": {\"offset\": \($0)}}") },
                                      path: "layers[0].transform.offset."),
            "scaleKeyframes": Fixture(members: [("keyframes", "[[0, 1], [1, [1.2, 0.8]]]")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"transform\": {\"scale\": \($0)}}") },
                                      path: "layers[0].transform.scale."),
            "scaleAnimation": Fixture(members: [("from", "1"), ("to", "1.1")],
                                      wrap: { layer("{\"type\": \"text\", \"string\": \"Sky\", \"transform\": {\"scale\": \($0)}}") },
                                      path: "layers[0].transform.scale."),
            "meshSpring": Fixture(members: [("duration", "1")],
                                  wrap: { mesh(", \"animation\": {\"type\": \"randomWalk\", \"interval\": 1, \"step\": 0.1, \"ranges\": [], \"spring\": \($0)}") },
                                  path: "layers[0].animation.spring."),
        ]
        for kind in ["linearGradient", "radialGradient", "angularGradient", "ellipticalGradient"] {
            f[kind] = Fixture(members: [("type", "\"\(kind)\""), ("stops", "[\"red\"]")], wrap: layer, path: "layers[0].")
        }
        return f
    }()

    /// Defaults that are valid only with other keys (noted per key).
    static let defaultNeedsOtherKeys: Set<String> = [
        "sky.timeScale", "sky.latitude", "sky.longitude",  // need `date`
        // The shell must stay a shell, the observer inside it, extinction at least scattering.
        "atmosphere.groundRadius", "atmosphere.topRadius", "atmosphere.altitude", "atmosphere.mieExtinction",
        // An animation's ends take the animated property's own range (the fixture's: a shadow radius, 0…64).
        "numberAnimation.from", "numberAnimation.to",
        "pointAnimation.from", "pointAnimation.to", "scaleAnimation.from", "scaleAnimation.to",
        // A channel's size is for noise (the fixture's channel is an image).
        "shaderChannel.size",
    ]

    func scene(_ fixture: Fixture, _ key: String, _ value: String) -> String {
        var members = fixture.members.filter { $0.0 != key }
        members.append((key, value))
        return fixture.wrap("{" + members.map { "\(JSONValue.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
    }

    func decodeError(_ json: String) -> SceneError? {
        do { _ = try SceneLoader.decode(json, file: "t.json"); return nil } catch let e as SceneError { return e } catch {
            XCTFail("unexpected \(error)"); return nil
        }
    }

    func testEveryTableHasAFixture() {
        for table in SceneFormat.tables { XCTAssertNotNil(Self.fixtures[table.name], table.name) }
        XCTAssertEqual(Set(SceneFormat.tables.map(\.name)).count, SceneFormat.tables.count, "table names are unique")
    }

    func testTheFixturesThemselvesDecode() {
        for table in SceneFormat.tables {
            guard let fixture = Self.fixtures[table.name] else { continue }
            let json = fixture.wrap("{" + fixture.members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
            XCTAssertNil(decodeError(json), "\(table.name): \(json)")
        }
    }

    /// A decoder that forgot to read a key would let any value through: every key must reject a wrong one.
    func testEveryKeyIsReadAndChecked() {
        for table in SceneFormat.tables {
            guard let fixture = Self.fixtures[table.name] else { continue }
            for p in table.properties {
                var wrong: [String] = []
                switch p.type {
                case .any: continue
                case .map: wrong = ["[]"]
                case .number(let r) where r.upperBound < .greatestFiniteMagnitude:
                    wrong = [JSONValue.numberText(r.upperBound + max(1, (r.upperBound - r.lowerBound))), "\"x\""]
                case .integer(let r):
                    wrong = [String(r.upperBound + max(1, r.upperBound - r.lowerBound)), "\"x\"", "0.5"]
                default: wrong = ["{\"zz\": 1}"]
                }
                for value in wrong {
                    let json = scene(fixture, p.key, value)
                    guard let e = decodeError(json) else { XCTFail("\(table.name).\(p.key) = \(value) was accepted"); continue }
                    XCTAssertTrue(e.path.hasPrefix(fixture.path + p.key), "\(table.name).\(p.key) = \(value): \(e)")
                }
            }
        }
    }

    func testEveryDefaultIsAccepted() {
        var checked = 0
        for table in SceneFormat.tables {
            guard let fixture = Self.fixtures[table.name] else { continue }
            for p in table.properties where !Self.defaultNeedsOtherKeys.contains("\(table.name).\(p.key)") {
                guard let value = SceneSchema.defaultJSON(p.defaultValue) else { continue }
                let json = scene(fixture, p.key, value.serialized())
                XCTAssertNil(decodeError(json), "\(table.name).\(p.key) = \(value.serialized())")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 80)
    }

    /// Each number's table range is what the decoder enforces: its two ends are accepted.
    func testRangeEndsAreAccepted() {
        for table in SceneFormat.tables {
            guard let fixture = Self.fixtures[table.name] else { continue }
            for p in table.properties where !Self.defaultNeedsOtherKeys.contains("\(table.name).\(p.key)") {
                guard case .number(let r) = p.type, r.upperBound < .greatestFiniteMagnitude else { continue }
                for end in [r.lowerBound, r.upperBound] {
                    let json = scene(fixture, p.key, JSONValue.numberText(end))
                    if let e = decodeError(json), e.path.hasPrefix(fixture.path + p.key) {
                        // Strict lower bounds said in the sentence ("an interval > 0 seconds", "after 0") are the only exception.
                        XCTAssertTrue(e.message.contains("> 0") || e.message.contains("0 < d") || e.message.contains("after 0"), "\(table.name).\(p.key) = \(end): \(e)")
                    }
                }
            }
        }
    }

    func testGeneratedDocsAreCurrent() throws {
        let doc = try String(contentsOf: Self.repository.appendingPathComponent("docs/scene-format.md"), encoding: .utf8)
        let begin = "<!-- BEGIN generated by `welkin schema --markdown` -->\n", end = "<!-- END generated -->"
        let start = try XCTUnwrap(doc.range(of: begin)), stop = try XCTUnwrap(doc.range(of: end))
        XCTAssertEqual(String(doc[start.upperBound..<stop.lowerBound]), SceneSchema.markdown(),
                       "docs/scene-format.md is stale: run `welkin schema --markdown` and paste it between the markers")
        let schema = try String(contentsOf: Self.repository.appendingPathComponent("docs/welkin.schema.json"), encoding: .utf8)
        XCTAssertEqual(schema, SceneSchema.jsonSchema().serialized(indent: 2) + "\n",
                       "docs/welkin.schema.json is stale: run `welkin schema > docs/welkin.schema.json`")
    }

    /// The fuzzer's dictionary (Tests/Fuzz/welkin.dict, `make fuzz`) names every key of every table,
    /// so libFuzzer can splice in keys added after the seed corpus was written.
    func testFuzzDictionaryNamesEveryKey() throws {
        let dict = try String(contentsOf: Self.repository.appendingPathComponent("Tests/Fuzz/welkin.dict"), encoding: .utf8)
        let entries = Set(dict.split(separator: "\n").map(String.init))
        var missing: [String] = []
        for table in SceneFormat.tables {
            for key in table.keys where !entries.contains("\"\\\"\(key)\\\"\"") && !missing.contains(key) { missing.append(key) }
        }
        XCTAssertEqual(missing, [], "add these keys to Tests/Fuzz/welkin.dict as \"\\\"key\\\"\"")
    }

    func testSchemaDraftAndLayerKinds() throws {
        let schema = SceneSchema.jsonSchema()
        XCTAssertEqual(schema["$schema"].flatMap { if case .string(let s) = $0.kind { return s } else { return nil } }, SceneSchema.draft)
        guard case .object(let defs)? = schema["$defs"]?.kind else { return XCTFail("no $defs") }
        for kind in LayerKinds.all { XCTAssertTrue(defs.contains { $0.key == kind.type }, kind.type) }
    }

    /// The registration list is the one shared place naming every kind: in the sources, a kind's
    /// `type` string appears only in the kind's own decoding file (scene JSON text aside, and
    /// KeySynonyms' entries, `"text": ["string"]`, where the word is a key people write, not a kind).
    func testEachKindIsNamedOnlyInItsOwnFile() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var texts: [(String, [Substring])] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            texts.append((file, text.split(separator: "\n")))
        }
        for kind in LayerKinds.all {
            let literal = "\"\(kind.type)\""
            let naming = texts.filter { file, lines in
                lines.contains { $0.contains(literal) && !$0.contains("\"type\":") && !$0.contains("{" + literal)
                    && !(file == "WelkinCore/Scene/PropertyTable.swift" && $0.contains(literal + ": [")) }
            }.map(\.0)
            XCTAssertEqual(naming.count, 1, "\(kind.type) is named in \(naming)")
            XCTAssertFalse(naming.first?.hasPrefix("WelkinCore/Scene/LayerKinds") ?? true, "\(kind.type): LayerKinds names kinds by their values, not their strings")
        }
    }

    // MARK: All errors at once, metadata, limits

    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "welkin-tables-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testValidateListsEveryErrorInFileOrder() throws {
        let path = try write("""
        {
          "sizee": [10, 10],
          "layers": [
            {"type": "linearGradient", "stops": ["#ff0000", "blu"], "start": "middle"},
            {"type": "emitter", "cells": [{"birthRate": -1, "velocty": 3}], "shape": "cube"},
            {"type": "teapot"}
          ]
        }
        """)
        let errors = SceneLoader.validate(path: path).map { "\($0.path): \($0.message)" }
        XCTAssertEqual(errors, [
            "sizee: unknown key 'sizee'; did you mean 'size'?",
            "layers[0].stops[1]: unknown colour name 'blu'; did you mean 'blue'?",
            "layers[0].start: unknown unit point 'middle' (expected one of: zero, center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing)",
            "layers[1].cells[0].birthRate: expected a number in 0…1000000, got -1",
            "layers[1].cells[0].velocty: unknown key 'velocty'; did you mean 'velocity'?",
            "layers[1].shape: unknown emitter shape 'cube' (expected one of: point, line, rectangle, circle)",
            "layers[2].type: unknown layer type 'teapot' (expected one of: \(SceneLoader.layerTypeNames.joined(separator: ", ")))",
        ])
        // The first of them is what loading throws.
        XCTAssertThrowsError(try SceneLoader.load(path: path)) { XCTAssertEqual(($0 as? SceneError)?.path, "sizee") }
    }

    func testValidateStopsAtFiftyErrors() throws {
        let layers = (0..<80).map { _ in "{\"type\": \"sky\", \"horizon\": 9}" }.joined(separator: ", ")
        let path = try write("{\"layers\": [\(layers)]}")
        XCTAssertEqual(SceneLoader.validate(path: path).count, Diagnostics.maximumErrors)
    }

    func testMetadataAndSchemaKeysAreKept() throws {
        let scene = try SceneLoader.decode("""
        {"$schema": "../docs/welkin.schema.json", "metadata": {"author": "me", "notes": [1, {"x": null}]}, "layers": []}
        """)
        XCTAssertEqual(scene.metadata?["author"].flatMap { if case .string(let s) = $0.kind { return s } else { return nil } }, "me")
    }

    func testArraysOverTheirLimitAreRefusedBeforeDecodingTheirElements() {
        // Elements that would each be an error: only the count is reported.
        let stops = Array(repeating: "\"nocolour\"", count: 100_000).joined(separator: ",")
        XCTAssertEqual(decodeError(Self.layer("{\"type\": \"linearGradient\", \"stops\": [\(stops)]}"))?.description,
                       "t.json: layers[0].stops: 100000 stops, at most 64")
        let cells = Array(repeating: "{\"birthRate\": -1}", count: 10_000).joined(separator: ",")
        XCTAssertEqual(decodeError(Self.layer("{\"type\": \"emitter\", \"cells\": [\(cells)]}"))?.description,
                       "t.json: layers[0].cells: 10000 cells, at most 256")
        let points = Array(repeating: "[0.5, 0.5]", count: 100_000).joined(separator: ",")
        XCTAssertEqual(decodeError(Self.layer("{\"type\": \"meshGradient\", \"width\": 64, \"height\": 64, \"points\": [\(points)], \"colors\": []}"))?.description,
                       "t.json: layers[0].points: expected 4096 (width 64 × height 64) points, got 100000")
    }

    func testJSONValueCountIsBounded() throws {
        let text = "[" + Array(repeating: "0", count: JSONParser.maximumValues).joined(separator: ",") + "]"
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "more than 1000000 values; a scene holds at most 1000000")
        }
        XCTAssertNoThrow(try JSONParser.parse("[" + Array(repeating: "0", count: JSONParser.maximumValues - 1).joined(separator: ",") + "]"))
    }

    func testJSONPositionsOnOneLongLine() throws {
        // A minified file: the column of a late value is still right.
        let items = Array(repeating: "1", count: 50_000).joined(separator: ",")
        let text = "[\(items),x]"
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.position, SourcePosition(line: 1, column: text.count - 1))
        }
    }
}
