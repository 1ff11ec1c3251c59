// GroupPass: a group's offscreen targets, its shadow's blur and its composite (Shaders/group*).
//
// The renderer draws a group's layers into `content` (RGBA32F, cleared transparent) and its mask into
// `mask`, one pair of targets per nesting depth; this pass then blurs the masked alpha (horizontal,
// then vertical, into two RGBA32F targets of four rows a texel, shared by every depth: a group's blur
// runs after everything nested in it is done) and composites content over shadow into the parent
// target. Every read is a texelFetch, so the GPU sees the numbers the CPU keeps in its buffers
// (GroupRaster).

@preconcurrency import CEpoxy
import WelkinCore

final class GroupPass {
    /// What a group's programs compile in (constant over a draw, so not uniforms that pick a path).
    struct Variant: Hashable {
        /// How a plan shows it: ` [mask, transformed]`.
        var planSuffix: String {
            var parts: [String] = []
            if mask { parts.append(invertsMask ? "inverted mask" : "mask") }
            if transformed { parts.append("transformed") }
            if shadow { parts.append("shadow") }
            return parts.isEmpty ? "" : " [" + parts.joined(separator: ", ") + "]"
        }

        enum Stage: Hashable { case alpha, horizontal, vertical, composite }
        var stage: Stage
        var mask = false
        var invertsMask = false
        var transformed = false
        var shadow = false

        init(_ stage: Stage, _ g: GroupDraw?, masked: Bool) {
            self.stage = stage
            mask = masked
            invertsMask = masked && (g?.invertsMask ?? false)
            transformed = g?.transform != nil
            // The blurs read the pass before them only; the composite alone uses the shadow.
            if stage == .horizontal || stage == .vertical { mask = false; invertsMask = false; transformed = false }
            shadow = stage == .composite && g?.shadow != nil
        }

        var fragment: String { stage == .composite ? "group.frag" : "group-blur.frag" }

        var defines: [(name: String, value: String)] {
            var out: [(name: String, value: String)] = [
                ("WELKIN_GROUP_MASK", mask ? "1" : "0"), ("WELKIN_GROUP_INVERT", invertsMask ? "1" : "0"),
                ("WELKIN_GROUP_TRANSFORMED", transformed ? "1" : "0"),
            ]
            switch stage {
            case .alpha: out.append(("WELKIN_BLUR_ALPHA", "1"))
            case .horizontal: out += [("WELKIN_BLUR_ALPHA", "0"), ("WELKIN_BLUR_HORIZONTAL", "1")]
            case .vertical: out += [("WELKIN_BLUR_ALPHA", "0"), ("WELKIN_BLUR_HORIZONTAL", "0")]
            case .composite: out.append(("WELKIN_GROUP_SHADOW", shadow ? "1" : "0"))
            }
            return out
        }
    }

    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_content, u_mask, u_inverse, u_inverseOffset: GLint
        let u_horizontal, u_weights, u_taps, u_rows: GLint
        let u_shadow, u_shadowOffset, u_shadowColor, u_opacity: GLint

