import Foundation
import XCTest
import WelkinImage

/// The viewer's clock and sky keys under Xvfb: frame steps, Home, playback speed, time never below
/// zero, weather and sky-clock keys that redraw while paused or say why nothing changes, WM_CLASS.
final class ViewerTimelineTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testFrameStepsHomeSpeedAndTimeNeverBelowZero() throws {
        let scene = try write("plain.json", """
            {"name": "plain", "size": [160, 90], "layers": [{"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]}]}
            """)
        let script = """
        xdotool search --class '^welkin$' > class.txt
        for k in period period period comma; do xdotool key --window $wid $k; done
        waitfor "$OUT" '^t = ' 5 4
        xdotool key --window $wid Home; waitfor "$OUT" '^t = ' 5 5
        xdotool key --window $wid Left; waitfor "$OUT" '^t = ' 5 6
        xdotool key --window $wid bracketright; waitfor "$OUT" '^speed ' 5 1
        xdotool key --window $wid bracketleft; waitfor "$OUT" '^speed ' 5 2
        xdotool key --window $wid bracketleft; waitfor "$OUT" '^speed ' 5 3
        for i in 1 2 3 4 5 6 7; do xdotool key --window $wid bracketleft; done; waitfor "$OUT" '^speed ' 5 10
        ask 'time'
        xdotool key --window $wid q
        """
        let r = try ViewerDriver.run([scene, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let lines = r.stdout.split(separator: "\n").dropFirst().map(String.init)
        XCTAssertEqual(lines, [
            "t = 0.02 s (paused)", "t = 0.03 s (paused)", "t = 0.05 s (paused)", "t = 0.03 s (paused)",
            "t = 0.00 s", "t = 0.00 s",
            "speed 1.5×", "speed 1×", "speed 0.75×", "speed 0.5×", "speed 0.25×", "speed 0.1×",
            "speed 0.1×", "speed 0.1×", "speed 0.1×", "speed 0.1×",
            "time t = 0.00 s",
        ])
        // WM_CLASS is welkin: the driver found the window by its instance name, and by its class here.
        XCTAssertFalse(try String(contentsOfFile: file("class.txt"), encoding: .utf8).isEmpty)
    }

    func testWeatherAndSkyClockRedrawWhilePausedOrSayWhyNot() throws {
        let moving = try write("moving.json", """
            {"name": "moving", "size": [320, 180], "layers": [
              {"type": "sky", "date": "2024-03-20T18:00:00+01:00", "latitude": 48.8566, "longitude": 2.3522},
              {"type": "cloudCover"}
            ]}
            """)
        let script = """
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 1; mv welkin-moving-*.png clear.png
        xdotool key --window $wid 5; waitfor "$OUT" '^weather: '
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 2; mv welkin-moving-*.png snow.png
        xdotool key --window $wid t; waitfor "$OUT" '^sky clock '
        xdotool key --window $wid s; waitfor "$OUT" '^saved ' 5 3; mv welkin-moving-*.png later.png
        xdotool key --window $wid q
        """
        let r = try ViewerDriver.run([moving, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("weather: snow (shown at once while paused)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("sky clock +0.5 h\n"), r.stdout)
        let clear = try PNG.read(path: file("clear.png")), snow = try PNG.read(path: file("snow.png"))
        let later = try PNG.read(path: file("later.png"))
        XCTAssertNotEqual(clear, snow, "the weather shows while paused")
        XCTAssertNotEqual(snow, later, "the sky clock shows while paused")

        // No sky, and a fixed sun: nothing to show, and the viewer says why.
        let fixed = try write("fixed.json", """
            {"name": "fixed", "size": [160, 90], "layers": [{"type": "sky", "sunElevation": 20}]}
            """)
        let plain = try write("plain.json", """
            {"name": "plain", "size": [160, 90], "layers": [{"type": "linearGradient", "stops": ["#FF9500", "#5856D6"]}]}
            """)
        let fixedRun = try ViewerDriver.run([fixed, "--paused"], in: directory, script: """
            xdotool key --window $wid t; waitfor "$OUT" '^sky clock'
            xdotool key --window $wid q
            """)
        XCTAssertTrue(fixedRun.stdout.contains(
            "sky clock: the sky's sun is fixed (sunElevation), so the clock changes nothing; give the sky a date, latitude and longitude to move it\n"),
            fixedRun.stdout)
        let plainRun = try ViewerDriver.run([plain, "--paused"], in: directory, script: """
            xdotool key --window $wid shift+t; waitfor "$OUT" '^sky clock'
            xdotool key --window $wid 2; waitfor "$OUT" '^weather: '
            xdotool key --window $wid 5; waitfor "$OUT" '^weather: ' 5 2
            xdotool key --window $wid q
            """)
        XCTAssertEqual(plainRun.stdout.split(separator: "\n").dropFirst(), [
            "sky clock: this scene has no sky layer, so there is no clock to turn",
            "weather: cloudy (nothing shows it: this scene has no sky or cloud layer)",
            "weather: snow (this scene has no sky or cloud layer: only its rain or snow shows)",
        ])
    }
}
