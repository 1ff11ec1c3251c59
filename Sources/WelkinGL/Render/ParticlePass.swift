// ParticlePass: an emitter layer's sprites, one instanced draw per cell (Shaders/sprite.*).
//
// The instances (WelkinCore's SpriteInstance, uploaded as they are) go into one stream buffer,
// orphaned before each upload so the driver never waits for the previous draw to finish reading
// it. Each instance is a four-vertex strip; the vertex shader builds the quad from the instance's
// centre, size and axis. Blending: premultiplied source-over, or (ONE, ONE) for additive layers.
// Programs are specialised per sprite kind (WELKIN_SPRITE_KIND), the generic one built up front so
// shader errors show at load time.

@preconcurrency import CEpoxy
import WelkinCore
import WelkinImage

final class ParticlePass {
    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_blurFraction, u_sprite, u_image: GLint

        init(_ shaders: ShaderLibrary, kind: SpriteKind?) throws {
            var defines: [(name: String, value: String)] = []
            if let kind { defines.append(("WELKIN_SPRITE_KIND", String(kind.code))) }
            program = try ShaderProgram(vertex: ShaderSource(path: shaders.path("sprite.vert"), defines: defines),
                                        fragment: ShaderSource(path: shaders.path("sprite.frag"), defines: defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_blurFraction = program.uniform("u_blurFraction")
            u_sprite = program.uniform("u_sprite")
            u_image = program.uniform("u_image")
        }
    }

    private let shaders: ShaderLibrary
    private let generic: Program
    /// Specialised programs; nil marks one that failed to build (the generic one is used).
    private var specialised: [SpriteKind: Program?] = [:]
    private var vertexArray: GLuint = 0
    private var buffer: GLuint = 0
    /// Sprite images as RGBA32F textures, by path (made from SpriteImages' copy; `forgetTextures`
    /// drops them when that copy changes).
    private var textures: [String: GLuint] = [:]

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        generic = try Program(shaders, kind: nil)
        epoxy_glGenVertexArrays(1, &vertexArray)
        epoxy_glGenBuffers(1, &buffer)
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = GLsizei(MemoryLayout<SpriteInstance>.stride)
        let fields: [(GLuint, GLint, Int)] = [
            (0, 4, MemoryLayout<SpriteInstance>.offset(of: \.color)!),
            (1, 2, MemoryLayout<SpriteInstance>.offset(of: \.center)!),
            (2, 2, MemoryLayout<SpriteInstance>.offset(of: \.size)!),
            (3, 2, MemoryLayout<SpriteInstance>.offset(of: \.axis)!),
        ]
        for (location, components, offset) in fields {
            epoxy_glEnableVertexAttribArray(location)
            epoxy_glVertexAttribPointer(location, components, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                        UnsafeRawPointer(bitPattern: offset))
            epoxy_glVertexAttribDivisor(location, 1)
        }
        epoxy_glBindVertexArray(0)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        try GL.check("creating the particle pass")
    }

    deinit {
        guard GL.hasCurrentContext else { return }
        if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
        if buffer != 0 { epoxy_glDeleteBuffers(1, &buffer) }
        for var t in textures.values { epoxy_glDeleteTextures(1, &t) }
    }

    var files: [String] { generic.program.files }

    private func program(_ kind: SpriteKind) -> Program {
        if let built = specialised[kind] { return built ?? generic }
        let built = try? Program(shaders, kind: kind)
        specialised[kind] = .some(built)
        return built ?? generic
    }

    /// Deletes the textures of `paths` (all of them when nil); the next draw uploads the images again.
    func forgetTextures(_ paths: Set<String>? = nil) {
        for (path, texture) in textures where paths?.contains(path) ?? true {
            var t = texture
            epoxy_glDeleteTextures(1, &t)
            textures[path] = nil
        }
    }

    private func texture(_ path: String) throws -> GLuint {
        if let t = textures[path] { return t }
        let image: SpriteImage
        do { image = try SpriteImages.load(path) } catch { throw GLError("\(error)") }
        var t: GLuint = 0
        epoxy_glGenTextures(1, &t)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), t)
        image.texels.withUnsafeBytes {
            epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(image.width), GLsizei(image.height), 0,
                               GLenum(GL_RGBA), GLenum(GL_FLOAT), $0.baseAddress)
        }
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        textures[path] = t
        try GL.check("uploading the sprite image \(path)")
        return t
    }

    /// Draws every cell's sprites into the bound float target. Leaves blending on with the
    /// layer's blend function; the caller restores its own state.
    func draw(_ p: ParticleDraw, pixelSize: SIMD2<Int>) throws {
        epoxy_glEnable(GLenum(GL_BLEND))
        epoxy_glBlendEquation(GLenum(GL_FUNC_ADD))
        epoxy_glBlendFunc(GLenum(GL_ONE), GLenum(p.additive ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA))
        epoxy_glBindVertexArray(vertexArray)
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        for batch in p.batches where !batch.instances.isEmpty {
            let prog = program(batch.sprite)
            epoxy_glUseProgram(prog.program.id)
            epoxy_glUniform2f(prog.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
            epoxy_glUniform1f(prog.u_blurFraction, batch.blurFraction)
            epoxy_glUniform1i(prog.u_sprite, batch.sprite.code)
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            if batch.sprite == .image, let path = batch.imagePath {
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), try texture(path))
            }
            epoxy_glUniform1i(prog.u_image, 0)
            let bytes = batch.instances.count * MemoryLayout<SpriteInstance>.stride
            // Orphan, then fill: the driver hands out fresh storage instead of waiting.
            epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), bytes, nil, GLenum(GL_STREAM_DRAW))
            batch.instances.withUnsafeBytes {
                epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, bytes, $0.baseAddress)
            }
            epoxy_glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(batch.instances.count))
        }
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try GL.check("drawing particles of layers[\(p.index)]")
    }
}

extension ParticlePass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }

    func forgetImages(_ paths: Set<String>?) { forgetTextures(paths) }
}

/// Sprites touch only their quads: a particle layer never resolves the frame (canResolveFrame).
extension ParticleDraw: GLDrawable {
    typealias Pass = ParticlePass

    func draw(_ pass: ParticlePass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize)
    }
}
