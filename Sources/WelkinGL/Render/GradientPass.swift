// GradientPass: one pass per gradient layer.
//
// Radial and angular gradients are full-screen passes (Shaders/gradient.frag) whose uniforms carry
// GradientDraw's fields under the same names (u_kind, u_origin, …). Linear gradients are drawn as
// band geometry (GradientBands, Shaders/gradient-band.*): the colour is affine between stops, so
// the rasteriser interpolates it and the fragment shader barely works. Programs come in variants:
// specialised to a kind, colour space, stop count and resolve input (constants fold the other
// branches away; llvmpipe otherwise runs them all), and as a layer (blended into the float
// target) or as the frame's last pass (composites and resolves itself, WELKIN_RESOLVE). The
// generic programs are built up front, so a shader error shows at load time; specialised ones are
// built on first use and fall back to the generic. With `specializes` off every gradient uses the
// generic full-screen programs (the plain way the parity tests also check).

@preconcurrency import CEpoxy
import WelkinCore

final class GradientPass {
    /// Which program: nil fields mean read from the uniform (generic).
    struct Variant: Hashable {
        var kind: GradientDraw.Kind?
        var space: ColorSpace?
        /// As the frame's last pass: its constants (nil: a layer).
        var resolve: ResolveVariant?
        /// Fixed stop count (radial and angular), so the stop search unrolls.
        var stopCount: Int? = nil
        /// With stopCount: the stops are evenly spaced (WELKIN_STOPS_EVEN: the stop found directly).
        var evenStops = false
        /// A linear gradient drawn as band geometry (gradient-band.vert/.frag).
        var band = false
        /// Bands test each fragment's t (more than one band on the frame).
        var bandTest = false
        /// For the last pass: the layer is opaque everywhere (WELKIN_OPAQUE).
        var opaque = false

        static func generic(resolve: ResolveVariant?) -> Variant { Variant(kind: nil, space: nil, resolve: resolve) }
    }

