import Foundation
import XCTest
import WelkinTestSupport
import WelkinReference
import WelkinImage

/// Runs the built `welkin` binary as a user would and checks its output, files and exit status.
final class EndToEndTests: XCTestCase {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static let repository = Repository.root

    /// The `welkin` executable next to this test bundle (`swift build` puts them in one folder).
    static var welkin: URL {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return exe.deletingLastPathComponent().appendingPathComponent("welkin")
    }

    var directory: URL!

    override func setUpWithError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.welkin.path),
                      "build the welkin executable first (make test does): \(Self.welkin.path)")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func run(_ arguments: [String]) throws -> Run { try Self.run(arguments) }

    /// Runs `welkin ARGUMENTS` in the repository root.
    static func run(_ arguments: [String]) throws -> Run {
        try runProcess(welkin, arguments, in: repository)
    }

    /// Runs any program with ARGUMENTS (in `directory`, with `environment` when given): its status
    /// and output, both pipes drained before waiting.
    static func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testReferenceWritesThePNG() throws {
        let out = directory.appendingPathComponent("day.png").path
        let r = try run(["reference", "Scenes/day-gradient.json", "-o", out, "--size", "320x180", "--time=1.5"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote \(out) (320×180, rendered in "), r.stdout)
        XCTAssertEqual(r.stderr, "")
        let image = try PNG.read(path: out)
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 180)
        // Zenith (0.1, 0.3, 0.8) at the top, horizon (0.4, 0.6, 1.0) at the bottom.
        let top = image[160, 0], bottom = image[160, 179]
        XCTAssertEqual(Int(top.x), 26, accuracy: 2); XCTAssertEqual(Int(top.z), 204, accuracy: 2)
        XCTAssertEqual(Int(bottom.x), 102, accuracy: 2); XCTAssertEqual(Int(bottom.z), 255, accuracy: 1)
    }

    func testReferenceMatchesTheLibrary() throws {
        let out = directory.appendingPathComponent("g.png").path
        XCTAssertEqual(try run(["reference", "Scenes/gradients.json", "--output", out, "--size", "200x120"]).status, 0)
        XCTAssertEqual(try PNG.read(path: out).width, 200)
    }

    func testDefaultSceneWithoutAPath() throws {
        let out = directory.appendingPathComponent("default.png").path
        let r = try run(["reference", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try PNG.read(path: out).width, 1280)
    }

    func testBadSceneFailsWithPathAndKeepsTheOldImage() throws {
        let out = directory.appendingPathComponent("keep.png").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let scene = try write("bad.json", """
        {"layers": [{"type": "linearGradient", "stops": [{"color": "red", "location": 0}, {"color": "blue", "location": 1.5}]}]}
        """)
        let r = try run(["reference", scene, "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(scene): layers[0].stops[1].location: expected a number in 0…1, got 1.5\n")
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "precious")
    }

    func testInvalidJSONNamesLineAndColumn() throws {
        let scene = try write("broken.json", "{\n  \"size\": [10, 10]\n  \"seed\": 3\n}")
        let r = try run(["validate", scene])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(scene):3:3: invalid JSON: unexpected character '\"', expected ',' or '}'\n")
    }

    func testMissingScene() throws {
        let r = try run(["reference", "nope.json", "-o", directory.appendingPathComponent("x.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "nope.json: no such file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
    }

    func testUnwritableOutputIsAFailureNotACrash() throws {
        let r = try run(["reference", "Scenes/day-gradient.json", "-o", "/nonexistent-dir/out.png", "--size", "8x8"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "cannot write /nonexistent-dir/out.png: the folder /nonexistent-dir does not exist\n")
    }

    func testValidateReportsEachFile() throws {
        let bad = try write("typo.json", "{\"layers\": [{\"type\": \"radialGradient\", \"endRadious\": 3, \"stops\": [\"red\"]}]}")
        let r = try run(["validate", "Scenes/day-gradient.json", bad, "Scenes/gradients.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "Scenes/day-gradient.json: ok\nScenes/gradients.json: ok\n")
        XCTAssertEqual(r.stderr, "\(bad): layers[0].endRadious: unknown key 'endRadious'; did you mean 'endRadius'?\n")
    }

    /// Every command that loads a scene lists every error of a broken one, as `validate` does.
    func testEveryCommandThatLoadsASceneReportsEveryError() throws {
        let bad = try write("three-errors.json", """
            {"size": [64, 64], "layers": [
              {"type": "linearGradient", "stops": ["red", "blue"], "angel": 3},
              {"type": "radialGradient", "endRadious": 3, "stops": ["red"]},
              {"type": "linearGradient", "stops": [{"color": "red", "location": 1.5}, "blue"]}
            ]}
            """)
        let validate = try run(["validate", bad])
        XCTAssertEqual(validate.status, 1)
        XCTAssertEqual(validate.stderr.split(separator: "\n").count, 3, validate.stderr)
        let out = directory.appendingPathComponent("never").path
        for arguments in [["render", bad, "-o", out + ".png"], ["reference", bad, "-o", out + ".png"], ["export", bad, "-o", out + ".gif"],
                          ["compare", bad, "-o", out], ["export-code", bad], ["particles", bad]] {
            let r = try run(arguments)
            XCTAssertEqual(r.status, 1, "\(arguments[0]): \(r.stderr)")
            XCTAssertEqual(r.stderr, validate.stderr, arguments[0])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + ".png"))
    }

    func testEveryExampleSceneValidates() throws {
        let scenes = try Self.exampleFiles().map { "Scenes/" + $0 }
        XCTAssertFalse(scenes.isEmpty)
        let r = try run(["validate"] + scenes)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, scenes.map { "\($0): ok\n" }.joined())
    }

    func testUsageErrorsExitTwo() throws {
        var r = try run(["reference", "Scenes/day-gradient.json", "-o", "x.jpg"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: 'x.jpg': welkin reference writes PNG or OpenEXR, so OUT must end in .png or .exr (for video, GIF or an image sequence use 'welkin export')\nUsage: welkin reference [SCENE] [-o OUT.png|OUT.exr [--float]]"), r.stderr)
        r = try run(["reference", "--tiem", "3", "-o", "x.png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: unknown option '--tiem'; did you mean '--time'?"), r.stderr)
        r = try run(["refrence"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: unknown command 'refrence'; did you mean 'reference'?"), r.stderr)
        r = try run(["reference", "-o", "x.png", "--size", "0x10"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: --size expects WIDTHxHEIGHT with each side in 1…16384, got '0x10'"), r.stderr)
        r = try run(["reference", "-o", "x.png", "--time", "soon"])
        XCTAssertEqual(r.status, 2)
        // One rule for times with the viewer's console: no negative time, no file written.
        for command in ["reference", "render", "compare"] {
            let out = directory.appendingPathComponent("negative-\(command).png").path
            r = try run(command == "compare" ? [command, "Scenes/day-gradient.json", "--time", "-1"]
                                             : [command, "Scenes/day-gradient.json", "-o", out, "--time", "-1"])
            XCTAssertEqual(r.status, 2, command)
            XCTAssertTrue(r.stderr.hasPrefix("welkin: --time expects a time in 0…1000000000 s, got '-1'"), "\(command): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), command)
        }
        r = try run(["reference", "-o"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: option '--output' needs a value OUT.png"), r.stderr)
    }

    func testDoubleDashEndsOptions() throws {
        let scene = try write("-dash.json", "{\"size\": [4, 4]}")
        let out = directory.appendingPathComponent("dash.png").path
        let r = try run(["reference", "-o", out, "--", scene])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testHelp() throws {
        var r = try run(["help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Commands:\n"))
        XCTAssertTrue(r.stdout.contains("  reference "))
        r = try run(["help", "reference"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasPrefix("Render a scene on the CPU (the reference renderer) to a PNG.\n\nUsage: welkin reference"))
        XCTAssertEqual(try run(["reference", "--help"]).stdout, r.stdout)
        XCTAssertEqual(try run(["help", "nothing"]).status, 2)
    }

    func testBenchJSONHasTheNamedEntries() throws {
        // The cheap entries only (the whole suite is `make bench`'s job): one of each kind of row.
        let r = try run(["bench", "--json", "--runs", "1", "--filter", "linear,day-gradient,bare-pass"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        let names = rows.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["reference.linear.1080p", "cairo.linear.1080p", "reference.linear.cairo-ratio",
                               "gpu.day-gradient.720p", "gpu.bare-pass.720p", "gpu.day-gradient.ratio", "gpu.sunset-clouds.bare-pass"])
        for row in rows {
            let value = row["value"] as? Double ?? -1
            XCTAssertGreaterThan(value, 0, "\(row)")
            XCTAssertNotNil(row["unit"] as? String)
        }
    }

    /// `--markdown`: the table the docs include, the command that made it above it.
    func testBenchMarkdownIsATableForTheDocs() throws {
        let r = try run(["bench", "--markdown", "--runs", "1", "--filter", "bytes-per-particle,sky.physical.sky-view"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(4)), [
            "Medians of 1 runs, from `welkin bench --markdown --runs 1 --filter bytes-per-particle,sky.physical.sky-view`:", "",
            "| entry | median | unit |", "|---|---:|---|"])
        XCTAssertTrue(lines[4].hasPrefix("| `sky.physical.sky-view` | ") && lines[4].hasSuffix(" | ms |"), lines[4])
        XCTAssertTrue(lines[5].hasPrefix("| `sim.bytes-per-particle` | ") && lines[5].hasSuffix(" | bytes |"), lines[5])
        XCTAssertEqual(try run(["bench", "--markdown", "--json"]).status, 2, "one format at a time")
    }

    /// `--check`: ratios against a limits file; a planted slowdown (a shader made 20-odd times
    /// dearer) is a regression and exits 1, the shaders as they are pass the same limit.
    func testBenchCheckFailsOnAPlantedSlowdown() throws {
        let limits = directory.appendingPathComponent("limits.json")
        try Data(#"{"about": "test", "limits": {"gpu.day-gradient.ratio": 6}}"#.utf8).write(to: limits)
        let args = ["bench", "--check", "--runs", "5", "--filter", "gpu.day-gradient.ratio", "--limits", limits.path]
        var r = try run(args)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("gpu.day-gradient.ratio") && r.stdout.contains("  ok"), r.stdout)
        // The same check with a copy of the shaders whose gradient bands do needless work per pixel
        // (the bench draws the Scenes/ beside the shaders it is given).
        let shaders = directory.appendingPathComponent("Shaders")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("Shaders"), to: shaders)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("Scenes"), to: directory.appendingPathComponent("Scenes"))
        let band = shaders.appendingPathComponent("gradient-band.frag")
        var source = try String(contentsOf: band, encoding: .utf8)
        let planted = """
            float waste = 0.0;
            for (int i = 0; i < 300; i += 1) waste += sin(float(i) * gl_FragCoord.x) * 1e-30;
            writeLayer(v_color + vec4(waste));
            return;
        """
        source = source.replacingOccurrences(of: "void main() {\n", with: "void main() {\n" + planted + "\n")
        try source.write(to: band, atomically: true, encoding: .utf8)
        r = try run(args + ["--shaders", shaders.path])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("REGRESSION"), r.stdout)
        XCTAssertTrue(r.stderr.contains("1 of 1 ratios over their limits"), r.stderr)
        // A limits file that is not one is an error naming it.
        try Data(#"{"limits": {"gpu.day-gradient.720p": 5}}"#.utf8).write(to: limits)
        r = try run(args)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("limits.gpu.day-gradient.720p: only ratios are checked"), r.stderr)
        XCTAssertEqual(try run(["bench", "--check", "--json"]).status, 2)
    }

    /// The repository's limits name only entries `welkin bench` has (a renamed entry is caught here,
    /// not by CI's check a week later).
    func testRepositoryBenchLimitsNameRealEntries() throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("Tests/Bench/limits.json"))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let limits = try XCTUnwrap(root["limits"] as? [String: Double])
        let scenes = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("Scenes").path)
        for name in limits.keys where name.hasPrefix("gpu.scene.") {
            let scene = String(name.dropFirst("gpu.scene.".count).dropLast(".ratio".count))
            XCTAssertTrue(scenes.contains(scene + ".json"), "\(name): no Scenes/\(scene).json")
        }
        XCTAssertNotNil(limits["gpu.day-gradient.ratio"])
    }

    func testSoakReportsMemoryAndGLObjects() throws {
        let r = try run(["soak", "Scenes/mesh-seed.json", "--seconds", "3", "--size", "160x90", "--cpu-every", "10"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Scenes/mesh-seed.json: "), r.stdout)
        XCTAssertTrue(r.stdout.contains(" frames in 3 s; resident "), r.stdout)
        XCTAssertTrue(r.stdout.contains("GL objects after warm-up: "), r.stdout)
        XCTAssertEqual(try run(["soak"]).status, 2)
        XCTAssertEqual(try run(["soak", "Scenes/snow.json", "--seconds", "0"]).status, 2)
        // Snow's flakes live 20 s: a shorter soak would mistake their rising count for a leak.
        let short = try run(["soak", "Scenes/snow.json", "--seconds", "5"])
        XCTAssertEqual(short.status, 1)
        XCTAssertEqual(short.stderr, "welkin soak: Scenes/snow.json takes 20 s to settle (weather schedule and particle lifetimes); soak it for at least 25 s\n")
    }

    // MARK: GPU commands (headless EGL: no display needed)

    func testRenderWritesExactlyTheRequestedSize() throws {
        let out = directory.appendingPathComponent("gpu.png").path
        let r = try run(["render", "Scenes/gradients.json", "-o", out, "--size", "317x181", "--time", "1.5"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote \(out) (317×181, GPU: "), r.stdout)
        let image = try PNG.read(path: out)
        XCTAssertEqual(image.width, 317)
        XCTAssertEqual(image.height, 181)
    }

    /// Every example scene, relative to Scenes/: the top level's and the weather presets' grid
    /// (Scenes/weather: each preset at phone and desktop size).
    static func exampleFiles() throws -> [String] {
        let scenes = repository.appendingPathComponent("Scenes")
        let top = try FileManager.default.contentsOfDirectory(atPath: scenes.path).filter { $0.hasSuffix(".json") }.sorted()
        let weather = try FileManager.default.contentsOfDirectory(atPath: scenes.appendingPathComponent("weather").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "weather/" + $0 }
        return top + weather
    }

    func testCompareEveryExampleSceneAtThreeTimes() throws {
        let scenes = try Self.exampleFiles()
        // Each `welkin compare` runs as its own process, two at a time (half of each one's wall time is
        // its start, GL context and files, which the other's rendering overlaps).
        var jobs: [(scene: String, time: String, out: String, arguments: [String])] = []
        for scene in scenes {
            let data = try String(contentsOf: Self.repository.appendingPathComponent("Scenes/" + scene), encoding: .utf8)
            // User shaders cannot run on the CPU: they are compared against stored GPU renders.
            let usesShader = data.contains("\"shader\"")
            for time in ["0", "1.5", "7"] {
                let out = directory.appendingPathComponent("\(scene.replacingOccurrences(of: "/", with: "-"))-\(time)").path
                var arguments = ["compare", "Scenes/" + scene, "--time", time, "--size", "640x360", "--out", out, "--json"]
                if usesShader {
                    let name = (scene as NSString).deletingPathExtension
                    arguments += ["--against", "Tests/Fixtures/references/\(name)-t\(time).png"]
                }
                jobs.append((scene, time, out, arguments))
            }
        }
        let results = ResultsBox(count: jobs.count)
        let commands = jobs.map(\.arguments)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for k in stride(from: worker, to: commands.count, by: 2) { results.set(k, Result { try Self.run(commands[k]) }) }
        }
        for (k, (scene, time, out, _)) in jobs.enumerated() {
            do {
                let r = try results.get(k).get()
                XCTAssertEqual(r.status, 0, "\(scene) at \(time): \(r.stdout) \(r.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
                XCTAssertEqual(json["passed"] as? Bool, true, "\(scene) at \(time): \(r.stdout)")
                XCTAssertLessThanOrEqual(json["maxDifference"] as? Int ?? 99, 2, "\(scene) at \(time)")
                for file in ["gpu.png", "reference.png", "diff.png"] {
                    XCTAssertEqual(try PNG.read(path: out + "/" + file).width, 640)
                }
            } catch {
                XCTFail("\(scene) at \(time): \(error)")
            }
        }
    }

    /// Results filled in from two threads.
    final class ResultsBox: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<Run, Error>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ r: Result<Run, Error>) { lock.lock(); results[k] = r; lock.unlock() }
        func get(_ k: Int) -> Result<Run, Error> {
            lock.lock(); defer { lock.unlock() }
            return results[k] ?? .failure(CocoaError(.featureUnsupported))
        }
    }

    func testCompareReportsAllFiguresAndFailsOutsideTolerance() throws {
        let out = directory.appendingPathComponent("cmp").path
        var r = try run(["compare", "Scenes/day-gradient.json", "-o", out, "--size", "64x36"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for label in ["largest channel difference", "mean absolute difference", "RMSE", "PSNR", "SSIM", "pixels over 2/255"] {
            XCTAssertTrue(r.stdout.contains(label), "\(label) missing: \(r.stdout)")
        }
        // Against a stored image that is off by a lot: exit 1, and passed false.
        var wrong = try PNG.read(path: out + "/gpu.png")
        for i in stride(from: 0, to: wrong.pixels.count, by: 4) { wrong.pixels[i] = 255 &- wrong.pixels[i] }
        let wrongPath = directory.appendingPathComponent("wrong.png").path
        try PNG.write(wrong, to: wrongPath)
        r = try run(["compare", "Scenes/day-gradient.json", "--against", wrongPath, "--out", out, "--json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(Set(json.keys), ["maxDifference", "meanAbsoluteDifference", "rmse", "psnr", "ssim",
                                        "pixelsOverThreshold", "percentOverThreshold", "passed"])
        XCTAssertEqual(json["passed"] as? Bool, false)
        XCTAssertEqual(json["percentOverThreshold"] as? Double, 100)
        // A looser tolerance lets it pass.
        r = try run(["compare", "Scenes/day-gradient.json", "--against", wrongPath, "--output", out, "--max-failing", "100"])
        XCTAssertEqual(r.status, 0, r.stdout)
        // -o / --output as in every command (--out, the earlier spelling, still works); not both.
        r = try run(["compare", "Scenes/day-gradient.json", "-o", out, "--out", out, "--size", "8x8"])
        XCTAssertEqual(r.status, 2, "a usage error")
        XCTAssertTrue(r.stderr.contains("give the folder once: --output (-o) or --out"), r.stderr)
        // -o alone.
        let short = directory.appendingPathComponent("short").path
        r = try run(["compare", "Scenes/day-gradient.json", "-o", short, "--size", "8x8"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("wrote \(short)/gpu.png, reference.png, diff.png"), r.stdout)
        for name in ["gpu.png", "reference.png", "diff.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: short + "/" + name), name)
        }
    }

    func testReferenceRefusesUserShadersAndCompareAgainstWorks() throws {
        let frag = try write("flat.frag", """
        #version 330 core
        uniform vec4 u_tint;
        out vec4 color;
        void main() { color = u_tint; }
        """)
        let scene = try write("user.json", """
        {"size": [64, 32], "dither": false, "layers": [{"type": "shader", "fragment": "\((frag as NSString).lastPathComponent)", "uniforms": {"u_tint": "#336699"}}]}
        """)
        let ref = directory.appendingPathComponent("ref.png").path
        var r = try run(["reference", scene, "-o", ref])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("\(scene): layers[0] is a user shader"), r.stderr)
        // The same colour as a gradient scene, rendered by the CPU, is the stored reference.
        let flat = try write("flat.json", "{\"size\": [64, 32], \"dither\": false, \"layers\": [{\"type\": \"linearGradient\", \"stops\": [\"#336699\"]}]}")
        XCTAssertEqual(try run(["reference", flat, "-o", ref]).status, 0)
        r = try run(["compare", scene, "--against", ref, "--out", directory.appendingPathComponent("u").path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    // MARK: new

    /// `welkin new` makes each preset: printed or written, valid, and drawn (a small render each);
    /// an existing file is kept unless --force; a preset that does not exist is a usage error.
    func testNewMakesEachPreset() throws {
        let presets = ["clear", "cloudy", "overcast", "rain", "snow", "storm", "fog", "sunset", "night", "milky-way"]
        for preset in presets {
            let out = directory.appendingPathComponent("\(preset).json").path
            let r = try run(["new", "--preset", preset, "--size", "390x844", "-o", out])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "wrote \(out) (\(preset), 390×844); see it with: welkin view \(out)\n")
            XCTAssertEqual(try run(["validate", out]).stdout, "\(out): ok\n")
            let png = directory.appendingPathComponent("\(preset).png").path
            XCTAssertEqual(try run(["render", out, "--size", "78x169", "-o", png, "--time", "1.5"]).status, 0, preset)
            let image = try PNG.read(path: png)
            var sum = 0
            for i in stride(from: 0, to: image.pixels.count, by: 4) { sum += Int(image.pixels[i]) + Int(image.pixels[i + 1]) + Int(image.pixels[i + 2]) }
            XCTAssertGreaterThan(sum, 0, "\(preset): drawn, not black")
        }
        // Printed without -o, the default a clear phone sky; the same text as the file.
        let printed = try run(["new"])
        XCTAssertEqual(printed.status, 0)
        XCTAssertTrue(printed.stdout.contains("\"name\": \"Clear (phone)\""), printed.stdout)
        XCTAssertEqual(try run(["new", "--preset", "clear"]).stdout, try String(contentsOfFile: directory.appendingPathComponent("clear.json").path, encoding: .utf8))
        // An existing file is not replaced without --force.
        let storm = directory.appendingPathComponent("storm.json").path
        let before = try String(contentsOfFile: storm, encoding: .utf8)
        var r = try run(["new", "--preset", "fog", "-o", storm])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "welkin new: \(storm) exists; --force replaces it\n")
        XCTAssertEqual(try String(contentsOfFile: storm, encoding: .utf8), before)
        XCTAssertEqual(try run(["new", "--preset", "fog", "-o", storm, "--force"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: storm, encoding: .utf8).contains("\"weather\": \"fog\""))
        // Scenes/weather is new's output for every weather preset at both sizes, as README's grid shows.
        for preset in presets.prefix(7) {
            for (kind, size) in [("phone", "390x844"), ("wide", "1280x720")] {
                let file = try String(contentsOf: Self.repository.appendingPathComponent("Scenes/weather/\(preset)-\(kind).json"), encoding: .utf8)
                XCTAssertEqual(try run(["new", "--preset", preset, "--size", size]).stdout, file, "Scenes/weather/\(preset)-\(kind).json")
            }
        }
        r = try run(["new", "--preset", "hail"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("clear, cloudy, overcast, rain, snow, storm, fog, sunset, night or milky-way"), r.stderr)
    }

    // MARK: sun

    func testSunPrintsPositionAndEvents() throws {
        var r = try run(["sun", "--date", "2026-06-21T12:00:00+02:00", "--lat", "48.8566", "--lon", "2.3522"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
        elevation   56.32°
        azimuth     128.83°
        civil dawn  2026-06-21T05:04:16+02:00
        sunrise     2026-06-21T05:46:56+02:00
        sunset      2026-06-21T21:57:53+02:00
        civil dusk  2026-06-21T22:40:34+02:00

        """)
        r = try run(["sun", "--date=2026-12-21T12:00:00+01:00", "--lat=78.22", "--lon=15.65", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(Set(json.keys), ["date", "assumed", "elevation", "azimuth", "sunrise", "sunset", "civilDawn", "civilDusk", "polar"])
        XCTAssertTrue(json["assumed"] is NSNull)
        XCTAssertTrue(json["sunrise"] is NSNull)
        XCTAssertEqual(json["polar"] as? String, "night")
        XCTAssertLessThan(json["elevation"] as? Double ?? 0, 0)
        // A date alone is noon in the longitude's nautical zone; a time without an offset is UTC.
        r = try run(["sun", "--date", "2026-06-21", "--lat", "48.8566", "--lon", "32.1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("date        2026-06-21T12:00:00+02:00 (a date alone: noon at UTC+02:00, the nautical time zone of longitude 32.1°)\nelevation"), r.stdout)
        r = try run(["sun", "--date", "2026-06-21T10:00", "--lat", "48.8566", "--lon", "2.3522", "--json"])
        let utc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(utc["date"] as? String, "2026-06-21T10:00:00Z")
        XCTAssertEqual(utc["assumed"] as? String, "no UTC offset given: taken as UTC")
        XCTAssertEqual(utc["elevation"] as? Double, 56.3201, "the same instant as 12:00+02:00 above (56.32°)")
        r = try run(["sun", "--date", "now", "--lat", "0", "--lon", "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("date        2"), r.stdout)
        XCTAssertTrue(r.stdout.contains("(now, in UTC)\n"), r.stdout)
        r = try run(["sun", "--date", "2026-06-21T25:00", "--lat", "0", "--lon", "0"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: --date expects an ISO 8601 date and time with an offset"), r.stderr)
        r = try run(["sun", "--date", "2026-06-21T12:00:00Z", "--lat", "91", "--lon", "0"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: --lat expects degrees in −90…90, got '91'"), r.stderr)
    }
}
