// PassTiming: what each draw of a frame costs, for `welkin bench --passes` and the viewer's
// `stats passes`. Every draw and clear the renderer issues goes through `PassTiming.time`; while a
// timing is active each is bracketed by glFinish (its wall time: on a software rasteriser such as
// llvmpipe, the only time that means anything) and, where the context's timer queries time real
// GPU work (GPUTimer.measuresFrames), by two GL_TIMESTAMP queries (its GPU time: timestamps, not
// GL_TIME_ELAPSED, so they nest inside the frame's own elapsed-time query). Consecutive draws
// with the same program into the same target are one entry (the sky's scissored cells, a text
// run's glyphs). Inactive, a draw costs one nil check.

@preconcurrency import CEpoxy
import Foundation
import WelkinCore

public final class PassTiming {
    public struct Entry: Sendable, Equatable {
        /// The fragment file of the program drawn with (`clear` for a clear, `—` for none).
        public var program: String
        /// The target drawn into: its plan key (FramePlan.Target.key) or format and size.
        public var target: String
        /// Milliseconds between the glFinish before and the one after, summed over `draws`.
        public var wall: Double
        /// GPU milliseconds from timestamp queries (nil where the context cannot time work).
        public var gpu: Double?
        public var draws: Int
    }

    /// The timing in progress (GL is used from one thread).
    nonisolated(unsafe) static var active: PassTiming?

    let usesTimestamps: Bool
    private var entries: [Entry] = []
    /// Timestamp query pairs not yet read, by entry.
    private var pending: [(entry: Int, begin: GLuint, end: GLuint)] = []
    private var spare: [GLuint] = []

    init(usesTimestamps: Bool) { self.usesTimestamps = usesTimestamps }

    deinit {
        let all = spare + pending.flatMap { [$0.begin, $0.end] }
        guard !all.isEmpty, GL.hasCurrentContext else { return }
        epoxy_glDeleteQueries(GLsizei(all.count), all)
    }

    /// Runs `body` (one draw or clear), timed when a timing is active.
    static func time(clear: Bool = false, _ body: () -> Void) {
        guard let timing = active else { body(); return }
        timing.measure(clear: clear, body)
    }

    private func query() -> GLuint {
        if let q = spare.popLast() { return q }
        var q: GLuint = 0
        epoxy_glGenQueries(1, &q)
        return q
    }

    private func measure(clear: Bool, _ body: () -> Void) {
        epoxy_glFinish()
        let program = clear ? "clear" : Self.currentProgram()
        let target = RenderTarget.label(ofBoundFramebuffer: ())
        var begin: GLuint = 0
        if usesTimestamps { begin = query(); epoxy_glQueryCounter(begin, GLenum(GL_TIMESTAMP)) }
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        var end: GLuint = 0
        if usesTimestamps { end = query(); epoxy_glQueryCounter(end, GLenum(GL_TIMESTAMP)) }
        epoxy_glFinish()
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        if let last = entries.last, last.program == program, last.target == target {
            entries[entries.count - 1].wall += ms
            entries[entries.count - 1].draws += 1
        } else {
            entries.append(Entry(program: program, target: target, wall: ms, gpu: usesTimestamps ? 0 : nil, draws: 1))
        }
        if usesTimestamps { pending.append((entries.count - 1, begin, end)) }
    }

    /// The entries of the draws since the last call (the GPU's times read, waiting for them).
    func take() -> [Entry] {
        for p in pending {
            var a: GLuint64 = 0, b: GLuint64 = 0
            epoxy_glGetQueryObjectui64v(p.begin, GLenum(GL_QUERY_RESULT), &a)
            epoxy_glGetQueryObjectui64v(p.end, GLenum(GL_QUERY_RESULT), &b)
            entries[p.entry].gpu = (entries[p.entry].gpu ?? 0) + Double(b &- a) / 1e6
            spare += [p.begin, p.end]
        }
        pending = []
        defer { entries = [] }
        return entries
    }

    /// The bound program's fragment file (its name, without folders).
    static func currentProgram() -> String {
        var id: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_CURRENT_PROGRAM), &id)
        guard id > 0, let program = ShaderProgram.built(GLuint(id)) else { return "—" }
        return URL(fileURLWithPath: program.fragmentSource.path).lastPathComponent
    }
}

extension PassTiming.Entry {
    /// One line: wall (and GPU) milliseconds, program → target, and how many draws.
    public var line: String {
        let gpuText = gpu.map { String(format: "  GPU %7.2f ms", $0) } ?? ""
        return String(format: "%8.2f ms", wall) + gpuText + "  \(program) → \(target)" + (draws > 1 ? " (\(draws) draws)" : "")
    }
}

extension GLRenderer {
    /// Draws `frame` with every draw timed (PassTiming): the entries in the order drawn. A frame
    /// reused unchanged (reusesUnchangedFrames) has none.
    public func drawTimingPasses(_ frame: Frame) throws -> [PassTiming.Entry] {
        try context.makeCurrent()
        let timing = PassTiming(usesTimestamps: gpuTimer.measuresFrames)
        PassTiming.active = timing
        defer { PassTiming.active = nil }
        try draw(frame)
        epoxy_glFinish()
        return timing.take()
    }
}
