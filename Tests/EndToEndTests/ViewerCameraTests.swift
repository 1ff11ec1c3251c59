import Foundation
import XCTest
import WelkinReference
import WelkinImage

/// Looking around in the viewer under Xvfb: a drag turns the sky camera (yaw and pitch, one undo
/// step answered on release), the scroll wheel zooms, C cycles the projection, and Ctrl-S saves
/// the view into the file; the picture follows.
final class ViewerCameraTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A 960×540 rectilinear camera, 80° across: f = 480 / tan 40° = 572.05 px, so a pixel at the
    /// centre is 0.10016°. Dragging 100 px right and 50 px down turns the view 10.0° left and
    /// tilts it 5.0° up; one scroll step up zooms 1.1× (80° → 72.7°).
    func testDraggingTurnsTheCameraScrollZoomsAndCCyclesTheProjection() throws {
        let scene = """
        {"size": [960, 540],
         "camera": {"projection": "rectilinear", "yaw": 120, "pitch": 10, "fieldOfView": 80},
         "layers": [{"type": "sky", "model": "physical", "date": "2024-06-21T10:30:00+02:00", "latitude": 46.95, "longitude": 7.45}]}
        """
        try scene.write(toFile: file("look.json"), atomically: true, encoding: .utf8)
        let script = """
        ask 'screenshot before.png'
        xdotool mousemove --window $wid 480 270 sleep 0.3 mousedown 1 sleep 0.3 mousemove --window $wid 530 295 sleep 0.3 \\
                mousemove --window $wid 580 320 sleep 0.5 mouseup 1
        waitfor "$OUT" '^set camera = ' 10
        ask 'get camera.yaw'
        ask 'get camera.pitch'
        ask 'screenshot after.png'
        xdotool mousemove --window $wid 480 270 sleep 0.2 click 4
        waitfor "$OUT" '^set camera = ' 10 2
        xdotool key --window $wid c
        waitfor "$OUT" '^set camera = ' 10 3
        ask 'undo'
        ask 'save'
        ask 'quit'
        """
        let r = try ViewerDriver.run([file("look.json"), "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let sets = lines.filter { $0.hasPrefix("set camera = ") }
        XCTAssertEqual(sets, [
            #"set camera = {"projection": "rectilinear", "yaw": 110, "pitch": 15, "fieldOfView": 80}"#,
            #"set camera = {"projection": "rectilinear", "yaw": 110, "pitch": 15, "fieldOfView": 72.7}"#,
            #"set camera = {"projection": "fisheye", "yaw": 110, "pitch": 15, "fieldOfView": 72.7}"#,
        ], r.stdout)
        XCTAssertTrue(lines.contains("camera.yaw = 110"), r.stdout)
        XCTAssertTrue(lines.contains("camera.pitch = 15"), r.stdout)
        XCTAssertNotEqual(try PNG.read(path: file("before.png")), try PNG.read(path: file("after.png")), "the sky turns with the camera")
        // Undo took back the projection; the zoomed view is what was saved.
        let saved = try String(contentsOfFile: file("look.json"), encoding: .utf8)
        XCTAssertTrue(saved.contains(#""fieldOfView": 72.7"#) && saved.contains(#""projection": "rectilinear""#), saved)
    }

    /// The console's `get` of an animated property says what it is now, besides what the file says.
    func testGetSaysAnAnimatedValueNow() throws {
        try """
        {"size": [320, 180], "layers": [{"type": "linearGradient", "stops": ["red", "blue"],
          "opacity": {"from": 0, "to": 1, "animation": {"linear": {"duration": 4}}}}]}
        """.write(toFile: file("fade.json"), atomically: true, encoding: .utf8)
        let r = try ViewerDriver.run([file("fade.json"), "--paused", "--time", "1"], in: directory, script: """
        ask 'get layers[0].opacity'
        ask 'get layers[0].stops'
        ask 'quit'
        """)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains(#"layers[0].opacity = {"from": 0, "to": 1, "animation": {"linear": {"duration": 4}}} (now 0.25 at t = 1.00 s)"#), r.stdout)
        XCTAssertTrue(lines.contains(#"layers[0].stops = ["red", "blue"]"#), r.stdout)
    }
}
