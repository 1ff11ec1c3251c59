import Foundation
import XCTest
import WelkinImage

/// The panel and animated properties (issue 26): an animated property shows its curve over the
/// timeline with the playhead, a right-click makes a constant an animation (`from` its value) and an
/// animation the constant it has at the playhead. Coordinates read off a window screenshot of the
/// scene below (1280×720, panel at x ≥ 880; layer 0 selected; `start` at y = 270, `end` at y = 290).
final class ViewerAnimationPanelTests: XCTestCase {
    func testAnimatedPropertiesPlotAndToggle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-anim-panel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("anim.json").path
        try """
        {"size": [1280, 720], "background": "black",
         "layers": [
          {"type": "linearGradient", "stops": ["indigo", "black"],
           "start": {"keyframes": [[0, [0, 0]], [2, [1, 0]]], "repeats": true}}
         ]}
        """.write(toFile: scene, atomically: true, encoding: .utf8)
        let script = """
        ask 'time 0.7'
        xdotool key --window $wid Tab; waitfor "$OUT" '^panel shown'
        xdotool mousemove --window $wid 1100 290 sleep 0.3 click 3 sleep 0.5 mousemove --window $wid 1130 307 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].end'
        ask 'get layers[0].end'
        xdotool mousemove --window $wid 915 270 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1 sleep 0.3 mousemove --window $wid 1000 650 sleep 0.5
        ask 'screenshot --window plot.png'
        xdotool mousemove --window $wid 915 270 sleep 0.3 click 3 sleep 0.5 mousemove --window $wid 945 287 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1
        waitfor "$OUT" '^set layers\\[0\\].start'
        ask 'get layers[0].start'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scene, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("""
            layers[0].end = {"from": [0.5, 1], "to": [0.5, 1], "animation": "easeInOut", "repeat": "forever", "autoreverses": true} (now [0.5, 1] at t = 0.70 s)
            """), r.stdout)
        XCTAssertTrue(r.stdout.contains("layers[0].start = [0.35, 0]\n"), r.stdout)
        // The plot of `start` (x 909…1128, y 281…313) has the playhead at 0.7 s of its 4 s span: x ≈ 947.
        let plot = try PNG.read(path: directory.appendingPathComponent("plot.png").path)
        var playhead: [Int] = []
        for y in 281..<314 {
            for x in 905..<1132 {
                let p = plot[x, y]
                if p.x > 180 && p.y > 140 && p.y < 200 && p.z < 110 { playhead.append(x) }
            }
        }
        XCTAssertFalse(playhead.isEmpty, "no playhead in the plot")
        XCTAssertEqual(Double(playhead.min() ?? 0), 947, accuracy: 4)
        XCTAssertEqual(Double(playhead.max() ?? 0), 947, accuracy: 4)
    }
}
