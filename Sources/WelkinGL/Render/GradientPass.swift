// GradientPass: one full-screen pass per gradient layer (Shaders/gradient.frag).
//
// The uniforms carry GradientDraw's fields under the same names (u_kind, u_origin, …). Programs
// come in variants: specialised to a kind and colour space (constants fold the other branches
// away), and as a layer (blended into the float target) or as the frame's last pass (composites
// and resolves itself, WELKIN_RESOLVE). The generic programs are built up front, so a shader
// error shows at load time; specialised ones are built on first use and fall back to the generic.

import CEpoxy
import WelkinCore

final class GradientPass {
    /// Which program: `kind`/`space` nil means read from the uniform (generic).
    struct Variant: Hashable {
        var kind: GradientDraw.Kind?
        var space: ColorSpace?
        var resolves: Bool
    }

    /// One compiled variant and its uniform locations.
    final class Program {
        let program: ShaderProgram
        let u_pixelSize, u_kind, u_origin, u_vector, u_range, u_stopCount, u_locations, u_colors,
            u_colorSpace, u_opacity: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, _ variant: Variant) throws {
            var defines: [(name: String, value: String)] = []
            if let kind = variant.kind { defines.append(("WELKIN_GRADIENT_KIND", String(kind.rawValue))) }
            if let space = variant.space { defines.append(("WELKIN_COLOR_SPACE", String(space.code))) }
            if variant.resolves { defines.append(("WELKIN_RESOLVE", "1")) }
            program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                        fragment: ShaderSource(path: shaders.path("gradient.frag"), defines: defines))
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
            composite = CompositeUniforms(program)
        }
    }

    private let shaders: ShaderLibrary
    /// Built variants; nil marks a specialised variant that failed (the generic one is used).
    private var programs: [Variant: Program?] = [:]
    /// Specialise programs per kind and colour space (on by default).
    var specializes = true

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        for resolves in [false, true] {
            let generic = Variant(kind: nil, space: nil, resolves: resolves)
            programs[generic] = try Program(shaders, generic)
        }
    }

    /// Every file the programs read.
    var files: [String] { programs.values.compactMap { $0?.program.files }.first ?? [] }

    private func program(_ g: GradientDraw, resolves: Bool) -> Program {
        let generic = Variant(kind: nil, space: nil, resolves: resolves)
        guard specializes else { return programs[generic]!! }
        let variant = Variant(kind: g.kind, space: g.stops.space, resolves: resolves)
        if let built = programs[variant] { return built ?? programs[generic]!! }
        let built = try? Program(shaders, variant)
        programs[variant] = .some(built)
        return built ?? programs[generic]!!
    }

    /// Draws `g`. As a layer (`resolve` nil) it expects the float target bound and blending set;
    /// as the last pass it expects the RGBA8 target bound and blending off. The full-screen vertex
    /// array must be bound.
    func draw(_ g: GradientDraw, pixelSize: SIMD2<Int>, resolve: ResolveInput?) {
        let p = program(g, resolves: resolve != nil)
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1i(p.u_kind, g.kind.rawValue)
        epoxy_glUniform2f(p.u_origin, g.origin.x, g.origin.y)
        epoxy_glUniform2f(p.u_vector, g.vector.x, g.vector.y)
        epoxy_glUniform2f(p.u_range, g.range.x, g.range.y)
        let count = min(g.stops.locations.count, Gradient.maximumStops)
        epoxy_glUniform1i(p.u_stopCount, GLint(count))
        g.stops.locations.withUnsafeBufferPointer { epoxy_glUniform1fv(p.u_locations, GLsizei(count), $0.baseAddress) }
        g.stops.colors.withUnsafeBufferPointer { colors in
            colors.withMemoryRebound(to: Float.self) { epoxy_glUniform4fv(p.u_colors, GLsizei(count), $0.baseAddress) }
        }
        epoxy_glUniform1i(p.u_colorSpace, g.stops.space.code)
        epoxy_glUniform1f(p.u_opacity, g.opacity)
        if let resolve { p.composite.set(resolve) }
        epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
