// FramePlan: what GLRenderer will do for one frame, as plain values, made without GL.
//
// `FramePlan(frame, options:)` lists the passes in drawing order (each with its program, the
// targets it reads and the one it writes, its blending and scissor) and the targets they use (each
// with its format, size, lifetime and why it has that format). GLRenderer.draw takes its decisions
// from it: which run of layers is fused, whether the last layer resolves the frame itself, and
// which frame-level targets it needs; each kind states its passes beside its drawing code
// (`GLDrawable.plan`). `welkin bench --passes SCENE` prints it with each layer's measured cost, and
// FramePlanTests hold every example's pass and target counts without a GL context.
//
// Not yet: targets are still kept by the passes that own them (GroupPass, MeshPass, CloudsPass), not
// handed out by one pool that shares memory between targets whose lifetimes do not overlap;
// `transientBytes` says what such sharing would save.

import WelkinCore

public struct FramePlan: Sendable, Equatable {
    public enum Format: String, Sendable {
        case rgba8 = "RGBA8", rgba16 = "RGBA16", rgba16f = "RGBA16F", rgba32f = "RGBA32F", r32f = "R32F"

        public var bytesPerPixel: Int {
            switch self {
            case .rgba8: 4
            case .rgba16, .rgba16f: 8
            case .rgba32f: 16
            case .r32f: 4
            }
        }
    }

    /// Persistent targets are kept from frame to frame under their key (re-made only when the size
    /// changes); a frame target's contents matter only within the frame.
    public enum Lifetime: String, Sendable { case persistent, frame }

    public struct Target: Sendable, Equatable {
        /// A stable key: `output`, `accumulation`, `layer`, `group.content.1`, `clouds.grid`, …
        public var key: String
        public var format: Format
        public var size: SIMD2<Int>
        public var lifetime: Lifetime
        /// Why this format (what needs its precision).
        public var why: String
        public var bytes: Int { size.x * size.y * format.bytesPerPixel }
    }

    /// `stencil`: writes only the target's stencil (GLRenderer's cover), its colour untouched.
    public enum Blend: String, Sendable { case replace, sourceOver = "source-over", stencil = "stencil only" }

    public struct Pass: Sendable, Equatable {
        /// What it draws: `gradient`, `group blur (horizontal)`, `clear`, …
        public var name: String
        /// The fragment file, with the defines that pick its variant where the plan knows them
        /// (a resolving pass: its ResolveVariant); `—` for a clear or a copy.
        public var program: String
        /// The top-level layer it belongs to (position in `Frame.layers`); nil for the frame's own
        /// clear and resolve.
        public var layer: Int?
        public var reads: [String]
        public var writes: String
        public var blend: Blend
        /// [x0, y0, x1, y1), pixels, y down; nil: the whole target.
        public var scissor: SIMD4<Int>?
    }

    /// What GLRenderer's choices are (its settings), so a plan is made the same way with or without GL.
    public struct Options: Sendable, Equatable {
        public var fusesLastLayer = true
        public var specializesPrograms = true
        public var fusesGradients = true
        public var scissorsGroups = true
        public var depth16 = false
        /// Layers under an opaque layer's exactly opaque pixels (a cloud deck's) are left undrawn there (`cover`).
        public var coversLayersBelow = true
        public init() {}
    }

    public var pixelSize: SIMD2<Int>
    public var targets: [Target] = []
    public var passes: [Pass] = []
    /// Whether the frame's last layer composites and quantises in its own pass (no resolve pass).
    public var lastLayerResolves = false
    /// The top-level draw (index in `draws`) whose exactly opaque pixels leave every layer below
    /// it undrawn: a cloud deck (GLCovering.covers) over a sky (GLDrawable.shadesExpensively). Its
    /// grid is marched before the frame's first layer; the accumulation's stencil is cleared to 1
    /// with the background and set to 0 wherever the deck is not exactly opaque ("cover"); the
    /// layers below it draw where it is 0. Where alpha is 1, source-over keeps nothing of what is
    /// below (dst × 0), so the picture is the same bit for bit, and llvmpipe shades no 4 × 4 block
    /// the stencil test rejects whole (docs/benchmarks.md, "Nothing drawn under a deck").
    public var cover: Int?

    /// The draws at the top level after fusion, in order, with the position in `Frame.layers` of the
    /// first layer each draws; the last is the resolving one when `lastLayerResolves`.
    var draws: [(draw: any LayerDraw, position: Int)] = []

