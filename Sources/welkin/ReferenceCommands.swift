// Commands that need only the CPU: reference and validate.

import Foundation
import WelkinCore
import WelkinReference
import WelkinImage

let welkinVersion = "0.1.0"

extension Commands {
    static var defaultCommand: String { "view" }

    /// Loads SCENE, or the built-in default scene when no path is given or SCENE is `default`
    /// (Scene.defaultSceneName); a broken scene throws every error it has (up to 50), as `welkin
    /// validate` lists them.
    static func loadScene(_ args: Arguments, command: Command) throws -> Scene {
        guard args.positionals.count <= 1 else {
            throw UsageError(message: "expected one scene file, got \(args.positionals.count)", command: command)
        }
        guard let path = args.positionals.first, path != Scene.defaultSceneName else { return Scene.defaultScene }
        let scene = try SceneLoader.loadReportingEveryError(path: path)
        for warning in scene.warnings { printError(warning.description) }
        return scene
    }

    static let reference = Command(
        name: "reference", summary: "Render a scene on the CPU (the reference renderer) to a PNG.",
        usage: "welkin reference [SCENE] [-o OUT.png|OUT.exr [--float]] [--time T] [--size WxH [--fit MODE] | --scale K] [--projection P [--cross]]"
            + " [--color-space SPACE] [--depth 16]",
        discussion: """
        Without SCENE, renders the built-in default scene. Without -o, writes NAME-tT.png in the current
        folder (as 'welkin render'). OUT.exr holds scene-linear light (docs/export.md). The image is written
        to a temporary file and renamed into place, so a failure never leaves a half-written image.
        """,
        options: [Options.output, Options.time, Options.size, Options.scale, Options.fit, Options.projection, Options.cross, Options.float,
                  Options.colorSpace, Options.depth],
        run: { args in
            let command = named("reference")!
            let out = try stillOutput(args, command: command)
            let time = try args[Options.time]
            _ = try args[Options.size]
            let depth = try stillDepth(args, out: out, command: command)
            try checkWritable(out)
            let scene = try applyingColorSpace(args, to: try loadScene(args, command: command), out: out, command: command)
            let plan = try stillPlan(args, scene: scene, out: out, depth: depth, command: command)
            let start = DispatchTime.now()
            let file = args.positionals.first
            let wrote = try writeStill(args, scene: scene, out: out, time: time, plan: plan,
                                       image: { frame in try inScene(file) { try ReferenceRenderer().render(frame) } },
                                       image16: { frame in try inScene(file) { try ReferenceRenderer().render16(frame) } },
                                       linear: { frame in try inScene(file) { try ReferenceRenderer().renderLinear(frame) } })
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            print("\(wrote), rendered in \(String(format: "%.1f", elapsed)) ms)")
            return 0
        })

    static func writePNG(_ image: Image, to path: String, colorSpace: OutputColorSpace = .srgb) throws {
        try PNG.write(image, to: path, colorSpace: colorSpace)
    }

    /// Fails with `cannot write OUT: REASON` unless OUT can be written: checked before rendering,
    /// so no render is wasted on an output that cannot be kept.
    static func checkWritable(_ out: String) throws {
        try OutputFile.checkWritable(out)
    }

    static let validate = Command(
        name: "validate", summary: "Check scene files; print 'ok' or every error of each (up to 50 per file, in file order).",
        usage: "welkin validate SCENE...",
        run: { args in
            guard !args.positionals.isEmpty else {
                throw UsageError(message: "expected at least one scene file", command: named("validate"))
            }
            var failed = false
            for path in args.positionals {
                let errors = SceneLoader.validate(path: path)
                if errors.isEmpty {
                    // Valid: load it once more for its warnings.
                    let scene = try SceneLoader.load(path: path)
                    for warning in scene.warnings + scene.fontWarnings(file: path) { printError(warning.description) }
                    print("\(path): ok")
                } else {
                    printError(SceneErrors(errors).description)
                    failed = true
                }
            }
            return failed ? 1 : 0
        })
}