    /// One compiled variant and its uniform locations.
    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_kind, u_origin, u_vector, u_range, u_stopCount, u_locations, u_colors,
            u_colorSpace, u_opacity: GLint
        let a_position, a_color, a_band: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, _ variant: Variant) throws {
            var defines: [(name: String, value: String)] = []
            if let kind = variant.kind { defines.append(("WELKIN_GRADIENT_KIND", String(kind.rawValue))) }
            if let space = variant.space { defines.append(("WELKIN_COLOR_SPACE", String(space.code))) }
            if let count = variant.stopCount { defines.append(("WELKIN_STOP_COUNT", String(count))) }
            if variant.stopCount != nil, variant.evenStops { defines.append(("WELKIN_STOPS_EVEN", "1")) }
            if variant.band { defines.append(("WELKIN_BAND_TEST", variant.bandTest ? "1" : "0")) }
            defines += variant.resolve?.defines ?? []
            if variant.opaque { defines.append(("WELKIN_OPAQUE", "1")) }
            let (vertex, fragment) = variant.band ? ("gradient-band.vert", "gradient-band.frag") : ("fullscreen.vert", "gradient.frag")
            program = try ShaderProgram(vertex: shaders.source(vertex),
                                        fragment: ShaderSource(path: shaders.path(fragment), defines: defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_kind = program.uniform("u_kind")
            u_origin = program.uniform("u_origin")
            u_vector = program.uniform("u_vector")
            u_range = program.uniform("u_range")
            u_stopCount = program.uniform("u_stopCount")
            u_locations = program.uniform("u_locations")
            u_colors = program.uniform("u_colors")
            u_colorSpace = program.uniform("u_colorSpace")
            u_opacity = program.uniform("u_opacity")
            a_position = program.attribute("a_position")
            a_color = program.attribute("a_color")
            a_band = program.attribute("a_band")
            composite = CompositeUniforms(program)
        }
    }

    private let shaders: ShaderLibrary
    /// Built variants; nil marks a specialised variant that failed (the generic one is used).
    private var programs: [Variant: Program?] = [:]
    /// Specialise programs per kind, colour space, stop count and resolve input, and draw linear
    /// gradients as bands (on by default; off draws everything with the generic programs).
    var specializes = true
    /// Draw consecutive gradient layers as one GradientStack pass (with `specializes` only).
    var fusesGradients = true
    /// Built stack programs; nil marks one that failed.
    var stackPrograms: [StackVariant: StackProgram?] = [:]
    /// The band geometry's vertex array and buffer (made on first use).
    private var bandVertexArray: GLuint = 0
    private var bandBuffer: GLuint = 0
    private var bandBufferCapacity = 0

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        for resolve in [nil, ResolveVariant.standard] {
            let generic = Variant.generic(resolve: resolve)
            programs[generic] = try Program(shaders, generic)
        }
        // The band programs too, so an error in their files shows at load time (and in reloads).
        programs[Self.bandVariant(space: .srgb, test: true, resolve: nil)] = try Program(shaders, Self.bandVariant(space: .srgb, test: true, resolve: nil))
        // And a stack program (gradient-stack.frag) for the same reason.
        let linear = GradientDraw(Gradient(shape: .linear(start: SIMD2(0, 0), end: SIMD2(0, 1)), stops: [GradientStop(color: .black, location: 0), GradientStop(color: .white, location: 1)]),
                                  opacity: 1, sceneColorSpace: .srgb, pixelSize: SIMD2(1, 1), scale: SIMD2(1, 1))
        let probe = StackVariant(GradientStack(layers: [linear, linear]), resolve: nil)
        stackPrograms[probe] = try StackProgram(shaders, probe)
    }

    deinit {
        // Outlived by the context (released first at teardown): its objects went with it.
        guard GL.hasCurrentContext else { return }
        if bandBuffer != 0 { epoxy_glDeleteBuffers(1, &bandBuffer) }
        if bandVertexArray != 0 { epoxy_glDeleteVertexArrays(1, &bandVertexArray) }
    }

    /// Every file the programs read.
    var files: [String] {
        var out: [String] = []
        for case let p? in programs.values { for f in p.program.files where !out.contains(f) { out.append(f) } }
        for case let p? in stackPrograms.values { for f in p.program.files where !out.contains(f) { out.append(f) } }
        return out
    }

    static func bandVariant(space: ColorSpace, test: Bool, resolve: ResolveInput?, opaque: Bool = false) -> Variant {
        Variant(kind: .linear, space: space, resolve: resolve.map { ResolveVariant($0) }, band: true, bandTest: test,
                opaque: resolve != nil && opaque)
    }

    /// Alpha is exactly 1 at every pixel: every stop opaque, full opacity.
    static func isOpaque(_ g: GradientDraw) -> Bool {
        g.opacity == 1 && g.stops.colors.allSatisfy { $0.w == 1 }
    }

    /// The program for `variant`, built on first use; nil if it failed to build (remembered).
    private func built(_ variant: Variant) -> Program? {
        if let cached = programs[variant] { return cached }
        let p = try? Program(shaders, variant)
        programs[variant] = .some(p)
        return p
    }

    /// Draws `g`. As a layer (`resolve` nil) it expects the float target bound and blending set;
    /// as the last pass it expects the RGBA8 target bound and blending off. The full-screen vertex
    /// array must be bound (band drawing binds its own and restores it).
    func draw(_ g: GradientDraw, pixelSize: SIMD2<Int>, resolve: ResolveInput?) throws {
        let generic = Variant.generic(resolve: resolve.map { ResolveVariant($0) })
        guard specializes else { return drawFullScreen(g, try genericProgram(generic), pixelSize: pixelSize, resolve: resolve) }
        if g.kind == .linear {
            let bands = GradientBands(g, pixelSize: pixelSize, premultipliesOpacity: g.stops.space == .srgb)
            if let p = built(Self.bandVariant(space: g.stops.space, test: bands.needsTest, resolve: resolve, opaque: Self.isOpaque(g))) {
                return drawBands(bands, g, p, pixelSize: pixelSize, resolve: resolve)
            }
        }
        let count = min(g.stops.locations.count, Gradient.maximumStops)
        var variant = Variant(kind: g.kind, space: g.stops.space, resolve: generic.resolve, stopCount: count,
                              opaque: resolve != nil && Self.isOpaque(g))
        variant.evenStops = count == g.stops.locations.count && g.stops.evenlySpaced
        drawFullScreen(g, try built(variant) ?? genericProgram(generic), pixelSize: pixelSize, resolve: resolve)
    }

    /// The generic program for a resolve variant (nil: as a layer), built on first use; its
    /// failure is an error (the specialised programs fall back to it, it falls back to nothing).
    private func genericProgram(_ variant: Variant) throws -> Program {
        if let p = programs[variant], let p { return p }
        let p = try Program(shaders, variant)
        programs[variant] = .some(p)
        return p
    }

    private func drawFullScreen(_ g: GradientDraw, _ p: Program, pixelSize: SIMD2<Int>, resolve: ResolveInput?) {
        epoxy_glUseProgram(p.program.id)
        setUniforms(g, p, pixelSize: pixelSize, resolve: resolve)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }

    private func setUniforms(_ g: GradientDraw, _ p: Program, pixelSize: SIMD2<Int>, resolve: ResolveInput?) {
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1i(p.u_kind, g.kind.rawValue)
        epoxy_glUniform2f(p.u_origin, g.origin.x, g.origin.y)
        epoxy_glUniform2f(p.u_vector, g.vector.x, g.vector.y)
        epoxy_glUniform2f(p.u_range, g.range.x, g.range.y)
        let count = min(g.stops.locations.count, Gradient.maximumStops)
        epoxy_glUniform1i(p.u_stopCount, GLint(count))
        if p.u_locations >= 0 {
            g.stops.locations.withUnsafeBufferPointer { epoxy_glUniform1fv(p.u_locations, GLsizei(count), $0.baseAddress) }
        }
        if p.u_colors >= 0 {
            g.stops.colors.withUnsafeBufferPointer { colors in
                colors.withMemoryRebound(to: Float.self) { epoxy_glUniform4fv(p.u_colors, GLsizei(count), $0.baseAddress) }
            }
        }
        epoxy_glUniform1i(p.u_colorSpace, g.stops.space.code)
        epoxy_glUniform1f(p.u_opacity, g.opacity)
        if let resolve { p.composite.set(resolve) }
    }

    private func drawBands(_ bands: GradientBands, _ g: GradientDraw, _ p: Program, pixelSize: SIMD2<Int>, resolve: ResolveInput?) {
        guard !bands.vertices.isEmpty else { return }
        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        if bandVertexArray == 0 {
            epoxy_glGenVertexArrays(1, &bandVertexArray)
            epoxy_glGenBuffers(1, &bandBuffer)
        }
        epoxy_glBindVertexArray(bandVertexArray)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), bandBuffer)
        let stride = MemoryLayout<GradientBands.Vertex>.stride
        let bytes = stride * bands.vertices.count
        bands.vertices.withUnsafeBytes { raw in
            if bytes > bandBufferCapacity {
                epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), GLsizeiptr(bytes), raw.baseAddress, GLenum(GL_STREAM_DRAW))
                bandBufferCapacity = bytes
            } else {
                epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, GLsizeiptr(bytes), raw.baseAddress)
            }
        }
        for (location, offset, count) in [(p.a_position, 0, 2), (p.a_color, 2, 4), (p.a_band, 6, 2)] where location >= 0 {
            epoxy_glEnableVertexAttribArray(GLuint(location))
            epoxy_glVertexAttribPointer(GLuint(location), GLint(count), GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                                        UnsafeRawPointer(bitPattern: offset * MemoryLayout<Float>.stride))
        }
        epoxy_glUseProgram(p.program.id)
        setUniforms(g, p, pixelSize: pixelSize, resolve: resolve)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(bands.vertices.count)) }
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        epoxy_glBindVertexArray(GLuint(previous))
    }
}

