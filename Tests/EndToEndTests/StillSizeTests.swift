import Foundation
import XCTest
import WelkinImage

/// `welkin render` and `welkin reference` with `--scale` and `--fit`: the sizes, crops and bars,
/// each checked against a plain `--size` render of the same scene byte for byte.
final class StillSizeTests: XCTestCase {
    var directory: URL!
    /// 320×180 (16:9): a vertical gradient under a horizontal one, so a crop or a squeeze shows.
    var scene: String { directory.appendingPathComponent("still.json").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-still-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try """
        {"name": "still", "size": [320, 180], "layers": [
          {"type": "linearGradient", "start": "top", "end": "bottom", "stops": [{"color": "#1040C0", "location": 0}, {"color": "#F0A060", "location": 1}]},
          {"type": "linearGradient", "start": "leading", "end": "trailing", "stops": [{"color": "#FF000080", "location": 0}, {"color": "#00FF0080", "location": 1}]}]}
        """.write(toFile: scene, atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Runs `welkin COMMAND scene ARGUMENTS -o NAME` and reads the PNG.
    func still(_ command: String, _ arguments: [String], _ name: String) throws -> Image {
        let out = directory.appendingPathComponent(name).path
        let r = try EndToEndTests.run([command, scene, "--time", "0"] + arguments + ["-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try PNG.read(path: out)
    }

    func testScaleIsTheSceneSizeTimesK() throws {
        for command in ["render", "reference"] {
            let scaled = try still(command, ["--scale", "2"], "\(command)-scale.png")
            XCTAssertEqual([scaled.width, scaled.height], [640, 360])
            XCTAssertEqual(scaled, try still(command, ["--size", "640x360"], "\(command)-size.png"), command)
            let half = try still(command, ["--scale", "0.5"], "\(command)-half.png")
            XCTAssertEqual([half.width, half.height], [160, 90])
        }
    }

    /// stretch is the default and draws exactly what --size alone drew before --fit existed.
    func testStretchIsTheDefaultAndUnchanged() throws {
        for command in ["render", "reference"] {
            let plain = try still(command, ["--size", "100x100"], "\(command)-plain.png")
            XCTAssertEqual([plain.width, plain.height], [100, 100])
            XCTAssertEqual(plain, try still(command, ["--size", "100x100", "--fit", "stretch"], "\(command)-stretch.png"), command)
        }
    }

    /// cover: the 16:9 scene at 178×100 (the smallest covering 100×100), its middle 100 columns.
    func testCoverCropsTheCentre() throws {
        for command in ["render", "reference"] {
            let cover = try still(command, ["--size", "100x100", "--fit", "cover"], "\(command)-cover.png")
            let full = try still(command, ["--size", "178x100"], "\(command)-full.png")
            XCTAssertEqual([cover.width, cover.height], [100, 100])
            XCTAssertEqual(cover, full.placed(on: SIMD2(100, 100), at: SIMD2(-39, 0)), command)
        }
    }

    /// contain: the scene at 200×113 (the largest inside 200×200), 43 transparent rows above and 44 below.
    func testContainLetterboxesWithTransparentBars() throws {
        for command in ["render", "reference"] {
            let contain = try still(command, ["--size", "200x200", "--fit", "contain"], "\(command)-contain.png")
            let inner = try still(command, ["--size", "200x113"], "\(command)-inner.png")
            XCTAssertEqual([contain.width, contain.height], [200, 200])
            XCTAssertEqual(contain, inner.placed(on: SIMD2(200, 200), at: SIMD2(0, 43)), command)
            XCTAssertEqual(contain[0, 0], .zero)
            XCTAssertEqual(contain[199, 199], .zero)
            XCTAssertEqual(contain[100, 100].w, 255)
        }
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--scale", "2", "--size", "10x10"], "welkin: --scale and --size cannot be combined; pass one"),
            (["--scale", "0"], "welkin: --scale expects a number greater than 0, got '0'"),
            (["--scale", "100"], "welkin: --scale 100 makes 32000×18000 of the scene's 320×180; each side must be in 1…16384"),
            (["--size", "10x10", "--fit", "fill"], "welkin: --fit expects stretch, cover or contain, got 'fill'"),
            (["--fit", "cover"], "welkin: --fit applies to --size WxH; pass --size too"),
            (["--size", "100x16384", "--fit", "cover"], "welkin: --fit cover of 100×16384 renders 29127×16384, over 16384 on a side"),
        ]
        for (arguments, message) in cases {
            let r = try EndToEndTests.run(["render", scene, "-o", directory.appendingPathComponent("x.png").path] + arguments)
            XCTAssertEqual(r.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(r.stderr.hasPrefix(message + "\nUsage: welkin render"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
    }
}
