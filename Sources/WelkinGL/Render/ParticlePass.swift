// ParticlePass: an emitter layer's sprites, one instanced draw per cell (Shaders/sprite.*).
//
// The instances (WelkinCore's SpriteInstance, uploaded as they are) go into one stream buffer,
// orphaned before each upload so the driver never waits for the previous draw to finish reading
// it. Each instance is a four-vertex strip; the vertex shader builds the quad from the instance's
// centre, size and axis. Blending: premultiplied source-over, or (ONE, ONE) for additive layers.
// Programs are specialised per sprite kind (WELKIN_SPRITE_KIND), the generic one built up front so
// shader errors show at load time.
//
// A batch whose sprites all fit in a point is drawn as GL_POINTS instead (one vertex per sprite,
// WELKIN_SPRITE_POINTS): the same pixels and the same image, at a fraction of the cost on llvmpipe,
// which sets up two triangles per quad (a million 8 pt dots: see docs/benchmarks.md). GL discards a
// point whose centre is outside the clip volume, so points are drawn into a viewport grown by
// the largest point's half size on every side (the framebuffer still holds only the frame): a
// sprite centred just off the frame still shows its part, as its quad would.

@preconcurrency import CEpoxy
import WelkinCore
import WelkinImage

final class ParticlePass {
    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_blurFraction, u_sprite, u_image, u_pointMargin: GLint

