// FFmpegEncoder: the `ffmpeg` program as a video encoder, fed raw RGBA frames through a pipe.
// Shared by `welkin export` and the viewer's recording (WelkinViewer/Viewer+Recording.swift).
//
// The program rather than libavcodec: its command line is stable across FFmpeg versions, and no
// shims are needed for AVERROR and friends (docs/export.md). ffmpeg's stderr is drained on its own
// thread (a full pipe would hang both processes) and kept for the error message.

import Foundation

/// What ffmpeg said when it could not start, stopped reading or failed; `description` is the
/// sentence a user sees (`welkin: ffmpeg failed (exit status 1):` and ffmpeg's last lines).
public struct VideoEncoderError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The containers and codecs ffmpeg writes for Welkin.
public enum VideoFormat: Sendable {
    case mp4, webm, gif
}

/// The reader thread touches only `errorText` (behind `errorLock`) and `errorDrained`.
public final class FFmpegEncoder: @unchecked Sendable {
    /// Finds `ffmpeg` on PATH.
    public static func locate() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// ffmpeg's arguments after the input: codec, pixel format, colour tags and container.
    /// `primaries`: ffmpeg's name of the frames' primaries, bt709 (sRGB) or smpte432 (Display P3).
    public static func outputArguments(_ format: VideoFormat, quality: Int?, output: String, primaries: String = "bt709") -> [String] {
        // Video is 4:2:0 Y'CbCr with BT.709's matrix (limited range), tagged so: players guess the
        // matrix from the size when it is missing (BT.601 below 720p). Frames are sRGB-encoded in the
        // output space, sRGB (BT.709's primaries) or Display P3 (SMPTE EG 432-1's, "smpte432"), both
        // with the sRGB transfer, tagged so; that also makes ffmpeg write an sRGB chunk (not a gAMA
        // one that readers apply) into PNGs extracted from an sRGB video.
        let color = ["-vf", "scale=out_color_matrix=bt709:out_range=tv",
                     "-colorspace", "bt709", "-color_primaries", primaries, "-color_trc", "iec61966-2-1", "-color_range", "tv"]
        switch format {
        case .mp4:
            return ["-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", String(quality ?? 18), "-pix_fmt", "yuv420p"]
                + color + ["-movflags", "+faststart", "-f", "mp4", output]
        case .webm:
            return ["-an", "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", String(quality ?? 30), "-deadline", "realtime",
                    "-cpu-used", "8", "-row-mt", "1", "-pix_fmt", "yuv420p"] + color + ["-f", "webm", output]
        case .gif:
            // One palette for the whole clip (stats from the frames' differences), ordered dithering
            // (stable from frame to frame, unlike error diffusion), looping forever.
            return ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5",
                    "-loop", "0", "-f", "gif", output]
        }
    }

    private let process = Process()
    private let input: Int32
    private let errorLock = NSLock()
    private var errorText = Data()
    private let errorDrained = DispatchSemaphore(value: 0)

    /// Starts ffmpeg reading `size` RGBA frames at `fps` from its stdin.
    public init(executable: URL, size: SIMD2<Int>, fps: Double, outputArguments: [String]) throws {
        process.executableURL = executable
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostats", "-y",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(size.x)x\(size.y)", "-r", Self.rate(fps), "-i", "-"]
            + outputArguments
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        input = stdin.fileHandleForWriting.fileDescriptor
        // A 1 MiB pipe instead of 64 KiB: fewer wake-ups per frame, +10–15 % at 1280×720.
        _ = fcntl(input, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        stdinPipe = stdin
        do { try process.run() } catch {
            throw VideoEncoderError(message: "welkin: cannot start \(executable.path): \(error.localizedDescription)")
        }
        let reader = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                errorLock.lock()
                errorText.append(chunk)
                if errorText.count > 16384 { errorText.removeFirst(errorText.count - 16384) }
                errorLock.unlock()
            }
            errorDrained.signal()
        }
    }

    /// Kept so the write end stays open until `finish` closes it.
    private var stdinPipe: Pipe?

    public var processIdentifier: Int32 { process.processIdentifier }

    /// `-r`: whole rates as integers, others as a fraction ffmpeg reads exactly enough.
    public static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(format: "%.6f", fps)
    }

    /// Writes one frame's bytes; blocks while ffmpeg catches up (the pipe is the backpressure).
    /// Throws when ffmpeg has gone (EPIPE), with ffmpeg's own message.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                try? closeInput()
                process.waitUntilExit()
                throw failure(fallback: "ffmpeg stopped reading frames (\(reason))")
            }
            offset += n
        }
    }

    private func closeInput() throws {
        if let pipe = stdinPipe {
            stdinPipe = nil
            try pipe.fileHandleForWriting.close()
        }
    }

    /// Ends the input and waits for ffmpeg to write the file; throws with its message if it failed.
    public func finish() throws {
        try? closeInput()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw failure(fallback: nil)
        }
    }

    /// Stops ffmpeg at once and waits (at most 2 s) until it has exited, so it writes nothing more.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(5000) }
    }

    /// A Failure quoting ffmpeg's stderr (its last lines).
    private func failure(fallback: String?) -> VideoEncoderError {
        _ = errorDrained.wait(timeout: .now() + 2)
        errorLock.lock()
        let text = String(decoding: errorText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        errorLock.unlock()
        let lines = text.split(separator: "\n").suffix(6).joined(separator: "\n")
        let status: String
        if process.isRunning {
            status = "ffmpeg failed"
        } else if process.terminationReason == .uncaughtSignal {
            status = "ffmpeg was killed by signal \(process.terminationStatus)"
        } else {
            status = "ffmpeg failed (exit status \(process.terminationStatus))"
        }
        var message = "welkin: " + status
        if !lines.isEmpty { message += ":\n" + lines } else if let fallback { message += ": " + fallback } else { message += " and gave no message" }
        return VideoEncoderError(message: message)
    }
}
