// How GLRenderer draws a layer without naming its kind: each kind's pass file conforms the kind's
// Frame value to `GLDrawable` and names its pass (`GLLayerPass`). The renderer builds one pass per
// draw type that `LayerKinds.all` lists (so a shader error shows when the renderer is made, and
// every file a pass reads is watched), keyed by the pass's type, and dispatches on the conformance.

@preconcurrency import CEpoxy
import WelkinCore

/// The GPU pass of one layer kind: its programs and GL objects, built from one reading of the
/// shader files and replaced as a whole when they change.
protocol GLLayerPass: AnyObject {
    /// Builds the programs. Throws `ShaderError` (`FILE:LINE: message`) when one fails.
    /// `warn` prints a warning (a user uniform the shader does not use).
    init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws
    /// Every shader file its programs were built from, includes too (for a file watcher).
    var files: [String] { get }
    /// Takes over settings and state from `previous`, the pass this one replaces on a reload.
    /// Nothing by default.
    func adopt(_ previous: Self)
    /// Called once per frame before any layer draws. Nothing by default.
    func willDraw(_ frame: Frame)
    /// After a reload from `shaders`: rebuilds whatever else the pass holds whose files
    /// `affected` says changed (user shaders); returns the errors. None by default.
    func reload(shaders: ShaderLibrary, affected: ([String]) -> Bool) throws -> [ShaderError]
    /// Drops GPU copies of the images at `paths` (all when nil): they are uploaded again when next
    /// drawn. Nothing by default.
    func forgetImages(_ paths: Set<String>?)
    /// The frame's top-level layers as this pass would have them drawn: it may replace a run of its
    /// own layers with one draw value (each entry keeps the position in `Frame.layers` of the first
    /// layer it draws, for failures). Unchanged by default.
    func fusing(_ layers: [(draw: any LayerDraw, position: Int)]) -> [(draw: any LayerDraw, position: Int)]
    /// Whether the last frame drew a picture this pass improves when the same frame is drawn again
    /// (the clouds' refinement of a still viewer frame): the renderer then draws it rather than
    /// reusing it. False by default.
    var isRefining: Bool { get }
}

extension GLLayerPass {
    func adopt(_ previous: Self) {}
    func willDraw(_ frame: Frame) {}
    func reload(shaders: ShaderLibrary, affected: ([String]) -> Bool) throws -> [ShaderError] { [] }
    func forgetImages(_ paths: Set<String>?) {}
    func fusing(_ layers: [(draw: any LayerDraw, position: Int)]) -> [(draw: any LayerDraw, position: Int)] { layers }
    var isRefining: Bool { false }
}

/// A Frame value the GPU draws: each kind's pass file conforms its draw type
/// (`extension GradientDraw: GLDrawable`). KindPassTests checks every kind.
protocol GLDrawable: LayerDraw {
    associatedtype Pass: GLLayerPass
    /// Whether the layer covers every pixel and can composite-and-resolve the frame in its own pass
    /// (composite.glsl) when it is the last layer. Layers that touch only some pixels (sprites,
    /// glyphs) cannot; nor can a group, which composites from its own targets. False by default.
    var canResolveFrame: Bool { get }
    /// Whether the layer draws into the renderer's layer target before it is composited (a user
    /// shader). False by default.
    var usesLayerTarget: Bool { get }
    /// Draws the layer composited into `target`, which `context.compositing(into:)` has bound.
    func draw(_ pass: Pass, in context: GLLayerContext, into target: RenderTarget) throws
    /// As the frame's last layer (only when `canResolveFrame`), before the output is bound: work
    /// that draws elsewhere first. Returns whether it has already waited for the GPU
    /// (`context.waitWhileRendering()`). Nothing by default.
    func prepareResolving(_ pass: Pass, in context: GLLayerContext) throws -> Bool
    /// As the frame's last layer (only when `canResolveFrame`): draws into the bound RGBA8 output,
    /// compositing over `resolve` and quantising.
    func drawResolving(_ pass: Pass, in context: GLLayerContext, resolve: ResolveInput) throws
    /// A box ([x0, y0, x1, y1), pixel space, y down) outside which the layer's alpha is zero, or
    /// nil when it may be anywhere: a group of it, or masked by it, blurs and composites only
    /// within its reach (GroupPass). Nil by default.
    var alphaBox: SIMD4<Int>? { get }
    /// Whether its draw is passes into the bound target alone, none of them setting the scissor
    /// or reading the target at other pixels: in a group whose passes read its content only within
    /// a box (GroupPass.clearBox), it is drawn scissored to that box — the same pixels there,
    /// none drawn where nothing reads them. False by default.
    var clipsToGroupBox: Bool { get }
    /// Whether leaving it undrawn under an opaque deck pays for the cover's passes (FramePlan.cover;
    /// measured at 720p on llvmpipe: a physical sky ~15 ms, a palette sky ~5 ms, the cover under a
    /// closed deck 0.8). False by default.
    var shadesExpensively: Bool { get }
    /// The passes its draw makes, for the frame's plan (FramePlan): one pass of `planProgram`
    /// blended into `target` (or resolving into it) by default; kinds that draw more say so.
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?)
    /// The fragment file of its pass, for the plan.
    var planProgram: String { get }
}

extension GLDrawable {
    var canResolveFrame: Bool { false }
    var usesLayerTarget: Bool { false }
    var alphaBox: SIMD4<Int>? { nil }
    var clipsToGroupBox: Bool { false }
    var shadesExpensively: Bool { false }
    func prepareResolving(_ pass: Pass, in context: GLLayerContext) throws -> Bool { false }
    func drawResolving(_ pass: Pass, in context: GLLayerContext, resolve: ResolveInput) throws {
        preconditionFailure("\(Self.self) layers never resolve the frame (canResolveFrame)")
    }
    static var passType: any GLLayerPass.Type { Pass.self }