        init(_ shaders: ShaderLibrary, _ variant: Variant) throws {
            program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                        fragment: ShaderSource(path: shaders.path(variant.fragment), defines: variant.defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_content = program.uniform("u_content")
            u_mask = program.uniform("u_mask")
            u_inverse = program.uniform("u_inverse")
            u_inverseOffset = program.uniform("u_inverseOffset")
            u_horizontal = program.uniform("u_horizontal")
            u_weights = program.uniform("u_weights")
            u_taps = program.uniform("u_taps")
            u_rows = program.uniform("u_rows")
            u_shadow = program.uniform("u_shadow")
            u_shadowOffset = program.uniform("u_shadowOffset")
            u_shadowColor = program.uniform("u_shadowColor")
            u_opacity = program.uniform("u_opacity")
        }

        /// The group's inputs: content and mask on texture units 1 and 2.
        func setInputs(_ g: GroupDraw, content: RenderTarget, mask: RenderTarget?, pixelSize: SIMD2<Int>) {
            epoxy_glUseProgram(program.id)
            epoxy_glUniform2f(u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + GroupPass.contentUnit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), content.texture)
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + GroupPass.maskUnit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), mask?.texture ?? 0)
            epoxy_glUniform1i(u_content, GroupPass.contentUnit)
            epoxy_glUniform1i(u_mask, GroupPass.maskUnit)
            let m = g.transform?.inverse ?? SIMD4(1, 0, 0, 1), t = g.transform?.inverseOffset ?? .zero
            epoxy_glUniform4f(u_inverse, m.x, m.y, m.z, m.w)
            epoxy_glUniform2f(u_inverseOffset, t.x, t.y)
        }
    }

    /// Texture units (composite.glsl's destination uses 0).
    static let contentUnit: GLint = 1, maskUnit: GLint = 2, blurUnit: GLint = 3

    private let shaders: ShaderLibrary
    /// Built variants (at most 2 × 2 × 2 × 2 composites and as many blurs).
    private var programs: [Variant: Program] = [:]
    private var contents: [RenderTarget] = [], masks: [RenderTarget?] = []
    private var blurTargets: (RenderTarget, RenderTarget)?
    /// Scissor a group's blur and composite to where it can change anything (tests turn it off).
    var scissors = true

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        // One of each stage up front, so an error in the group's shader files shows at load time.
        for stage in [Variant.Stage.alpha, .horizontal, .vertical, .composite] {
            let v = Variant(stage, nil, masked: true)
            programs[v] = try Program(shaders, v)
        }
    }

    /// The program for `variant`, built on first use.
    private func program(_ variant: Variant) throws -> Program {
        if let p = programs[variant] { return p }
        let p = try Program(shaders, variant)
        programs[variant] = p
        return p
    }

    deinit {
        for t in contents { t.delete() }
        for t in masks { t?.delete() }
        blurTargets?.0.delete(); blurTargets?.1.delete()
    }

    var files: [String] {
        var out: [String] = []
        for p in programs.values { for f in p.program.files where !out.contains(f) { out.append(f) } }
        return out
    }

    /// The content target of nesting `depth` (and its mask target when `masked`), frame-sized, cleared
    /// transparent. Leaves framebuffer 0 bound.
    /// `clearing`: the box the group's passes read (`clearBox`); nil clears the whole target.
    func targets(depth: Int, size: SIMD2<Int>, masked: Bool, clearing box: SIMD4<Int>? = nil) throws -> (content: RenderTarget, mask: RenderTarget?) {
        // A new frame size: every depth's targets go (only ever at depth 0, before any is in use).
        if let first = contents.first, first.size != size {
            for t in contents { t.delete() }
            for t in masks { t?.delete() }
            contents = []; masks = []
        }
        while contents.count <= depth {
            contents.append(try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "group.content.\(contents.count)"))
            masks.append(nil)
        }
        if masked && masks[depth] == nil { masks[depth] = try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "group.mask.\(depth)") }
        let mask = masked ? masks[depth] : nil
        for t in [contents[depth]] + (mask.map { [$0] } ?? []) {
            t.bind()
            Self.scissor(box, pixelSize: size)
            epoxy_glClearColor(0, 0, 0, 0)
            PassTiming.time(clear: true) { epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
        }
        epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
        return (contents[depth], mask)
    }

    /// Where a group's passes read its content and mask targets: the shadow's alpha pass and the
    /// composite read them at the pixel itself, within their scissor boxes, so clearing only that
    /// box leaves nothing stale that is read (a full-frame RGBA32F clear costs llvmpipe ~2 ms at
    /// 720p, twice for a masked group, for a clock's few hundred pixels). A transformed group reads
    /// through its inverse transform, anywhere: nil (clear everything), as without scissors.
    static func clearBox(_ g: GroupDraw, regions: Regions?) -> SIMD4<Int>? {
        guard g.transform == nil, let r = regions else { return nil }
        return union(r.alpha, r.composite)
    }

    /// The shadow's blur targets for a frame of `size`: four rows a texel (`packedSize`), cleared
    /// when made (no texel of them is ever undefined).
    private func blurTargets(_ size: SIMD2<Int>) throws -> (RenderTarget, RenderTarget) {
        let packed = Self.packedSize(size)
        if let t = blurTargets, t.0.size == packed { return t }
        blurTargets?.0.delete(); blurTargets?.1.delete()
        let made = (try RenderTarget(size: packed, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "group.blur.h"),
                    try RenderTarget(size: packed, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "group.blur.v"))
        for t in [made.0, made.1] {
            t.bind()
            epoxy_glClearColor(0, 0, 0, 0)
            epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        blurTargets = made
        return made
    }

    /// The blur targets' size for a frame of `size`: every column, a texel per four rows (channel c
    /// of packed row j holds row 4j + c; group-packing.glsl's packedTexel). Each of the blur's taps
    /// then fetches four rows' values: a quarter of the fetches that bound it on llvmpipe.
    static func packedSize(_ size: SIMD2<Int>) -> SIMD2<Int> { SIMD2(size.x, (size.y + 3) / 4) }

    /// A box of rows in pixels as the packed rows that hold them ([x0, y0, x1, y1), y down).
    static func packed(_ box: SIMD4<Int>?) -> SIMD4<Int>? {
        box.map { SIMD4($0.x, $0.y >> 2, $0.z, ($0.w + 3) >> 2) }
    }

    /// Blurs the group's shadow (if it has one), then calls `bindParent` (which binds the target below
    /// the group with source-over blending and the full-screen vertex array) and composites the group there.
    func draw(_ g: GroupDraw, content: RenderTarget, mask: RenderTarget?, pixelSize: SIMD2<Int>, bindParent: () -> Void) throws {
        var blurred: RenderTarget?
        let regions = scissors ? Self.regions(g, pixelSize: pixelSize) : nil
        defer { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)) }
        if let shadow = g.shadow {
            let (h, v) = try blurTargets(pixelSize)
            epoxy_glDisable(GLenum(GL_BLEND))
            let alpha = try program(Variant(.alpha, g, masked: mask != nil))
            let horizontal = try program(Variant(.horizontal, g, masked: mask != nil))
            let vertical = try program(Variant(.vertical, g, masked: mask != nil))
            // The masked alpha once per pixel into v (every texel the horizontal taps read), then
            // v → h along rows, h → v along columns; four rows a texel, scissored to the packed rows
            // that hold each pass's box.
            let packedSize = Self.packedSize(pixelSize)
            v.bind()
            Self.scissor(Self.packed(regions?.alpha), pixelSize: packedSize)
            alpha.setInputs(g, content: content, mask: mask, pixelSize: pixelSize)
            epoxy_glUniform2i(alpha.u_rows, GLint(regions?.alpha.y ?? 0), GLint(regions?.alpha.w ?? pixelSize.y))
            PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
            for (program, target, weights, source, region) in [(horizontal, h, shadow.horizontalWeights, v, regions?.horizontal),
                                                               (vertical, v, shadow.verticalWeights, h, regions?.vertical)] {
                target.bind()
                Self.scissor(Self.packed(region), pixelSize: packedSize)
                program.setInputs(g, content: content, mask: mask, pixelSize: pixelSize)
                epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.blurUnit))
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), source.texture)
                epoxy_glUniform1i(program.u_horizontal, Self.blurUnit)
                let taps = min(weights.count, ShadowDraw.maximumTaps + 1)
                weights.withUnsafeBufferPointer { epoxy_glUniform1fv(program.u_weights, GLsizei(taps), $0.baseAddress) }
                epoxy_glUniform1i(program.u_taps, GLint(taps - 1))
                PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
            }
            blurred = v
        }
        bindParent()
        Self.scissor(regions?.composite, pixelSize: pixelSize)
        let p = try program(Variant(.composite, g, masked: mask != nil))
        p.setInputs(g, content: content, mask: mask, pixelSize: pixelSize)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.blurUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), blurred?.texture ?? 0)
        epoxy_glUniform1i(p.u_shadow, Self.blurUnit)
        let shadow = g.shadow
        epoxy_glUniform2i(p.u_shadowOffset, shadow?.offset.x ?? 0, shadow?.offset.y ?? 0)
        let c = shadow?.color ?? .zero
        epoxy_glUniform4f(p.u_shadowColor, c.x, c.y, c.z, c.w)
        epoxy_glUniform1f(p.u_opacity, g.opacity)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        for unit in [Self.contentUnit, Self.maskUnit, Self.blurUnit] {
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + unit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("drawing a group")
    }
}

