// MeshPass: a mesh gradient layer as MeshDraw's triangles (Shaders/mesh.vert, mesh.frag, mesh.glsl).
//
// Vertices carry pixel position, (u, v) and patch; each patch's 16 colour coefficients are one row
// of an RGBA32F texture, which mesh.vert reads once per vertex (fragments get them as flat inputs:
// on llvmpipe 16 texture fetches per fragment cost more than the whole rest of the frame). Triangles are drawn in MeshDraw's order, so where a mesh folds the later
// triangle wins, as on the CPU. Unless the mesh covers the frame, one full-frame triangle (patch
// −1) is drawn first: the mesh's background, and, as the last pass, the resolve of every pixel.

@preconcurrency import CEpoxy
import WelkinCore

final class MeshPass {
    /// How the layer reaches the picture.
    enum Mode: Hashable {
        /// Into the float target with blending on (opaque meshes: alpha 1 replaces).
        case blend
        /// Into the float target, blending off, compositing over a copy of the target (translucent meshes).
        case overCopy
        /// Into a float target that holds nothing but its clear colour yet (the first layer of the
        /// frame or of a group), blending off, compositing over that colour: no copy, no fetch.
        case overColor
        /// The frame's last pass: composites over the float target and quantises (composite.glsl).
        case resolve
    }

    struct Variant: Hashable {
        var space: ColorSpace
        var smooth: Bool
        var mode: Mode
        /// For the last pass: its constants, and whether the layer is opaque everywhere — constants,
        /// so llvmpipe does not pay for them per fragment.
        var resolve: ResolveVariant? = nil
        var opaque = false
    }

    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_coefficients, u_opacity, u_meshBackground, u_destinationCopy, u_destinationColor, u_channelLow, u_channelHigh: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, _ variant: Variant) throws {
            var defines: [(name: String, value: String)] = [
                ("WELKIN_COLOR_SPACE", String(variant.space.code)), ("WELKIN_MESH_SMOOTH", variant.smooth ? "1" : "0"),
            ]
            defines += variant.resolve?.defines ?? []
            if variant.opaque { defines.append(("WELKIN_OPAQUE", "1")) }
            if variant.mode == .overCopy { defines.append(("WELKIN_MESH_OVER_COPY", "1")) }
            if variant.mode == .overColor { defines.append(("WELKIN_MESH_OVER_COLOR", "1")) }
            program = try ShaderProgram(vertex: ShaderSource(path: shaders.path("mesh.vert"), defines: defines),
                                        fragment: ShaderSource(path: shaders.path("mesh.frag"), defines: defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_coefficients = program.uniform("u_coefficients")
            u_opacity = program.uniform("u_opacity")
            u_meshBackground = program.uniform("u_meshBackground")
            u_channelLow = program.uniform("u_channelLow")
            u_channelHigh = program.uniform("u_channelHigh")
            u_destinationCopy = program.uniform("u_destinationCopy")
            u_destinationColor = program.uniform("u_destinationColor")
            composite = CompositeUniforms(program)
        }
    }

    private let shaders: ShaderLibrary
    private var programs: [Variant: Program] = [:]
    private var vertexArray: GLuint = 0
    /// positions, parameters, patches, indices.
    private var buffers = [GLuint](repeating: 0, count: 4)
    private var coefficientTexture: GLuint = 0
    private var copy: RenderTarget?

    /// Texture units: composite.glsl's destination uses 0.
    static let coefficientUnit: GLint = 1, copyUnit: GLint = 2

    /// Builds one program up front so a broken shader shows at load time; the others on first use.
    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        let first = Variant(space: .srgb, smooth: true, mode: .resolve, resolve: .standard)
        programs[first] = try Program(shaders, first)
        epoxy_glGenVertexArrays(1, &vertexArray)
        epoxy_glGenBuffers(GLsizei(buffers.count), &buffers)
        epoxy_glGenTextures(1, &coefficientTexture)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), coefficientTexture)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        // Attribute layout: 0 position (vec2), 1 parameter (vec2), 2 patch (int).
        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        epoxy_glBindVertexArray(vertexArray)
        for (location, buffer) in buffers.prefix(3).enumerated() {
            epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            epoxy_glEnableVertexAttribArray(GLuint(location))
            if location == 2 {
                epoxy_glVertexAttribIPointer(2, 1, GLenum(GL_INT), 0, nil)
            } else {
                epoxy_glVertexAttribPointer(GLuint(location), 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
            }
        }
        epoxy_glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), buffers[3])
        epoxy_glBindVertexArray(GLuint(previous))
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        try GL.check("creating the mesh pass")
    }

    deinit {
        guard GL.hasCurrentContext else { return }
        epoxy_glDeleteVertexArrays(1, &vertexArray)
        epoxy_glDeleteBuffers(GLsizei(buffers.count), &buffers)
        epoxy_glDeleteTextures(1, &coefficientTexture)
        copy?.delete()
    }

    /// Every file the programs read.
    var files: [String] { programs.values.first?.program.files ?? [] }

    private func program(_ variant: Variant) throws -> Program {
        if let p = programs[variant] { return p }
        let p = try Program(shaders, variant)
        programs[variant] = p
        return p
    }

    /// Draws `m`. As a layer (`resolve` nil) it expects the float target bound and blending set up
    /// for source-over; as the last pass, the RGBA8 target bound and blending off.
    /// `clearedTo`: the colour the bound target holds everywhere when nothing has been drawn into
    /// it yet (GLLayerContext.clearedTo); a translucent mesh then composites over it, not over a copy.
    func draw(_ m: MeshDraw, pixelSize: SIMD2<Int>, resolve: ResolveInput?, clearedTo: SIMD4<Float>? = nil) throws {
        let mode: Mode = resolve != nil ? .resolve : (m.isOpaque ? .blend : clearedTo != nil ? .overColor : .overCopy)
        let p = try program(Variant(space: m.space, smooth: m.smooth, mode: mode,
                                    resolve: resolve.map { ResolveVariant($0) },
                                    opaque: resolve != nil && m.isOpaque && m.coversFrame))
        if mode == .overCopy {
            // The float target as it is before this layer (it is both the read and the draw framebuffer).
            if copy?.size != pixelSize {
                // Making a target binds framebuffer 0 afterwards; put the float target back.
                var target: GLint = 0
                epoxy_glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &target)
                copy?.delete(); copy = nil
                copy = try RenderTarget(size: pixelSize, internalFormat: GL_RGBA32F, type: GL_FLOAT)
                epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(target))
            }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.copyUnit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), copy!.texture)
            epoxy_glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, 0, 0, GLsizei(pixelSize.x), GLsizei(pixelSize.y))
            epoxy_glDisable(GLenum(GL_BLEND))
        }
        if mode == .overColor { epoxy_glDisable(GLenum(GL_BLEND)) }
        upload(m, pixelSize: pixelSize)

        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1f(p.u_opacity, m.opacity)
        epoxy_glUniform4f(p.u_meshBackground, m.background.x, m.background.y, m.background.z, m.background.w)
        let (low, high) = m.channelRange
        epoxy_glUniform3f(p.u_channelLow, low.x, low.y, low.z)
        epoxy_glUniform3f(p.u_channelHigh, high.x, high.y, high.z)
        epoxy_glUniform1i(p.u_coefficients, Self.coefficientUnit)
        epoxy_glUniform1i(p.u_destinationCopy, Self.copyUnit)
        if let c = clearedTo { epoxy_glUniform4f(p.u_destinationColor, c.x, c.y, c.z, c.w) }
        if let resolve { p.composite.set(resolve) }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.coefficientUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), coefficientTexture)

        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        epoxy_glBindVertexArray(vertexArray)
        if !m.coversFrame { PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) } }
        PassTiming.time { epoxy_glDrawElementsBaseVertex(GLenum(GL_TRIANGLES), GLsizei(m.indices.count), GLenum(GL_UNSIGNED_INT), nil, 3) }
        epoxy_glBindVertexArray(GLuint(previous))

        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        if mode == .overCopy {
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.copyUnit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            epoxy_glEnable(GLenum(GL_BLEND))
        }
        if mode == .overColor { epoxy_glEnable(GLenum(GL_BLEND)) }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("drawing a mesh gradient")
    }

    /// Vertex buffers: the full-frame background triangle (vertices 0…2), then the mesh's vertices.
    private func upload(_ m: MeshDraw, pixelSize: SIMD2<Int>) {
        let w = Float(pixelSize.x), h = Float(pixelSize.y)
        let count = m.positions.count + 3
        func fill<T>(_ buffer: GLuint, _ head: [T], _ body: [T]) {
            let stride = MemoryLayout<T>.stride
            epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), count * stride, nil, GLenum(GL_STREAM_DRAW))
            head.withUnsafeBytes { epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, $0.count, $0.baseAddress) }
            body.withUnsafeBytes { epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 3 * stride, $0.count, $0.baseAddress) }
        }
        fill(buffers[0], [SIMD2<Float>(0, 0), SIMD2(2 * w, 0), SIMD2(0, 2 * h)], m.positions)
        fill(buffers[1], [SIMD2<Float>](repeating: .zero, count: 3), m.parameters)
        fill(buffers[2], [Int32](repeating: -1, count: 3), m.patches)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        // The element buffer belongs to the vertex array; bind it there.
        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        epoxy_glBindVertexArray(vertexArray)
        m.indices.withUnsafeBytes {
            epoxy_glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        epoxy_glBindVertexArray(GLuint(previous))

        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.coefficientUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), coefficientTexture)
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        m.coefficients.withUnsafeBytes {
            epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, 16, GLsizei(max(1, m.patchCount)), 0,
                               GLenum(GL_RGBA), GLenum(GL_FLOAT), $0.baseAddress)
        }
    }
}

