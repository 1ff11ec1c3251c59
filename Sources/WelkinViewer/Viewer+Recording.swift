// Recording the window (Shift-R, `record` / `record stop`): what the window shows, panel and
// overlay included, as an H.264 MP4 next to the scene file (NAME-rec-N.mp4), at the scene's clock.
//
// Each presented frame is read back on the main thread (the same readback as `screenshot --window`)
// and handed to an encoder thread through a bounded queue; when ffmpeg falls behind, frames are
// dropped and counted rather than stalling the window. The video runs at the scene's clock: a
// frame stands for the scene seconds since the previous one (a paused viewer adds none; at speed
// 0.5 a wall-clock second is half a video second), so it plays back as the scene would at 1×.
// ffmpeg writes a hidden temporary file, renamed into place when the recording stops.

@preconcurrency import CEpoxy
import Foundation
import WelkinVideo

/// One recording: the encoder thread and its queue. `offer` and `stop` run on the main thread.
final class Recorder: @unchecked Sendable {
    /// Frames a second in the video.
    static let framesPerSecond = 30.0
    /// Frames waiting for ffmpeg at most (at 1280×800, 4 MiB each): beyond this, frames are dropped.
    static let queueLimit = 8
    /// A clock jump longer than this (a key stepping 10 s, `time T`) is one frame, not a still run.
    static let longestStep = 0.5

    let path: String
    let temporary: String
    /// The window's framebuffer when the recording started; frames of another size are dropped.
    let windowSize: SIMD2<Int>
    /// The video's size: the window's, less a column or row where it is odd (H.264 4:2:0 needs even).
    let videoSize: SIMD2<Int>
    private let encoder: FFmpegEncoder

    // Main thread only.
    /// Scene seconds recorded so far, and the scene time of the last frame looked at.
    private(set) var recordedSeconds = 0.0
    private var lastTime: Double?
    private(set) var framesOffered = 0

    // Shared with the encoder thread, behind `condition`.
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var ended = false
    private var dropped = 0
    private var written = 0
    private var failure: Error?
    private let drained = DispatchSemaphore(value: 0)

    /// Starts ffmpeg writing `temporary`. Throws a sentence (VideoEncoderError or CommandError).
    init(path: String, windowSize: SIMD2<Int>) throws {
        guard let ffmpeg = FFmpegEncoder.locate() else {
            throw Viewer.CommandError("recording needs the ffmpeg program on PATH (Debian: apt install ffmpeg)")
        }
        self.path = path
        self.windowSize = windowSize
        videoSize = SIMD2(windowSize.x & ~1, windowSize.y & ~1)
        guard videoSize.x > 0, videoSize.y > 0 else { throw Viewer.CommandError("the window is too small to record") }
        let folder = (path as NSString).deletingLastPathComponent
        temporary = (folder.isEmpty ? "" : folder + "/") + "." + (path as NSString).lastPathComponent + ".recording-\(getpid())"
        // Claim the temporary name first: this fails cleanly on a read-only folder.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw Viewer.CommandError("cannot write in \(folder.isEmpty ? "." : folder): \(String(cString: strerror(errno)))")
        }
        close(fd)
        do {
            encoder = try FFmpegEncoder(executable: ffmpeg, size: videoSize, fps: Self.framesPerSecond,
                                        outputArguments: FFmpegEncoder.outputArguments(.mp4, quality: nil, output: temporary))
        } catch {
            unlink(temporary)
            throw error
        }
        Thread.detachNewThread { [self] in encodeLoop() }
    }

    /// How many frames the scene's clock asks for now that it reads `time`: none while it stands
    /// still, one for a jump or a step while paused (`time T`, arrows, `,` and `.`).
    func framesDue(at time: Double, paused: Bool) -> Int {
        if let lastTime, time != lastTime {
            let step = time - lastTime
            recordedSeconds += !paused && step > 0 && step <= Self.longestStep ? step : 1 / Self.framesPerSecond
        }
        lastTime = time
        return max(0, Int((recordedSeconds * Self.framesPerSecond + 1e-6).rounded(.down)) + 1 - framesOffered)
    }

    /// Queues `pixels` (GL's bottom-up rows, `videoSize`) as `count` frames, dropping what does not fit.
    func offer(_ pixels: [UInt8], count: Int) {
        framesOffered += count
        condition.lock()
        for _ in 0..<count {
            if queue.count >= Self.queueLimit || failure != nil { dropped += 1 } else { queue.append(pixels) }
        }
        condition.signal()
        condition.unlock()
    }

    /// Counts frames that cannot be recorded (the window changed size).
    func drop(count: Int) {
        framesOffered += count
        condition.lock(); dropped += count; condition.unlock()
    }

    private func encodeLoop() {
        let row = videoSize.x * 4
        var flipped = [UInt8](repeating: 0, count: row * videoSize.y)
        while true {
            condition.lock()
            while queue.isEmpty && !ended { condition.wait() }
            if queue.isEmpty { condition.unlock(); break }
            let pixels = queue.removeFirst()
            condition.unlock()
            // GL's rows run bottom up; ffmpeg's top down.
            pixels.withUnsafeBytes { source in
                flipped.withUnsafeMutableBytes { target in
                    for y in 0..<videoSize.y {
                        (target.baseAddress! + y * row).copyMemory(from: source.baseAddress! + (videoSize.y - 1 - y) * row, byteCount: row)
                    }
                }
            }
            do {
                try flipped.withUnsafeBytes { try encoder.write($0) }
                condition.lock(); written += 1; condition.unlock()
            } catch {
                condition.lock()
                failure = error
                dropped += queue.count
                queue.removeAll()
                condition.unlock()
            }
        }
        drained.signal()
    }

    /// Ends the recording: waits for the queue to drain and ffmpeg to finish, then renames the file
    /// into place. Returns the frames written and dropped.
    func stop() throws -> (frames: Int, dropped: Int) {
        condition.lock(); ended = true; condition.signal(); condition.unlock()
        drained.wait()
        condition.lock()
        let result = (written, dropped), failed = failure
        condition.unlock()
        do {
            if let failed { throw failed }
            try encoder.finish()
        } catch {
            encoder.kill()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Viewer.CommandError("\(path): cannot write: \(reason)")
        }
        return result
    }
}

