// `welkin export-code`: a scene as Swift source for SwiftUI or Core Animation (docs/code-export.md).

import Foundation
import WelkinCore
import WelkinExport
import WelkinGL
import WelkinImage

extension Commands {
    static let exportCode = Command(
        name: "export-code", summary: "Write a scene as Swift: a SwiftUI view (default) or a Core Animation layer.",
        usage: "welkin export-code SCENE [--swiftui | --coreanimation] [-o FILE.swift] [--allow-partial] | welkin export-code [SCENE] --package DIR [--duration S] [--rate HZ]",
        discussion: """
        Gradients become SwiftUI's gradient views (or CAGradientLayers), meshes SwiftUI's MeshGradient with
        Welkin's random walk and spring, emitters and the weather's rain and snow CAEmitterLayers, the sky a
        gradient following the sun. The file is self-contained: the Welkin maths it needs is copied into it.
        What has no Apple equivalent (sway, damping, …) becomes a comment in the code and a warning on stderr:
          SCENE: layers[N] (kind): not exported: …
        and what only a package draws (the physical sky, the sun and stars, clouds, GLSL shaders) says
          SCENE: layers[N] (kind): exported only with --package: …
        A scene with a layer only a package draws (the physical sky, volumetric clouds, cloud cover or sprites, a
        shader) is refused without --package — exit 1, "this scene's physical sky needs --package" — since the file
        would show another picture; --allow-partial writes it anyway, with those warnings.
        Without -o the code goes to stdout; with it, to a temporary file renamed into place, and the PNGs of
        image sprites are written beside it. SCENE 'default' is the built-in default scene.
        With --package DIR (SwiftUI, iOS 17 / macOS 14; without SCENE, the built-in default scene) it writes a Swift
        package instead, in which the sky, clouds and shader layers are Metal compiled from the GLSL Welkin draws
        them with (glslangValidator, spirv-val, spirv-cross: make deps). A physical sky and its clouds seen without a
        camera are computed each frame by the package's copy of Welkin's sky model, for any time; other uniforms
        that follow the clock (time, cloud drift, a palette sky) by exported Swift; the rest are Welkin's values at
        --rate samples a second (default 30) over --duration seconds of scene time (default 10, or to the end
        of the weather's schedule), then held.
        """,
        options: [Options.ExportCode.swiftUI, Options.ExportCode.coreAnimation, Options.ExportCode.output, Options.ExportCode.package,
                  Options.ExportCode.duration, Options.ExportCode.rate, Options.ExportCode.shaders, Options.ExportCode.allowPartial],
        run: { args in
            let command = named("export-code")!
            if let package = try args[Options.ExportCode.package] { return try exportPackage(args, to: package, command: command) }
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
            // A file that leaves out what only Metal draws shows another picture (a physical sky's
            // file is a black view): refused unless asked for.
            if !output.needsPackage.isEmpty, !(try args[Options.ExportCode.allowPartial]) {
                var kinds: [String] = []
                for k in output.needsPackage where !kinds.contains(k) { kinds.append(k) }
                let list = kinds.count == 1 ? kinds[0] : kinds.dropLast().joined(separator: ", ") + " and " + kinds.last!
                let one = output.needsPackage.count == 1 && !["volumetric clouds", "cloud sprites"].contains(kinds[0])
                throw Failure(message: "welkin export-code: \(path): this scene's \(list) \(one ? "needs" : "need") --package "
                              + "(a single SwiftUI or Core Animation file cannot draw \(one ? "it" : "them")): "
                              + "welkin export-code \(path) --package DIR, or --allow-partial for the file without \(one ? "it" : "them")")
            }
            for warning in output.warnings { printError("\(path): \(warning)") }
            let images = output.assets.map(\.name).joined(separator: ", ")
            if let out = try args[Options.ExportCode.output] {
                try writeAtomically(output.source, to: out)
                try writeAssets(output.assets, besides: out)
                print("wrote \(out) (\(output.typeName))" + (images.isEmpty ? "" : " and \(images) beside it"))
            } else {
                print(output.source, terminator: "")
                if !images.isEmpty { printError("\(path): the code loads \(images) by name: with -o they are written beside it") }
            }
            return 0
        })

