// RenderTarget: a texture with a framebuffer object around it.

@preconcurrency import CEpoxy

/// An offscreen colour target of one size and format, owned until `delete()`.
final class RenderTarget {
    private(set) var texture: GLuint = 0
    private(set) var framebuffer: GLuint = 0
    /// A stencil buffer (DEPTH24_STENCIL8; the depth is not used), 0: none.
    private(set) var stencil: GLuint = 0
    let size: SIMD2<Int>
    let internalFormat: Int32
    /// The target's key in the frame plan (FramePlan.Target.key), for PassTiming; nil: its format and size.
    let label: String?

    /// The label of each framebuffer made (PassTiming sees only the bound name).
    nonisolated(unsafe) private static var labels: [GLuint: String] = [:]

    /// `internalFormat` e.g. GL_RGBA32F or GL_RGBA8; `type` the matching pixel type for allocation.
    /// `stencil`: with a stencil buffer (the accumulation's: layers under an opaque cloud deck are
    /// left undrawn there, GLRenderer's cover).
    init(size: SIMD2<Int>, internalFormat: Int32, type: Int32, label: String? = nil, stencil withStencil: Bool = false) throws {
        self.size = size
        self.internalFormat = internalFormat
        self.label = label
        epoxy_glGenTextures(1, &texture)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(size.x), GLsizei(size.y), 0,
                           GLenum(GL_RGBA), GLenum(type), nil)
        // texelFetch needs no filtering, but a mipmapping min filter would leave the texture incomplete.
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glGenFramebuffers(1, &framebuffer)
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        epoxy_glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        if withStencil {
            epoxy_glGenRenderbuffers(1, &stencil)
            epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencil)
            epoxy_glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(size.x), GLsizei(size.y))
            epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), 0)
            epoxy_glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), stencil)
        }
        let status = epoxy_glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        do {
            try GL.check("creating a \(size.x)×\(size.y) render target")
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                throw GLError("a \(size.x)×\(size.y) render target is incomplete (status 0x\(String(status, radix: 16)))")
            }
        } catch {
            delete()
            throw error
        }
        Self.labels[framebuffer] = label ?? "\(Self.formatName(internalFormat)) \(size.x)×\(size.y)"
    }

    static func formatName(_ f: Int32) -> String {
        switch f {
        case GL_RGBA32F: "RGBA32F"
        case GL_RGBA16F: "RGBA16F"
        case GL_RGBA16: "RGBA16"
        case GL_R32F: "R32F"
        case GL_RGBA8: "RGBA8"
        default: "format 0x\(String(f, radix: 16))"
        }
    }

    /// The label of the framebuffer bound for drawing (`window` for the default one).
    static func label(ofBoundFramebuffer: Void) -> String {
        var id: GLint = 0
        epoxy_glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &id)
        return id == 0 ? "window" : labels[GLuint(id)] ?? "framebuffer \(id)"
    }

    /// Binds the framebuffer and sets the viewport to the whole target.
    func bind() {
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        epoxy_glViewport(0, 0, GLsizei(size.x), GLsizei(size.y))
    }

    func delete() {
        guard GL.hasCurrentContext else { framebuffer = 0; texture = 0; stencil = 0; return }
        if framebuffer != 0 { Self.labels[framebuffer] = nil; epoxy_glDeleteFramebuffers(1, &framebuffer); framebuffer = 0 }
        if texture != 0 { epoxy_glDeleteTextures(1, &texture); texture = 0 }
        if stencil != 0 { epoxy_glDeleteRenderbuffers(1, &stencil); stencil = 0 }
    }

    deinit { delete() }
}