// Where a group can change anything. A group of layers with an alpha box (text: its glyph quads),
// or masked by one, has alpha only inside it, so its blur and composite need not cover the frame: on
// llvmpipe two full-frame blur passes of a 96 px clock's shadow cost more than the rest of the frame.
// Each pass is scissored to the pixels whose value can differ from zero, or that a later pass reads,
// so every pixel that matters is computed exactly as before and the rest stay untouched (the
// composite of a transparent pixel adds nothing). A box is [x0, y0, x1, y1), pixel space, y down.
extension GroupPass {
    struct Regions: Equatable {
        var alpha: SIMD4<Int>, horizontal: SIMD4<Int>, vertical: SIMD4<Int>, composite: SIMD4<Int>
    }

    /// Where `draw`'s alpha can be non-zero: its kind's `GLDrawable.alphaBox` (nil: anywhere).
    static func alphaBox(_ draw: any LayerDraw) -> SIMD4<Int>? { (draw as? any GLDrawable)?.alphaBox }

    static func union(_ a: SIMD4<Int>, _ b: SIMD4<Int>) -> SIMD4<Int> {
        SIMD4(min(a.x, b.x), min(a.y, b.y), max(a.z, b.z), max(a.w, b.w))
    }

    static func grown(_ a: SIMD4<Int>, _ d: SIMD2<Int>) -> SIMD4<Int> { SIMD4(a.x - d.x, a.y - d.y, a.z + d.x, a.w + d.y) }