    /// `--package DIR`: the SwiftUI view and its Metal layers as a package (PackageExport).
    static func exportPackage(_ args: Arguments, to directory: String, command: Command) throws -> Int32 {
        if try args[Options.ExportCode.coreAnimation] { throw UsageError(message: "--package writes SwiftUI; --coreanimation is for single files", command: command) }
        if try args[Options.ExportCode.output] != nil { throw UsageError(message: "--package and -o exclude each other", command: command) }
        var options = MetalExport.Options()
        let scene = try loadScene(args, command: command)
        options.duration = try args[Options.ExportCode.duration] ?? MetalExport.Options.defaultDuration(for: scene)
        if let v = try args[Options.ExportCode.rate] { options.rate = v }
        let sceneFile = args.positionals.first
        let renderer = try headlessRenderer(args)
        let layers = try inScene(scene.sourcePath) {
            try MetalExport.layers(scene: scene, options: options) { t in
                let frame = Frame(scene: scene, time: t)
                return (try renderer.capture(frame, package: true), frame)
            }
        }
        let reference = try inScene(scene.sourcePath) { try renderer.render(PackageExport.referenceFrame(scene)) }
        let (files, output) = try PackageExport.files(scene, metal: layers, sceneFile: sceneFile, reference: reference)
        for warning in output.warnings { printError("\(sceneFile ?? "<default scene>"): \(warning)") }
        try PackageExport.write(files, to: directory)
        let (sky, others) = PackageExport.liveSummary(layers)
        let live = (sky == 0 ? [] : ["the sky and clouds (\(sky) uniforms, their tables, noise and star grid)"]) + others
        let varies = layers.contains(where: \.recordedVaries)
        let recorded = varies ? "recorded over \(JSONValue.numberText(Double(options.sampleCount - 1) / options.rate)) s of scene time, then held" : "constant"
        let span = layers.isEmpty ? "" : "; " + (live.isEmpty ? "" : "\(live.joined(separator: ", ")) computed each frame, ") + "the other uniforms \(recorded)"
        print("wrote \(directory) (\(output.typeName), \(layers.count) Metal layer\(layers.count == 1 ? "" : "s")\(span))")
        return 0
    }

    /// Copies the images the code loads into the folder of the code's file `path` (each renamed into
    /// place; one already there as the scene's own file is left alone).
    static func writeAssets(_ assets: [CodeExport.Asset], besides path: String) throws {
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        for asset in assets {
            let source = URL(fileURLWithPath: asset.source).standardizedFileURL
            let target = folder.appendingPathComponent(asset.name)
            guard source.resolvingSymlinksInPath() != target.resolvingSymlinksInPath() else { continue }
            try writeAtomically(Array(try Data(contentsOf: source)), to: target.path)
        }
    }

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
        static let package = Option<String?>("--package", value: "DIR", help: "Write a Swift package with the shader layers as Metal.",
                                             convert: OptionConversion.text)
        static let duration = Option<Double?>("--duration", value: "S", help: "With --package: seconds of scene time the Metal layers' tracks hold (default 10, or to the end of the weather's schedule).",
                                              convert: OptionConversion.number("a number of seconds in [0, 3600]") { $0 >= 0 && $0 <= 3600 })
        static let rate = Option<Double?>("--rate", value: "HZ", help: "With --package: samples a second in the tracks (default 30).",
                                          convert: OptionConversion.number("a number of samples a second in (0, 240]") { $0 > 0 && $0 <= 240 })
        static let shaders = Options.shaders.with(help: "With --package: Welkin's shader directory (default: found as for render).")
        static let allowPartial = Flag("--allow-partial", help: "Without --package: write the file even when layers only a package draws (the physical sky, clouds, shaders) are left out.")
    }
}
