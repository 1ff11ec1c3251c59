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
/// at the right). Layer 0's row is at y = 211; its opacity slider spans x = 1103…1220.
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

    /// The pixels of `image` in x ∈ `xs`, all rows.
    func columns(_ image: Image, _ xs: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<image.height { out += image.pixels[(y * image.width + xs.lowerBound) * 4 ..< (y * image.width + xs.upperBound) * 4] }
        return out
    }

    func testTabShowsThePanelWhichLeavesTheViewersKeysAloneAndKeepsItsStateInTheConfigFolder() throws {
        let script = """
        ask 'screenshot --window hidden.png'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot --window shown.png'
        xdotool key --window $wid period; waitfor "$OUT" '^t = 0.02 s'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel hidden'
        ask 'time 0'
        ask 'screenshot --window hidden-again.png'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scenePath, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let hidden = try image("hidden.png"), shown = try image("shown.png")
        XCTAssertEqual(hidden.width, 1280)
        XCTAssertNotEqual(columns(hidden, 880..<1280), columns(shown, 880..<1280), "the panel is at the right")
        XCTAssertEqual(columns(hidden, 0..<860), columns(shown, 0..<860), "and only there")
        XCTAssertEqual(try image("hidden-again.png"), hidden, "Tab hides it again")
        // ImGui's layout file is in $XDG_CONFIG_HOME/welkin, never in the working folder.
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("config/welkin/imgui.ini")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("imgui.ini")))
    }

    func testASliderDraggedWithTheMouseEditsTheDocumentAndThePicture() throws {
        let script = """
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 1214 211 sleep 0.2 mousedown 1 sleep 0.2 mousemove --window $wid 1180 211 sleep 0.2 \\
                mousemove --window $wid 1150 211 sleep 0.3 mouseup 1
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

    func JSONText(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
