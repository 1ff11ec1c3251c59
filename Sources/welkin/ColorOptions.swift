// `--color-space` and `--depth`: the picture's colour space (overriding the scene's
// outputColorSpace) and the PNG's bits per channel, for render, reference and export.

import Foundation
import WelkinCore
import WelkinImage

extension Options {
    static let colorSpace = Option<OutputColorSpace?>("--color-space", value: "SPACE",
                                                      help: "srgb or display-p3: the picture's colour space (default: the scene's outputColorSpace, else srgb).",
                                                      convert: OptionConversion.choice(OutputColorSpace.self))
    static let depth = Option<Int>("--depth", value: "BITS", help: "8 (default) or 16 bits per channel in the PNG (16: no dither).", default: 8) { text in
        guard text == "8" || text == "16" else { throw OptionValueError(expected: "8 or 16") }
        return Int(text)!
    }
}

extension Commands {
    /// The scene with `--color-space` applied (a usage error for any other value, or with EXR
    /// output, which is scene-linear light in sRGB's primaries).
    static func applyingColorSpace(_ args: Arguments, to scene: Scene, out: String?, command: Command) throws -> Scene {
        guard let space = try args[Options.colorSpace] else { return scene }
        if let out, isEXR(out) {
            throw UsageError(message: "--color-space applies to PNG output; an EXR holds scene-linear light in sRGB's primaries", command: command)
        }
        var scene = scene
        scene.outputColorSpace = space
        return scene
    }

    /// `--depth 8|16` (8 without it); 16 is for PNG output only.
    static func stillDepth(_ args: Arguments, out: String, command: Command) throws -> Int {
        let depth = try args[Options.depth]
        if depth == 16, isEXR(out) {
            throw UsageError(message: "--depth applies to PNG output; use --float for 32-bit EXR channels", command: command)
        }
        return depth
    }

    static func writePNG16(_ image: Image16, to path: String, colorSpace: OutputColorSpace) throws {
        try PNG16.write(image, to: path, colorSpace: colorSpace)
    }

    /// " Display P3, 16-bit" for the summary line of a still that is not 8-bit sRGB.
    static func pictureNote(_ space: OutputColorSpace, depth: Int) -> String {
        (space == .srgb ? "" : ", \(space.displayName)") + (depth == 8 ? "" : ", \(depth)-bit")
    }
}