        init(_ shaders: ShaderLibrary, kind: SpriteKind?, points: Bool = false) throws {
            var defines: [(name: String, value: String)] = []
            if let kind { defines.append(("WELKIN_SPRITE_KIND", String(kind.code))) }
            if points { defines.append(("WELKIN_SPRITE_POINTS", "1")) }
            program = try ShaderProgram(vertex: ShaderSource(path: shaders.path("sprite.vert"), defines: defines),
                                        fragment: ShaderSource(path: shaders.path("sprite.frag"), defines: defines))
            u_pixelSize = program.uniform("u_pixelSize")
            u_blurFraction = program.uniform("u_blurFraction")
            u_sprite = program.uniform("u_sprite")
            u_image = program.uniform("u_image")
            u_pointMargin = program.uniform("u_pointMargin")
        }
    }

    private let shaders: ShaderLibrary
    private let generic: Program
    /// Specialised programs; nil marks one that failed to build (the generic one is used).
    private var specialised: [SpriteKind: Program?] = [:]
    /// The point programs, per kind; nil marks one that failed to build (quads are drawn instead).
    private var pointPrograms: [SpriteKind: Program?] = [:]
    /// The largest point size the context draws (GL_POINT_SIZE_RANGE's upper end).
    private let largestPoint: Float
    /// Sprites per draw call and per upload.
    static let chunkInstances = 8_192
    /// Draw batches as points where they fit (tests turn it off to compare with quads).
    var drawsPoints = true
    private var vertexArray: GLuint = 0
    /// The same attributes, one per vertex (for points).
    private var pointArray: GLuint = 0
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
        // The colour in half precision (SpriteInstance.packedColor), the rest in float.
        let fields: [(GLuint, GLint, Int32, Int)] = [
            (0, 4, GL_HALF_FLOAT, MemoryLayout<SpriteInstance>.offset(of: \.packedColor)!),
            (1, 2, GL_FLOAT, MemoryLayout<SpriteInstance>.offset(of: \.center)!),
            (2, 2, GL_FLOAT, MemoryLayout<SpriteInstance>.offset(of: \.size)!),
            (3, 2, GL_FLOAT, MemoryLayout<SpriteInstance>.offset(of: \.axis)!),
        ]
        for (location, components, type, offset) in fields {
            epoxy_glEnableVertexAttribArray(location)
            epoxy_glVertexAttribPointer(location, components, GLenum(type), GLboolean(GL_FALSE), stride,
                                        UnsafeRawPointer(bitPattern: offset))
            epoxy_glVertexAttribDivisor(location, 1)
        }
        epoxy_glGenVertexArrays(1, &pointArray)
        epoxy_glBindVertexArray(pointArray)
        for (location, components, type, offset) in fields {
            epoxy_glEnableVertexAttribArray(location)
            epoxy_glVertexAttribPointer(location, components, GLenum(type), GLboolean(GL_FALSE), stride,
                                        UnsafeRawPointer(bitPattern: offset))
        }
        epoxy_glBindVertexArray(0)
        var range: [GLfloat] = [0, 0]
        epoxy_glGetFloatv(GLenum(GL_POINT_SIZE_RANGE), &range)
        largestPoint = range[1]
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        try GL.check("creating the particle pass")
    }

    deinit {
        guard GL.hasCurrentContext else { return }
        if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
        if pointArray != 0 { epoxy_glDeleteVertexArrays(1, &pointArray) }
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

    private func pointProgram(_ kind: SpriteKind) -> Program? {
        if let built = pointPrograms[kind] { return built }
        let built = try? Program(shaders, kind: kind, points: true)
        pointPrograms[kind] = .some(built)
        return built
    }

    /// The side of the point that holds every sprite of `batch` (sprite.vert's square around the
    /// turned quad), or nil when one does not fit in the largest point with a pixel to spare.
    func pointSide(_ batch: SpriteBatch) -> Float? {
        let limit = largestPoint - 2
        guard drawsPoints, limit > 0 else { return nil }
        var side: Float = 0
        for s in batch.instances {
            let h = SpriteShape.support(batch.sprite, size: s.size, blur: batch.blur(s)) + 0.25
            // |h.x · axis| + |h.y · perp|, perp = (−axis.y, axis.x)
            let box = SIMD2(abs(h.x * s.axis.x) + abs(h.y * s.axis.y), abs(h.x * s.axis.y) + abs(h.y * s.axis.x))
            side = max(side, 2 * max(box.x, box.y))
            if !(side <= limit) { return nil }
        }
        return side
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
            // Both variants of a sprite kind are built the first time either is needed: whether a
            // batch fits in points changes from frame to frame (sizes, blur, spin), and a program
            // compiled late, minutes into a session, is a stall and memory that only then appears.
            if drawsPoints { _ = program(batch.sprite); _ = pointProgram(batch.sprite) }
            let side = pointSide(batch)
            let points = side.flatMap { _ in pointProgram(batch.sprite) }
            let prog = points ?? program(batch.sprite)
            epoxy_glBindVertexArray(points != nil ? pointArray : vertexArray)
            epoxy_glUseProgram(prog.program.id)
            epoxy_glUniform2f(prog.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
            epoxy_glUniform1f(prog.u_blurFraction, batch.blurFraction)
            epoxy_glUniform1i(prog.u_sprite, batch.sprite.code)
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            if batch.sprite == .image, let path = batch.imagePath {
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), try texture(path))
            }
            epoxy_glUniform1i(prog.u_image, 0)
            if points != nil, let side {
                // The viewport grown by the largest half point (and a pixel) on every side: no point
                // that reaches into the frame has its centre outside the clip volume.
                let margin = (side / 2).rounded(.up) + 1
                epoxy_glUniform1f(prog.u_pointMargin, margin)
                epoxy_glEnable(GLenum(GL_PROGRAM_POINT_SIZE))
                let m = GLint(margin)
                epoxy_glViewport(-m, -m, GLsizei(pixelSize.x) + 2 * m, GLsizei(pixelSize.y) + 2 * m)
            }
            // In chunks, each in freshly orphaned storage (the driver never waits for a previous
            // draw to finish reading it), at most two in flight: llvmpipe bins every sprite of what
            // it has been given before it rasterises, and a million points in one draw held 255 MB
            // of bins (flushing each chunk: still 255 MB; waiting for the chunk before last, with 8,192 a chunk: 47 MB
            // for the whole frame's draw and readback).
            let stride = MemoryLayout<SpriteInstance>.stride
            var previous: GLsync? = nil
            batch.instances.withUnsafeBytes { all in
                var first = 0
                while first < batch.instances.count {
                    let n = min(Self.chunkInstances, batch.instances.count - first)
                    epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), n * stride, nil, GLenum(GL_STREAM_DRAW))
                    epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, n * stride, all.baseAddress! + first * stride)
                    if points != nil {
                        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_POINTS), 0, GLsizei(n)) }
                    } else {
                        PassTiming.time { epoxy_glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(n)) }
                    }
                    first += n
                    guard first < batch.instances.count else { break }
                    let fence = epoxy_glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
                    if let previous {
                        _ = epoxy_glClientWaitSync(previous, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), GLuint64.max)
                        epoxy_glDeleteSync(previous)
                    } else {
                        epoxy_glFlush()
                    }
                    previous = fence
                }
            }
            if let previous { epoxy_glDeleteSync(previous) }
            if points != nil {
                epoxy_glViewport(0, 0, GLsizei(pixelSize.x), GLsizei(pixelSize.y))
                epoxy_glDisable(GLenum(GL_PROGRAM_POINT_SIZE))
            }
        }
        epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try GL.check("drawing particles of layers[\(p.index)]")
    }
}

extension ParticlePass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }

    func forgetImages(_ paths: Set<String>?) { forgetTextures(paths) }

    func adopt(_ previous: ParticlePass) { drawsPoints = previous.drawsPoints }
}

extension GLRenderer {
    /// Draw particle batches whose sprites fit in a point as GL_POINTS rather than instanced quads
    /// (the same image; far cheaper on llvmpipe). Tests turn it off to compare the two.
    public var drawsSpritesAsPoints: Bool {
        get { pass(ParticlePass.self).drawsPoints }
        set { pass(ParticlePass.self).drawsPoints = newValue }
    }
}

/// Sprites touch only their quads: a particle layer never resolves the frame (canResolveFrame).
extension ParticleDraw: GLDrawable {
    var planProgram: String { "sprite.frag" }
    typealias Pass = ParticlePass

    func draw(_ pass: ParticlePass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize)
    }
}
