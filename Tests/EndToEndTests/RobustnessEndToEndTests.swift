// The binary on inputs the mutation harness found (Tests/Fuzz/mutate.py): exit 0, or exit 1 with a
// message that names the scene file; never a signal.

import Foundation
import XCTest

final class RobustnessEndToEndTests: XCTestCase {
    typealias E2E = EndToEndTests

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testHugeValuesAndTimesRenderOrAreRefusedOnBothPaths() throws {
        let out = directory.appendingPathComponent("o.png").path
        for (file, time) in [("snow-scaleRange-1e308.json", "0"), ("snow-position-y-1e308.json", "7"),
                             ("clouds-wind-and-speed-at-huge-times.json", "1e306")] {
            for command in ["reference", "render"] {
                let r = try E2E.run([command, "Tests/Fuzz/regressions/\(file)", "-o", out, "--size", "64x36", "--time", time])
                // Drawn, or refused with exit 1 and the file and key named (the property tables'
                // ranges now stop 1e308 at load time), or a time past Scene.timeRange refused as a
                // usage error (exit 2; RobustnessTests and RobustnessGLTests still draw frames at
                // 1e306 s through the API): never a signal.
                XCTAssertTrue(r.status == 0 || (r.status == 1 && r.stderr.hasPrefix("Tests/Fuzz/regressions/\(file): layers["))
                              || (r.status == 2 && r.stderr.hasPrefix("welkin: --time expects a time in 0…1000000000 s, got '\(time)'")),
                              "\(command) \(file) at \(time): \(r.status) \(r.stderr)")
            }
        }
    }

    /// A scene uniform whose type the shader declares otherwise: the GPU path said only
    /// `layers[1].uniforms.u_crown: …`, without the file.
    func testAUniformOfTheWrongTypeNamesTheSceneFile() throws {
        var text = try String(contentsOfFile: E2E.repository.appendingPathComponent("Scenes/shader-aurora.json").path, encoding: .utf8)
        let fragment = E2E.repository.appendingPathComponent("Scenes/aurora.frag").path
        for (pattern, replacement) in [(#""u_crown": "[^"]*""#, "\"u_crown\": 2"), (#""fragment": "[^"]*""#, "\"fragment\": \"\(fragment)\"")] {
            guard let r = text.range(of: pattern, options: .regularExpression) else { return XCTFail("no \(pattern)") }
            text.replaceSubrange(r, with: replacement)
        }
        let scene = directory.appendingPathComponent("aurora-uniform.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: scene))
        let run = try E2E.run(["render", scene, "-o", directory.appendingPathComponent("o.png").path, "--size", "64x36"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "\(scene): layers[1].uniforms.u_crown: aurora.frag declares vec4 but the scene gives 1 number\n")
    }
}
