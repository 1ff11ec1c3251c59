// Where exported frames go: ffmpeg (video, GIF) or numbered PNG files. A sink writes into a
// temporary file or folder next to OUT and only `moveIntoPlace` puts the result there; `discard`
// removes every trace. `discard` may run on the signal-handling thread while the writer thread
// is inside `write`: the PNG sink takes its lock around each file, and the ffmpeg sink's `write`
// simply fails (EPIPE) once `discard` has killed ffmpeg.

import Foundation
import WelkinCore
import WelkinReference
import WelkinImage
import WelkinVideo

/// A sink is made on the main thread and then written from the writer thread only (one at a time).
protocol FrameSink: AnyObject, Sendable {
    /// Writes frame `index` (frames arrive in order). Runs on the writer thread.
    func write(_ image: Image, index: Int) throws
    /// Completes the temporary output (ffmpeg writes the file's end). May take a while; interruptible.
    func finish() throws
    /// Renames the finished output into place (quick). Returns what was written, for the summary.
    func moveIntoPlace() throws -> String
    /// Stops and removes the temporary output. Safe to call more than once, from any thread.
    func discard()
}

/// Video and GIF through ffmpeg, written to a temporary file renamed to OUT on success.
final class FFmpegSink: FrameSink, @unchecked Sendable {
    let target: ExportTarget
    let temporary: String
    private let encoder: FFmpegEncoder
    private let lock = NSLock()
    private var discarded = false

    init(target: ExportTarget, executable: URL, size: SIMD2<Int>, fps: Double, quality: Int?, colorSpace: OutputColorSpace) throws {
        self.target = target
        temporary = target.temporaryPath()
        // Claim the temporary name first: this fails cleanly on a read-only folder.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw WriteError(path: target.path, reason: OutputFile.reason(errno, folder: target.directory))
        }
        close(fd)
        do {
            encoder = try FFmpegEncoder(executable: executable, size: size, fps: fps,
                                        outputArguments: FFmpegEncoder.outputArguments(target.format.video, quality: quality, output: temporary,
                                                                                      primaries: colorSpace.ffmpegPrimaries))
        } catch {
            unlink(temporary)
            throw error
        }
    }

    func write(_ image: Image, index: Int) throws {
        try image.pixels.withUnsafeBytes { try encoder.write($0) }
    }

    func finish() throws {
        try encoder.finish()
    }

    func moveIntoPlace() throws -> String {
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { throw Failure(message: "welkin: the export was stopped") }
        guard rename(temporary, target.path) == 0 else {
            let reason = OutputFile.reason(errno, folder: target.directory)
            unlink(temporary)
            throw WriteError(path: target.path, reason: reason)
        }
        discarded = true  // nothing left to discard: the file is OUT now
        return target.path
    }

    func discard() {
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { return }
        discarded = true
        encoder.kill()
        unlink(temporary)
    }
}

/// Numbered PNG files (Welkin's own PNG writer), rendered into a hidden folder next to the target
/// and moved next to it, frame by frame, once every frame is written.
final class PNGSequenceSink: FrameSink, @unchecked Sendable {
    let target: ExportTarget
    let temporary: String
    private let lock = NSLock()
    private var written = 0
    private var discarded = false
    let colorSpace: OutputColorSpace

    init(target: ExportTarget, colorSpace: OutputColorSpace) throws {
        self.target = target
        self.colorSpace = colorSpace
        temporary = target.temporaryPath()
        guard mkdir(temporary, 0o755) == 0 else {
            throw WriteError(path: target.path, reason: OutputFile.reason(errno, folder: target.directory))
        }
    }

    func write(_ image: Image, index: Int) throws {
        let bytes: [UInt8]
        do { bytes = try PNG.encode(image, colorSpace: colorSpace) } catch let e as any UserFacingError {
            throw Failure(message: "\(target.frameFileName(index)): \(e.message)")
        }
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { return }
        let path = temporary + "/" + target.frameFileName(index)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Failure(message: "\(target.directory)/\(target.frameFileName(index)): cannot write (disk full?)")
        }
        written = max(written, index + 1)
    }

    func finish() throws {}

    func moveIntoPlace() throws -> String {
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { throw Failure(message: "welkin: the export was stopped") }
        for index in 0..<written {
            let name = target.frameFileName(index)
            guard rename(temporary + "/" + name, target.directory + "/" + name) == 0 else {
                let reason = String(cString: strerror(errno))
                throw Failure(message: "\(target.directory)/\(name): cannot move into place: \(reason)"
                              + (index > 0 ? " (frames before it were moved; the rest are in \(temporary))" : ""))
            }
        }
        rmdir(temporary)
        discarded = true
        return target.directory + "/" + target.frameFileName(0) + " … " + target.frameFileName(max(0, written - 1))
    }

    func discard() {
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { return }
        discarded = true
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
