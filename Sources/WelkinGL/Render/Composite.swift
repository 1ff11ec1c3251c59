// Composite: the uniforms of Shaders/composite.glsl, shared by every pass that resolves a frame.

@preconcurrency import CEpoxy
import WelkinCore

/// What a frame's last pass composites over, and how it quantises.
struct ResolveInput {
    /// The float target holding the layers drawn so far; nil when there are none (the background alone).
    var destination: GLuint?
    /// Premultiplied.
    var background: SIMD4<Float>
    var dither: Bool
    /// The output transform before quantising (composite.glsl's u_outputSpace).
    var outputSpace: OutputColorSpace = .srgb
}

/// Uniform locations of composite.glsl's WELKIN_RESOLVE half in one program.
struct CompositeUniforms {
    private let u_destination, u_readsDestination, u_background, u_dither, u_outputSpace: GLint

    init(_ program: ShaderProgram) {
        u_destination = program.uniform("u_destination")
        u_readsDestination = program.uniform("u_readsDestination")
        u_background = program.uniform("u_background")
        u_dither = program.uniform("u_dither")
        u_outputSpace = program.uniform("u_outputSpace")
    }

    /// Sets the uniforms and binds the destination to texture unit 0. The program must be in use.
    func set(_ input: ResolveInput) {
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), input.destination ?? 0)
        epoxy_glUniform1i(u_destination, 0)
        epoxy_glUniform1i(u_readsDestination, input.destination == nil ? 0 : 1)
        let b = input.background
        epoxy_glUniform4f(u_background, b.x, b.y, b.z, b.w)
        epoxy_glUniform1i(u_dither, input.dither ? 1 : 0)
        epoxy_glUniform1i(u_outputSpace, input.outputSpace.code)
    }
}

extension ShaderProgram {
    /// Welkin's full-screen triangle with the library's `fragment`, built as a layer pass or, with
    /// `resolves`, as the frame's last pass (WELKIN_RESOLVE: composite.glsl composites and quantises).
    static func fullScreen(_ shaders: ShaderLibrary, fragment: String, resolves: Bool) throws -> ShaderProgram {
        try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                          fragment: ShaderSource(path: shaders.path(fragment), defines: resolves ? [("WELKIN_RESOLVE", "1")] : []))
    }
}

/// resolve.frag: quantises the float target when the last layer cannot resolve itself, or when
/// a frame has no layers; built a second time with WELKIN_QUANTIZE_16 for 16-bit frames.
final class ResolvePass {
    let program: ShaderProgram
    /// The same pass quantising to 16 bits, into an RGBA16 target (`GLRenderer.render16`).
    let program16: ShaderProgram
    private let u_pixelSize, u_pixelSize16: GLint
    private let composite, composite16: CompositeUniforms

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("resolve.frag"))
        program16 = try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                      fragment: ShaderSource(path: shaders.path("resolve.frag"), defines: [("WELKIN_QUANTIZE_16", "1")]))
        u_pixelSize = program.uniform("u_pixelSize")
        u_pixelSize16 = program16.uniform("u_pixelSize")
        composite = CompositeUniforms(program)
        composite16 = CompositeUniforms(program16)
    }

    /// Expects the RGBA8 target (RGBA16 with `depth16`) bound, blending off, and the full-screen
    /// vertex array bound.
    func draw(_ input: ResolveInput, pixelSize: SIMD2<Int>, depth16: Bool = false) {
        epoxy_glUseProgram(depth16 ? program16.id : program.id)
        epoxy_glUniform2f(depth16 ? u_pixelSize16 : u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        (depth16 ? composite16 : composite).set(input)
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}

/// A full-screen pass that writes a per-pixel value and nothing more: the floor a real pass is
/// measured against in benchmarks (see Shaders/bare.frag for why it is not a constant).
final class BarePass {
    let program: ShaderProgram
    private let u_invSize: GLint

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("bare.frag"))
        u_invSize = program.uniform("u_invSize")
    }

    /// Expects the RGBA8 target bound, blending off, and the full-screen vertex array bound.
    func draw(pixelSize: SIMD2<Int>) {
        epoxy_glUseProgram(program.id)
        epoxy_glUniform2f(u_invSize, 1 / Float(pixelSize.x), 1 / Float(pixelSize.y))
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
