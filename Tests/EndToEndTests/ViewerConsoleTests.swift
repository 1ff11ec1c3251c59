import Foundation
import XCTest
import WelkinReference
import WelkinImage

/// The viewer's command console, driven on its standard input under Xvfb: one answer line for each
/// command, edits that are real (what the window shows is what `welkin render` draws of the saved
/// file), saving that leaves untouched bytes alone, undo to the exact bytes.
final class ViewerConsoleTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run"),
                      "xvfb-run is needed for window tests (make test installs the xvfb package)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// A small scene whose picture depends on time (the sun moves) and whose spelling a rewrite
    /// would change (`1.0`, `2.5e2`, key order, a one-line layer).
    let original = """
    {
      "name": "console",
      "size": [320, 180],
      "layers": [
        {"type": "sky", "date": "2024-03-20T07:00:00+01:00", "latitude": 48.8566, "longitude": 2.3522,
         "timeScale": 1440, "viewAzimuth": 100, "fieldOfView": 120},
        {
          "type": "radialGradient",
          "center": [0.5, 1.0],
          "endRadius": 2.5e2,
          "stops": [
            {"color": [1.0, 0.6, 0.2, 0.5], "location": 0},
            {"color": "#FF990000", "location": 1.0}
          ]
        }
      ]
    }

    """

    var scenePath: String { directory.appendingPathComponent("console.json").path }
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func writeScene() throws { try original.write(toFile: scenePath, atomically: false, encoding: .utf8) }

    func run(_ arguments: [String], _ script: String) throws -> ViewerDriver.Result {
        try ViewerDriver.run(arguments, in: directory, script: script)
    }

    func welkin(_ arguments: [String]) throws -> EndToEndTests.Run { try EndToEndTests.run(arguments) }

    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Every command, one answer line each, in order; the picture after `set` is `welkin render` of
    /// the saved file at that time, byte for byte; the saved file keeps every untouched byte.
    func testEveryCommandAnswersAndASetScreenshotIsTheRenderOfTheSavedScene() throws {
        try writeScene()
        let script = """
        ask 'time 1.5'
        ask 'get layers[1].stops[0].color'
        ask 'get layers[1].opacity'
        ask 'set layers[1].stops[0].color [0.2, 0.9, 0.4, 0.8]'
        ask 'set layers[1].opacity 0.75'
        ask 'screenshot edited.png'
        ask 'save'
        ask 'speed 0.5'
        ask 'play'
        ask 'pause'
        ask 'time 1.5'
        ask 'weather snow'
        ask 'undo'
        ask 'redo'
        ask 'reload'
        ask 'help'
        ask 'stats'
        ask 'quit'
        """
        let r = try run([scenePath, "--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let out = lines(r.stdout)
        XCTAssertEqual(out.count, 20, r.stdout)
        guard out.count == 20 else { return }
        XCTAssertTrue(out[0].hasPrefix("viewing console: 320×180 points"), out[0])
        XCTAssertEqual(Array(out[1...8]), [
            "time t = 1.50 s",
            "layers[1].stops[0].color = [1.0, 0.6, 0.2, 0.5]",
            "layers[1].opacity = 1 (default)",
            "set layers[1].stops[0].color = [0.2, 0.9, 0.4, 0.8]",
            "set layers[1].opacity = 0.75",
            "saved edited.png (320×180)",
            "wrote \(scenePath)",
            "speed 0.5×",
        ])
        XCTAssertEqual(out[9], "resumed")
        XCTAssertTrue(out[10].hasPrefix("paused at t = "), out[10])
        XCTAssertEqual(out[11], "time t = 1.50 s")
        XCTAssertEqual(out[12], "weather: snow (shown at once while paused)")
        XCTAssertEqual(out[13], "undid set layers[1].opacity = 0.75")
        XCTAssertEqual(out[14], "redid set layers[1].opacity = 0.75")
        XCTAssertTrue(out[15].hasPrefix("reloaded \(scenePath) and every shader in "), out[15])
        XCTAssertTrue(out[16].hasPrefix("Commands (standard input, one a line): | "), out[16])
        // The snow falls in the paused picture: particles, drawn in batches after the sky's pass.
        XCTAssertTrue(out[17].range(of: #"^paused, [0-9.]+ ms a frame( \(GPU [0-9.]+ ms\))?, [1-9][0-9]* particles, [0-9]+ draws; [1-9][0-9]* passes, [0-9.]+ MB of targets(, the last picture again)?$"#, options: .regularExpression) != nil,
                      out[17])
        XCTAssertEqual(out[18], "quitting")
        XCTAssertEqual(out[19], "")

        // The saved file: the two edited values, and every other byte as it was.
        let saved = try String(contentsOfFile: scenePath, encoding: .utf8)
        XCTAssertEqual(saved, original
            .replacingOccurrences(of: "{\"color\": [1.0, 0.6, 0.2, 0.5]", with: "{\"color\": [0.2, 0.9, 0.4, 0.8]")
            .replacingOccurrences(of: "      ]\n    }\n  ]", with: "      ],\n      \"opacity\": 0.75\n    }\n  ]"))
        XCTAssertEqual(try welkin(["validate", scenePath]).status, 0)
        // The edited picture is exactly what a headless render of the saved file draws at that time.
        let render = try welkin(["render", scenePath, "--time", "1.5", "-o", file("render.png")])
        XCTAssertEqual(render.status, 0, render.stderr)
        let shot = try PNG.read(path: file("edited.png")), rendered = try PNG.read(path: file("render.png"))
        XCTAssertEqual(shot, rendered, "screenshot after set vs welkin render of the saved scene")
        let before = try welkin(["render", "--time", "1.5", "-o", file("before.png")])
        XCTAssertEqual(before.status, 0)
        XCTAssertNotEqual(try PNG.read(path: file("before.png")), shot)
    }

    /// A bad command, a bad value, a bad path: one error line each, naming the command, and the
    /// document and the picture unchanged.
    func testBadCommandsAndValuesChangeNothing() throws {
        try writeScene()
        let script = """
        ask 'screenshot before.png'
        ask 'frobnicate'
        ask 'sett layers[1].opacity 0.5'
        ask 'set layers[1].opacity 2'
        ask 'set layers[1].opacityy 0.5'
        ask 'set layers[1].opacity [0.5,'
        ask 'set layers[1].stops[0].color orange'
        ask 'set layers[7].opacity 0.5'
        ask 'set layers[1].opacity'
        ask 'get layers[1].stops[9]'
        ask 'get layers[1].nonsense'
        ask 'time -1'
        ask 'time soon'
        ask 'speed 5'
        ask 'weather snowy'
        ask 'undo'
        ask 'redo'
        ask 'pause now'
        ask 'screenshot after.png'
        ask 'save'
        ask 'quit'
        """
        let r = try run([scenePath, "--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(lines(r.stderr), [
            "frobnicate: unknown command (try help)",
            "sett: unknown command; did you mean 'set'?",
            "set: \(scenePath): layers[1].opacity: expected a number in 0…1, got 2",
            "set: \(scenePath): layers[1].opacityy: unknown key 'opacityy'; did you mean 'opacity'?",
            "set: '[0.5,' is not a JSON value: unexpected end of file, expected a value (at column 6)",
            "set: 'orange' is not JSON; strings need quotes: set layers[1].stops[0].color \"orange\"",
            "set: layers[7]: out of range (layers has 2 elements)",
            "set: expected PATH VALUE, like: set layers[0].opacity 0.5",
            "get: layers[1].stops[9]: out of range (layers[1].stops has 2 elements)",
            "get: layers[1].nonsense: no such key in the file, and the scene format has no key by that name there",
            "time: expected a time in 0…1000000000 s, got -1",
            "time: expected a time in seconds ≥ 0, got 'soon'",
            "speed: expected a speed in 0.1…2, got 5",
            "weather: unknown weather 'snowy'; did you mean 'snow'?",
            "undo: nothing to undo",
            "redo: nothing to redo",
            "pause: takes no argument, got 'now'",
            "",
        ])
        XCTAssertEqual(lines(r.stdout).dropFirst(), ["saved before.png (320×180)", "saved after.png (320×180)", "wrote \(scenePath)", "quitting", ""])
        XCTAssertEqual(try String(contentsOfFile: scenePath, encoding: .utf8), original, "nothing changed")
        XCTAssertEqual(try PNG.read(path: file("before.png")), try PNG.read(path: file("after.png")))
    }

    /// Undo restores the previous document's bytes; saving does not reload what it saved; the
    /// title marks unsaved edits; Ctrl-Z, Ctrl-Shift-Z and Ctrl-S do what undo, redo and save do.
    func testUndoSaveAndTheUnsavedMark() throws {
        try writeScene()
        let script = """
        ask 'set layers[1].endRadius 120'
        # The title changes with the next frame drawn: poll it for up to 2 s (a loaded machine is slow).
        for i in $(seq 1 40); do xdotool getwindowname $wid > dirty-title.txt; grep -q '•' dirty-title.txt && break; sleep 0.05; done
        ask 'save'
        for i in $(seq 1 40); do xdotool getwindowname $wid > saved-title.txt; grep -q '•' saved-title.txt || break; sleep 0.05; done
        ask 'undo'
        ask 'save'
        cp console.json after-undo.json
        xdotool key --window $wid ctrl+shift+z; waitfor "$OUT" '^redid ' 5 1
        xdotool key --window $wid ctrl+s; waitfor "$OUT" '^wrote ' 5 3
        cp console.json after-redo.json
        xdotool key --window $wid ctrl+z; waitfor "$OUT" '^undid ' 5 2
        sleep 0.3   # the saves' file events have come and gone: none may be a reload
        ask 'quit'
        """
        let r = try run([scenePath, "--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("reloaded"), "a save is not reloaded: \(r.stdout)")
        XCTAssertTrue(try String(contentsOfFile: file("dirty-title.txt"), encoding: .utf8).hasPrefix("console • — t 0.0 s"))
        XCTAssertTrue(try String(contentsOfFile: file("saved-title.txt"), encoding: .utf8).hasPrefix("console — t 0.0 s"))
        XCTAssertEqual(try String(contentsOfFile: file("after-undo.json"), encoding: .utf8), original, "undo restores the bytes")
        XCTAssertEqual(try String(contentsOfFile: file("after-redo.json"), encoding: .utf8),
                       original.replacingOccurrences(of: "2.5e2", with: "120"))
        // Quitting after the last undo, which was not saved: said, and kept.
        let recovery = scenePath + ".welkin-recovery"
        XCTAssertEqual(r.stderr, "quitting with unsaved edits to \(scenePath): kept them in \(recovery)\n")
        XCTAssertEqual(try String(contentsOfFile: recovery, encoding: .utf8), original)
    }

    /// `save PATH` writes the built-in scene to a file, which the viewer then edits and `save` writes;
    /// a folder, or another file already there, is refused and left alone. The file draws the built-in
    /// scene's picture (`welkin render` of each, byte for byte).
    func testSaveAsWritesTheBuiltInSceneToAFileThatDrawsTheSamePicture() throws {
        try FileManager.default.createDirectory(atPath: file("folder"), withIntermediateDirectories: false)
        try "taken".write(toFile: file("taken.json"), atomically: false, encoding: .utf8)
        let script = """
        ask 'save'
        ask 'save folder'
        ask 'save taken.json'
        ask 'save sky.json'
        cp sky.json as-saved.json
        ask 'set layers[1].opacity 0.5'
        ask 'save'
        ask 'quit'
        """
        let r = try run(["--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(lines(r.stderr), [
            "save: the built-in scene has no file yet: save PATH writes it to one",
            "save: folder is a folder; give a file name, like folder/scene.json",
            "save: taken.json already exists with other contents: not overwritten (give another name, or remove it first)",
            "",
        ])
        XCTAssertEqual(lines(r.stdout).dropFirst(), ["wrote sky.json", "set layers[1].opacity = 0.5", "wrote sky.json", "quitting", ""])
        XCTAssertEqual(try String(contentsOfFile: file("taken.json"), encoding: .utf8), "taken")
        let saved = try String(contentsOfFile: file("as-saved.json"), encoding: .utf8)
        XCTAssertTrue(saved.hasPrefix("{\n  \"name\": \"Welkin default sky\","), saved)
        XCTAssertEqual(try String(contentsOfFile: file("sky.json"), encoding: .utf8),
                       saved.replacingOccurrences(of: "{\"type\": \"clouds\"}", with: "{\"type\": \"clouds\", \"opacity\": 0.5}"))
        for (scene, out) in [(nil, "built-in.png"), (file("as-saved.json"), "saved.png")] {
            let render = try welkin(["render"] + (scene.map { [$0] } ?? []) + ["--time", "20", "--size", "320x180", "-o", file(out)])
            XCTAssertEqual(render.status, 0, render.stderr)
        }
        XCTAssertEqual(try PNG.read(path: file("built-in.png")), try PNG.read(path: file("saved.png")), "the saved built-in scene draws its picture")
    }

    /// Ctrl-C where the console runs (SIGINT) quits as Q does: unsaved edits are said and kept.
    func testAnInterruptKeepsUnsavedEdits() throws {
        try writeScene()
        let script = """
        ask 'set layers[1].opacity 0.5'
        kill -INT $viewer
        """
        let r = try run([scenePath, "--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let recovery = scenePath + ".welkin-recovery"
        XCTAssertEqual(r.stderr, "quitting with unsaved edits to \(scenePath): kept them in \(recovery)\n")
        XCTAssertTrue(try String(contentsOfFile: recovery, encoding: .utf8).contains("\"opacity\": 0.5"))
        XCTAssertEqual(try String(contentsOfFile: scenePath, encoding: .utf8), original, "the file itself is untouched")
    }

    /// The file changes on disk while the viewer has unsaved edits: the file's version shows, and
    /// the edits are one undo away.
    func testAnExternalEditKeepsUnsavedEditsAsAnUndoStep() throws {
        try writeScene()
        let script = """
        ask 'set layers[1].opacity 0.5'
        sed -i 's/"endRadius": 2.5e2/"endRadius": 90/' console.json
        waitfor "$OUT" '^reloaded '
        ask 'get layers[1].endRadius'
        ask 'get layers[1].opacity'
        ask 'undo'
        ask 'get layers[1].opacity'
        ask 'save'
        ask 'quit'
        """
        let r = try run([scenePath, "--paused"], script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "\(scenePath) changed on disk while it had unsaved edits: showing the file; undo brings the edits back\n")
        let out = lines(r.stdout)
        XCTAssertTrue(r.stdout.contains("""
            layers[1].endRadius = 90
            layers[1].opacity = 1 (default)
            undid the file as saved on disk
            layers[1].opacity = 0.5

            """), r.stdout)
        XCTAssertEqual(out.filter { $0.hasPrefix("reloaded ") }.count, 1, r.stdout)
        XCTAssertEqual(try String(contentsOfFile: scenePath, encoding: .utf8),
                       original.replacingOccurrences(of: "      ]\n    }\n  ]", with: "      ],\n      \"opacity\": 0.5\n    }\n  ]"))
    }
}
