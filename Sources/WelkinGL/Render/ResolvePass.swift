// ResolvePass: the float target → RGBA8 with the CPU's dither and quantisation (Shaders/resolve.frag).

import CEpoxy

final class ResolvePass {
    let program: ShaderProgram
    private let u_pixelSize, u_source, u_dither: GLint

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("resolve.frag"))
        u_pixelSize = program.uniform("u_pixelSize")
        u_source = program.uniform("u_source")
        u_dither = program.uniform("u_dither")
    }

    /// Expects the RGBA8 target bound, blending off, and the full-screen vertex array bound.
    func draw(source texture: GLuint, pixelSize: SIMD2<Int>, dither: Bool) {
        epoxy_glUseProgram(program.id)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        epoxy_glUniform1i(u_source, 0)
        epoxy_glUniform2f(u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1i(u_dither, dither ? 1 : 0)
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }
}

/// A full-screen pass that writes a constant: the floor a real pass is measured against in benchmarks.
final class BarePass {
    let program: ShaderProgram

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("bare.frag"))
    }

    func draw() {
        epoxy_glUseProgram(program.id)
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
