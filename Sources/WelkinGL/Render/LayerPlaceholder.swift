// LayerPlaceholder: what the GPU draws in place of a layer it cannot draw (Shaders/placeholder.frag).
//
// A broken layer (a shader that does not compile, uniforms that do not fit, an unreadable sprite
// image) must not take the rest of the picture with it: the renderer draws every other layer and
// composites these stripes where the broken one would be, so the window shows which layer is
// missing as well as saying why on the terminal.

@preconcurrency import CEpoxy
import WelkinCore

/// The hatching's pattern, defined here once and passed to placeholder.frag as uniforms.
public enum LayerPlaceholder {
    /// Pixels from one stripe to the next along a row.
    public static let period = 16
    /// Pixels of each stripe along a row (a quarter of the pixels are covered).
    public static let lineWidth = 4
    /// Magenta, the colour renderers use for "missing", at 75 % so the layers below show through;
    /// premultiplied.
    public static let color = SIMD4<Float>(0.75, 0, 0.75, 0.75)

    /// Whether pixel (x, y) (y = 0 the top row) is on a stripe. Mirrors `covers` in placeholder.frag.
    public static func covers(x: Int, y: Int) -> Bool {
        (x + y) % period < lineWidth
    }
}

/// placeholder.frag as a layer (blended into the float target) or as the frame's last pass (resolving).
final class PlaceholderPass {
    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_period, u_lineWidth, u_color: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, resolve: ResolveVariant?) throws {
            program = try .fullScreen(shaders, fragment: "placeholder.frag", resolve: resolve)
            u_pixelSize = program.uniform("u_pixelSize")
            u_period = program.uniform("u_period")
            u_lineWidth = program.uniform("u_lineWidth")
            u_color = program.uniform("u_color")
            composite = CompositeUniforms(program)
        }
    }

    private let programs: ResolveVariants<Program>

    init(shaders: ShaderLibrary) throws {
        programs = try ResolveVariants { try Program(shaders, resolve: $0) }
    }

    var files: [String] { programs.all.first?.program.files ?? [] }

    /// Draws the stripes as a layer (`resolve` nil: the float target bound, blending set) or as
    /// the last pass (the RGBA8 target bound, blending off). Expects the full-screen vertex array bound.
    func draw(pixelSize: SIMD2<Int>, resolve: ResolveInput?) throws {
        let p = try programs[resolve.map { ResolveVariant($0) }]
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1i(p.u_period, GLint(LayerPlaceholder.period))
        epoxy_glUniform1i(p.u_lineWidth, GLint(LayerPlaceholder.lineWidth))
        let c = LayerPlaceholder.color
        epoxy_glUniform4f(p.u_color, c.x, c.y, c.z, c.w)
        if let resolve { p.composite.set(resolve) }
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }
}
