import Foundation
import XCTest
import WelkinReference

/// Runs `welkin view` in a real window under Xvfb, edits its files, and reads what it prints.
final class ViewerTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run"),
                      "xvfb-run is needed for window tests (make test installs the xvfb package)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Starts the viewer under xvfb-run with `script` running beside it (a shell script that
    /// edits files while the viewer runs); returns the viewer's stdout, stderr and status.
    func runViewer(_ arguments: [String], script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = directory.appendingPathComponent("viewer.out").path, err = directory.appendingPathComponent("viewer.err").path
        let quoted = ([EndToEndTests.welkin.path, "view"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let driver = """
        #!/bin/bash
        \(quoted) > '\(out)' 2> '\(err)' &
        pid=$!
        # Wait until the viewer says it is up (its first line), at most 30 s.
        for i in $(seq 300); do grep -q '^viewing ' '\(out)' 2>/dev/null && break; sleep 0.1; done
        \(script)
        wait $pid
        """
        let driverPath = directory.appendingPathComponent("driver.sh").path
        try driver.write(toFile: driverPath, atomically: true, encoding: .utf8)
        chmod(driverPath, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        process.arguments = ["-a", "-s", "-screen 0 1024x768x24", driverPath]
        process.currentDirectoryURL = directory
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let driverOutput = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if !driverOutput.isEmpty { print("viewer test driver said:\n\(driverOutput)") }
        return (process.terminationStatus, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    func testReloadsShadersAndScenesAndSurvivesBrokenOnes() throws {
        // A private copy of the shaders, so the test can break them.
        let shaders = directory.appendingPathComponent("Shaders")
        try FileManager.default.copyItem(at: EndToEndTests.repository.appendingPathComponent("Shaders"), to: shaders)
        let scene = directory.appendingPathComponent("sky.json").path
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json").path, toPath: scene)
        let glsl = shaders.appendingPathComponent("gradient.glsl").path
        let script = """
        sleep 0.5
        echo '// an edit' >> '\(glsl)'                      # in place
        sleep 1
        sed -i 's/"start": "top"/"start": "bottom"/' '\(scene)'   # sed -i: temp file renamed over
        sleep 1
        cp '\(glsl)' '\(glsl).good'
        printf 'vec4 broken(\\n' >> '\(glsl)'                 # a compile error
        sleep 1
        cp '\(glsl).good' '\(glsl).tmp' && mv '\(glsl).tmp' '\(glsl)'   # fixed, saved by rename
        sleep 1
        echo '{"layers": [' > '\(scene)'                      # a broken scene: truncate and write
        sleep 1
        """
        let r = try runViewer([scene, "--shaders", shaders.path, "--exit-after", "9"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("viewing Day sky (seed 000): 1280×720 points, framebuffer 1280×720") ?? false, r.stdout)
        let reloads = lines.filter { $0.hasPrefix("reloaded ") }
        let realGLSL = FileWatcherPath.resolve(glsl), realScene = FileWatcherPath.resolve(scene)
        XCTAssertEqual(reloads.count, 3, r.stdout)
        XCTAssertTrue(reloads.count == 3 && reloads[0].hasPrefix("reloaded \(realGLSL) in "), r.stdout)
        XCTAssertTrue(reloads.count == 3 && reloads[1].hasPrefix("reloaded \(realScene) in "), r.stdout)
        XCTAssertTrue(reloads.count == 3 && reloads[2].hasPrefix("reloaded \(realGLSL) in "), r.stdout)
        // The compile error names a shader file and line; the broken scene names the file, line and column.
        XCTAssertTrue(r.stderr.range(of: #"/Shaders/[a-z]+\.glsl:\d+: error: "#, options: .regularExpression) != nil, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(realScene):2:1: invalid JSON: unexpected end of file, expected a value"), r.stderr)
    }

    func testKeysScreenshotResizeAndQuit() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
                      "xdotool drives the viewer's keys (make test installs it)")
        let script = """
        wid=$(xdotool search --sync --name 'Welkin default sky' | head -1)
        xdotool windowfocus --sync $wid
        xdotool key --window $wid s; sleep 0.4
        xdotool key --window $wid Right; sleep 0.3
        xdotool key --window $wid shift+Right; sleep 0.3
        xdotool key --window $wid s; sleep 0.4
        xdotool key --window $wid space; sleep 0.3
        xdotool key --window $wid space; sleep 0.3
        xdotool key --window $wid h; sleep 0.2
        xdotool windowsize $wid 1 1; sleep 0.3
        xdotool windowsize $wid 320 200; sleep 0.3
        xdotool key --window $wid f; sleep 0.3
        xdotool key --window $wid f; sleep 0.3
        xdotool key --window $wid q
        """
        let r = try runViewer(["--paused"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.hasPrefix("viewing Welkin default sky: 1280×720 points"), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved welkin-Welkin-default-sky-0.00s.png (1280×720)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved welkin-Welkin-default-sky-11.00s.png (1280×720)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("resumed\npaused at t = "), r.stdout)
        XCTAssertTrue(r.stdout.contains(Viewer_keyHelpFirstLine), r.stdout)
        // The screenshot is the exact framebuffer: the same pixels a headless render writes.
        let shot = try PNG.read(path: directory.appendingPathComponent("welkin-Welkin-default-sky-0.00s.png").path)
        let headless = directory.appendingPathComponent("headless.png").path
        let render = Process()
        render.executableURL = EndToEndTests.welkin
        render.arguments = ["render", "-o", headless]
        try render.run(); render.waitUntilExit()
        XCTAssertEqual(render.terminationStatus, 0)
        let reference = try PNG.read(path: headless)
        let comparison = try Comparison(shot, reference)
        XCTAssertLessThanOrEqual(comparison.maxDifference, 1)
    }
}

let Viewer_keyHelpFirstLine = "Keys:\n  Esc, Q        quit\n"

/// Paths as the watcher reports them (directory symlinks resolved, as /tmp may be).
enum FileWatcherPath {
    static func resolve(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().path + "/" + url.lastPathComponent
    }
}