    public static func == (a: FramePlan, b: FramePlan) -> Bool {
        a.pixelSize == b.pixelSize && a.targets == b.targets && a.passes == b.passes && a.lastLayerResolves == b.lastLayerResolves
    }

    /// The target of `key`, if the plan uses it.
    public func target(_ key: String) -> Target? { targets.first { $0.key == key } }
    /// Every target's memory.
    public var bytes: Int { targets.reduce(0) { $0 + $1.bytes } }
    /// The memory of the frame targets, which one pool could share between targets whose
    /// lifetimes do not overlap.
    public var transientBytes: Int { targets.filter { $0.lifetime == .frame }.reduce(0) { $0 + $1.bytes } }
    /// The passes that draw (clears and copies left out).
    public var drawPasses: [Pass] { passes.filter { $0.program != "—" } }

    public init(_ frame: Frame, options: Options = Options()) {
        pixelSize = frame.pixelSize
        let fused = GradientPass.fusing(frame.layers.enumerated().map { (draw: $0.element, position: $0.offset) },
                                        enabled: options.specializesPrograms && options.fusesGradients)
        draws = fused
        if options.coversLayersBelow && !options.depth16 {
            // The first covering layer with an expensive one below it (only those pay for the cover pass).
            cover = fused.indices.first { i in
                i > 0 && ((fused[i].draw as? any GLCovering)?.covers ?? false)
                    && fused[..<i].contains { ($0.draw as? any GLDrawable)?.shadesExpensively ?? false }
            }
        }
        let last = fused.last.map { $0.draw as? any GLDrawable }
        // 16-bit frames resolve in the resolve pass alone (the only one built to quantise to 16 bits).
        lastLayerResolves = !options.depth16 && options.fusesLastLayer && (last.map { $0?.resolvesFrame(pixelSize: frame.pixelSize) ?? false } ?? true) && !fused.isEmpty
        let layered = lastLayerResolves ? fused.dropLast() : fused[...]
        var b = Builder(options: options, pixelSize: frame.pixelSize)
        let output = options.depth16
            ? b.target("output16", .rgba16, .persistent, why: "--depth 16: whole 65535ths")
            : b.target("output", .rgba8, .persistent, why: "the picture: quantised once, with the CPU's dither")
        let resolve = ResolveVariant(readsDestination: !layered.isEmpty, dither: frame.dither, outputSpace: frame.outputColorSpace,
                                     depth16: options.depth16)
        if !layered.isEmpty {
            let accumulation = b.target("accumulation", b.compositingFormat, .persistent, why: b.compositingWhy)
            let covering = cover.flatMap { fused[$0].draw as? any GLCovering }
            if let cover, let covering {
                b.layer = fused[cover].position
                covering.planAhead(&b)
            }
            b.pass("clear (background)", program: "—", layer: nil, reads: [], writes: accumulation, blend: .replace)
            if let cover, let covering {
                b.layer = fused[cover].position
                covering.planCover(&b, into: accumulation)
            }
            for (index, (draw, position)) in layered.enumerated() {
                b.layer = position
                if index == cover, let covering {
                    covering.planComposite(&b, into: accumulation, resolving: nil)
                } else {
                    b.plan(draw, into: accumulation, resolving: nil)
                }
            }
        }
        if lastLayerResolves, let (draw, position) = fused.last {
            b.layer = position
            if cover == fused.count - 1, let covering = draw as? any GLCovering {
                covering.planComposite(&b, into: output, resolving: resolve)
            } else {
                b.plan(draw, into: output, resolving: resolve)
            }
        } else {
            b.layer = nil
            b.pass("resolve", program: "resolve.frag" + resolve.planSuffix, layer: nil,
                   reads: layered.isEmpty ? [] : ["accumulation"], writes: output, blend: .replace)
        }
        targets = b.targets
        passes = b.passes
    }

    /// Collects a plan's targets and passes; each kind's `GLDrawable.plan` adds its own.
    struct Builder {
        let options: Options
        let pixelSize: SIMD2<Int>
        var targets: [Target] = []
        var passes: [Pass] = []
        /// The top-level layer being planned.
        var layer: Int?
        /// How many groups hold the layer being planned.
        var depth = 0
        /// Targets whose last pass so far is a clear.
        var cleared: Set<String> = []

