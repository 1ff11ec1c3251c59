// ShadertoyWrapping: recognises a Shadertoy image shader and wraps it into a complete one.
//
// A user shader file that defines `void mainImage(…)` and no `main` is a Shadertoy shader: Welkin
// compiles it between Shaders/shadertoy.glsl (the uniforms Shadertoy declares) and
// Shaders/shadertoy-main.glsl (a `main` that calls `mainImage`), and adds `#version 330 core` when
// the file has none. The file is read with its comments blanked out (line breaks kept), so a
// commented-out `mainSound` is no error and the lines reported are the file's own. Features Welkin
// cannot feed (sound, cube maps, VR without mainImage) are refused naming FILE:LINE; multipass
// buffers, the keyboard and video or music inputs cannot be told apart from an image channel in
// the source, so they are documented (docs/shaders.md) rather than detected.

import Foundation

enum ShadertoyWrapping {
    /// The uniform declarations put before a Shadertoy file (in Welkin's shader library).
    static let preludeFile = "shadertoy.glsl"
    /// The `main()` put after it.
    static let epilogueFile = "shadertoy-main.glsl"
    /// The alpha switch shadertoy-main.glsl declares: true when the layer wants the shader's alpha.
    static let alphaUniform = "welkin_shaderAlpha"

    /// How `text` (the file at `path`) is to be compiled: nil for a complete shader (it has its own
    /// `main`, or no `mainImage`), else the wrapping around it from `library`. Throws a
    /// `ShaderError` (`unsupportedShadertoyFeature`, FILE:LINE) for a Shadertoy feature Welkin lacks.
    static func wrapping(for text: String, path: String, library: ShaderLibrary) throws -> ShaderSource.Wrapping? {
        let tokens = Token.scan(strippingComments(text))
        func defines(_ name: String) -> Token? {
            tokens.indices.first { i in
                tokens[i].text == name && i + 1 < tokens.count && tokens[i + 1].text == "("
                    && i > 0 && tokens[i - 1].text == "void"
            }.map { tokens[$0] }
        }
        if defines("main") != nil { return nil }
        let mainImage = defines("mainImage")
        let unsupported: [(name: String, applies: Bool, message: String)] = [
            ("mainSound", true, "Shadertoy sound shaders (mainSound) are not supported: Welkin draws images (mainImage) only"),
            ("mainCubemap", true, "Shadertoy cube map passes (mainCubemap) are not supported: Welkin draws images (mainImage) only"),
            ("mainVR", mainImage == nil, "Shadertoy's VR entry point (mainVR) is not supported: define mainImage"),
            ("samplerCube", true, "cube map channels (samplerCube) are not supported: iChannel0…3 are 2D images (sampler2D)"),
        ]
        let offending = tokens.first { token in unsupported.contains { $0.name == token.text && $0.applies } }
        if let offending, let rule = unsupported.first(where: { $0.name == offending.text }) {
            throw ShaderError(.unsupportedShadertoyFeature, file: path, line: offending.line, rule.message)
        }
        guard mainImage != nil else { return nil }
        return ShaderSource.Wrapping(version: "#version 330 core", prelude: [library.path(preludeFile)],
                                     epilogue: [library.path(epilogueFile)])
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

    /// A word of GLSL (an identifier or keyword) or one punctuation character, with its 1-based line.
    struct Token: Equatable {
        var text: String
        var line: Int

        static func scan(_ text: String) -> [Token] {
            var tokens: [Token] = []
            var line = 1
            var word = ""
            func flush() {
                if !word.isEmpty { tokens.append(Token(text: word, line: line)); word = "" }
            }
            for c in text.unicodeScalars {
                if c == "_" || (c.isASCII && CharacterSet.alphanumerics.contains(c)) {
                    word.unicodeScalars.append(c)
                    continue
                }
                flush()
                if c == "\n" { line += 1 } else if !CharacterSet.whitespaces.contains(c) {
                    tokens.append(Token(text: String(c), line: line))
                }
            }
            flush()
            return tokens
        }
    }
}
