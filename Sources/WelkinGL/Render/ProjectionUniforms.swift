// SkyProjection as camera.glsl's `u_projection`, for the passes that draw sky-space layers.

@preconcurrency import CEpoxy
import WelkinCore

extension SkyProjection {
    /// Sets `u_projection.*` (or another SkyProjection uniform's fields, `prefix`) through `uniform`
    /// (a program's location lookup).
    func setUniforms(_ uniform: (String) -> GLint, prefix: String = "u_projection") {
        func v2(_ name: String, _ v: SIMD2<Float>) { epoxy_glUniform2f(uniform(prefix + "." + name), v.x, v.y) }
        func v3(_ name: String, _ v: SIMD3<Float>) { epoxy_glUniform3f(uniform(prefix + "." + name), v.x, v.y, v.z) }
        func f(_ name: String, _ v: Float) { epoxy_glUniform1f(uniform(prefix + "." + name), v) }
        epoxy_glUniform1i(uniform(prefix + ".kind"), kind.rawValue)
        v2("center", center); v2("scale", scale); f("limit", limit); f("azimuth", azimuth)
        v3("right", right); v3("up", up); v3("forward", forward)
        f("viewAzimuth", viewAzimuth); v2("viewCenter", viewCenter); f("inverseViewDegreesPerPixel", inverseViewDegreesPerPixel)
    }
}
