import Foundation
import XCTest
import WelkinReference
import WelkinImage

/// The viewer's panel (Dear ImGui) under Xvfb: Tab shows it, a slider dragged with the mouse edits
/// the document like `set`, an error is on screen over the last good picture. Pictures of the whole
/// window (panel included) come from the viewer's `screenshot --window`.
///
/// The panel's layout is ImGui's with its built-in 13 px font at scale 1 (Xvfb): the coordinates
/// below were read off a window screenshot of Scenes/day-gradient.json (1280×720, panel 400 px wide
/// at the right, the picture fitted beside it: 880×495 from y = 112; no weather box: the scene has
/// no sky). Layer 0's row is at y = 188; its opacity slider spans x = 1103…1220.
final class ViewerPanelTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-panel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json").path,
                                         toPath: scenePath)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    var scenePath: String { directory.appendingPathComponent("sky.json").path }
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func image(_ name: String) throws -> Image { try PNG.read(path: file(name)) }

    /// The pixels of `image` in x ∈ `xs`, rows `ys` (all by default).
    func columns(_ image: Image, _ xs: Range<Int>, rows ys: Range<Int>? = nil) -> [UInt8] {
        var out: [UInt8] = []
        for y in ys ?? 0..<image.height { out += image.pixels[(y * image.width + xs.lowerBound) * 4 ..< (y * image.width + xs.upperBound) * 4] }
        return out
    }

    func testTabShowsThePanelWhichLeavesTheViewersKeysAloneAndKeepsItsStateInTheConfigFolder() throws {
        let script = """
        ask 'screenshot --window hidden.png'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot --window shown.png'
        ask 'screenshot picture.png'
        xdotool key --window $wid period; waitfor "$OUT" '^t = 0.02 s'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel hidden'
        ask 'time 0'
        ask 'screenshot --window hidden-again.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let hidden = try image("hidden.png"), shown = try image("shown.png"), picture = try image("picture.png")
        XCTAssertEqual(hidden.width, 1280)
        XCTAssertNotEqual(columns(hidden, 880..<1280), columns(shown, 880..<1280), "the panel is at the right")
        // The picture is drawn again in the part of the window the panel leaves, none of it under
        // the panel: the scene's own framing, fitted (880×495) and centred (rows 112…606).
        XCTAssertTrue(r.stdout.contains("saved picture.png (880×495)\n"), r.stdout)
        XCTAssertEqual(columns(shown, 0..<880, rows: 112..<607), picture.pixels, "the picture beside the panel")
        XCTAssertEqual(try image("hidden-again.png"), hidden, "Tab hides it again")
        // ImGui's layout file is in $XDG_CONFIG_HOME/welkin, never in the working folder.
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("config/welkin/imgui.ini")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("imgui.ini")))
    }

    func testASliderDraggedWithTheMouseEditsTheDocumentAndThePicture() throws {
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 1214 188 sleep 0.2 mousedown 1 sleep 0.2 mousemove --window $wid 1180 188 sleep 0.2 \\
                mousemove --window $wid 1150 188 sleep 0.3 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].opacity = '
        ask 'get layers[0].opacity'
        ask 'screenshot after.png'
        ask 'save'
        cp sky.json saved.json
        ask 'undo'
        ask 'screenshot undone.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let set = try XCTUnwrap(lines.first { $0.hasPrefix("set layers[0].opacity = ") }, r.stdout)
        let value = try XCTUnwrap(Double(set.dropFirst("set layers[0].opacity = ".count)), set)
        XCTAssertTrue(value > 0.3 && value < 0.9, "dragged about a third of the way down: \(value)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("set ") }.count, 1, "a drag is one edit: \(r.stdout)")
        XCTAssertTrue(lines.contains("layers[0].opacity = \(JSONText(value))"), r.stdout)
        XCTAssertTrue(lines.contains("undid set layers[0].opacity = \(JSONText(value))"), "one undo step for the drag: \(r.stdout)")
        // The document: the one key added, every other byte as it was.
        let original = try String(contentsOf: EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: file("saved.json"), encoding: .utf8),
                       original.replacingOccurrences(of: "      ]\n    }\n  ]", with: "      ],\n      \"opacity\": \(JSONText(value))\n    }\n  ]"))
        // The picture: changed by the drag, back after undo.
        XCTAssertNotEqual(try image("before.png"), try image("after.png"))
        XCTAssertEqual(try image("before.png"), try image("undone.png"))
    }

    func testAnErrorIsOnScreenOverTheLastGoodPictureUntilFixed() throws {
        let script = """
        ask 'screenshot --window clean.png'
        sed -i 's/"stops": \\[/"stops": [[/' sky.json
        waitfor "$ERR" 'invalid JSON'
        ask 'screenshot --window broken.png'
        sed -i 's/"stops": \\[\\[/"stops": [/' sky.json
        waitfor "$OUT" '^reloaded '
        ask 'screenshot --window fixed.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "\(scenePath):14:5: invalid JSON: unexpected character '}', expected ',' or ']'\n")
        let clean = try image("clean.png"), broken = try image("broken.png")
        // The overlay: the bottom 50 rows differ (the message), the picture above is the last good one.
        let bottom = clean.width * (clean.height - 50) * 4
        XCTAssertNotEqual(Array(clean.pixels[bottom...]), Array(broken.pixels[bottom...]), "the message is on screen")
        XCTAssertEqual(Array(clean.pixels[..<bottom]), Array(broken.pixels[..<bottom]), "over the last good picture")
        XCTAssertEqual(try image("fixed.png"), clean, "and gone once fixed")
    }

    /// Seed 000's debug panel on Scenes/day-cycle.json: the sky's horizon and zenith colours (its
    /// default palette, not in the file until edited) and a playback speed slider in 0.1–2.
    /// Coordinates from a window screenshot: the palette node at y = 551 (below the collapsed Camera
    /// header and the ground), keyframe [4] (the day colours) at y = 636 once it is open, its zenith's
    /// blue field at (1052, 679); the speed slider at y = 120, 1.00× at x = 992.
    func testSeed000sHorizonZenithAndSpeedOnDayCycle() throws {
        try FileManager.default.removeItem(atPath: scenePath)
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/day-cycle.json").path,
                                         toPath: scenePath)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 940 551 sleep 0.2 mousedown 1 sleep 0.15 mouseup 1 sleep 0.3 mousemove --window $wid 940 636 sleep 0.2 mousedown 1 sleep 0.15 mouseup 1 sleep 0.3
        xdotool mousemove --window $wid 1052 679 sleep 0.2 mousedown 1 sleep 0.2 mousemove --window $wid 1000 679 sleep 0.2 \\
                mousemove --window $wid 952 679 sleep 0.3 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].palette'
        ask 'get layers[0].palette[4].zenith'
        ask 'get layers[0].palette[4].horizon'
        ask 'screenshot after.png'
        ask 'undo'
        ask 'get layers[0].palette'
        ask 'redo'
        xdotool mousemove --window $wid 992 120 sleep 0.2 mousedown 1 sleep 0.2 mousemove --window $wid 960 120 sleep 0.2 \\
                mousemove --window $wid 940 120 sleep 0.3 mouseup 1
        waitfor "$OUT" '^speed '
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused", "--time", "24"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // The zenith's blue went down from seed 000's 0.8 (204); the horizon is seed 000's, as it was.
        let zenith = try XCTUnwrap(lines.first { $0.hasPrefix("layers[0].palette[4].zenith = ") }, r.stdout)
        let blue = try XCTUnwrap(Double(zenith.split(separator: ",").last!.dropLast().trimmingCharacters(in: .whitespaces)), zenith)
        XCTAssertTrue(zenith.hasPrefix("layers[0].palette[4].zenith = [0.1, 0.3, ") && blue < 0.7, zenith)
        XCTAssertTrue(lines.contains("layers[0].palette[4].horizon = [0.4, 0.6, 1]"), r.stdout)
        XCTAssertNotEqual(try image("before.png"), try image("after.png"), "the day sky's zenith changed")
        // The drag is one undo step, back to the file without a palette.
        XCTAssertTrue(lines.contains { $0.hasPrefix("undid set layers[0].palette[4].zenith = [0.1, 0.3, ") }, r.stdout)
        XCTAssertTrue(lines.contains("layers[0].palette = seed 000's night, twilight, sunset and day (default)"), r.stdout)
        let speed = try XCTUnwrap(lines.first { $0.hasPrefix("speed ") }, r.stdout)
        let factor = try XCTUnwrap(Double(speed.dropFirst("speed ".count).dropLast()), speed)
        XCTAssertTrue(factor >= 0.1 && factor < 0.9, speed)
    }

    /// With the panel up, a mesh layer's vertices are handles over the picture: a drag edits
    /// `layers[i].points[k]` (one undo step), Shift snaps to a 1/20 grid. Scenes/mesh-seed.json's
    /// points[4] is [0.1, 0.5]: at (88, 360) in the window, the 880×495 picture beside the panel
    /// starting at y = 112.
    func testMeshControlPointsDragWithTheMouse() throws {
        try FileManager.default.removeItem(atPath: scenePath)
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/mesh-seed.json").path,
                                         toPath: scenePath)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 88 360 sleep 0.3 mousedown 1 sleep 0.2 mousemove --window $wid 250 330 sleep 0.2 \\
                mousemove --window $wid 400 300 sleep 0.3 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].points\\[4\\]'
        ask 'screenshot after.png'
        xdotool mousemove --window $wid 400 300 sleep 0.3 keydown shift mousedown 1 sleep 0.2 mousemove --window $wid 600 320 sleep 0.2 \\
                mousemove --window $wid 655 330 sleep 0.3 mouseup 1 keyup shift
        waitfor "$OUT" '^set layers\\[0\\].points\\[4\\]' 5 2
        ask 'undo'
        ask 'get layers[0].points[4]'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("set ") }, ["set layers[0].points[4] = [0.455, 0.38]", "set layers[0].points[4] = [0.75, 0.45]"],
                       r.stdout)
        XCTAssertTrue(lines.contains("undid set layers[0].points[4] = [0.75, 0.45]"), r.stdout)
        XCTAssertTrue(lines.contains("layers[0].points[4] = [0.455, 0.38]"), r.stdout)
        XCTAssertNotEqual(try image("before.png"), try image("after.png"), "the mesh follows its point")
    }

    /// A transformed mesh layer's handles sit where the transform puts its vertices, and a drag
    /// writes the untransformed point: `offset` [200, 0] pt is 137.5 px of the 880-px picture, so
    /// points[4] ([0.1, 0.5]) is at (225.5, 359.5) (the 880×495 picture from y = 112); dropped at
    /// (326, 360) it is [0.214, 0.501].
    func testATransformedMeshsHandlesFollowItsTransform() throws {
        var text = try String(contentsOfFile: EndToEndTests.repository.appendingPathComponent("Scenes/mesh-seed.json").path, encoding: .utf8)
        let layer = try XCTUnwrap(text.range(of: "\"type\": \"meshGradient\""))
        text.replaceSubrange(layer, with: "\"type\": \"meshGradient\", \"transform\": {\"offset\": [200, 0]}")
        try text.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        xdotool mousemove --window $wid 226 360 sleep 0.3 mousedown 1 sleep 0.2 mousemove --window $wid 280 360 sleep 0.2 \\
                mousemove --window $wid 326 360 sleep 0.3 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].points\\[4\\]'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix("set ") }.last, "set layers[0].points[4] = [0.214, 0.501]", r.stdout)
    }

    /// A handle at x = 1 is at the picture's right edge, beside the panel (not under it): it can be
    /// picked up. Scenes/mesh-seed.json's points[5] is [1, 0.2]: at (880, 211) in the window (the
    /// 880×495 picture from y = 112).
    func testAMeshHandleAtTheRightEdgeIsReachableBesideThePanel() throws {
        try FileManager.default.removeItem(atPath: scenePath)
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/mesh-seed.json").path,
                                         toPath: scenePath)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        xdotool mousemove --window $wid 873 211 sleep 0.3 mousedown 1 sleep 0.2 mousemove --window $wid 800 211 sleep 0.2 \\
                mousemove --window $wid 704 211 sleep 0.3 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].points'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix("set ") }, ["set layers[0].points[5] = [0.8, 0.2]"], r.stdout)
    }

    /// A phone-sized scene in a wide window with the panel open (#40): the whole scene at its own
    /// aspect and framing — the pixels `welkin render --size` draws at the fitted size — centred
    /// between letterbox bars beside the panel, none of it under it. Widening the window moves the
    /// picture, never re-frames it; `framing fill` (A) re-frames the scene to fill the window.
    func testAPhoneSceneIsLetterboxedBesideThePanelAndNeverReFramed() throws {
        try """
        {"name": "Phone", "size": [390, 844], "layers": [
          {"type": "linearGradient", "start": "top", "end": "bottom",
           "stops": [{"color": [0.1, 0.3, 0.8], "location": 0}, {"color": [0.9, 0.6, 0.4], "location": 1}]},
          {"type": "radialGradient", "center": [0.5, 0.8], "startRadius": 0, "endRadius": 120,
           "stops": [{"color": [1, 1, 0.8, 0.9], "location": 0}, {"color": [1, 1, 0.8, 0], "location": 1}]}
        ]}
        """.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let script = """
        xdotool windowsize $wid 1280 900; sleep 0.5
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot --window shown.png'
        ask 'screenshot picture.png'
        xdotool windowsize $wid 1500 900; sleep 0.5
        ask 'screenshot --window wider.png'
        ask 'framing fill'
        ask 'screenshot filled.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, screen: "1600x1000x24", script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        // 390×844 points fitted into the 880×900 the panel leaves: 416×900, from x = 232.
        XCTAssertTrue(r.stdout.contains("saved picture.png (416×900)\n"), r.stdout)
        let shown = try image("shown.png"), picture = try image("picture.png"), wider = try image("wider.png")
        XCTAssertEqual(shown.width, 1280)
        XCTAssertEqual(shown.height, 900)
        XCTAssertEqual(columns(shown, 232..<648), picture.pixels, "the whole picture, centred beside the panel")
        let bars = columns(shown, 0..<232) + columns(shown, 648..<880)
        XCTAssertEqual(Set(bars.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)).count, 1, "plain letterbox bars")
        XCTAssertLessThan(bars[0], 40, "dark bars")
        XCTAssertNotEqual(columns(shown, 880..<1280), [UInt8](repeating: bars[0], count: 400 * 900 * 4), "the panel at the right")
        // The scene's own framing: what a render at that size draws.
        let rendered = file("rendered.png")
        let render = try EndToEndTests.run(["render", scenePath, "--size", "416x900", "-o", rendered])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertLessThanOrEqual(try Comparison(picture, try PNG.read(path: rendered)).maxDifference, 1)
        // Wider: the same picture, centred in the 1100 px beside the panel.
        XCTAssertEqual(wider.width, 1500)
        XCTAssertEqual(columns(wider, 342..<758), picture.pixels, "widening never re-frames the scene")
        // Fill: the scene re-framed as a 1100×900 one.
        XCTAssertTrue(r.stdout.contains("framing fill: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved filled.png (1100×900)\n"), r.stdout)
    }

    /// A panel shown in a window too narrow for it and the picture widens the window by what they
    /// need (the picture keeps its size); hidden, the window gets its width back.
    func testThePanelWidensANarrowWindowAndGivesTheWidthBack() throws {
        try """
        {"name": "Phone", "size": [390, 844], "layers": [{"type": "linearGradient", "start": "top", "end": "bottom",
          "stops": [{"color": [0.1, 0.3, 0.8], "location": 0}, {"color": [0.9, 0.6, 0.4], "location": 1}]}]}
        """.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let script = """
        ask 'screenshot alone.png'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        sleep 0.5
        ask 'screenshot --window docked.png'
        ask 'screenshot beside.png'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel hidden'
        sleep 0.5
        ask 'screenshot --window back.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, screen: "1600x1000x24", script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("saved docked.png (790×844, window)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("saved beside.png (390×844)\n"), r.stdout)
        XCTAssertEqual(try image("beside.png"), try image("alone.png"), "the picture keeps its size beside the panel")
        XCTAssertTrue(r.stdout.contains("saved back.png (390×844, window)\n"), r.stdout)
    }

    /// The weather box is an edit of the document's `weather` like any other: answered as `set`,
    /// saved by Ctrl-S, one undo step. Scenes/day-cycle.json at t = 24: the box at y = 143, its
    /// list's `rain` at (905, 218) once open.
    func testTheWeatherBoxEditsTheSceneAndCtrlSSavesIt() throws {
        try FileManager.default.removeItem(atPath: scenePath)
        try FileManager.default.copyItem(atPath: EndToEndTests.repository.appendingPathComponent("Scenes/day-cycle.json").path,
                                         toPath: scenePath)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 940 143 sleep 0.2 mousedown 1 sleep 0.15 mouseup 1 sleep 0.4 mousemove --window $wid 905 218 sleep 0.2 mousedown 1 sleep 0.15 mouseup 1
        waitfor "$OUT" '^set weather'
        ask 'screenshot after.png'
        xdotool key --window $wid ctrl+s; waitfor "$OUT" '^wrote '
        cp sky.json saved.json
        ask 'undo'
        ask 'get weather'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused", "--time", "24"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("set weather = \"rain\""), r.stdout)
        XCTAssertTrue(lines.contains("wrote \(scenePath)"), r.stdout)
        XCTAssertTrue(lines.contains("undid set weather = \"rain\""), r.stdout)
        XCTAssertNotEqual(try image("before.png"), try image("after.png"), "the rain shows")
        let saved = try String(contentsOfFile: file("saved.json"), encoding: .utf8)
        XCTAssertTrue(saved.contains("\"weather\": \"rain\""), saved)
        XCTAssertEqual(try EndToEndTests.run(["validate", file("saved.json")]).status, 0)
    }

    /// Save as… beside Save, Undo and Redo: the built-in scene to the suggested welkin-default.json,
    /// then a name typed in its field (Enter) where another file is: refused, said, and left alone.
    func testSaveAsWritesTheBuiltInSceneAndNeverOverwritesAnotherFile() throws {
        try "taken".write(toFile: file("taken.json"), atomically: false, encoding: .utf8)
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        xdotool mousemove --window $wid 1198 70 sleep 0.2 mousedown 1 sleep 0.2 mouseup 1; waitfor "$OUT" '^wrote '
        xdotool mousemove --window $wid 1080 70 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1 sleep 0.5 keydown ctrl+a sleep 0.5 keyup ctrl+a sleep 0.2 type --delay 40 taken.json
        # Keys held for longer than a frame (ImGui 1.86 polls key state once a frame).
        xdotool sleep 0.3 keydown --window $wid Return sleep 0.5 keyup --window $wid Return; waitfor "$ERR" '^save: ' 10
        ask 'quit'
        """
        let r = try ViewerDriver.run(["--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\nwrote welkin-default.json\n"), r.stdout)
        XCTAssertEqual(r.stderr, "save: taken.json already exists with other contents: not overwritten (give another name, or remove it first)\n")
        XCTAssertEqual(try String(contentsOfFile: file("taken.json"), encoding: .utf8), "taken")
        let saved = try String(contentsOfFile: file("welkin-default.json"), encoding: .utf8)
        XCTAssertTrue(saved.hasPrefix("{\n  \"name\": \"Welkin default sky\","), saved)
        XCTAssertEqual(try EndToEndTests.run(["validate", file("welkin-default.json")]).status, 0)
    }

    func JSONText(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
