// TextPass: a text layer's glyphs, one instanced draw of quads on whole pixels (Shaders/text.*).
//
// Each instance is a GlyphQuad as WelkinText lays it out; the fragment shader copies the glyph's
// coverage from the atlas (an R8UI texture, texelFetch: no filtering) and tints it, and blending
// composites glyph after glyph source-over, as the CPU does. Each atlas is uploaded once, when a
// layout first draws, and kept while recent ones are drawn (a clock's label makes a new one a minute).

@preconcurrency import CEpoxy
import WelkinCore
import WelkinText

final class TextPass {
    let program: ShaderProgram
    private let u_pixelSize, u_color, u_atlas: GLint
    private var vertexArray: GLuint = 0
    private var buffer: GLuint = 0
    /// Uploaded atlases by GlyphAtlas.id, with the count of draws at their last use.
    private var atlases: [UInt64: (texture: GLuint, used: Int)] = [:]
    private var uses = 0
    /// How many atlases stay uploaded (the least recently drawn goes first).
    static let atlasCacheLimit = 16

    /// Texture unit of the atlas (composite.glsl's destination uses 0).
    static let atlasUnit: GLint = 1

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("text.vert"), fragment: shaders.source("text.frag"))
        u_pixelSize = program.uniform("u_pixelSize")
        u_color = program.uniform("u_color")
        u_atlas = program.uniform("u_atlas")
        epoxy_glGenVertexArrays(1, &vertexArray)
        epoxy_glGenBuffers(1, &buffer)
        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = GLsizei(MemoryLayout<GlyphQuad>.stride)
        let fields: [(GLuint, Int)] = [
            (0, MemoryLayout<GlyphQuad>.offset(of: \.origin)!),
            (1, MemoryLayout<GlyphQuad>.offset(of: \.size)!),
            (2, MemoryLayout<GlyphQuad>.offset(of: \.atlasOrigin)!),
        ]
        for (location, offset) in fields {
            epoxy_glEnableVertexAttribArray(location)
            epoxy_glVertexAttribIPointer(location, 2, GLenum(GL_INT), stride, UnsafeRawPointer(bitPattern: offset))
            epoxy_glVertexAttribDivisor(location, 1)
        }
        epoxy_glBindVertexArray(GLuint(previous))
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        try GL.check("creating the text pass")
    }

    deinit {
        guard GL.hasCurrentContext else { return }
        if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
        if buffer != 0 { epoxy_glDeleteBuffers(1, &buffer) }
        for var t in atlases.values.map(\.texture) { epoxy_glDeleteTextures(1, &t) }
    }

    var files: [String] { program.files }

    /// Binds `atlas`'s texture to the atlas unit, uploading it the first time.
    private func upload(_ atlas: GlyphAtlas) throws {
        uses += 1
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.atlasUnit))
        if let known = atlases[atlas.id] {
            atlases[atlas.id] = (known.texture, uses)
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), known.texture)
            return
        }
        if atlases.count >= Self.atlasCacheLimit, let oldest = atlases.min(by: { $0.value.used < $1.value.used }) {
            var t = oldest.value.texture
            epoxy_glDeleteTextures(1, &t)
            atlases[oldest.key] = nil
        }
        let limit = GL.integer(GL_MAX_TEXTURE_SIZE)
        guard atlas.width <= limit, atlas.height <= limit else {
            throw GLError("a \(atlas.width)×\(atlas.height) glyph atlas exceeds this GPU's \(limit)-texel textures")
        }
        var texture: GLuint = 0
        epoxy_glGenTextures(1, &texture)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        atlases[atlas.id] = (texture, uses)
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        atlas.pixels.withUnsafeBytes {
            epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8UI, GLsizei(atlas.width), GLsizei(atlas.height), 0,
                               GLenum(GL_RED_INTEGER), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        // Integer textures take no filtering; texelFetch ignores it, but the texture must be complete.
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        try GL.check("uploading a \(atlas.width)×\(atlas.height) glyph atlas")
    }

    /// Draws the glyphs into the bound float target, with the caller's source-over blending.
    func draw(_ t: TextDraw, pixelSize: SIMD2<Int>) throws {
        if let error = t.error { throw error }
        guard let atlas = t.atlas, !t.quads.isEmpty else { return }
        try upload(atlas)
        epoxy_glUseProgram(program.id)
        epoxy_glUniform2f(u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform4f(u_color, t.color.x, t.color.y, t.color.z, t.color.w)
        epoxy_glUniform1i(u_atlas, Self.atlasUnit)
        var previous: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &previous)
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let bytes = t.quads.count * MemoryLayout<GlyphQuad>.stride
        epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), bytes, nil, GLenum(GL_STREAM_DRAW))
        t.quads.withUnsafeBytes { epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, bytes, $0.baseAddress) }
        PassTiming.time { epoxy_glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(t.quads.count)) }
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        epoxy_glBindVertexArray(GLuint(previous))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("drawing text")
    }
}

extension TextPass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }
}

/// Glyphs touch only their quads: a text layer never resolves the frame (canResolveFrame).
extension TextDraw: GLDrawable {
    var planProgram: String { "text.frag" }
    typealias Pass = TextPass

    /// The box holding every glyph quad (nil for a failed layout, drawn as a placeholder).
    var alphaBox: SIMD4<Int>? {
        guard failure == nil, !quads.isEmpty else { return nil }
        var box = SIMD4(Int.max, Int.max, Int.min, Int.min)
        for q in quads {
            box = SIMD4(min(box.x, Int(q.origin.x)), min(box.y, Int(q.origin.y)),
                        max(box.z, Int(q.origin.x) + Int(q.size.x)), max(box.w, Int(q.origin.y) + Int(q.size.y)))
        }
        return box
    }

    func draw(_ pass: TextPass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize)
    }
}