    static func moved(_ a: SIMD4<Int>, _ d: SIMD2<Int>) -> SIMD4<Int> { SIMD4(a.x + d.x, a.y + d.y, a.z + d.x, a.w + d.y) }

    /// The passes' boxes, or nil when the group's alpha may be anywhere (draw everything).
    static func regions(_ g: GroupDraw, pixelSize: SIMD2<Int>) -> Regions? {
        // Content × mask is zero outside the mask's box; an inverted mask keeps the content's.
        var alpha: SIMD4<Int>?
        if let m = g.mask, !g.invertsMask {
            alpha = alphaBox(m)
        } else {
            for layer in g.layers {
                guard let b = alphaBox(layer) else { return nil }
                alpha = alpha.map { union($0, b) } ?? b
            }
        }
        guard let picture = alpha else { return nil }
        let a = g.transform.map { $0.reach(picture) } ?? picture
        let frame = SIMD4(0, 0, pixelSize.x, pixelSize.y)
        func clamped(_ b: SIMD4<Int>) -> SIMD4<Int> {
            SIMD4(max(b.x, frame.x), max(b.y, frame.y), min(b.z, frame.z), min(b.w, frame.w))
        }
        guard let shadow = g.shadow else { return Regions(alpha: clamped(a), horizontal: clamped(a), vertical: clamped(a), composite: clamped(a)) }
        let reach = SIMD2(min(shadow.horizontalWeights.count, ShadowDraw.maximumTaps + 1) - 1,
                          min(shadow.verticalWeights.count, ShadowDraw.maximumTaps + 1) - 1)
        let offset = SIMD2(Int(shadow.offset.x), Int(shadow.offset.y))
        let blurred = grown(a, reach)                           // where the blurred alpha can be non-zero
        let composite = union(blurred, moved(blurred, offset))  // content, or the shadow read at p − offset
        let vertical = union(composite, moved(composite, 0 &- offset))   // every texel the composite reads
        let horizontal = grown(vertical, SIMD2(0, reach.y))     // every texel the vertical pass reads
        let alphaBox = grown(horizontal, SIMD2(reach.x, 0))    // every texel the horizontal pass reads
        return Regions(alpha: clamped(alphaBox), horizontal: clamped(horizontal), vertical: clamped(vertical), composite: clamped(composite))
    }

    /// Scissors to `box` (pixel space, y down), or turns the scissor off for nil.
    static func scissor(_ box: SIMD4<Int>?, pixelSize: SIMD2<Int>) {
        guard let b = box else { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)); return }
        epoxy_glEnable(GLenum(GL_SCISSOR_TEST))
        epoxy_glScissor(GLint(b.x), GLint(pixelSize.y - b.w), GLsizei(max(0, b.z - b.x)), GLsizei(max(0, b.w - b.y)))
    }
}

extension GroupPass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }

    func adopt(_ previous: GroupPass) { scissors = previous.scissors }
}

extension GLRenderer {
    /// Scissor groups of text (and groups masked by text) to their glyphs' reach (the same image;
    /// far cheaper on llvmpipe). Tests turn it off to compare the two.
    public var scissorsGroups: Bool {
        get { pass(GroupPass.self).scissors }
        set { pass(GroupPass.self).scissors = newValue }
    }

    /// A group's pass boxes ([x0, y0, x1, y1), pixel space): horizontal blur, vertical blur, composite.
    public static func groupRegions(_ g: GroupDraw, pixelSize: SIMD2<Int>) -> (horizontal: SIMD4<Int>, vertical: SIMD4<Int>, composite: SIMD4<Int>)? {
        GroupPass.regions(g, pixelSize: pixelSize).map { ($0.horizontal, $0.vertical, $0.composite) }
    }

    /// The box of a draw's glyphs (nil: alpha may be anywhere).
    public static func groupAlphaBox(_ draw: any LayerDraw) -> SIMD4<Int>? { GroupPass.alphaBox(draw) }
}

/// A group composites from its own targets, so it never resolves the frame (canResolveFrame).
extension GroupDraw: GLDrawable {
    typealias Pass = GroupPass

    var planProgram: String { "group.frag" }

