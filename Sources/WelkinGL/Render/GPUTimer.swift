// GPUTimer: how long the GPU spent on each frame, from GL_TIME_ELAPSED queries (GL 3.3 core,
// ARB_timer_query), read without ever waiting for the GPU.
//
// A ring of `depth` queries: frame n's query is read back while frames n+1… are drawn, once GL
// says its result is available. When every query in the ring is still in flight (the GPU is
// `depth` frames behind), that frame is not timed rather than stalling the caller. Benchmarks,
// which finish each frame anyway, read the last result with `waitForLast()`.
//
// What it measures is the driver's: on a real GPU, the time the GPU spent executing the commands
// between begin and end. Mesa's llvmpipe (and softpipe) answer the query too, but per 64×64 tile:
// each rasteriser thread's result is the time of the last tile it drew (Mesa's lp_rast.c restarts
// the count at every tile), so a 2.7 ms one-pass frame read 0.003 ms and a 40 ms mesh frame 8 ms.
// `measuresFrames` is false there, and the bench and the viewer leave the figure out rather than
// show a number that is not the frame's.

@preconcurrency import CEpoxy

public final class GPUTimer {
    /// Whether the context can time (GL_TIME_ELAPSED with a non-zero counter width).
    public let isAvailable: Bool
    /// Whether the results are a frame's GPU time: false on software rasterisers (see above).
    public let measuresFrames: Bool
    private var queries: [GLuint]
    /// Whether each query holds a result not yet read.
    private var inFlight: [Bool]
    /// The order of issue: `frames[k]` is the frame number query k timed.
    private var frames: [Int]
    private var next = 0
    private var frameNumber = 0
    private var active: Int?
    /// The latest frame whose result was read, and that result.
    public private(set) var lastMilliseconds: Double?
    private var lastFrame = -1
    /// Frames left untimed because every query was still in flight.
    public private(set) var skippedFrames = 0

    /// Makes `depth` (2…8) queries on the current context.
    init(depth: Int = 3) {
        let n = min(max(depth, 2), 8)
        var bits: GLint = 0
        let version = Int(epoxy_gl_version())
        if version >= 33 || epoxy_has_gl_extension("GL_ARB_timer_query") {
            epoxy_glGetQueryiv(GLenum(GL_TIME_ELAPSED), GLenum(GL_QUERY_COUNTER_BITS), &bits)
        }
        // Drivers without timers may report an error here; it must not leak into a later check.
        while epoxy_glGetError() != GLenum(GL_NO_ERROR) {}
        isAvailable = bits > 0
        measuresFrames = isAvailable && !Self.isSoftwareRasteriser(GL.string(GL_RENDERER))
        queries = [GLuint](repeating: 0, count: isAvailable ? n : 0)
        if isAvailable { epoxy_glGenQueries(GLsizei(n), &queries) }
        inFlight = [Bool](repeating: false, count: queries.count)
        frames = [Int](repeating: -1, count: queries.count)
    }

    deinit {
        guard !queries.isEmpty, GL.hasCurrentContext else { return }
        epoxy_glDeleteQueries(GLsizei(queries.count), &queries)
    }

    /// Starts timing a frame (nothing when timers are unavailable, a frame is already being timed,
    /// or every query is still in flight).
    func begin() {
        guard isAvailable, active == nil else { return }
        collect()
        guard !inFlight[next] else { skippedFrames += 1; return }
        epoxy_glBeginQuery(GLenum(GL_TIME_ELAPSED), queries[next])
        active = next
    }

    /// Ends the frame `begin()` started.
    func end() {
        guard let k = active else { return }
        epoxy_glEndQuery(GLenum(GL_TIME_ELAPSED))
        inFlight[k] = true
        frames[k] = frameNumber
        frameNumber += 1
        active = nil
        next = (k + 1) % queries.count
    }

    /// Reads every result that is ready, without waiting; returns the newest one read so far.
    @discardableResult
    public func collect() -> Double? {
        for k in queries.indices where inFlight[k] {
            var ready: GLuint = 0
            epoxy_glGetQueryObjectuiv(queries[k], GLenum(GL_QUERY_RESULT_AVAILABLE), &ready)
            if ready != 0 { read(k) }
        }
        return lastMilliseconds
    }

    /// The GPU time of the last frame timed, waiting for it if need be (after glFinish it is ready):
    /// for benchmarks. nil when timers are unavailable or the last frame was not timed.
    public func waitForLast() -> Double? {
        guard isAvailable else { return nil }
        let newest = queries.indices.filter { inFlight[$0] }.max { frames[$0] < frames[$1] }
        if let k = newest { read(k) }
        collect()
        return lastFrame == frameNumber - 1 ? lastMilliseconds : nil
    }

    /// Mesa's CPU rasterisers, whose GL_TIME_ELAPSED is per tile (GL_RENDERER "llvmpipe (LLVM …)").
    public static func isSoftwareRasteriser(_ renderer: String) -> Bool {
        let r = renderer.lowercased()
        return r.contains("llvmpipe") || r.contains("softpipe")
    }

    /// The GPU time of the last frame read so far, when it is a frame's time (`measuresFrames`).
    public var frameMilliseconds: Double? { measuresFrames ? collect() : nil }

    private func read(_ k: Int) {
        var nanoseconds: GLuint64 = 0
        epoxy_glGetQueryObjectui64v(queries[k], GLenum(GL_QUERY_RESULT), &nanoseconds)
        inFlight[k] = false
        if frames[k] > lastFrame {
            lastFrame = frames[k]
            lastMilliseconds = Double(nanoseconds) / 1e6
        }
    }
}
