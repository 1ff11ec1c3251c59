// User shader layers on the CPU: the reference cannot run arbitrary GLSL, so it refuses them
// with a sentence that says what to do instead.

import WelkinCore

extension ShaderDraw: CPURasterizable {
    func checkSupported() throws {
        throw ReferenceUnsupportedError(message: "layers[\(index)] is a user shader (\(layer.fragmentPath)); the CPU reference cannot run arbitrary GLSL. Render it with 'welkin render' and test it with 'welkin compare --against REF.png'.")
    }

    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster {
        try checkSupported()
        preconditionFailure("checkSupported throws")
    }
}