extension GradientPass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }

    func adopt(_ previous: GradientPass) {
        specializes = previous.specializes
        fusesGradients = previous.fusesGradients
    }
}

extension GradientDraw: GLDrawable {
    typealias Pass = GradientPass

    var canResolveFrame: Bool { true }
    var planProgram: String { "gradient.frag" }
    /// One blended pass, each pixel from its own position.
    var clipsToGroupBox: Bool { true }

    /// A radial (or elliptical) gradient whose last stop is transparent adds nothing beyond its end
    /// radius (t ≥ 1 there, clamped to the last stop: exactly zero, so source-over leaves the pixel
    /// as it was): its box, with 2 px to spare for rounding. Nil for every other gradient.
    var alphaBox: SIMD4<Int>? {
        guard kind == .radial, range.y > 0, let last = stops.colors.last, last == .zero,
              vector.x > 0, vector.y > 0 else { return nil }
        let reach = range.x + 1 / range.y
        let half = SIMD2<Float>(reach / vector.x, reach / vector.y) + 2
        let low = (origin - half).rounded(.down), high = (origin + half).rounded(.up)
        let limit: Float = 16_777_216
        guard low.x.magnitude < limit, low.y.magnitude < limit, high.x.magnitude < limit, high.y.magnitude < limit else { return nil }
        return SIMD4(Int(low.x), Int(low.y), Int(high.x), Int(high.y))
    }