extension MeshPass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }
}

extension MeshDraw: GLDrawable {
    typealias Pass = MeshPass

    var canResolveFrame: Bool { true }
    var planProgram: String { "mesh.frag" }
    /// Its draw (over the clear colour, over a copy of the target, or blended) writes each pixel
    /// from that pixel alone.
    var clipsToGroupBox: Bool { true }

    /// A translucent mesh as a layer reads a copy of the target below it (WELKIN_MESH_OVER_COPY).
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        guard resolving == nil, !isOpaque else { return b.layerPass("mesh", program: planProgram, into: target, resolving: resolving) }
        if b.holdsOnlyItsClear(target) {
            return b.pass("mesh over the clear colour", program: planProgram, layer: b.layer, reads: [], writes: target, blend: .replace)
        }
        let copy = b.target("mesh.copy", .rgba32f, .frame, why: FramePlan.Builder.floatWhy)
        b.pass("copy of the target below", program: "—", layer: b.layer, reads: [target], writes: copy, blend: .replace)
        b.pass("mesh over the copy", program: planProgram, layer: b.layer, reads: [copy], writes: target, blend: .replace)
    }

    func draw(_ pass: MeshPass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: nil, clearedTo: context.clearedTo)
    }

    func drawResolving(_ pass: MeshPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: resolve)
    }
}
