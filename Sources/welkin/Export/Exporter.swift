// Exporter: renders frames T0 + k / fps and hands them to a FrameSink, rendering the next frame
// while a writer thread feeds the previous one to ffmpeg (or encodes its PNG). A small bounded
// queue between them keeps memory flat when the encoder is the slower side. Ctrl-C (SIGINT) and
// SIGTERM stop ffmpeg, remove the temporary output and exit 130.

import Foundation
import WelkinCore
import WelkinImage
import WelkinGL
import WelkinReference

/// Everything one export needs, checked (see ExportCommand).
struct ExportSettings {
    var scene: Scene
    var target: ExportTarget
    /// T0, seconds.
    var start: Double
    var fps: Double
    var frameCount: Int
    /// Output size in pixels.
    var size: SIMD2<Int>
    /// Supersampling factor per side (1: none).
    var samples: Int = 1
    var quality: Int?
    /// A seamless loop: emitters and the weather's rain and snow repeat their births every
    /// `duration` seconds (FrameOptions.loop: the particles at T0 + duration are those at T0), and
    /// the rest of the picture cross-fades from the end into the moments before T0.
    var loop = false
    /// `--projection`: the scene's view, or a panorama of its sky (a cube map as its cross,
    /// `size` being the cross's: 4 × 3 faces).
    var projection: Commands.StillProjection = .view

    /// Frame k's scene time: exactly what `welkin render --time` is given for it.
    func time(ofFrame k: Int) -> Double { start + Double(k) / fps }

    var duration: Double { Double(frameCount) / fps }

    /// Frames at the end that cross-fade into the clip's start with `--loop`: up to 1 s, at most a
    /// quarter of the clip.
    var loopFadeFrames: Int { loop ? min(Int(fps.rounded(.up)), frameCount / 4) : 0 }
}

/// What draws the frames: the GPU (headless) or the CPU reference.
enum ExportRenderer {
    case gpu(GLRenderer)
    case cpu(ReferenceRenderer)

    func render(_ frame: Frame, of scene: Scene) throws -> Image {
        switch self {
        case .gpu(let renderer): return try Commands.gpuRender(renderer, frame, of: scene)
        case .cpu(let renderer): return try Commands.inScene(scene.sourcePath) { try renderer.render(frame) }
        }
    }

    var description: String {
        switch self {
        case .gpu(let renderer): return "GPU: \(renderer.context.renderer)"
        case .cpu: return "CPU reference"
        }
    }
}

/// One export run.
final class Exporter {
    let settings: ExportSettings
    let renderer: ExportRenderer
    /// Creates the temporary output; called once signal handling is in place.
    let makeSink: () throws -> FrameSink

    init(settings: ExportSettings, renderer: ExportRenderer, makeSink: @escaping () throws -> FrameSink) {
        self.settings = settings
        self.renderer = renderer
        self.makeSink = makeSink
    }

    /// The finished export.
    struct Summary {
        var written: String
        var seconds: Double
    }

    /// Renders every frame into the sink and moves the result into place. On any failure the
    /// sink's temporary output is removed before the error propagates.
    func run(progress: ExportProgress?, handlesSignals: Bool) throws -> Summary {
        signal(SIGPIPE, SIG_IGN)
        let interruption = ExportInterruption(target: settings.target, progress: progress)
        if handlesSignals { interruption.install() }
        defer { interruption.remove() }
        let start = DispatchTime.now().uptimeNanoseconds
        let sink = try interruption.create(makeSink)
        do {
            try renderAll(into: sink, progress: progress)
            try sink.finish()
            interruption.beginMovingIntoPlace()
            let written = try sink.moveIntoPlace()
            progress?.finish()
            return Summary(written: written, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        } catch {
            sink.discard()
            // The signal handler is about to exit 130 with its own message.
            if interruption.isInterrupted { while true { pause() } }
            progress?.finish()
            throw error
        }
    }

    private func frame(at time: Double, options: FrameOptions = FrameOptions()) -> Frame {
        Frame(scene: settings.scene, time: time, pixelSize: settings.size &* settings.samples, options: looping(options))
    }

    /// `options` with the clip's period when it loops (particles repeat every `duration`).
    private func looping(_ options: FrameOptions) -> FrameOptions {
        var options = options
        if settings.loop { options.loop = settings.duration }
        return options
    }

    private func draw(at time: Double) throws -> Image {
        let image: Image
        switch settings.projection {
        case .view: image = try renderer.render(frame(at: time), of: settings.scene)
        case .equirect: image = try renderer.render(frame(at: time, options: FrameOptions(projection: .equirect)), of: settings.scene)
        case .fisheye: image = try renderer.render(frame(at: time, options: FrameOptions(projection: .fisheye)), of: settings.scene)
        case .cubemap:
            let face = SIMD2(repeating: settings.size.x / 4 * settings.samples)
            image = Image.cubeCross(try CubeFace.allCases.map { f in
                try renderer.render(Frame(scene: settings.scene, time: time, pixelSize: face, options: looping(FrameOptions(projection: .cubeFace(f)))),
                                    of: settings.scene)
            })
        }
        return settings.samples > 1 ? image.boxDownsampled(by: settings.samples) : image
    }

    private func renderAll(into sink: FrameSink, progress: ExportProgress?) throws {
        let count = settings.frameCount
        // --loop: the frames just before T0, drawn first (the simulation only ever steps forward).
        let fade = settings.loopFadeFrames
        var before: [Image] = []
        for j in 0..<fade { before.append(try draw(at: settings.start + Double(j - fade) / settings.fps)) }

        let writer = FrameWriter(sink: sink)
        defer { writer.stop() }
        for k in 0..<count {
            if let error = writer.error { throw error }
            var image = try draw(at: settings.time(ofFrame: k))
            let fadeIndex = k - (count - fade)
            if fadeIndex >= 0 {
                // Weight of the pre-start frame grows 1/(F+1) … F/(F+1): the last frame is almost
                // the one before T0, so frame 0 follows it smoothly.
                image = Self.blend(image, before[fadeIndex], weight: fadeIndex + 1, of: fade + 1)
            }
            guard writer.queue.put((k, image)) else { break }
            progress?.update(done: writer.written)
        }
        writer.queue.close()
        writer.finished.wait()
        if let error = writer.error { throw error }
        progress?.update(done: count)
    }

    /// `a` × (d − w)/d + `b` × w/d per channel, rounded (integer arithmetic: deterministic).
    static func blend(_ a: Image, _ b: Image, weight w: Int, of d: Int) -> Image {
        var out = a
        out.pixels.withUnsafeMutableBufferPointer { o in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<o.count {
                    o[i] = UInt8((Int(o[i]) * (d - w) + Int(pb[i]) * w + d / 2) / d)
                }
            }
        }
        return out
    }

}

