// GLRenderer: draws a Frame on the GPU, the same maths as WelkinReference's ReferenceRenderer.
//
// Each layer is a full-screen pass into a float target (RGBA16F for an 8-bit picture, RGBA32F for
// a 16-bit or scene-linear one; premultiplied, sRGB-encoded, source-over by fixed-function
// blending), cleared to the frame's background; one resolve step
// then quantises into an RGBA8 target with the CPU's integer dither. By default the last layer's
// pass does that resolve itself (composite.glsl), so a one-layer frame is a single pass. A user
// `shader` layer draws into its own float target first and is composited from there
// (UserShaderPass, Shaders/layer.frag). GL objects live as long as the renderer; targets are
// re-made only when the frame size changes.
//
// A layer that cannot be drawn (its shader does not compile, its uniforms do not fit, its sprite
// image cannot be read) does not stop the frame: every other layer is drawn, a hatched placeholder
// (LayerPlaceholder) takes the broken one's place, and `draw` reports the failure afterwards.

@preconcurrency import CEpoxy
import Foundation
import WelkinCore
import WelkinImage

/// Renders Frames with OpenGL 3.3 core into offscreen targets, and reads them back.
public final class GLRenderer {
    public let context: GLContext
    /// Where the shaders came from; `reloadShaders()` reads them again.
    public private(set) var shaders: ShaderLibrary

    var passes: Passes
    private var vertexArray: GLuint = 0
    private var accumulation: RenderTarget?
    private var output: RenderTarget?
    /// The RGBA16 target of 16-bit frames (`render16`), made on the first.
    private var output16: RenderTarget?
    /// Where a layer draws before it is composited (`GLDrawable.usesLayerTarget`: a user shader),
    /// made when a frame has one.
    private(set) var layerTarget: RenderTarget?
    private var readback: [UInt8] = []
    /// Shader layers' channel images (iChannel0…3), kept across shader reloads.
    let channels = ChannelTextures()
    /// Where passes send warnings: `warningHandler`, whichever it is when they warn.
    private let warnings: WarningSink
    /// GPU time of each `draw(_:)` and `drawBarePass(pixelSize:)`, from GL_TIME_ELAPSED queries
    /// read without waiting (`gpuTimer.collect()`); benchmarks read it after `finish()` with
    /// `gpuTimer.waitForLast()`.
    public let gpuTimer: GPUTimer

    /// Let the frame's last layer composite and quantise in its own pass instead of a separate
    /// resolve pass (the same result; one pass fewer, and no float target for one-layer frames).
    public var fusesLastLayer = true
    /// Layers under a layer's exactly opaque pixels (a cloud deck's) are left undrawn there
    /// (FramePlan.cover): the same picture, bit for bit; off for an export's capture.
    public var coversLayersBelow = true
    /// Sky layers draw with one general program per part sequence (no per-frame variants, no
    /// scissored cells), as `welkin export-code --package` exports them (GLCapture).
    public var exportVariants = false
    /// With exportVariants: the programs a Swift package's live sky draws with (SkyPass.exportVariant's `package`).
    public var packageVariants = false
    /// The programs built from one reading of the shader files; replaced as a whole on reload.
    struct Passes {
        var resolve: ResolvePass
        var bare: BarePass
        var placeholder: PlaceholderPass
        /// One per layer kind (LayerPasses.swift).
        var layers: LayerPasses

        init(_ shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws {
            resolve = try ResolvePass(shaders: shaders)
            bare = try BarePass(shaders: shaders)
            placeholder = try PlaceholderPass(shaders: shaders)
            layers = try LayerPasses(shaders, warn: warn)
        }

        var files: [String] {
            var out: [String] = []
            for f in resolve.program.files + bare.program.files + placeholder.files + layers.all.flatMap(\.files) where !out.contains(f) {
                out.append(f)
            }
            return out
        }
    }