    /// Whether, as the frame's last layer, it composites and quantises in its own pass: it can
    /// (`canResolveFrame`), and its alpha is not held to a box under half the frame — such a layer
    /// is cheaper drawn within its box and followed by the resolve pass than evaluated at every
    /// pixel (a radial glow that fades out).
    func resolvesFrame(pixelSize: SIMD2<Int>) -> Bool {
        guard canResolveFrame else { return false }
        guard let box = Self.clamped(alphaBox, pixelSize: pixelSize) else { return true }
        return 2 * max(0, box.z - box.x) * max(0, box.w - box.y) >= pixelSize.x * pixelSize.y
    }

    /// `box` within the frame.
    static func clamped(_ box: SIMD4<Int>?, pixelSize: SIMD2<Int>) -> SIMD4<Int>? {
        box.map { SIMD4(max($0.x, 0), max($0.y, 0), min($0.z, pixelSize.x), min($0.w, pixelSize.y)) }
    }
}

/// What a layer's pass may use of the renderer while it draws one frame.
struct GLLayerContext {
    unowned let renderer: GLRenderer
    let frame: Frame
    /// How many groups hold the layer: 0 at the top level.
    let depth: Int
    /// The colour the target holds everywhere when nothing has been drawn into it yet this frame
    /// (the first layer over the frame's background, or a group's first over transparent); nil otherwise.
    var clearedTo: SIMD4<Float>? = nil

    var pixelSize: SIMD2<Int> { frame.pixelSize }
    var shaders: ShaderLibrary { renderer.shaders }
    var channels: ChannelTextures { renderer.channels }
    /// The float target a layer draws into before it is composited (`usesLayerTarget`).
    var layerTarget: RenderTarget? { renderer.layerTarget }

    /// Binds `target` with the full-screen vertex array and premultiplied source-over blending.
    func compositing(into target: RenderTarget) { renderer.compositing(into: target) }

    /// Waits for the GPU before a pass reads what an earlier one drew (see GLRenderer.whileRendering).
    func waitWhileRendering() throws { try renderer.waitWhileRendering() }

    /// Draws `layer` (a group's layer or mask) composited into `target`, one group deeper.
    func drawLayer(_ layer: any LayerDraw, into target: RenderTarget, clearedTo: SIMD4<Float>? = nil) throws {
        try renderer.drawLayer(layer, frame: frame, into: target, depth: depth + 1, clearedTo: clearedTo)
    }
}

/// The passes of every layer kind, keyed by the pass's type.
struct LayerPasses {
    private(set) var passes: [ObjectIdentifier: any GLLayerPass] = [:]
    /// The pass types in `LayerKinds.all`'s order.
    let order: [ObjectIdentifier]

    /// Every layer pass type: the `GLDrawable.Pass` of each draw type `LayerKinds.all` lists.
    /// Throws `GLError` for a draw type with no GPU pass.
    static func passTypes() throws -> [any GLLayerPass.Type] {
        var seen: Set<ObjectIdentifier> = [], out: [any GLLayerPass.Type] = []
        for type in LayerKinds.drawTypes {
            guard let drawable = type as? any GLDrawable.Type else {
                throw GLError("\(type) layers have no GPU pass: conform \(type) to GLDrawable in the kind's pass file (docs/adding-a-layer-kind.md)")
            }
            if seen.insert(ObjectIdentifier(drawable.passType)).inserted { out.append(drawable.passType) }
        }
        return out
    }

    init(_ shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws {
        let types = try Self.passTypes()
        order = types.map { ObjectIdentifier($0) }
        for type in types { passes[ObjectIdentifier(type)] = try type.init(shaders: shaders, warn: warn) }
    }

    /// The pass of type `P` (every layer pass type has one).
    func pass<P: GLLayerPass>(_ type: P.Type) -> P {
        passes[ObjectIdentifier(type)] as! P
    }

    /// The passes in `LayerKinds.all`'s order.
    var all: [any GLLayerPass] { order.map { passes[$0]! } }

    /// The frame's layers after every pass's `fusing`, in `LayerKinds.all`'s order.
    func fusing(_ layers: [any LayerDraw]) -> [(draw: any LayerDraw, position: Int)] {
        all.reduce(layers.enumerated().map { (draw: $0.element, position: $0.offset) }) { $1.fusing($0) }
    }

    /// Rebuilds from `shaders` each pass whose files `affected` says changed.
    mutating func rebuild(_ shaders: ShaderLibrary, warn: @escaping (String) -> Void, where affected: ([String]) -> Bool) throws {
        for id in order where affected(passes[id]!.files) {
            passes[id] = try type(of: passes[id]!).init(shaders: shaders, warn: warn)
        }
    }

    /// Lets each pass that replaces one of `previous`'s take over its settings and state.
    func adopt(_ previous: LayerPasses) {
        func adopt<P: GLLayerPass>(_ fresh: P, _ old: any GLLayerPass) {
            if let old = old as? P, old !== fresh { fresh.adopt(old) }
        }
        for id in order { if let old = previous.passes[id] { adopt(passes[id]!, old) } }
    }
}

extension GLError {
    /// A Frame value no pass file conforms to `GLDrawable`.
    static func noPass(_ layer: any LayerDraw) -> GLError {
        GLError("\(type(of: layer)) layers have no GPU pass: conform it to GLDrawable in the kind's pass file (docs/adding-a-layer-kind.md)")
    }
}
