import Foundation
import XCTest

/// `welkin schema` checked by a standard validator (Python's `jsonschema`, which `make deps` installs),
/// and `welkin validate` listing several errors at once.
final class SchemaCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Runs python3 with `script`; returns its standard output.
    func python(_ script: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testSchemaIsValidDraft2020AndAcceptsEveryExampleAndRejectsMistakes() throws {
        let r = try EndToEndTests.run(["schema"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let schemaPath = directory.appendingPathComponent("welkin.schema.json").path
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let scenes = try EndToEndTests.exampleFiles().map { EndToEndTests.repository.appendingPathComponent("Scenes/" + $0).path }
        XCTAssertGreaterThan(scenes.count, 10)
        // Each mistake is a JSON pointer into a copy of snow.json and the value put there.
        let script = """
        import json, sys, copy, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        v = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            errors = list(v.iter_errors(json.load(open(path))))
            print("ok" if not errors else "INVALID", path, [e.message[:120] for e in errors[:2]])
        snow = json.load(open([p for p in sys.argv[2:] if p.endswith("/snow.json")][0]))
        def mutated(change):
            s = copy.deepcopy(snow); change(s); return s
        mistakes = {
            "wrong type": lambda s: s["layers"][1]["cells"][0].__setitem__("lifetime", "long"),
            "unknown key": lambda s: s["layers"][1]["cells"][0].__setitem__("lifetme", 3),
            "out of range": lambda s: s["layers"][1]["cells"][0].__setitem__("birthRate", -1),
            "unknown layer type": lambda s: s["layers"].append({"type": "teapot"}),
            "bad colour": lambda s: s.__setitem__("background", "#12345"),
            "top-level typo": lambda s: s.__setitem__("sise", [1, 1]),
        }
        for name, change in mistakes.items():
            print("rejected" if list(v.iter_errors(mutated(change))) else "ACCEPTED", name)
        print("ok" if not list(v.iter_errors({"$schema": "x", "metadata": {"any": [1, None]}, "layers": []})) else "INVALID", "metadata")
        """
        let result = try python(script, arguments: [schemaPath] + scenes)
        XCTAssertEqual(result.status, 0, result.output)
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("ok ") }.count, scenes.count + 1, result.output)
        XCTAssertEqual(lines.filter { $0.hasPrefix("rejected ") }.count, 6, result.output)
        XCTAssertFalse(result.output.contains("INVALID") || result.output.contains("ACCEPTED"), result.output)
    }

    func testSchemaMarkdownAndUsage() throws {
        let r = try EndToEndTests.run(["schema", "--markdown"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasPrefix("### `scene`\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("| `birthRate` | number 0…1000000 |"), r.stdout)
        let bad = try EndToEndTests.run(["schema", "extra"])
        XCTAssertEqual(bad.status, 2)
    }

    func testValidatePrintsEveryError() throws {
        let path = directory.appendingPathComponent("many.json").path
        try Data("""
        {"layers": [{"type": "sky", "horizon": 9, "fieldOfView": 0}, {"type": "cloudCover", "octaves": 20}], "metadata": {"n": 1}}
        """.utf8).write(to: URL(fileURLWithPath: path))
        let r = try EndToEndTests.run(["validate", path, "Scenes/snow.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "Scenes/snow.json: ok\n")
        XCTAssertEqual(r.stderr, """
        \(path): layers[0].horizon: expected a unit y in 0.05…2, got 9
        \(path): layers[0].fieldOfView: expected a field of view in 1…360 degrees, got 0
        \(path): layers[1].octaves: expected a whole number in 1…8, got 20

        """)
    }
}
