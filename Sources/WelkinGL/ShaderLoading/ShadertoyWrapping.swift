// ShadertoyWrapping: recognises a Shadertoy shader and wraps it into a complete one.
//
// A user shader file that uses `mainImage` and defines no `main` is a Shadertoy shader (however
// mainImage is defined: `void mainImage(…)`, or a macro such as `#define mainImage(O, U) …`).
// Welkin compiles it between Shaders/shadertoy.glsl (the uniforms Shadertoy declares, each channel
// with the sampler type its input needs) and the layer's Common file, and Shaders/shadertoy-main.glsl
// (a `main` that calls `mainImage`), adding `#version 330 core` when the file has none, and
// rewrites it as WebGL2 would read it (ShadertoyRewrite: GL_ES, zero-initialised variables). The
// file is read with its comments blanked out (line breaks kept), so a commented-out `mainSound` is
// no error and the lines reported are the file's own. Features Welkin cannot feed (sound, Cube A,
// VR without mainImage) are refused naming FILE:LINE.

import Foundation
import WelkinCore

enum ShadertoyWrapping {
    /// The uniform declarations put before a Shadertoy file (in Welkin's shader library).
    static let preludeFile = "shadertoy.glsl"
    /// The `main()` put after it.
    static let epilogueFile = "shadertoy-main.glsl"
    /// The `main()` put after a Cube A file (mainCubemap).
    static let cubeEpilogueFile = "shadertoy-cube-main.glsl"
    /// The alpha switch shadertoy-main.glsl declares: true when the layer wants the shader's alpha.
    static let alphaUniform = "welkin_shaderAlpha"

    /// A file ready to compile: its text (rewritten for a Shadertoy file) and what goes around it.
    struct Prepared {
        var text: String
        var wrapping: ShaderSource.Wrapping?
        var defines: [(name: String, value: String)] = []
        var isShadertoy: Bool { wrapping != nil }
    }

    /// Whether `text` is a Shadertoy file: it names mainImage and defines no main.
    static func isShadertoy(_ text: String) -> Bool {
        let tokens = ShadertoyRewrite.Lexer.tokens(strippingComments(text))
        return definesMain(tokens) == nil && tokens.contains { $0.text == "mainImage" }
    }

    static func definesMain(_ tokens: [Token]) -> Token? {
        tokens.indices.first { i in
            tokens[i].text == "main" && i + 1 < tokens.count && tokens[i + 1].text == "("
                && i > 0 && tokens[i - 1].text == "void"
        }.map { tokens[$0] }
    }

    /// How `text` (the file at `path`) is to be compiled. A complete shader (its own `main`, or no
    /// `mainImage`) is left as it is, unless `needsMainImage` (a buffer, or a layer with a Common
    /// file), when it is an error. A Shadertoy file is rewritten (ShadertoyRewrite, with what the
    /// Common file declares) and wrapped with the prelude (its channels' sampler types), the Common
    /// file (rewritten too) and the epilogue. Throws a `ShaderError` (FILE:LINE) for a Shadertoy
    /// feature Welkin lacks.
    static func prepare(_ text: String, path: String, library: ShaderLibrary, common: (path: String, text: String)? = nil,
                        samplers: [String] = [], needsMainImage: Bool = false, cube: Bool = false) throws -> Prepared {
        let tokens = ShadertoyRewrite.Lexer.tokens(strippingComments(text))
        let main = definesMain(tokens)
        let mentionsMainImage = tokens.contains { $0.text == (cube ? "mainCubemap" : "mainImage") }
        let unsupported: [(name: String, applies: Bool, message: String)] = [
            ("mainSound", main == nil, "Shadertoy sound shaders (mainSound) are not supported: Welkin draws images (mainImage) only"),
            ("mainCubemap", main == nil && !cube,
             "a Cube A pass (mainCubemap) runs as a layer's \"cube\" (docs/shaders.md, \"Buffers and the Common tab\"), not as its fragment or a buffer"),
            ("mainVR", main == nil && !mentionsMainImage, "Shadertoy's VR entry point (mainVR) is not supported: define mainImage"),
        ]
        let offending = tokens.first { token in unsupported.contains { $0.name == token.text && $0.applies } }
        if let offending, let rule = unsupported.first(where: { $0.name == offending.text }) {
            throw ShaderError(.unsupportedShadertoyFeature, file: path, line: offending.line, rule.message)
        }
        guard main == nil, mentionsMainImage else {
            if cube {
                throw ShaderError(.unsupportedShadertoyFeature, file: path, line: main?.line,
                                  "a layer's cube pass must be a Shadertoy Cube A shader: define mainCubemap, not main")
            }
            if needsMainImage {
                throw ShaderError(.unsupportedShadertoyFeature, file: path, line: main?.line,
                                  "a buffer's shader, and a shader with a Common file, must be a Shadertoy shader: define mainImage, not main")
            }
            return Prepared(text: text, wrapping: nil)
        }
        var context = ShadertoyRewrite.Context()
        var texts: [String: String] = [:]
        var prelude = [library.path(preludeFile)]
        if let common {
            context = ShadertoyRewrite.context(of: common.text)
            texts[common.path] = ShadertoyRewrite.rewrite(common.text)
            prelude.append(common.path)
        }
        var defines: [(name: String, value: String)] = [("WELKIN_GL_ES", "1")]
        for i in 0..<Shadertoy.channelCount {
            defines.append(("WELKIN_CHANNEL\(i)", i < samplers.count ? samplers[i] : "sampler2D"))
        }
        return Prepared(text: ShadertoyRewrite.rewrite(text, context: context),
                        wrapping: ShaderSource.Wrapping(version: "#version 330 core", prelude: prelude,
                                                        epilogue: [library.path(cube ? cubeEpilogueFile : epilogueFile)], texts: texts),
                        defines: defines)
    }

    /// `text` with every `//` and `/* */` comment replaced by spaces, line breaks kept.
    static func strippingComments(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        enum State { case code, line, block }
        var state = State.code
        var previous: Unicode.Scalar = " "
        while let c = pending ?? scalars.next() {
            pending = nil
            switch state {
            case .code:
                if c == "/" {
                    let next = scalars.next()
                    if next == "/" { state = .line; out.append(" "); out.append(" "); continue }
                    if next == "*" { state = .block; out.append(" "); out.append(" "); previous = " "; continue }
                    pending = next
                }
                out.append(c)
            case .line:
                if c == "\n" { state = .code; out.append(c) } else { out.append(" ") }
            case .block:
                if c == "/" && previous == "*" { state = .code }
                out.append(c == "\n" ? "\n" : " ")
                previous = c
                continue
            }
            previous = c
        }
        return String(out)
    }

    typealias Token = ShadertoyRewrite.Token
}
