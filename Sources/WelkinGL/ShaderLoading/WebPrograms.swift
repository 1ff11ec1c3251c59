// WebPrograms: the GLSL programs `welkin export-web` translates for WebGL2, made exactly as
// GLRenderer makes them (the same files, includes, prelude and variant defines), with no GL context.
//
// A page draws each layer into a float target the way GLRenderer does when it does not fuse the
// last layer: layers blended into the accumulation (fixed-function ONE, ONE_MINUS_SRC_ALPHA), then
// one resolve pass (ResolveVariant: reads the accumulation, the scene's dither and output space).

import Foundation
import WelkinCore

public enum WebPrograms {
    /// The one full-screen triangle every layer pass draws with.
    public static func fullScreenVertex(_ shaders: ShaderLibrary) throws -> ShaderSource {
        try shaders.source("fullscreen.vert")
    }

    /// gradient.frag as a layer for one kind, colour space and stop count (GradientPass's
    /// specialised variant, unfused).
    public static func gradient(_ shaders: ShaderLibrary, kind: GradientDraw.Kind, space: ColorSpace, stopCount: Int) throws -> ShaderSource {
        try ShaderSource(path: shaders.path("gradient.frag"), defines: [
            ("WELKIN_GRADIENT_KIND", String(kind.rawValue)), ("WELKIN_COLOR_SPACE", String(space.code)),
            ("WELKIN_STOP_COUNT", String(stopCount)),
        ])
    }

    /// resolve.frag over the float target: the frame's background is already in it (cleared to it).
    public static func resolve(_ shaders: ShaderLibrary, dither: Bool, outputSpace: OutputColorSpace) throws -> ShaderSource {
        let variant = ResolveVariant(readsDestination: true, dither: dither, outputSpace: outputSpace)
        return try ShaderSource(path: shaders.path("resolve.frag"), defines: variant.defines)
    }

    /// layer.frag as a layer: a user shader's float output clamped, premultiplied, × opacity.
    public static func layerComposite(_ shaders: ShaderLibrary) throws -> ShaderSource {
        try shaders.source("layer.frag")
    }

    /// The fragment program of a user shader file as UserShaderPass compiles it (a Shadertoy file
    /// wrapped with the layer's Common file and its channels' sampler types), and whether it is a
    /// Shadertoy `mainImage` file.
    public static func userShader(path: String, common: String?, channels: [ShaderChannel], isBuffer: Bool,
                                  shaders: ShaderLibrary) throws -> (source: ShaderSource, isShadertoy: Bool) {
        try UserShaderPass.fragmentSource(.init(path: path, common: common, channels: channels, isBuffer: isBuffer), shaders: shaders)
    }

    /// The name of the `int` uniform a wrapped `mainImage` pass reads to keep its alpha (1) or write 1.
    public static var shadertoyAlphaUniform: String { ShadertoyWrapping.alphaUniform }
}
