// Text scenes end to end, run as a user would: errors as `file: path: sentence` with status 1.

import Foundation
import XCTest
import WelkinTestSupport

final class TextCommandTests: XCTestCase {
    func run(_ arguments: [String]) throws -> EndToEndTests.Run { try EndToEndTests.run(arguments) }

    func testTextErrorsNameTheFileAndThePath() throws {
        let dir = try makeTemporaryDirectory("welkin-text-e2e")
        func write(_ name: String, _ json: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let missing = try write("font.json", "{\"layers\": [{\"type\": \"text\", \"string\": \"Sky\", \"font\": \"Missing.otf\"}]}")
        var r = try run(["reference", missing, "-o", dir.appendingPathComponent("a.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(missing): layers[0].font: no such font file 'Missing.otf' (looked for \(dir.path)/Missing.otf)\n")
        // Decoding asks nothing of the machine's fonts: validate warns, export-code answers as anywhere else.
        let family = try write("family.json", "{\"layers\": [{\"type\": \"text\", \"string\": \"Sky\", \"font\": \"No Such Family Anywhere\"}]}")
        r = try run(["validate", family])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "\(family): ok\n")
        XCTAssertEqual(r.stderr, "\(family): layers[0].font: warning: this machine cannot draw it: no installed font family 'No Such Family Anywhere' (fc-list : family lists the installed ones)\n")
        r = try run(["export-code", family, "-o", dir.appendingPathComponent("Sky.swift").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try run(["reference", family, "-o", dir.appendingPathComponent("c.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(family): layers[0].font: no installed font family 'No Such Family Anywhere' (fc-list : family lists the installed ones)\n")
        let empty = try write("group.json", "{\"layers\": [{\"type\": \"group\", \"layers\": []}]}")
        r = try run(["validate", empty])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(empty): layers[0].layers: an empty group draws nothing: give it at least one layer\n")
        // Too large only at this output size: both renderers refuse it with the layer's path.
        let big = try write("big.json", "{\"size\": [100, 50], \"layers\": [{\"type\": \"group\", \"layers\": [{\"type\": \"linearGradient\", \"stops\": [\"red\"]}], \"mask\": {\"type\": \"text\", \"string\": \"big\", \"size\": 1000}}]}")
        for command in ["reference", "render"] {
            r = try run([command, big, "--size", "4000x2000", "-o", dir.appendingPathComponent("b.png").path])
            XCTAssertEqual(r.status, 1, command)
            XCTAssertEqual(r.stderr, "\(big): layers[0].mask: text 40000 pixels per em is too large; at most 2048 (a smaller size or output)\n", command)
        }
    }
}
