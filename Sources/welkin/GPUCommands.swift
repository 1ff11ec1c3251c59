// Commands that draw on the GPU: render and compare.

import Foundation
import WelkinCore
import WelkinGL
import WelkinViewer
import WelkinReference
import WelkinImage

extension Commands {
    /// A headless renderer; throws why there is none (no OpenGL, a shader that does not compile).
    static func headlessRenderer(_ args: Arguments) throws -> GLRenderer {
        let library = try ShaderLibrary.locate(override: try args[Options.shaders])
        let context = try GLContext.headless()
        return try GLRenderer(context: context, shaders: library)
    }

    /// Draws a frame of `scene` on the GPU; its errors name the scene's file.
    static func gpuRender(_ renderer: GLRenderer, _ frame: Frame, of scene: Scene) throws -> Image {
        try inScene(scene.sourcePath) { try renderer.render(frame) }
    }

    /// Runs `body` (a draw of the scene in `file`, nil for the built-in one), its errors naming the
    /// file where the code that threw them could not (a Frame does not know its file).
    static func inScene<T>(_ file: String?, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as any UserFacingError { throw e.inScene(file) }
    }

    static let render = Command(
        name: "render", summary: "Render a scene on the GPU, headless (no display needed), to a PNG.",
        usage: "welkin render [SCENE] [-o OUT.png|OUT.exr [--float]] [--time T] [--size WxH [--fit MODE] | --scale K] [--projection P [--cross]] [--shaders DIR]"
            + " [--color-space SPACE] [--depth 16]",
        discussion: """
        Uses EGL with no X server (EGL_MESA_platform_surfaceless, or EGL_EXT_platform_device on NVIDIA),
        falling back to a hidden GLFW window only when EGL is unavailable. The PNG is exactly WxH pixels.
        Without SCENE, renders the built-in default scene. Without -o, writes NAME-tT.png in the current
        folder (snow-t1.5.png for Scenes/snow.json at 1.5 s; welkin-default-t0.png for the built-in scene).
        OUT.exr holds scene-linear light. --projection equirect renders the whole sky sphere, fisheye the
        all-sky dome, cubemap six faces OUT-px … OUT-nz in OpenGL's convention, or one cross with --cross
        (docs/export.md).
        """,
        options: [Options.output, Options.time, Options.size, Options.scale, Options.fit, Options.projection, Options.cross, Options.float,
                  Options.shaders, Options.colorSpace, Options.depth],
        run: { args in
            let command = named("render")!
            let out = try stillOutput(args, command: command)
            let time = try args[Options.time]
            _ = try args[Options.size]
            let depth = try stillDepth(args, out: out, command: command)
            try checkWritable(out)
            let scene = try applyingColorSpace(args, to: try loadScene(args, command: command), out: out, command: command)
            let plan = try stillPlan(args, scene: scene, out: out, depth: depth, command: command)
            // One frame: no seeking back, so no checkpoints to keep; the emitters' states are
            // dropped once the Frame holds their sprites, before GL takes its share (a million
            // particles: 59 MB of state, 40 MB of sprites, 100 MB for llvmpipe and its compiler).
            SimulationCache.shared.keepsCheckpoints = false
            let renderer = try headlessRenderer(args)
            let start = DispatchTime.now()
            let wrote = try writeStill(args, scene: scene, out: out, time: time, plan: plan,
                image: { frame in
                    SimulationCache.shared.removeAll()
                    return try gpuRender(renderer, frame, of: scene)
                },
                image16: { frame in
                    SimulationCache.shared.removeAll()
                    return try inScene(scene.sourcePath) { try renderer.render16(frame) }
                },
                linear: { frame in
                    SimulationCache.shared.removeAll()
                    return try inScene(scene.sourcePath) { try renderer.renderLinear(frame) }
                })
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            print("\(wrote), GPU: \(renderer.context.renderer), \(String(format: "%.1f", elapsed)) ms)")
            return 0
        })

