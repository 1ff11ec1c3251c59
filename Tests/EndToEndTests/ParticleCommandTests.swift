// `welkin particles` and particle scenes end to end, run as a user would.

import Foundation
import XCTest

final class ParticleCommandTests: XCTestCase {
    func run(_ arguments: [String]) throws -> EndToEndTests.Run { try EndToEndTests.run(arguments) }

    func testParticlesJSON() throws {
        let r = try run(["particles", "Scenes/fire.json", "--time", "1.5", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["time"] as? Double, 1.5)
        let particles = object["particles"] as! [[String: Any]]
        XCTAssertEqual(Double(particles.count), 200, accuracy: 1)   // 200 per 3 s life (seed 004)
        let first = particles[0]
        XCTAssertEqual(Set(first.keys), ["emitter", "cell", "position", "velocity", "age", "lifetime", "scale", "angle", "color"])
        XCTAssertEqual(first["cell"] as? String, "flame")
        XCTAssertEqual(first["emitter"] as? Int, 0)
        for p in particles {
            // Seed 004: y = (1 − t²)·h with t the normalised age, h = 720; alpha = 0.4 · (1 − t).
            let t = (p["age"] as! Double) / 3
            let position = p["position"] as! [Double], color = p["color"] as! [Double]
            XCTAssertEqual(position[1], (1 - t * t) * 720, accuracy: 0.05)
            XCTAssertEqual(color[3], 0.4 * (1 - t), accuracy: 1e-4)
            XCTAssertEqual(abs(position[0] - 240), 0, accuracy: 172.8 * (1 - t * 8 / 9) + 0.01)
        }
    }

    /// The weather's rain and snow are particles the frame draws: listed after the scene's own, at
    /// their three depths and the shapes among them (phone-snow has no emitter layer of its own).
    func testParticlesIncludeTheWeathersPrecipitation() throws {
        let r = try run(["particles", "Scenes/phone-snow.json", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let particles = object["particles"] as! [[String: Any]]
        XCTAssertGreaterThan(particles.count, 100, "the snow is settled at t = 0")
        XCTAssertEqual(Set(particles.compactMap { $0["emitter"] as? Int }), [1_000_001])
        XCTAssertEqual(Set(particles.compactMap { $0["cell"] as? String }), ["far flake", "flake", "clump", "crystal", "near flake"])
        // Born on a line above the 390-point-wide frame, their x wrapped around it and its margins;
        // some are on screen in every quarter of its height.
        var quarters = Set<Int>()
        for p in particles {
            let position = p["position"] as! [Double]
            XCTAssertTrue(position[0] > -100 && position[0] < 490 && position[1] > -100, "\(position)")
            if position[1] >= 0 && position[1] < 844 { quarters.insert(Int(position[1] / 211)) }
        }
        XCTAssertEqual(quarters, [0, 1, 2, 3])
    }

    func testParticlesTable() throws {
        let r = try run(["particles", "Scenes/snow.json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines[0], "Scenes/snow.json at t = 0 s: \(lines.count - 2) particles")
        XCTAssertTrue(lines[1].hasPrefix("emitter  cell"))
        XCTAssertEqual(Double(lines.count - 2), 2 * 30 * 10, accuracy: 2)   // two cells × 30/s × 10 s of prewarm
    }

    func testParticlesErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-pe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.json").path
        try Data("{\"layers\": [{\"type\": \"emitter\", \"cells\": [{\"lifetime\": -2}]}]}".utf8).write(to: URL(fileURLWithPath: bad))
        var r = try run(["particles", bad])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(bad): layers[0].cells[0].lifetime: expected a number in 0…30000, got -2\n")
        r = try run(["particles"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: expected one scene file\nUsage: welkin particles SCENE [--time T] [--json]"), r.stderr)
        let full = directory.appendingPathComponent("full.json").path
        try Data("{\"layers\": [{\"type\": \"emitter\", \"maxParticles\": 50, \"cells\": [{\"birthRate\": 100, \"lifetime\": 2}]}]}".utf8)
            .write(to: URL(fileURLWithPath: full))
        r = try run(["particles", full, "--time", "1", "--json"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, """
            \(full): layers[0].maxParticles: warning: the cells' birthRate × lifetime needs up to 200 live particles, more than maxParticles (50); births beyond it are dropped
            \(full): layers[0].maxParticles: warning: the layer is full; 50 births were dropped

            """)
    }

    func testReferenceRendersAParticleScene() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-snow-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try run(["reference", "Scenes/snow.json", "-o", out, "--size", "320x180", "--time", "7"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }
}