    /// Linear gradients are band geometry when programs are specialised; a gradient with an alpha
    /// box is drawn within it.
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        let program = kind == .linear && b.options.specializesPrograms ? "gradient-band.frag" : "gradient.frag"
        b.layerPass("\(kind) gradient", program: program, into: target, resolving: resolving,
                    scissor: Self.clamped(alphaBox, pixelSize: b.pixelSize))
    }

    func draw(_ pass: GradientPass, in context: GLLayerContext, into target: RenderTarget) throws {
        // Within its box, unless a group has already scissored it to the group's.
        let box = Self.clamped(alphaBox, pixelSize: context.pixelSize)
        let own = box != nil && epoxy_glIsEnabled(GLenum(GL_SCISSOR_TEST)) == GLboolean(GL_FALSE)
        if own { GroupPass.scissor(box, pixelSize: context.pixelSize) }
        defer { if own { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)) } }
        try pass.draw(self, pixelSize: context.pixelSize, resolve: nil)
    }

    func drawResolving(_ pass: GradientPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: resolve)
    }
}

extension GLRenderer {
    /// Build gradient programs specialised per kind and colour space (the same result; faster on
    /// software rasterisers, which run every branch of a generic shader).
    public var specializesPrograms: Bool {
        get { pass(GradientPass.self).specializes }
        set { pass(GradientPass.self).specializes = newValue }
    }

    /// Draw consecutive gradient layers in one pass (GradientStack), evaluated and composited in
    /// registers (with `specializesPrograms`; the same picture within compare's tolerance).
    public var fusesGradients: Bool {
        get { pass(GradientPass.self).fusesGradients }
        set { pass(GradientPass.self).fusesGradients = newValue }
    }
}

/// Consecutive top-level gradient layers drawn in one pass (Shaders/gradient-stack.frag): each
/// evaluated and composited over the ones below in registers, instead of one float-blended
/// full-screen pass each. GradientPass.fusing makes it; the CPU draws the same layers one by one
/// with the same maths (source-over is the same sum, grouped differently: within compare's tolerance).
struct GradientStack: LayerDraw {
    /// Bottom first; at least two, at most `GradientPass.stackLayerLimit`.
    var layers: [GradientDraw]

    func isEqual(to other: any LayerDraw) -> Bool {
        (other as? GradientStack)?.layers == layers
    }
}

extension GradientPass {
    /// The most layers one stack program draws (a longer run is split).
    static let stackLayerLimit = 8
    /// The most stops of all a stack's layers together: as many as one layer may have, so a stack's
    /// uniform arrays are no larger than a generic single-layer program's (GL 3.3 promises 1024
    /// fragment uniform components).
    static let stackStopLimit = Gradient.maximumStops

    /// One stack program: each layer's kind, colour space and stop count, and the resolve input.
    struct StackVariant: Hashable {
        var layers: [Layer]
        var resolve: ResolveVariant?

        struct Layer: Hashable {
            var kind: GradientDraw.Kind
            var space: ColorSpace
            var stopCount: Int
            /// The stops are evenly spaced (ResolvedStops.evenlySpaced): found directly.
            var even: Bool
        }

        init(_ stack: GradientStack, resolve: ResolveInput?) {
            layers = stack.layers.map { Layer(kind: $0.kind, space: $0.stops.space, stopCount: $0.stops.locations.count, even: $0.stops.evenlySpaced) }
            self.resolve = resolve.map { ResolveVariant($0) }
        }

        /// WELKIN_STACK_LAYERS: one stackLayer call per layer with its constants as literals.
        var defines: [(name: String, value: String)] {
            var first = 0, calls: [String] = []
            for (slot, l) in layers.enumerated() {
                calls.append("stack = stackLayer(p, stack, \(slot), \(l.kind.rawValue), \(l.space.code), \(l.stopCount), \(first), \(l.even ? 1 : 0));")
                first += l.stopCount
            }
            var out: [(name: String, value: String)] = [("WELKIN_GRADIENT_STACK", String(layers.count)),
                                                        ("WELKIN_STACK_STOPS", String(first)),
                                                        ("WELKIN_STACK_LAYERS", calls.joined(separator: " "))]
            return out + (resolve?.defines ?? [])
        }
    }