    static let compare = Command(
        name: "compare", summary: "Render a scene on the GPU and the CPU (or against a PNG) and compare them.",
        usage: "welkin compare SCENE [--time T] [--size WxH] [--against REF.png] [-o DIR] [--json] [--threshold N] [--max-failing PERCENT]"
            + " [--color-space SPACE]",
        discussion: """
        Writes gpu.png, reference.png and diff.png into DIR (default compare-out). diff.png is a heat map
        of each pixel's largest channel difference: unchanged pixels show the reference at a quarter of
        its brightness; 1 blue, 2 sky blue, 3–4 green, 5–8 yellow, 9–16 orange, 17–64 red, 65+ magenta.
        Differences are in 0…255 units. A pixel fails when its largest channel difference exceeds the
        threshold; the comparison passes when at most PERCENT of the pixels fail. Exit status 0 when it
        passes, 1 when it does not. With --against, the GPU render is compared with REF.png (at REF's
        size unless --size is given): the way to test user shader layers, which the CPU cannot run.
        Both renders are in the scene's output colour space (--color-space overrides it). REF.png's space
        is read from its cICP chunk, else its ICC profile's description, else its sRGB chunk (untagged: sRGB);
        when it differs from the render's, REF is converted into the render's space through linear light
        (clipped per channel) before comparing, and a space Welkin does not know is refused (docs/compare.md).
        """,
        options: [Options.time, Options.size, Options.Compare.against, Options.Compare.output, Options.Compare.out, Options.json,
                  Options.Compare.threshold, Options.Compare.maxFailing, Options.shaders, Options.colorSpace],
        run: { args in
            let command = named("compare")!
            guard args.positionals.count == 1 else {
                throw UsageError(message: "expected one scene file", command: command)
            }
            let time = try args[Options.time]
            var size = try args[Options.size]
            var threshold = try args[Options.Compare.threshold]
            let thresholdGiven = try args.contains(Options.Compare.threshold)
            let maxFailing = try args[Options.Compare.maxFailing]
            let output = try args[Options.Compare.output], out = try args[Options.Compare.out]
            if output != nil && out != nil {
                throw UsageError(message: "give the folder once: --output (-o) or --out", command: command)
            }
            let outDirectory = output ?? out ?? "compare-out"
            let against = try args[Options.Compare.against]
            let scene = try applyingColorSpace(args, to: try loadScene(args, command: command), out: nil, command: command)
            // Made before rendering, so no render is wasted on a folder that cannot be.
            try OutputFile.createFolder(outDirectory)

            var reference: Image
            var conversion: String?
            if let against {
                reference = try PNG.read(path: against)
                if size == nil { size = SIMD2(reference.width, reference.height) }
                let bytes: [UInt8]
                do { bytes = try RegularFile.read(against, limit: PNG.maximumFileSize) } catch { throw Failure(message: "\(against): \(error)") }
                let space: OutputColorSpace
                do { space = try PNGColor.colorSpace(ofPNG: bytes) } catch {
                    throw Failure(message: "\(against): cannot compare: \(error)")
                }
                if space != scene.outputColorSpace {
                    reference = Comparison.converting(reference, from: space, to: scene.outputColorSpace)
                    // Both images' dither, carried through the matrix, differs by more than 2/255.
                    if !thresholdGiven { threshold = Comparison.convertedThreshold }
                    conversion = "\(against) is \(space.displayName) and the render \(scene.outputColorSpace.displayName): "
                        + "compared after converting it to \(scene.outputColorSpace.displayName) in linear light (threshold \(threshold))"
                }
            } else {
                reference = Image(width: 0, height: 0)
            }
            let frame = Frame(scene: scene, time: time, pixelSize: size)
            if against == nil {
                reference = try inScene(scene.sourcePath) { try ReferenceRenderer().render(frame) }
            }
            let renderer = try headlessRenderer(args)
            let gpu = try gpuRender(renderer, frame, of: scene)
            let comparison: Comparison
            let diff: Image
            do {
                comparison = try Comparison(gpu, reference, threshold: threshold)
                diff = try Comparison.heatMap(gpu, reference)
            } catch {
                // Only a size mismatch can stop a comparison.
                throw Failure(message: "\(against ?? "reference"): \(error) (pass --size to match)")
            }
            for (name, image) in [("gpu.png", gpu), ("reference.png", reference)] {
                try writePNG(image, to: outDirectory + "/" + name, colorSpace: frame.outputColorSpace)
            }
            try writePNG(diff, to: outDirectory + "/diff.png")
            let passed = comparison.passed(maxFailingPercent: maxFailing)
            if try args[Options.json] {
                print(compareJSON(comparison, passed: passed))
            } else {
                if let conversion { print(conversion) }
                print(compareText(comparison, passed: passed, scene: args.positionals[0], time: time, size: frame.pixelSize,
                                  maxFailing: maxFailing, outDirectory: outDirectory, against: against))
            }
            return passed ? 0 : 1
        })