/// Ctrl-C (SIGINT) and SIGTERM during an export: stop ffmpeg, remove the temporary output, exit 130.
/// Its own object, holding the sink and nothing else: the handler closure runs and is released on a
/// dispatch thread, where the last reference to a GL renderer must never be dropped (its deinit
/// would call GL with no current context). Installed before the sink exists, and the handler holds
/// the lock until it exits, so no temporary output can appear after it has looked.
/// Its state is behind `lock` (a signal handler reaches it from another thread).
final class ExportInterruption: @unchecked Sendable {
    private var sink: FrameSink?
    private let message: String
    private let lock = NSLock()
    private var movingIntoPlace = false
    private var interrupted = false
    private var sources: [DispatchSourceSignal] = []

    init(target: ExportTarget, progress: ExportProgress?) {
        message = (progress?.isTerminal == true ? "\n" : "") + "welkin: export interrupted; nothing was written to \(target.path)\n"
    }

    func install() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            // A strong reference: `remove` cancels the sources, which breaks the cycle.
            source.setEventHandler { self.interrupt() }
            source.resume()
            sources.append(source)
        }
    }

    func remove() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// Creates the sink (and its temporary output) where a signal cannot slip in between.
    func create(_ make: () throws -> FrameSink) throws -> FrameSink {
        lock.lock(); defer { lock.unlock() }
        let created = try make()
        sink = created
        return created
    }

    /// From now on a signal waits: the renames into place are quick and must not be cut short.
    func beginMovingIntoPlace() { lock.lock(); movingIntoPlace = true; lock.unlock() }

    /// Whether a signal has begun stopping the export (its handler is about to exit).
    var isInterrupted: Bool { lock.lock(); defer { lock.unlock() }; return interrupted }

    private func interrupt() {
        lock.lock()
        guard !movingIntoPlace else { lock.unlock(); return }
        interrupted = true
        sink?.discard()
        let bytes = Array(message.utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        // _exit, not exit: the main thread may be inside GL; atexit handlers must not race it.
        _exit(130)
    }
}

/// The writer thread: takes frames from a bounded queue and writes them to the sink in order.
/// Its counters are behind `lock`; the queue and the semaphore are thread-safe.
final class FrameWriter: @unchecked Sendable {
    /// Three frames in flight: enough to hide jitter on either side, little memory (3 × 3.7 MB at 720p).
    let queue = BoundedQueue<(Int, Image)>(capacity: 3)
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _error: Error?
    private var _written = 0

    var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }
    var written: Int { lock.lock(); defer { lock.unlock() }; return _written }

    init(sink: FrameSink) {
        let thread = Thread { [queue, finished, self] in
            while let (index, image) = queue.take() {
                do {
                    try sink.write(image, index: index)
                } catch {
                    self.lock.lock(); self._error = error; self.lock.unlock()
                    queue.close()
                    break
                }
                self.lock.lock(); self._written += 1; self.lock.unlock()
            }
            finished.signal()
        }
        thread.name = "welkin export writer"
        thread.start()
    }

    /// Drops what is queued and ends the queue so the thread exits (after an error on the rendering side).
    func stop() { queue.abort() }
}

/// A first-in first-out queue of at most `capacity` items between two threads.
/// Every access to `items` and `closed` holds `condition`.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Appends, waiting while full. False when the queue was closed (the consumer stopped).
    func put(_ item: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting while empty; nil once closed and drained.
    func take() -> Element? {
        condition.lock(); defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items: `take` drains what is left, then returns nil; `put` returns false.
    func close() {
        condition.lock(); closed = true; condition.broadcast(); condition.unlock()
    }

    /// Closes and drops what is queued.
    func abort() {
        condition.lock(); closed = true; items = []; condition.broadcast(); condition.unlock()
    }
}