/// What leaves the window as pixels: the recording running (Shift-R, `record`), if any, and a
/// `screenshot --window FILE` waiting for the next present.
struct Recording {
    var recorder: Recorder?
    /// `screenshot --window FILE`: the window's pixels (panel and overlay too) at the next present.
    var pendingWindowShot: String?

    var isRecording: Bool { recorder != nil }

    /// `NAME-rec-N.mp4` beside the scene file (the current folder for the built-in scene), N the
    /// first number not taken.
    static func nextPath(scenePath: String?) -> String {
        let folder = scenePath.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        var name = scenePath.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "welkin-default"
        if name.isEmpty { name = "scene" }
        var n = 1
        while true {
            let path = (folder.isEmpty ? "" : folder + "/") + "\(name)-rec-\(n).mp4"
            if !FileManager.default.fileExists(atPath: path) { return path }
            n += 1
        }
    }

    /// `● REC m:ss` in the title, the scene seconds recorded.
    var title: String? {
        guard let recorder else { return nil }
        let seconds = Int(recorder.recordedSeconds)
        return "● REC \(seconds / 60):\(String(format: "%02d", seconds % 60))"
    }
}

extension Viewer {
    /// Shift-R: starts a recording, or stops the one running.
    func toggleRecording() {
        do {
            if recording.isRecording { try stopRecording() } else { try startRecording() }
        } catch {
            printError("record: \((error as? CommandError)?.message ?? "\(error)")")
        }
    }

    func startRecording() throws {
        if let recorder = recording.recorder { throw CommandError("already recording \(recorder.path) (record stop ends it)") }
        let path = Recording.nextPath(scenePath: options.scenePath)
        let fb = framebufferSize()
        guard fb.x > 0, fb.y > 0 else { throw CommandError("the window is minimised; nothing to record") }
        recording.recorder = try Recorder(path: path, windowSize: fb)
        print("recording \(path)")
        needsRedraw = true   // the first frame is the picture as it is now
        refreshTitle()
    }

    func stopRecording() throws {
        guard let recorder = recording.recorder else { throw CommandError("not recording (record starts)") }
        recording.recorder = nil
        refreshTitle()
        let result = try recorder.stop()
        print("saved \(recorder.path) (\(result.frames) frame\(result.frames == 1 ? "" : "s"), \(result.dropped) dropped)")
    }

    /// At each present, before the swap: the back buffer as the frames the scene's clock asks for.
    func recordFrame(_ fb: SIMD2<Int>) {
        guard let recorder = recording.recorder else { return }
        let count = recorder.framesDue(at: playback.time, paused: playback.paused)
        guard count > 0 else { return }
        guard fb == recorder.windowSize else { recorder.drop(count: count); return }
        recorder.offer(readWindow(recorder.videoSize), count: count)
    }

    /// The window's back buffer, `size` from its lower left corner, in GL's bottom-up rows.
    func readWindow(_ size: SIMD2<Int>) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: size.x * size.y * 4)
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        epoxy_glReadBuffer(GLenum(GL_BACK))
        epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        epoxy_glReadPixels(0, 0, GLsizei(size.x), GLsizei(size.y), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        return pixels
    }
}
