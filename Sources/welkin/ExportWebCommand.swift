// `welkin export-web`: a scene as one self-contained HTML page drawn by WebGL2 (docs/export.md).

import Foundation
import WelkinCore
import WelkinExport
import WelkinGL

extension Commands {
    static let exportWeb = Command(
        name: "export-web", summary: "Write a scene as one self-contained web page (WebGL2).",
        usage: "welkin export-web [SCENE] -o PAGE.html [--controls] [--framing contain|cover|stretch] [--allow-outside] [--shaders DIR]",
        discussion: """
        The page draws the scene with the very GLSL Welkin draws it with, translated GLSL → SPIR-V → GLSL ES 3.00
        (glslangValidator, spirv-val, spirv-cross: make deps); a small script computes each frame's values from the
        clock. It needs no network and no other file: open it in a browser, or put it on any web server.
        It fills the window at the device's pixel ratio (--framing: contain, the default, shows the whole scene
        between bars in its background colour; cover fills the window and crops; stretch squeezes), runs at the
        display's rate and pauses while hidden. In its address, ?t=12.5 starts the clock at 12.5 s and
        ?t=12.5&paused stops it there (a link to a moment); --controls adds play/pause and a time scrubber.
        A layer the page cannot draw yet is left out with a warning on stderr:
          SCENE: layers[N] (kind "name"): not exported yet: …; left out of the page
        The page embeds only files in the scene's folder (shader files, channel images); one outside is refused
        (exit 1) unless --allow-outside is given. Every string from the scene is escaped, and the page's
        Content-Security-Policy allows only its own script: no network access, no eval.
        SCENE 'default' (or none) is the built-in default scene.
        """,
        options: [Options.ExportWeb.output, Options.ExportWeb.controls, Options.ExportWeb.framing, Options.ExportWeb.allowOutside,
                  Options.ExportWeb.shaders],
        run: { args in
            let command = named("export-web")!
            guard let out = try args[Options.ExportWeb.output] else {
                throw UsageError(message: "expected -o PAGE.html (where to write the page)", command: command)
            }
            let scene = try loadScene(args, command: command)
            let name = args.positionals.first ?? "<default scene>"
            var options = WebExport.Options()
            options.controls = try args[Options.ExportWeb.controls]
            options.allowOutside = try args[Options.ExportWeb.allowOutside]
            if let framing = try args[Options.ExportWeb.framing] { options.framing = framing }
            let library = try ShaderLibrary.locate(override: try args[Options.ExportWeb.shaders])
            // The sky, clouds and cloud sprites are drawn as the GL path draws them (a headless
            // renderer, made only when the page needs one).
            var renderer: GLRenderer?
            let capture: WebExport.Capture = { t, size in
                if renderer == nil { renderer = try GLRenderer(context: try GLContext.headless(), shaders: library) }
                let frame = Frame(scene: scene, time: t, pixelSize: size)
                return (try renderer!.capture(frame), frame.sceneLayerIndices)
            }
            let page: WebExport.Page
            do {
                page = try inScene(scene.sourcePath) { try WebExport.page(scene, shaders: library, options: options, capture: capture) }
            } catch let failure as WebExport.Failure {
                throw Failure(message: "welkin export-web: \(name): \(failure.message)")
            }
            for warning in page.warnings { printError("\(name): \(warning)") }
            try writeAtomically(page.html, to: out)
            let bytes = page.html.utf8.count
            let size = bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) : "\((bytes + 1023) / 1024) KB"
            let weather = page.precipitation.isEmpty ? "" : " and the weather's " + page.precipitation.joined(separator: " and ")
            print("wrote \(out) (\(size), \(page.layerCount) of \(scene.layers.count) layer\(scene.layers.count == 1 ? "" : "s") drawn\(weather)"
                  + (page.warnings.isEmpty ? ")" : ", \(page.warnings.count) warning\(page.warnings.count == 1 ? "" : "s") above)"))
            return 0
        })
}

extension Options {
    /// `welkin export-web`'s own options.
    enum ExportWeb {
        static let output = Options.output.with(value: "PAGE.html", help: "Where to write the page (required).")
        static let controls = Flag("--controls", help: "Add play/pause, a time scrubber and the time under the picture.")
        static let framing = Option<WebExport.Framing?>("--framing", value: "MODE",
                                                        help: "How the page fills its window: contain (default: whole scene, bars), cover (crop) or stretch.",
                                                        convert: OptionConversion.choice(WebExport.Framing.self))
        static let allowOutside = Flag("--allow-outside", help: "Embed files from outside the scene's folder too.")
        static let shaders = Options.shaders.with(help: "Welkin's shader directory (default: found as for render).")
    }
}