        /// Whether `target` holds nothing but its clear colour yet (GLLayerContext.clearedTo).
        func holdsOnlyItsClear(_ target: String) -> Bool { cleared.contains(target) }

        static let floatWhy = "premultiplied float compositing, as the CPU reference does (compare's thresholds hold bit for bit)"

        /// The frame's compositing targets (the accumulation and a user shader's layer): half
        /// floats for an 8-bit picture — a 2⁻¹¹ step, an eighth of the output's 1/255, and
        /// 15–45 % less time a frame on llvmpipe than RGBA32F (docs/benchmarks.md) — and RGBA32F
        /// for 16-bit output, which needs more than half's 11 bits.
        var compositingFormat: Format { options.depth16 ? .rgba32f : .rgba16f }
        var compositingWhy: String {
            options.depth16 ? "--depth 16: premultiplied float compositing beyond half's 11 bits"
                : "premultiplied half-float compositing: steps of 2⁻¹¹, an eighth of the 8-bit output's"
        }

        /// Adds the target once (the same key again is the same target) and returns its key.
        @discardableResult
        mutating func target(_ key: String, _ format: Format, _ lifetime: Lifetime, size: SIMD2<Int>? = nil, why: String) -> String {
            if !targets.contains(where: { $0.key == key }) {
                targets.append(Target(key: key, format: format, size: size ?? pixelSize, lifetime: lifetime, why: why))
            }
            return key
        }

        mutating func pass(_ name: String, program: String, layer: Int?, reads: [String], writes: String, blend: Blend,
                           scissor: SIMD4<Int>? = nil) {
            if blend == .stencil {
                // Its colour holds what it held.
            } else if program == "—" && reads.isEmpty { cleared.insert(writes) } else { cleared.remove(writes) }
            passes.append(Pass(name: name, program: program, layer: layer, reads: reads, writes: writes, blend: blend, scissor: scissor))
        }

        /// The passes of `draw` composited into `target` (`resolving` nil) or as the frame's last
        /// pass, resolving into `target` (the output).
        mutating func plan(_ draw: any LayerDraw, into target: String, resolving: ResolveVariant?) {
            guard let drawable = draw as? any GLDrawable else {
                pass("\(type(of: draw)) (no GPU pass)", program: "placeholder.frag", layer: layer, reads: [], writes: target, blend: .sourceOver)
                return
            }
            drawable.plan(&self, into: target, resolving: resolving)
        }

        /// One full-screen (or geometry) pass of `program` for the layer being planned: blended into
        /// `target`, or resolving into it over the float target.
        mutating func layerPass(_ name: String, program: String, into target: String, resolving: ResolveVariant?,
                                reads: [String] = [], scissor: SIMD4<Int>? = nil) {
            if let resolving {
                pass(name, program: program + resolving.planSuffix, layer: layer,
                     reads: reads + (resolving.readsDestination ? ["accumulation"] : []), writes: target, blend: .replace)
            } else {
                pass(name, program: program, layer: layer, reads: reads, writes: target, blend: .sourceOver, scissor: scissor)
            }
        }
    }
}

extension ResolveVariant {
    /// How a plan shows the variant: ` [resolve: reads, dither, sRGB]`.
    var planSuffix: String {
        var parts = ["resolve", readsDestination ? "reads" : "background", dither ? "dither" : "no dither", outputSpace.rawValue]
        if depth16 { parts.append("16-bit") }
        return " [" + parts.joined(separator: ", ") + "]"
    }
}

/// The kinds' default: one pass named by the kind with `planProgram`.
extension GLDrawable {
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        b.layerPass(planName, program: planProgram, into: target, resolving: resolving)
    }
    var planName: String { "\(type(of: self))".replacingOccurrences(of: "Draw", with: "").lowercased() }
}

extension GLRenderer {
    /// The plan of `frame` with this renderer's settings (what `draw(_:)` will do).
    public func plan(_ frame: Frame, depth16: Bool = false) -> FramePlan {
        FramePlan(frame, options: planOptions(depth16: depth16))
    }

    func planOptions(depth16: Bool) -> FramePlan.Options {
        var o = FramePlan.Options()
        o.fusesLastLayer = fusesLastLayer
        o.specializesPrograms = specializesPrograms
        o.fusesGradients = fusesGradients
        o.scissorsGroups = scissorsGroups
        o.depth16 = depth16
        o.coversLayersBelow = coversLayersBelow && !exportVariants && GLCapture.active == nil
        return o
    }
}