    /// The pass of a layer kind (`GLDrawable.Pass`).
    func pass<P: GLLayerPass>(_ type: P.Type) -> P { passes.layers.pass(type) }

    /// Holds the warning handler passes call.
    final class WarningSink {
        var handler: (String) -> Void
        init(_ handler: @escaping (String) -> Void) { self.handler = handler }
    }

    /// A layer the last `draw(_:)` could not draw: a hatched placeholder stands in its place.
    public struct LayerFailure: Error, CustomStringConvertible {
        /// The layer's position in the frame's `layers`.
        public var position: Int
        /// Why: a `ShaderError` (`FILE:LINE: message`), a `ShaderLayerError` (the scene's JSON path
        /// and a sentence), a `GLError`.
        public var error: Error
        public var description: String { "\(error)" }
    }

    /// The layers the last `draw(_:)` left out, in drawing order; empty when every layer drew.
    public private(set) var layerFailures: [LayerFailure] = []

    /// Thrown by `draw(_:)` when `whileRendering` asked it to give up on the frame.
    public struct FrameAbandoned: Error, CustomStringConvertible {
        public var description: String { "the frame was abandoned before it finished" }
    }

    /// Called again and again while `draw(_:)` waits for the GPU to finish a pass that a later one
    /// reads (a user shader's target, the float target before the resolve, the output before it is
    /// shown): the viewer polls its window here, so a quit is seen within milliseconds even when a
    /// frame takes a second on a software rasteriser. Return false to abandon the frame (`draw`
    /// throws `FrameAbandoned`). nil (the default) waits inside GL, as headless rendering wants.
    public var whileRendering: (() -> Bool)?

    /// Compiles every program. Throws `ShaderError` (`FILE:LINE: message`) if one fails.
    public init(context: GLContext, shaders: ShaderLibrary) throws {
        self.context = context
        self.shaders = shaders
        try context.makeCurrent()
        gpuTimer = GPUTimer()
        let warnings = WarningSink(Self.printWarning)
        self.warnings = warnings
        passes = try Passes(shaders, warn: { warnings.handler($0) })
        // Core profile draws need a bound vertex array even with no attributes.
        epoxy_glGenVertexArrays(1, &vertexArray)
        try GL.check("creating the renderer")
    }

    deinit {
        try? context.makeCurrent()
        accumulation?.delete()
        output?.delete()
        output16?.delete()
        layerTarget?.delete()
        if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
    }

    /// Every shader file Welkin's own programs were built from, includes too (for a file watcher).
    /// `shaderFiles(for:)` adds a frame's user shaders.
    public var shaderFiles: [String] { passes.files }

    /// Where warnings go (a user uniform the shader does not use); stderr by default.
    public var warningHandler: (String) -> Void = GLRenderer.printWarning {
        didSet { warnings.handler = warningHandler }
    }

    static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
    }

    /// Reads and compiles the shaders again, and the user shaders of the last frame (others are
    /// forgotten; they compile again when drawn). If Welkin's own programs fail,
    /// nothing changes; a user shader that fails keeps its last good program. Either way the
    /// errors (`FILE:LINE: message`) are thrown, all of them in one `ShaderError`.
    public func reloadShaders(from library: ShaderLibrary? = nil) throws {
        try reloadShaders(from: library, changedFiles: nil)
    }

