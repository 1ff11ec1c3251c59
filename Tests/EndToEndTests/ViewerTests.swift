import Foundation
import XCTest
import WelkinReference
import WelkinImage

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

    /// Starts the viewer under xvfb-run with `script` running beside it (ViewerDriver says what
    /// the script may use); returns the viewer's stdout, stderr and status.
    func runViewer(_ arguments: [String], script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try ViewerDriver.run(arguments, in: directory, script: script)
        return (r.status, r.stdout, r.stderr)
    }

    func testReloadsShadersAndScenesAndSurvivesBrokenOnes() throws {
        // A private copy of the shaders, so the test can break them.
        let shaders = directory.appendingPathComponent("Shaders")
        try FileManager.default.copyItem(at: EndToEndTests.repository.appendingPathComponent("Shaders"), to: shaders)
        let scene = directory.appendingPathComponent("sky.json").path
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json").path, toPath: scene)
        let glsl = shaders.appendingPathComponent("gradient.glsl").path
        // Each step waits for the viewer's answer to the one before (no sleeps to guess with).
        let script = """
        echo '// an edit' >> '\(glsl)'                      # in place
        waitfor "$OUT" '^reloaded ' 10 1
        sed -i 's/"start": "top"/"start": "bottom"/' '\(scene)'   # sed -i: temp file renamed over
        waitfor "$OUT" '^reloaded ' 10 2
        cp '\(glsl)' '\(glsl).good'
        printf 'vec4 broken(\\n' >> '\(glsl)'                 # a compile error
        waitfor "$ERR" 'error' 10 1
        cp '\(glsl).good' '\(glsl).tmp' && mv '\(glsl).tmp' '\(glsl)'   # fixed, saved by rename
        waitfor "$OUT" '^reloaded ' 10 3
        echo '{"layers": [' > '\(scene)'                      # a broken scene: truncate and write
        waitfor "$ERR" 'invalid JSON' 10 1
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
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 1
        xdotool key --window $wid Right
        xdotool key --window $wid shift+Right
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 2
        xdotool key --window $wid space; waitfor "$OUT" '^resumed' 5 1
        xdotool key --window $wid space; waitfor "$OUT" '^paused at' 5 1
        xdotool key --window $wid h; waitfor "$OUT" 'Esc, Q' 5 1
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
        // The screenshot is the picture at final quality: the same pixels a headless render writes.
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

    // MARK: - Failures, reloads and quitting (issue 12)

    func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// A user shader whose picture moves with u_time × u_speed, under a gradient.
    func writeMovingShaderScene(speed: String) throws -> String {
        try write("moving.frag", """
            #version 330 core
            uniform float u_time;
            uniform float u_speed;
            out vec4 fragColor;
            void main() {
                float stripe = step(0.5, fract(gl_FragCoord.x / 40.0 - u_time * u_speed));
                fragColor = vec4(1.0, 1.0, 1.0, 0.6 * stripe);
            }
            """)
        try write("moving.json", """
            {"name": "moving", "size": [320, 180], "layers": [
              {"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]},
              {"type": "shader", "fragment": "moving.frag", "uniforms": {"u_speed": \(speed)}}
            ]}
            """)
        return directory.appendingPathComponent("moving.json").path
    }

    func screenshots() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("welkin-") && $0.hasSuffix(".png") }.sorted()
            .map { directory.appendingPathComponent($0).path }
    }

    func testAShaderThatDoesNotCompileLeavesTheOtherLayersDrawn() throws {
        try write("broken.frag", "#version 330 core\nout vec4 fragColor;\nvoid main() {\n    fragColor = vec4(1.0) * oops;\n}\n")
        try write("broken.json", """
            {"name": "broken", "size": [320, 180], "dither": false, "layers": [
              {"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]},
              {"type": "shader", "fragment": "broken.frag"}
            ]}
            """)
        let scene = directory.appendingPathComponent("broken.json").path
        let script = """
        waitfor "$ERR" 'broken.frag:4: '
        wid=$(xdotool search --sync --name '^broken' | head -1)
        xdotool key --window $wid s; waitfor "$OUT" '^saved '
        sleep 0.3; xdotool getwindowname $wid > title.txt
        xdotool key --window $wid q
        """
        let r = try runViewer([scene, "--paused"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        // One message, naming the shader file and line (Mesa adds a second line for the same expression).
        let lines = r.stderr.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix(directory.appendingPathComponent("broken.frag").path + ":4: ") ?? false, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "`oops' undeclared").count, 2, "said once: \(r.stderr)")
        XCTAssertTrue(try String(contentsOfFile: directory.appendingPathComponent("title.txt").path, encoding: .utf8).contains("⚠"))
        // The gradient under the broken layer is drawn (the window is not black), hatched where
        // the broken layer would be: (x + y) mod 16 < 4 (LayerPlaceholder).
        let shot = try PNG.read(path: try XCTUnwrap(try screenshots().first, r.stdout))
        let top = shot[10, 2], bottom = shot[10, 177], stripe = shot[1, 1]
        XCTAssertTrue(top.x > 240 && top.z < 20, "the gradient's orange top: \(top)")
        XCTAssertGreaterThan(Int(bottom.z), 200, "the gradient's purple bottom: \(bottom)")
        XCTAssertTrue(stripe.x > 200 && stripe.y < 60 && stripe.z > 150, "a magenta stripe: \(stripe)")
    }

    func testASceneThatFailsKeepsTheLastGoodOneAnimating() throws {
        let scene = try writeMovingShaderScene(speed: "0.5")
        let script = """
        wid=$(xdotool search --sync --name '^moving' | head -1)
        sed -i 's/"u_speed": 0.5/"u_speed": [1, 2]/' '\(scene)'
        waitfor "$ERR" 'u_speed'
        sleep 0.3
        xdotool key --window $wid s; waitfor "$OUT" '^saved '
        sleep 0.4
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 2
        xdotool getwindowname $wid > broken-title.txt
        sed -i 's/"u_speed": \\[1, 2\\]/"u_speed": 2/' '\(scene)'
        waitfor "$OUT" '^reloaded '
        sleep 0.4
        xdotool getwindowname $wid > fixed-title.txt
        xdotool key --window $wid q
        """
        let r = try runViewer([scene], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        // Said once, as file: json.path: sentence.
        XCTAssertEqual(r.stderr, "\(scene): layers[1].uniforms.u_speed: moving.frag declares float but the scene gives 2 numbers\n")
        // Only the fixed scene claims to have reloaded.
        let reloads = r.stdout.split(separator: "\n").filter { $0.hasPrefix("reloaded ") }
        XCTAssertEqual(reloads.count, 1, r.stdout)
        XCTAssertTrue(reloads.first?.hasPrefix("reloaded \(FileWatcherPath.resolve(scene)) in ") ?? false, r.stdout)
        // The last good scene kept animating: two screenshots 0.4 s apart differ.
        let shots = try screenshots()
        XCTAssertEqual(shots.count, 2, "\(shots)\n\(r.stdout)")
        if shots.count == 2 {
            XCTAssertNotEqual(try PNG.read(path: shots[0]), try PNG.read(path: shots[1]), "the picture is not frozen")
        }
        // The ⚠ mark while broken, gone once fixed.
        XCTAssertTrue(try String(contentsOfFile: directory.appendingPathComponent("broken-title.txt").path, encoding: .utf8).contains("⚠"))
        XCTAssertFalse(try String(contentsOfFile: directory.appendingPathComponent("fixed-title.txt").path, encoding: .utf8).contains("⚠"))
    }

    func testMissingSceneFileIsNamedWithoutAJSONPath() throws {
        let r = try EndToEndTests.run(["view", "hr/nonexistent.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "hr/nonexistent.json: no such file\n")
    }

    /// A scene with errors opens anyway: every error printed and on screen over an empty picture,
    /// the file watched; once fixed it draws, the window takes its size, and edits and saves work
    /// as for any scene.
    func testASceneWithErrorsOpensWithThemOnScreenAndDrawsOnceFixed() throws {
        let scene = directory.appendingPathComponent("sky.json").path
        let good = try String(contentsOf: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json"), encoding: .utf8)
        try good.replacingOccurrences(of: "\"start\": \"top\"", with: "\"start\": \"topp\"")
            .replacingOccurrences(of: "\"end\": \"bottom\"", with: "\"end\": \"bottomm\"").write(toFile: scene, atomically: true, encoding: .utf8)
        let small = directory.appendingPathComponent("small.json").path
        try good.replacingOccurrences(of: "\"size\": [1280, 720]", with: "\"size\": [640, 360]").write(toFile: small, atomically: true, encoding: .utf8)
        let validate = try EndToEndTests.run(["validate", scene])
        XCTAssertEqual(validate.status, 1)
        let errors = validate.stderr.split(separator: "\n").filter { $0.hasPrefix(scene) }
        XCTAssertEqual(errors.count, 2, validate.stderr)
        let script = """
        ask 'screenshot --window broken.png'
        cp small.json fixed.json && mv fixed.json sky.json
        waitfor "$OUT" '^reloaded '
        # The window takes the fixed scene's size (the window manager's answer is asynchronous).
        for i in $(seq 50); do ask 'screenshot fixed.png'; grep -q 'saved fixed.png (640×360)' "$OUT" && break; sleep 0.1; done
        ask 'set layers[0].opacity 0.5'
        ask 'save'
        ask 'quit'
        """
        let r = try runViewer([scene, "--paused"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        for error in errors { XCTAssertTrue(r.stderr.contains(error + "\n"), "\(error) in: \(r.stderr)") }
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("viewing sky: ") ?? false, r.stdout)
        XCTAssertTrue(lines.contains("set layers[0].opacity = 0.5"), r.stdout)
        XCTAssertTrue(lines.contains("wrote \(scene)"), r.stdout)
        XCTAssertTrue(lines.contains("saved fixed.png (640×360)"), r.stdout)
        // Broken: an empty picture with the messages at the bottom; fixed: the scene's picture.
        let broken = try PNG.read(path: directory.appendingPathComponent("broken.png").path)
        let top = Array(broken.pixels[..<(broken.width * 4)])
        XCTAssertEqual(Set(stride(from: 0, to: top.count, by: 4).map { top[$0..<$0 + 3] }).count, 1, "nothing drawn above the messages")
        let bottom = Array(broken.pixels[(broken.width * (broken.height - 30) * 4)...])
        XCTAssertGreaterThan(Set(stride(from: 0, to: bottom.count, by: 4).map { bottom[$0..<$0 + 3] }).count, 1, "the messages are on screen")
        let render = try EndToEndTests.run(["render", small, "-o", directory.appendingPathComponent("render.png").path])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(try PNG.read(path: directory.appendingPathComponent("fixed.png").path)
                      == PNG.read(path: directory.appendingPathComponent("render.png").path), "the fixed scene's picture")
        XCTAssertTrue(try String(contentsOfFile: scene, encoding: .utf8).contains("\"opacity\": 0.5"))
    }

    /// Text that is not JSON: the window opens with the message; the fixed file becomes the
    /// document that edits change and `save` writes (before, there was nothing to save).
    func testAFileThatIsNotJSONOpensAndBecomesTheDocumentOnceFixed() throws {
        let scene = directory.appendingPathComponent("sky.json").path
        try "{\"layers\": [\n".write(toFile: scene, atomically: true, encoding: .utf8)
        let script = """
        ask 'save'
        cp '\(EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json").path)' fixed.json && mv fixed.json sky.json
        waitfor "$OUT" '^reloaded '
        ask 'set layers[0].opacity 0.25'
        ask 'save'
        ask 'quit'
        """
        let r = try runViewer([scene, "--paused"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("\(scene):2:1: invalid JSON: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("save: "), "nothing to save while the file is not JSON: \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("\nwrote \(scene)\n"), r.stdout)
        XCTAssertTrue(try String(contentsOfFile: scene, encoding: .utf8).contains("\"opacity\": 0.25"))
    }

    /// HiDPI: with the X server's Xft.dpi at 192 (the X resource GLFW reads its content scale
    /// from), the content scale is 2: the window is the scene's points × 2 in pixels, and the picture
    /// is `welkin render --scale 2`.
    func testAContentScaleOfTwoDrawsTwiceThePixels() throws {
        let scene = directory.appendingPathComponent("small.json").path
        let text = try String(contentsOf: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json"), encoding: .utf8)
        try text.replacingOccurrences(of: "\"size\": [1280, 720]", with: "\"size\": [320, 180]").write(toFile: scene, atomically: true, encoding: .utf8)
        let script = """
        ask 'screenshot picture.png'
        ask 'screenshot --window window.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scene, "--paused"], in: directory, screen: "1280x800x24",
                                     setup: "xprop -root -f RESOURCE_MANAGER 8s -set RESOURCE_MANAGER 'Xft.dpi: 192'", script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("viewing Day sky (seed 000): 320×180 points, framebuffer 640×360, "), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved picture.png (640×360)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved window.png (640×360, window)\n"), r.stdout)
        let render = try EndToEndTests.run(["render", scene, "--scale", "2", "-o", directory.appendingPathComponent("render.png").path])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(try PNG.read(path: directory.appendingPathComponent("picture.png").path)
                      == PNG.read(path: directory.appendingPathComponent("render.png").path), "the picture is render --scale 2")
    }

    /// A solid `color` PNG of 8×8 pixels.
    func writeSprite(_ name: String, _ color: SIMD4<UInt8>) throws {
        var pixels: [UInt8] = []
        for _ in 0..<64 { pixels += [color.x, color.y, color.z, color.w] }
        try PNG.write(Image(width: 8, height: 8, pixels: pixels), to: directory.appendingPathComponent(name).path)
    }

    func testAnEditedSpriteImageShows() throws {
        try writeSprite("sprite.png", SIMD4(255, 0, 0, 255))
        try writeSprite("blue.png", SIMD4(0, 0, 255, 255))
        // Particles that sit still at the centre, each bigger than the frame.
        try write("sprites.json", """
            {"name": "sprites", "size": [100, 60], "dither": false, "layers": [
              {"type": "emitter", "position": [0.5, 0.5], "prewarm": 1,
               "cells": [{"image": "sprite.png", "spriteSize": 400, "birthRate": 5, "lifetime": 100, "velocity": 0}]}
            ]}
            """)
        let scene = directory.appendingPathComponent("sprites.json").path
        let script = """
        wid=$(xdotool search --sync --name '^sprites' | head -1)
        xdotool key --window $wid s; waitfor "$OUT" '^saved '; mv welkin-*.png before.png
        cp blue.png sprite.tmp && mv sprite.tmp sprite.png      # saved by renaming over it
        waitfor "$OUT" '^reloaded .*sprite.png'
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 2; mv welkin-*.png after.png
        xdotool key --window $wid q
        """
        let r = try runViewer([scene, "--paused", "--time", "1"], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.contains("reloaded \(FileWatcherPath.resolve(directory.appendingPathComponent("sprite.png").path)) in "), r.stdout)
        let before = try PNG.read(path: directory.appendingPathComponent("before.png").path)
        let after = try PNG.read(path: directory.appendingPathComponent("after.png").path)
        XCTAssertEqual(before[50, 30], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(after[50, 30], SIMD4(0, 0, 255, 255), "the edited image shows")
    }

    func testQuitsPromptlyWhileAFrameIsRendering() throws {
        // A shader slow enough on llvmpipe (a few hundred ms a frame) that a quit lands mid-frame.
        try write("slow.frag", """
            #version 330 core
            uniform float u_time;
            out vec4 fragColor;
            void main() {
                vec2 p = gl_FragCoord.xy / 100.0;
                float v = 0.0;
                for (int i = 0; i < 600; i++) { v = sin(v * 1.7 + p.x + float(i) * 0.01 + u_time) + cos(p.y + v); }
                fragColor = vec4(0.5 + 0.5 * v, 0.3, 0.6, 1.0);
            }
            """)
        try write("slow.json", """
            {"name": "slow", "size": [800, 500], "layers": [
              {"type": "linearGradient", "stops": ["#000000", "#FFFFFF"]},
              {"type": "shader", "fragment": "slow.frag"}
            ]}
            """)
        let scene = directory.appendingPathComponent("slow.json").path
        let script = """
        wid=$(xdotool search --sync --name '^slow' | head -1)
        # The title shows fps once a frame is on screen; the quit then lands in the next one.
        for i in $(seq 250); do xdotool getwindowname $wid | grep -q ' fps' && break; sleep 0.02; done
        xdotool getwindowname $wid > title.txt
        t0=$(date +%s%N)
        xdotool key --window $wid q
        wait $pid
        echo $(( ($(date +%s%N) - t0) / 1000000 )) > quit-ms.txt
        """
        let r = try runViewer([scene], script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let title = try String(contentsOfFile: directory.appendingPathComponent("title.txt").path, encoding: .utf8)
        let milliseconds = try XCTUnwrap(Int(try String(contentsOfFile: directory.appendingPathComponent("quit-ms.txt").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        print("quit took \(milliseconds) ms; title while running: \(title)")
        XCTAssertLessThan(milliseconds, 200, "from the quit key to the process's exit (\(title))")
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
