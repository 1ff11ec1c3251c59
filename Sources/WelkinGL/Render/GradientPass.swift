// GradientPass: one full-screen pass per gradient layer (Shaders/gradient.frag).
//
// The uniforms carry GradientDraw's fields under the same names (u_kind, u_origin, …).

import CEpoxy
import WelkinCore

/// Draws `GradientDraw`s into the bound float target with premultiplied source-over blending.
final class GradientPass {
    let program: ShaderProgram
    private let u_pixelSize, u_kind, u_origin, u_vector, u_range, u_stopCount, u_locations, u_colors,
                u_colorSpace, u_opacity: GLint

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("gradient.frag"))
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
    }

    /// Expects the target bound, blending set, and the full-screen vertex array bound.
    func draw(_ g: GradientDraw, pixelSize: SIMD2<Int>) {
        epoxy_glUseProgram(program.id)
        epoxy_glUniform2f(u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1i(u_kind, g.kind.rawValue)
        epoxy_glUniform2f(u_origin, g.origin.x, g.origin.y)
        epoxy_glUniform2f(u_vector, g.vector.x, g.vector.y)
        epoxy_glUniform2f(u_range, g.range.x, g.range.y)
        let count = min(g.stops.locations.count, Gradient.maximumStops)
        epoxy_glUniform1i(u_stopCount, GLint(count))
        g.stops.locations.withUnsafeBufferPointer { epoxy_glUniform1fv(u_locations, GLsizei(count), $0.baseAddress) }
        g.stops.colors.withUnsafeBufferPointer { colors in
            colors.withMemoryRebound(to: Float.self) { epoxy_glUniform4fv(u_colors, GLsizei(count), $0.baseAddress) }
        }
        epoxy_glUniform1i(u_colorSpace, g.stops.space.code)
        epoxy_glUniform1f(u_opacity, g.opacity)
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