    /// Like `reloadShaders()`, but rebuilds only what `changedFiles` feed (absolute paths, as a
    /// file watcher reports them): a save of one user shader recompiles that shader alone, a save
    /// of `gradient.glsl` the gradient programs alone. Compiling is most of a reload's time on
    /// software rasterisers, so this is what keeps save-to-screen short. nil rebuilds everything.
    public func reloadShaders(from library: ShaderLibrary? = nil, changedFiles: Set<String>?) throws {
        try context.makeCurrent()
        lastDrawn = nil
        let library = library ?? shaders
        let changed = changedFiles.map { Set($0.map(Self.canonical)) }
        func affected(_ files: [String]) -> Bool {
            guard let changed else { return true }
            return files.contains { changed.contains(Self.canonical($0)) }
        }
        var fresh = passes
        let warnings = self.warnings
        let warn: (String) -> Void = { warnings.handler($0) }
        if library.directory != shaders.directory || changed == nil {
            fresh = try Passes(library, warn: warn)
        } else {
            if affected(passes.resolve.program.files) { fresh.resolve = try ResolvePass(shaders: library) }
            if affected(passes.bare.program.files) { fresh.bare = try BarePass(shaders: library) }
            try fresh.layers.rebuild(library, warn: warn, where: affected)
        }
        fresh.layers.adopt(passes.layers)
        passes = fresh
        shaders = library
        let failures = try passes.layers.all.flatMap { try $0.reload(shaders: library, affected: affected) }
        if let first = failures.first {
            throw ShaderError(first.kind, failures.flatMap(\.diagnostics))
        }
    }

    /// Every file whose edit should change how `scene` looks: Welkin's shaders, the scene's user
    /// shaders (includes too), its sprite images and its shader layers' channel images. What the
    /// viewer watches, with the scene file.
    public func files(for scene: Scene) -> [String] {
        shaderFiles(for: scene) + Self.imageFiles(for: scene)
    }

    // MARK: - Sprite and channel images

    /// Every sprite image and shader channel image `scene` draws (absolute paths, as the scene
    /// gives them), for a file watcher.
    public static func imageFiles(for scene: Scene) -> [String] {
        var paths: [String] = []
        for layer in scene.layers {
            for path in layer.content.imagePaths where !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// Reads the images at `paths` again (as the scene gives them) and re-uploads them: sprite
    /// images, and channel images already on the GPU. An image that does not read keeps its last
    /// good copy; after the others are reloaded, the first error (`ImageFileError`, `FILE: message`)
    /// is thrown.
    public func reloadImages(_ paths: [String]) throws {
        try context.makeCurrent()
        lastDrawn = nil
        var failures: [Error] = []
        var reloaded: Set<String> = []
        for path in paths {
            do {
                let isChannel = channels.holds(path)
                if isChannel { try channels.reload(path) }
                // A path that is not (yet) a channel on the GPU is read as a sprite, as before.
                if !isChannel || SpriteImages.paths.contains(path) { try SpriteImages.reload(path); reloaded.insert(path) }
            } catch { failures.append(error) }
        }
        for pass in passes.layers.all { pass.forgetImages(reloaded) }
        if let first = failures.first { throw first }
    }

    /// Forgets every sprite and channel image, in memory and on the GPU: each is read from its
    /// file again when next drawn (the viewer's R).
    public func forgetImages() {
        try? context.makeCurrent()
        lastDrawn = nil
        SpriteImages.removeAll()
        for pass in passes.layers.all { pass.forgetImages(nil) }
        channels.removeAll()
    }

    /// A path with its directory's symlinks resolved, as FileWatcher reports paths.
    public static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return url.deletingLastPathComponent().resolvingSymlinksInPath().path + "/" + url.lastPathComponent
    }

    /// Renders `frame` (built with `linearLight`) to premultiplied scene-linear float pixels, as
    /// ReferenceRenderer.renderLinear does: each layer drawn alone into the float target over
    /// transparent, read back, decoded from sRGB (a linear SkyDraw already is) and composited in
    /// linear light. Layers are not fused; a layer that fails is an error.
    public func renderLinear(_ frame: Frame) throws -> FloatImage {
        try context.makeCurrent()
        let size = frame.pixelSize
        for pass in passes.layers.all { pass.willDraw(frame) }
        let layering = frame.layers.contains { ($0 as? any GLDrawable)?.usesLayerTarget ?? false }
        try prepareTargets(size, accumulating: true, layering: layering)
        guard let accumulation else { return FloatImage(width: size.x, height: size.y) }
        let background = ColorMath.linearizePremultiplied(frame.background)
        var result = [SIMD4<Float>](repeating: background, count: size.x * size.y)
        var layerPixels = [SIMD4<Float>](repeating: .zero, count: size.x * size.y)
        for layer in frame.layers {
            accumulation.bind()
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
            epoxy_glClearColor(0, 0, 0, 0)
            PassTiming.time(clear: true) { epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
            compositing(into: accumulation)
            try drawLayer(layer, frame: frame, into: accumulation)
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), accumulation.framebuffer)
            epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
            layerPixels.withUnsafeMutableBytes {
                epoxy_glReadPixels(0, 0, GLsizei(size.x), GLsizei(size.y), GLenum(GL_RGBA), GLenum(GL_FLOAT), $0.baseAddress)
            }
            epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
            try GL.check("drawing a \(size.x)×\(size.y) scene-linear layer")
            let linear = (layer as? SkyDraw)?.linear ?? false
            // GL's row 0 is the bottom.
            for y in 0..<size.y {
                let source = (size.y - 1 - y) * size.x, target = y * size.x
                for x in 0..<size.x {
                    let s = linear ? layerPixels[source + x] : ColorMath.linearizePremultiplied(layerPixels[source + x])
                    result[target + x] = s + result[target + x] * (1 - s.w)
                }
            }
        }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glBindVertexArray(0)
        return FloatImage(width: size.x, height: size.y, pixels: result)
    }