    static func compareJSON(_ c: Comparison, passed: Bool) -> String {
        let fields: [(String, String)] = [
            ("maxDifference", String(c.maxDifference)),
            ("meanAbsoluteDifference", jsonNumber(c.meanAbsoluteDifference)),
            ("rmse", jsonNumber(c.rmse)),
            ("psnr", jsonNumber(c.psnr)),
            ("ssim", jsonNumber(c.ssim)),
            ("pixelsOverThreshold", String(c.pixelsOverThreshold)),
            ("percentOverThreshold", jsonNumber(c.percentOverThreshold)),
            ("passed", passed ? "true" : "false"),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func compareText(_ c: Comparison, passed: Bool, scene: String, time: Double, size: SIMD2<Int>, maxFailing: Double,
                            outDirectory: String, against: String?) -> String {
        let psnr = c.psnr.isFinite ? String(format: "%.2f dB", c.psnr) : "∞ (identical)"
        return """
        \(scene) at t = \(time) s, \(size.x)×\(size.y): GPU vs \(against ?? "CPU reference")
          largest channel difference  \(c.maxDifference)/255
          mean absolute difference    \(String(format: "%.4f", c.meanAbsoluteDifference))
          RMSE                        \(String(format: "%.4f", c.rmse))
          PSNR                        \(psnr)
          SSIM                        \(String(format: "%.6f", c.ssim))
          pixels over \(c.threshold)/255           \(c.pixelsOverThreshold) of \(c.pixelCount) (\(String(format: "%.4f", c.percentOverThreshold)) %, allowed \(maxFailing) %)
        \(passed ? "passed" : "FAILED"); wrote \(outDirectory)/gpu.png, reference.png, diff.png
        """
    }
}

extension Commands {
    static let view = Command(
        name: "view", summary: "Open the viewer: the scene live in a window, hot-reloading its files.",
        usage: "welkin view [SCENE] [--time T] [--paused] [--shaders DIR] [--exit-after SECONDS]",
        discussion: """
        Without SCENE (and for a bare 'welkin'), shows the built-in default scene. The scene file and
        every shader file (includes too) reload when saved; a file that fails to load or compile keeps
        the last good picture and prints FILE: path: message (or FILE:LINE: message).

        Edits are made through commands on standard input (one a line, one answer line each) or the
        panel (Tab); they change the scene's text one value at a time, and Ctrl-S or 'save' writes it
        ('save PATH', or the panel's Save as...: to a new file, the built-in scene too).

        \(Viewer.keyHelp)

        \(Viewer.consoleHelp)
        """,
        options: [Options.time, Options.View.paused, Options.shaders, Options.View.exitAfter],
        run: { args in
            let command = named("view")!
            guard args.positionals.count <= 1 else {
                throw UsageError(message: "expected at most one scene file", command: command)
            }
            var options = Viewer.Options()
            options.scenePath = args.positionals.first
            options.shaderDirectory = try args[Options.shaders]
            options.startTime = try args[Options.time]
            options.startPaused = try args[Options.View.paused]
            if let seconds = try args[Options.View.exitAfter] { options.exitAfter = seconds }
            let viewer = try Viewer(options: options)
            let status = viewer.run()
            // Exit here, with the viewer still alive: tearing GL down would wait for a frame the
            // quit abandoned (Viewer.run()), and the process's exit frees everything anyway.
            exit(status)
        })
}

extension Options {
    /// `welkin compare`'s own options.
    enum Compare {
        static let against = Option<String?>("--against", value: "REF.png", help: "Compare with this image instead of the CPU reference.",
                                             convert: OptionConversion.text)
        static let output = Options.output.with(value: "DIR", help: "Where to write gpu.png, reference.png, diff.png (default compare-out).")
        /// The earlier spelling of --output, still accepted.
        static let out = Option<String?>("--out", value: "DIR", help: "The same as --output (its earlier spelling).", convert: OptionConversion.text)
        static let threshold = Option<Int>("--threshold", value: "N", help: "Largest allowed channel difference, 0…255 (default 2).", default: 2,
                                           convert: OptionConversion.wholeNumber("a whole number in 0…255", where: { (0...255).contains($0) }))
        static let maxFailing = Option<Double>("--max-failing", value: "PERCENT", help: "Share of pixels allowed over the threshold (default 0.05).",
                                               default: 0.05, convert: OptionConversion.number("a percentage in 0…100", where: { (0...100).contains($0) }))
    }

    /// `welkin view`'s own options.
    enum View {
        static let paused = Flag("--paused", help: "Start paused.")
        static let exitAfter = Option<Double?>("--exit-after", value: "SECONDS", help: "Quit by itself after SECONDS (for scripts and tests).",
                                               convert: OptionConversion.number("a number of seconds", where: { $0 >= 0 }))
    }
}