    /// Its layers into its content target, its mask into another (one pair per nesting depth),
    /// the shadow's alpha and two blurs (RGBA32F of four rows a texel, shared by every depth), the composite; the blurs and
    /// the composite scissored to the group's reach (GroupPass.regions).
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        let depth = b.depth
        let why = FramePlan.Builder.floatWhy
        let content = b.target("group.content.\(depth)", .rgba32f, .persistent, why: why)
        let maskTarget = mask == nil ? nil : b.target("group.mask.\(depth)", .rgba32f, .persistent, why: why)
        let regions = b.options.scissorsGroups ? GroupPass.regions(self, pixelSize: b.pixelSize) : nil
        let clear = GroupPass.clearBox(self, regions: regions)
        b.pass("clear group content", program: "—", layer: b.layer, reads: [], writes: content, blend: .replace, scissor: clear)
        if let maskTarget {
            b.pass("clear group mask", program: "—", layer: b.layer, reads: [], writes: maskTarget, blend: .replace, scissor: clear)
        }
        b.depth += 1
        for l in layers {
            let first = b.passes.count
            b.plan(l, into: content, resolving: nil)
            // Drawn within the box GroupDraw.draw scissors it to (clipsToGroupBox).
            if let clear, (l as? any GLDrawable)?.clipsToGroupBox == true {
                for i in first..<b.passes.count where b.passes[i].writes == content { b.passes[i].scissor = clear }
            }
        }
        if let mask, let maskTarget { b.plan(mask, into: maskTarget, resolving: nil) }
        b.depth -= 1
        let inputs = [content] + (maskTarget.map { [$0] } ?? [])
        var reads = inputs
        if shadow != nil {
            let why = "the shadow's alpha, four rows a texel: a quarter of the blur's fetches"
            let size = GroupPass.packedSize(b.pixelSize)
            let h = b.target("group.blur.h", .rgba32f, .persistent, size: size, why: why)
            let v = b.target("group.blur.v", .rgba32f, .persistent, size: size, why: why)
            let alpha = GroupPass.Variant(.alpha, self, masked: mask != nil)
            b.pass("group shadow alpha", program: "group-blur.frag" + alpha.planSuffix, layer: b.layer, reads: inputs, writes: v,
                   blend: .replace, scissor: GroupPass.packed(regions?.alpha))
            b.pass("group blur (horizontal)", program: "group-blur.frag", layer: b.layer, reads: [v], writes: h, blend: .replace,
                   scissor: GroupPass.packed(regions?.horizontal))
            b.pass("group blur (vertical)", program: "group-blur.frag", layer: b.layer, reads: [h], writes: v, blend: .replace,
                   scissor: GroupPass.packed(regions?.vertical))
            reads.append(v)
        }
        let composite = GroupPass.Variant(.composite, self, masked: mask != nil)
        b.pass("group composite", program: planProgram + composite.planSuffix, layer: b.layer, reads: reads, writes: target,
               blend: .sourceOver, scissor: regions?.composite)
    }

    /// Where its composite can be non-zero (a group in a group, or a mask, scissors by it).
    var alphaBox: SIMD4<Int>? {
        let huge = 1 << 30
        return GroupPass.regions(self, pixelSize: SIMD2(huge, huge)).map { r in
            SIMD4(max(r.composite.x, 0), max(r.composite.y, 0), r.composite.z, r.composite.w)
        }
    }

    /// Its layers into its own cleared target, its mask into another, then GroupPass blurs the
    /// shadow and composites the group into `parent` (docs/text-and-masks.md).
    func draw(_ pass: GroupPass, in context: GLLayerContext, into parent: RenderTarget) throws {
        let size = context.pixelSize
        let regions = pass.scissors ? GroupPass.regions(self, pixelSize: size) : nil
        let box = GroupPass.clearBox(self, regions: regions)
        let (content, mask) = try pass.targets(depth: context.depth, size: size, masked: self.mask != nil, clearing: box)
        for (index, layer) in layers.enumerated() {
            context.compositing(into: content)
            // Only the box is read: a layer that can be drawn there alone is (a masked mesh
            // under a line of text: a third of the frame's pixels).
            let clipped = box != nil && ((layer as? any GLDrawable)?.clipsToGroupBox ?? false)
            if clipped { GroupPass.scissor(box, pixelSize: size) }
            defer { if clipped { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)) } }
            try context.drawLayer(layer, into: content, clearedTo: index == 0 ? .zero : nil)
        }
        if let m = self.mask, let mask {
            context.compositing(into: mask)
            try context.drawLayer(m, into: mask)
        }
        try pass.draw(self, content: content, mask: mask, pixelSize: size) { context.compositing(into: parent) }
    }
}
