import Foundation
import XCTest

/// The viewer's recording (`record`, `record stop`, Shift-R), driven through its console under
/// Xvfb and checked with ffprobe: an H.264 MP4 of the window's size beside the scene file.
final class ViewerRecordingTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run"),
                      "xvfb-run is needed for window tests (make test installs the xvfb package)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// NAME.json: a 320×180 sky whose sun moves with the clock.
    func writeScene(_ name: String) throws -> String {
        let scene = file("\(name).json")
        try """
        {"name": "\(name)", "size": [320, 180], "layers": [
          {"type": "sky", "date": "2024-03-20T07:00:00+01:00", "latitude": 48.8566, "longitude": 2.3522, "timeScale": 1440}]}
        """.write(toFile: scene, atomically: false, encoding: .utf8)
        return scene
    }

    /// ffprobe's codec, size and counted frames of the first video stream.
    func probe(_ path: String) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0",
                             "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "default=nw=1", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    /// Paused, each drawn change is one frame: `record` (the picture now), two jumps, `record stop`;
    /// then a second recording that quitting saves, numbered after the first.
    func testRecordStopAndQuitSaveH264OfTheWindowSize() throws {
        let scene = try writeScene("rec")
        let script = """
        ask 'record'
        ask 'time 0.5'
        ask 'time 1'
        ask 'record stop'
        ask 'record stop'
        ask 'record'
        ask 'record'
        ask 'quit'
        """
        let r = try ViewerDriver.run([scene, "--paused"], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "record: not recording (record starts)\nrecord: already recording \(file("rec-rec-2.mp4")) (record stop ends it)\n")
        let out = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(out.dropFirst()), [
            "recording \(file("rec-rec-1.mp4"))",
            "time t = 0.50 s",
            "time t = 1.00 s",
            "saved \(file("rec-rec-1.mp4")) (3 frames, 0 dropped)",
            "recording \(file("rec-rec-2.mp4"))",
            "quitting",
            "saved \(file("rec-rec-2.mp4")) (1 frame, 0 dropped)",
        ], r.stdout)
        for (name, frames) in [("rec-rec-1.mp4", "3"), ("rec-rec-2.mp4", "1")] {
            XCTAssertEqual(try probe(file(name)), ["codec_name": "h264", "width": "320", "height": "180", "nb_read_frames": frames], name)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".recording") }
        XCTAssertEqual(left, [], "no temporary file left")
    }

    /// Shift-R while the clock runs: the title shows `● REC m:ss`, a second Shift-R saves, and
    /// the video has frames at 30 a second of scene time (at least one), none of them late enough
    /// to be dropped on a 320×180 window.
    func testShiftRRecordsWhileRunningAndTheTitleSaysSo() throws {
        let scene = try writeScene("keys")
        let script = """
        xdotool windowfocus --sync $wid
        xdotool key --window $wid shift+r; waitfor "$OUT" '^recording ' 5
        deadline=$(( $(date +%s%N) + 5000000000 ))
        until xdotool getwindowname $wid | grep -q '● REC 0:0'; do
          [ "$(date +%s%N)" -gt "$deadline" ] && { echo "no REC in the title" >&2; break; }
          sleep 0.02
        done
        xdotool getwindowname $wid > title.txt
        xdotool key --window $wid shift+r; waitfor "$OUT" '^saved ' 10
        ask 'quit'
        """
        let r = try ViewerDriver.run([scene], in: directory, script: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let title = try String(contentsOfFile: file("title.txt"), encoding: .utf8)
        XCTAssertTrue(title.contains(" — ● REC 0:0"), title)
        let out = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(out.count, 4, r.stdout)
        guard out.count == 4 else { return }
        XCTAssertEqual(out[1], "recording \(file("keys-rec-1.mp4"))")
        XCTAssertTrue(out[2].range(of: #"^saved .*/keys-rec-1\.mp4 \([0-9]+ frames?, [0-9]+ dropped\)$"#, options: .regularExpression) != nil, out[2])
        let info = try probe(file("keys-rec-1.mp4"))
        XCTAssertEqual(info["codec_name"], "h264")
        XCTAssertEqual(info["width"], "320")
        XCTAssertEqual(info["height"], "180")
        XCTAssertGreaterThanOrEqual(Int(info["nb_read_frames"] ?? "") ?? 0, 1)
    }
}