    /// One built stack program and its uniform locations.
    final class StackProgram {
        let program: ShaderProgram
        let u_pixelSize, u_origins, u_vectors, u_ranges, u_opacities, u_stackLocations, u_stackColors: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, _ variant: StackVariant) throws {
            program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                        fragment: ShaderSource(path: shaders.path("gradient-stack.frag"), defines: variant.defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_origins = program.uniform("u_origins")
            u_vectors = program.uniform("u_vectors")
            u_ranges = program.uniform("u_ranges")
            u_opacities = program.uniform("u_opacities")
            u_stackLocations = program.uniform("u_stackLocations")
            u_stackColors = program.uniform("u_stackColors")
            composite = CompositeUniforms(program)
        }
    }

    /// Replaces each run of two or more consecutive gradient layers with a GradientStack (only
    /// when programs are specialised: the plain way draws every layer on its own).
    func fusing(_ layers: [(draw: any LayerDraw, position: Int)]) -> [(draw: any LayerDraw, position: Int)] {
        Self.fusing(layers, enabled: specializes && fusesGradients)
    }

    /// `fusing` without a pass (FramePlan): `enabled` is `specializes && fusesGradients`.
    static func fusing(_ layers: [(draw: any LayerDraw, position: Int)], enabled: Bool) -> [(draw: any LayerDraw, position: Int)] {
        guard enabled else { return layers }
        var out: [(draw: any LayerDraw, position: Int)] = []
        var run: [GradientDraw] = [], runStart = 0, runStops = 0
        func flush() {
            if run.count == 1 { out.append((run[0], runStart)) }
            if run.count > 1 { out.append((GradientStack(layers: run), runStart)) }
            run = []
            runStops = 0
        }
        for (draw, position) in layers {
            // Linear gradients stay band geometry (cheaper on their own than evaluated per fragment).
            guard let g = draw as? GradientDraw, g.kind != .linear else { flush(); out.append((draw, position)); continue }
            let stops = g.stops.locations.count
            if run.count == Self.stackLayerLimit || runStops + stops > Self.stackStopLimit { flush() }
            if run.isEmpty { runStart = position }
            run.append(g)
            runStops += stops
        }
        flush()
        return out
    }

    /// Draws `stack` like `draw(_:pixelSize:resolve:)` draws one gradient; layer by layer if its
    /// program does not build.
    func draw(_ stack: GradientStack, pixelSize: SIMD2<Int>, resolve: ResolveInput?) throws {
        let variant = StackVariant(stack, resolve: resolve)
        let cached = stackPrograms[variant]
        let built: StackProgram? = cached ?? {
            let p = try? StackProgram(shaders, variant)
            stackPrograms[variant] = .some(p)
            return p
        }()
        guard let p = built else {
            // As a layer: one by one into the bound float target, as without fusing. Resolving, the
            // layers below the last are not in the float target: the frame reports the failure.
            guard resolve == nil else { throw GLError("a stack of \(stack.layers.count) gradient layers: gradient-stack.frag did not build") }
            for g in stack.layers { try draw(g, pixelSize: pixelSize, resolve: nil) }
            return
        }
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        var origins: [Float] = [], vectors: [Float] = [], ranges: [Float] = [], opacities: [Float] = []
        var locations: [Float] = [], colors: [Float] = []
        for g in stack.layers {
            origins += [g.origin.x, g.origin.y]
            vectors += [g.vector.x, g.vector.y]
            ranges += [g.range.x, g.range.y]
            opacities.append(g.opacity)
            locations += g.stops.locations
            for c in g.stops.colors { colors += [c.x, c.y, c.z, c.w] }
        }
        let n = GLsizei(stack.layers.count)
        epoxy_glUniform2fv(p.u_origins, n, origins)
        epoxy_glUniform2fv(p.u_vectors, n, vectors)
        epoxy_glUniform2fv(p.u_ranges, n, ranges)
        epoxy_glUniform1fv(p.u_opacities, n, opacities)
        epoxy_glUniform1fv(p.u_stackLocations, GLsizei(locations.count), locations)
        epoxy_glUniform4fv(p.u_stackColors, GLsizei(locations.count), colors)
        if let resolve { p.composite.set(resolve) }
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }
}

extension GradientStack: GLDrawable {
    typealias Pass = GradientPass

    var canResolveFrame: Bool { true }
    var planProgram: String { "gradient-stack.frag" }
    var planName: String { "\(layers.count) gradients in one pass" }

    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        b.layerPass(planName, program: planProgram, into: target, resolving: resolving)
    }

    func draw(_ pass: GradientPass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: nil)
    }

    func drawResolving(_ pass: GradientPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: resolve)
    }
}