    /// Renders `frame` and reads it back: exactly `frame.pixelSize`, row 0 at the top.
    public func render(_ frame: Frame) throws -> Image {
        try draw(frame)
        return readImage()
    }

    /// Renders `frame` into the RGBA8 output target without reading it back (for benchmarks and
    /// windows). Pair with `finish()` to time it.
    ///
    /// A layer that cannot be drawn is left out, a hatched placeholder in its place, and the frame
    /// is finished without it; then the first such layer's error is thrown (all of them are in
    /// `layerFailures`), so a caller that shows the frame anyway (the viewer) can, and one that
    /// must not (`welkin render`) fails as before. Any other error means no frame was drawn.
    public func draw(_ frame: Frame) throws {
        try draw(frame, depth16: false)
    }

    /// Renders `frame` at 16 bits a channel (`--depth 16`) and reads it back, row 0 at the top:
    /// every layer composited into the float target, then the resolve pass built with
    /// WELKIN_QUANTIZE_16 (output transform, no dither) writes an RGBA16 target. A layer that
    /// cannot be drawn is an error, as in `render`.
    public func render16(_ frame: Frame) throws -> Image16 {
        try draw(frame, depth16: true)
        guard let output16 else { return Image16(width: 0, height: 0, pixels: []) }
        let width = output16.size.x, height = output16.size.y
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), output16.framebuffer)
        epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 2)
        pixels.withUnsafeMutableBytes {
            epoxy_glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_SHORT), $0.baseAddress)
        }
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        try GL.check("reading back a \(width)×\(height) 16-bit frame")
        return Image16(width: width, height: height, pixels: pixels).flippedVertically()
    }

    /// The plan of the last frame `draw` drew.
    public private(set) var lastPlan: FramePlan?
    /// Shader layers' buffers run one frame per drawn frame at the frame's time (the viewer), instead
    /// of replaying frames 0…floor(t × 60) at 60 a second (render, export: the same picture every run).
    public var runsBuffersLive = false
    /// Starts every shader layer's buffers again from frame 0 (the viewer's reload and restart).
    public func resetShaderBuffers() {
        guard (try? context.makeCurrent()) != nil else { return }
        for b in pass(UserShaderPass.self).buffers.values { b.reset() }
        lastDrawn = nil
    }
    /// The full-screen vertex array (a pass binds it before a full-screen triangle).
    var fullScreenVertexArray: GLuint { vertexArray }
    /// Finish the GPU after each top-level layer and time it (`welkin bench --passes`): slower, for
    /// measuring only.
    public var measuresLayers = false
    /// With `measuresLayers`: each top-level draw's milliseconds in the last frame, GPU work
    /// included (glFinish after it), by position in `Frame.layers`; nil is the frame's own resolve
    /// pass. A fused run is timed as its first layer's.
    public private(set) var layerTimes: [(position: Int?, milliseconds: Double)] = []

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// Skip drawing a frame that draws the same picture as the last frame drawn (a still scene
    /// playing in the viewer, a redraw the panel asked for): the output still holds it, so `draw`
    /// returns at once. Never for a frame with a user shader (it may read the clock, the frame number or the
    /// mouse), a 16-bit frame, or after a reload. Off by default; the viewer turns it on.
    public var reusesUnchangedFrames = false
    /// How many frames `draw` has skipped that way.
    public private(set) var reusedFrames = 0
    /// The last frame drawn whole, without a failure, while `reusesUnchangedFrames` (with the settings
    /// it was drawn with); nil when the output may no longer hold its picture.
    private var lastDrawn: (frame: Frame, options: FramePlan.Options)?

    /// Whether the last frame drew a picture that drawing it again improves (a still viewer frame's
    /// clouds, refined a slice a frame): the viewer keeps drawing while it is.
    public var isRefining: Bool { passes.layers.all.contains { $0.isRefining } }

    /// Forgets the last frame drawn: the next `draw` draws in full.
    public func forgetLastFrame() { lastDrawn = nil }

    /// Whether `a` and `b` draw the same picture: the same size, background, dither, colour space,
    /// projection and layers (compared value for value), and no user shader.
    static func samePicture(_ a: Frame, _ b: Frame) -> Bool {
        a.pixelSize == b.pixelSize && a.background == b.background && a.dither == b.dither
            && a.outputColorSpace == b.outputColorSpace && a.options == b.options
            && !b.layers.contains { $0 is ShaderDraw } && Frame.sameLayers(a.layers, b.layers)
    }

    private func draw(_ frame: Frame, depth16: Bool) throws {
        try context.makeCurrent()
        let options = planOptions(depth16: depth16)
        if reusesUnchangedFrames, !depth16, GLCapture.active == nil, !exportVariants, let last = lastDrawn, last.options == options,
           output?.size == frame.pixelSize, !isRefining, Self.samePicture(last.frame, frame) {
            reusedFrames += 1
            layerFailures = []
            layerTimes = []
            return
        }
        lastDrawn = nil
        layerFailures = []
        layerTimes = []
        gpuTimer.begin()
        defer { gpuTimer.end() }
        let size = frame.pixelSize
        // The frame's plan (FramePlan) decides: runs of layers drawn as one (consecutive gradients),
        // whether the last layer composites and resolves itself (Shaders/composite.glsl; 16-bit
        // frames resolve in the resolve pass alone), and which frame targets are needed.
        let plan = FramePlan(frame, options: options)
        lastPlan = plan
        let drawn = plan.draws
        let layered = plan.lastLayerResolves ? drawn.dropLast() : drawn[...]
        let last = plan.lastLayerResolves ? drawn.last.flatMap { $0.draw as? any GLDrawable } : nil
        for pass in passes.layers.all { pass.willDraw(frame) }
        let half = (plan.target("accumulation") ?? plan.target("layer"))?.format == .rgba16f
        try prepareTargets(size, accumulating: plan.target("accumulation") != nil, layering: plan.target("layer") != nil, depth16: depth16,
                           half: half)
        guard let output = depth16 ? output16 : output else { return }
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glDisable(GLenum(GL_DEPTH_TEST))
        epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
        epoxy_glDisable(GLenum(GL_BLEND))

        var resolve = ResolveInput(destination: nil, background: frame.background, dither: frame.dither,
                                   outputSpace: frame.outputColorSpace)
        // The covering clouds' early march, timed as part of their layer.
        var covering: (any GLCovering)?
        var coverTime = 0.0
        if !layered.isEmpty, let accumulation {
            // A clouds layer that covers those below (FramePlan.cover): its grid marched first, so
            // its exactly opaque pixels can be marked in the stencil before the first layer. (A
            // march that fails leaves the cover out; the layer's own draw then fails as before.)
            if let cover = plan.cover, let layer = drawn[cover].draw as? any GLCovering {
                let start = measuresLayers ? Self.now() : 0
                do {
                    try drawAhead(layer)
                    try waitWhileRendering()
                    covering = layer
                } catch let error as FrameAbandoned {
                    throw error
                } catch {
                    while epoxy_glGetError() != GLenum(GL_NO_ERROR) {}
                }
                if measuresLayers { epoxy_glFinish(); coverTime = Self.now() - start }
            }
            accumulation.bind()
            let bg = frame.background
            epoxy_glClearColor(bg.x, bg.y, bg.z, bg.w)
            // (The cover starts from "covered" everywhere: GLCovering.drawCover.)
            epoxy_glClearStencil(1)
            PassTiming.time(clear: true) {
                epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT) | (covering != nil ? GLbitfield(GL_STENCIL_BUFFER_BIT) : 0))
            }
            defer { epoxy_glDisable(GLenum(GL_STENCIL_TEST)) }
            if let layer = covering {
                let start = measuresLayers ? Self.now() : 0
                epoxy_glBindVertexArray(vertexArray)
                do {
                    try drawCover(layer, into: accumulation)
                } catch {
                    // (A cover that cannot be drawn — its program does not build — leaves every
                    // layer drawn everywhere; the layer's own upsample then fails or draws as it may.)
                    covering = nil
                    epoxy_glDisable(GLenum(GL_STENCIL_TEST))
                    epoxy_glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
                    while epoxy_glGetError() != GLenum(GL_NO_ERROR) {}
                }
                if measuresLayers { epoxy_glFinish(); coverTime += Self.now() - start }
            }
            for (index, (layer, position)) in layered.enumerated() {
                // The covering layer itself, and everything after it, is drawn everywhere.
                if index == plan.cover { epoxy_glDisable(GLenum(GL_STENCIL_TEST)) }
                compositing(into: accumulation)
                GLCapture.active?.currentLayer = position
                defer { GLCapture.active?.currentLayer = nil }
                let start = measuresLayers ? Self.now() : 0
                defer {
                    if measuresLayers { epoxy_glFinish(); layerTimes.append((position, Self.now() - start + (index == plan.cover ? coverTime : 0))) }
                }
                do {
                    try drawLayer(layer, frame: frame, into: accumulation, clearedTo: index == 0 ? frame.background : nil)
                } catch {
                    try leaveOut(position, error)
                    compositing(into: accumulation)
                    try passes.placeholder.draw(pixelSize: size, resolve: nil)
                }
            }
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glDisable(GLenum(GL_STENCIL_TEST))
            resolve.destination = accumulation.texture
        }

        // The last pass reads what the passes before it drew: wait for them here, not inside GL.
        let lastPosition = drawn.last?.position ?? -1
        let resolveStart = measuresLayers ? Self.now() : 0
        defer {
            if measuresLayers {
                epoxy_glFinish()
                let early = plan.cover == drawn.count - 1 && last != nil ? coverTime : 0
                layerTimes.append((last == nil ? nil : lastPosition, Self.now() - resolveStart + early))
            }
        }
        do {
            let context = GLLayerContext(renderer: self, frame: frame, depth: 0)
            let waited = try last.map { try prepareResolving($0, in: context) } ?? false
            if !waited && resolve.destination != nil {
                try waitWhileRendering()
            }
            output.bind()
            epoxy_glBindVertexArray(vertexArray)
            if let last {
                try drawResolving(last, in: context, resolve: resolve)
            } else {
                try passes.resolve.draw(resolve, pixelSize: size, depth16: depth16)
            }
        } catch {
            guard last != nil else { throw error }
            try leaveOut(lastPosition, error)
            output.bind()
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glBindVertexArray(vertexArray)
            try passes.placeholder.draw(pixelSize: size, resolve: resolve)
        }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glBindVertexArray(0)
        try GL.check("drawing a \(size.x)×\(size.y) frame")
        // The caller reads or shows the output next.
        try waitWhileRendering()
        if let first = layerFailures.first { throw first.error }
        if reusesUnchangedFrames && !depth16 { lastDrawn = (frame, options) }
    }

    /// Binds `target` for a layer: the full-screen vertex array, premultiplied source-over blending
    /// (src + dst × (1 − src.a), on all four channels). Layers may change all of it; each starts here.
    func compositing(into target: RenderTarget) {
        target.bind()
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glEnable(GLenum(GL_BLEND))
        epoxy_glBlendEquation(GLenum(GL_FUNC_ADD))
        epoxy_glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    }

    /// Draws one layer that does not resolve the frame, composited into `target` (bound by
    /// `compositing(into:)`): the float target, or at `depth` > 0 a group's.
    func drawLayer(_ layer: any LayerDraw, frame: Frame, into target: RenderTarget, depth: Int = 0, clearedTo: SIMD4<Float>? = nil) throws {
        guard let drawable = layer as? any GLDrawable else { throw GLError.noPass(layer) }
        try draw(drawable, in: GLLayerContext(renderer: self, frame: frame, depth: depth, clearedTo: clearedTo), into: target)
    }

    private func draw<D: GLDrawable>(_ layer: D, in context: GLLayerContext, into target: RenderTarget) throws {
        try layer.draw(pass(D.Pass.self), in: context, into: target)
    }

    private func drawAhead<D: GLCovering>(_ layer: D) throws { try layer.drawAhead(pass(D.Pass.self)) }
    private func drawCover<D: GLCovering>(_ layer: D, into target: RenderTarget) throws { try layer.drawCover(pass(D.Pass.self), into: target) }

    private func prepareResolving<D: GLDrawable>(_ layer: D, in context: GLLayerContext) throws -> Bool {
        try layer.prepareResolving(pass(D.Pass.self), in: context)
    }

    private func drawResolving<D: GLDrawable>(_ layer: D, in context: GLLayerContext, resolve: ResolveInput) throws {
        try layer.drawResolving(pass(D.Pass.self), in: context, resolve: resolve)
    }

    /// Records that the layer at `position` failed (an abandoned frame is not a layer's failure:
    /// it is rethrown), and clears any GL error it left so the rest of the frame starts clean.
    private func leaveOut(_ position: Int, _ error: Error) throws {
        if error is FrameAbandoned { throw error }
        while epoxy_glGetError() != GLenum(GL_NO_ERROR) {}
        layerFailures.append(LayerFailure(position: position, error: error))
    }

    /// Waits for the GPU to finish everything issued so far (a window's blit of the output, say),
    /// calling `whileRendering` as `draw` does; throws `FrameAbandoned` when it says to stop.
    public func finishWhileRendering() throws {
        try context.makeCurrent()
        try waitWhileRendering()
    }

    /// Waits for the GPU to finish what was issued so far, calling `whileRendering` every 2 ms;
    /// does nothing without it (GL then waits by itself where a pass reads an earlier one's target).
    func waitWhileRendering() throws {
        guard let whileRendering else { return }
        guard let fence = epoxy_glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else { return }
        defer { epoxy_glDeleteSync(fence) }
        // The first wait flushes, so the GPU (llvmpipe's threads) starts on the frame at once.
        var flags = GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)
        while true {
            let status = epoxy_glClientWaitSync(fence, flags, Self.renderingPollInterval)
            if status != GLenum(GL_TIMEOUT_EXPIRED) { return }
            flags = 0
            guard whileRendering() else { throw FrameAbandoned() }
            try context.makeCurrent()
        }
    }

    /// How often `whileRendering` is called while the GPU works, in nanoseconds: 2 ms keeps a quit
    /// well under a frame of the display, and polling a window costs microseconds.
    static let renderingPollInterval: GLuint64 = 2_000_000

    /// One full-screen pass writing a trivial per-pixel value (not a constant, which llvmpipe
    /// fast-paths) into the RGBA8 output target: the cost of a pass with no shading, to compare a
    /// frame against.
    public func drawBarePass(pixelSize: SIMD2<Int>) throws {
        try context.makeCurrent()
        lastDrawn = nil   // the output will hold the bare pass
        try prepareTargets(pixelSize, accumulating: false)
        guard let output else { return }
        gpuTimer.begin()
        defer { gpuTimer.end() }
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glDisable(GLenum(GL_BLEND))
        output.bind()
        passes.bare.draw(pixelSize: pixelSize)
        epoxy_glBindVertexArray(0)
        try GL.check("drawing a bare pass")
    }

    /// Waits for the GPU to finish everything issued so far (glFinish).
    public func finish() {
        epoxy_glFinish()
    }

    /// The framebuffer holding the last frame as RGBA8, GL's bottom-up rows (0 before any frame).
    public var outputFramebuffer: GLuint { output?.framebuffer ?? 0 }
    /// The size of that framebuffer in pixels (zero before any frame).
    public var outputSize: SIMD2<Int> { output?.size ?? .zero }

    /// Reads the last drawn frame back as an Image, row 0 at the top.
    public func readImage() -> Image {
        guard let output else { return Image(width: 0, height: 0) }
        let width = output.size.x, height = output.size.y
        let count = width * height * 4
        if readback.count != count { readback = [UInt8](repeating: 0, count: count) }
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), output.framebuffer)
        epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        readback.withUnsafeMutableBytes {
            epoxy_glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        // GL's row 0 is the bottom; Image's is the top.
        return Image(width: width, height: height, pixels: readback).flippedVertically()
    }

    /// (Re)makes the RGBA8 target, and the float one when `accumulating`, when the size changes.
    /// `half`: the compositing targets in RGBA16F (FramePlan.Builder.compositingFormat), else
    /// RGBA32F (16-bit output, scene-linear layers).
    private func prepareTargets(_ size: SIMD2<Int>, accumulating: Bool, layering: Bool = false, depth16: Bool = false,
                                half: Bool = false) throws {
        let format = half ? GL_RGBA16F : GL_RGBA32F
        if output?.size != size {
            let limit = GL.integer(GL_MAX_TEXTURE_SIZE)
            guard size.x > 0, size.y > 0, size.x <= limit, size.y <= limit else {
                throw GLError("cannot render \(size.x)×\(size.y) pixels: each side must be 1…\(limit) on this GPU")
            }
            output?.delete(); output = nil
            output = try RenderTarget(size: size, internalFormat: GL_RGBA8, type: GL_UNSIGNED_BYTE, label: "output")
        }
        if depth16 && output16?.size != size {
            output16?.delete(); output16 = nil
            output16 = try RenderTarget(size: size, internalFormat: GL_RGBA16, type: GL_UNSIGNED_SHORT, label: "output16")
        }
        if accumulating && (accumulation?.size != size || accumulation?.internalFormat != format) {
            accumulation?.delete(); accumulation = nil
            accumulation = try RenderTarget(size: size, internalFormat: format, type: GL_FLOAT, label: "accumulation", stencil: true)
        }
        if layering && (layerTarget?.size != size || layerTarget?.internalFormat != format) {
            layerTarget?.delete(); layerTarget = nil
            layerTarget = try RenderTarget(size: size, internalFormat: format, type: GL_FLOAT, label: "layer")
        }
    }
}
