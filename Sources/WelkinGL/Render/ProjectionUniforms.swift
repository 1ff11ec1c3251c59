// SkyProjection as camera.glsl's `u_projection`, for the passes that draw sky-space layers.

@preconcurrency import CEpoxy
import WelkinCore

extension SkyProjection {
    /// Sets `u_projection.*` (or another SkyProjection uniform's fields, `name`) through `uniform`
    /// (a program's location lookup).
    func setUniforms(_ uniform: (String) -> GLint, name struct: String = "u_projection") {
        func v2(_ name: String, _ v: SIMD2<Float>) { epoxy_glUniform2f(uniform(`struct` + "." + name), v.x, v.y) }
        func v3(_ name: String, _ v: SIMD3<Float>) { epoxy_glUniform3f(uniform(`struct` + "." + name), v.x, v.y, v.z) }
        func f(_ name: String, _ v: Float) { epoxy_glUniform1f(uniform(`struct` + "." + name), v) }
        epoxy_glUniform1i(uniform(`struct` + ".kind"), kind.rawValue)
        v2("center", center); v2("scale", scale); f("limit", limit); f("azimuth", azimuth)
        v3("right", right); v3("up", up); v3("forward", forward)
        f("viewAzimuth", viewAzimuth); v2("viewCenter", viewCenter); f("inverseViewDegreesPerPixel", inverseViewDegreesPerPixel)
    }
}
