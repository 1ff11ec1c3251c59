import Foundation
import XCTest

/// `welkin values`: a property's value at chosen times, printed as the scene draws it.
final class ValuesCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func write(_ shadow: String) throws -> String {
        let path = directory.appendingPathComponent("a.json").path
        try #"{"layers": [{"type": "text", "string": "Hi", "size": 20, "shadow": \#(shadow)}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func values(_ arguments: [String]) throws -> [(time: Double, value: Any)] {
        let r = try EndToEndTests.run(["values"] + arguments + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let items = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return items.map { ($0["time"] as? Double ?? .nan, $0["value"] as Any) }
    }

    /// The issue's check: Spring(duration: 0.5, bounce: 0.3) from 0 to 1 at 50 times against
    /// 1 − e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t), ω = 2π/0.5, ζ = 0.7.
    func testSpringValuesMatchTheOscillator() throws {
        let file = try write(#"{"radius": {"from": 0, "to": 1, "animation": {"spring": {"duration": 0.5, "bounce": 0.3}}}}"#)
        let got = try values([file, "layers[0].shadow.radius", "--from", "0", "--to", "1.47", "--step", "0.03"])
        XCTAssertEqual(got.count, 50)
        let w = 2 * Double.pi / 0.5, z = 0.7, wd = w * (1 - z * z).squareRoot()
        for (t, value) in got {
            let expected = 1 - exp(-z * w * t) * (cos(wd * t) + z * w / wd * sin(wd * t))
            XCTAssertEqual(value as? Double ?? .nan, expected, accuracy: 1e-3, "t = \(t)")
        }
    }

    func testCurvesColoursDefaultsAndErrors() throws {
        let file = try write(#"{"opacity": {"from": 0, "to": 1, "animation": {"easeInOut": {"duration": 1}}, "repeat": "forever", "autoreverses": true}, "color": {"from": "black", "to": "white", "animation": "linear"}}"#)
        let opacity = try values([file, "layers[0].shadow.opacity", "--times", "0,0.5,1,2"])
        XCTAssertEqual(opacity.map(\.time), [0, 0.5, 1, 2])
        XCTAssertEqual(opacity.compactMap { $0.value as? Double }.map { ($0 * 1e6).rounded() / 1e6 }, [0, 0.5, 1, 0], "back at the start after two passes")
        let color = try values([file, "layers[0].shadow.color", "--times", "0.175"])
        XCTAssertEqual((color.first?.value as? [Double])?.map { ($0 * 1e6).rounded() / 1e6 }, [0.5, 0.5, 0.5, 1])
        let constant = try values([file, "layers[0].size", "--times", "0,9"])
        XCTAssertEqual(constant.compactMap { $0.value as? Double }, [20, 20])
        let defaulted = try values([file, "layers[0].opacity"])
        XCTAssertEqual(defaulted.compactMap { $0.value as? Double }, [1])
        let text = try EndToEndTests.run(["values", file, "layers[0].shadow.opacity", "--times", "0.5"])
        XCTAssertEqual(text.stdout, "t = 0.5 s  layers[0].shadow.opacity = 0.5\n")
        let missing = try EndToEndTests.run(["values", file, "layers[0].frobnicate"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "\(file): layers[0].frobnicate: no such key in the file, and the scene format has no key by that name there\n")
        let usage = try EndToEndTests.run(["values", file])
        XCTAssertEqual(usage.status, 2)
    }
}
