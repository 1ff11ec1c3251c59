// `welkin export-code`: a scene as Swift source for SwiftUI or Core Animation (docs/code-export.md).

import Foundation
import WelkinCore
import WelkinExport
import WelkinImage

extension Commands {
    static let exportCode = Command(
        name: "export-code", summary: "Write a scene as Swift: a SwiftUI view (default) or a Core Animation layer.",
        usage: "welkin export-code SCENE [--swiftui | --coreanimation] [-o FILE.swift]",
        discussion: """
        Gradients become SwiftUI's gradient views (or CAGradientLayers), meshes SwiftUI's MeshGradient with
        Welkin's random walk and spring, emitters CAEmitterLayers, the sky a gradient following the sun. The
        file is self-contained: the Welkin maths it needs is copied into it. What has no Apple equivalent
        (cloud layers, GLSL shaders, sway, …) becomes a comment in the code and a warning on stderr:
          SCENE: layers[N] (kind): not exported: …
        Without -o the code goes to stdout; with it, to a temporary file renamed into place.
        """,
        options: [Options.ExportCode.swiftUI, Options.ExportCode.coreAnimation, Options.ExportCode.output],
        run: { args in
            let command = named("export-code")!
            guard args.positionals.count == 1 else {
                throw UsageError(message: args.positionals.isEmpty ? "expected a scene file" : "expected one scene file, got \(args.positionals.count)",
                                 command: command)
            }
            let coreAnimation = try args[Options.ExportCode.coreAnimation]
            if try args[Options.ExportCode.swiftUI] && coreAnimation {
                throw UsageError(message: "--swiftui and --coreanimation exclude each other", command: command)
            }
            let target: CodeExport.Target = coreAnimation ? .coreAnimation : .swiftUI
            let path = args.positionals[0]
            let scene = try loadScene(args, command: command)
            let output = CodeExport.generate(scene, target: target, sceneFile: path)
            for warning in output.warnings { printError("\(path): \(warning)") }
            if let out = try args[Options.ExportCode.output] {
                try writeAtomically(output.source, to: out)
                print("wrote \(out) (\(output.typeName))")
            } else {
                print(output.source, terminator: "")
            }
            return 0
        })

    /// Writes `text` to a temporary file next to `path` and renames it into place, so a failure never
    /// leaves a half-written file or clobbers a good one.
    static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(Array(text.utf8), to: path)
    }
}

extension Options {
    /// `welkin export-code`'s own options.
    enum ExportCode {
        static let swiftUI = Flag("--swiftui", help: "A SwiftUI View (the default).")
        static let coreAnimation = Flag("--coreanimation", help: "A CALayer subclass with CAGradientLayer and CAEmitterLayer sublayers.")
        static let output = Options.output.with(value: "FILE.swift", help: "Where to write the code (default: stdout).")
    }
}
