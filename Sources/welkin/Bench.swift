// `welkin bench`: medians of repeated timings, with baselines measured in the same run.

import CCairo
import WelkinBaselines
import Foundation
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

extension Options {
    /// `welkin bench`'s own options.
    enum Bench {
        static let json = Options.json.with(help: "Print [{\"name\", \"unit\", \"value\"}] instead of a table.")
        static let markdown = Flag("--markdown", help: "Print a Markdown table (entry, median, unit) for the docs to include.")
        static let runs = Option<Int>("--runs", value: "N", help: "Timed runs per entry (default 15).", default: 15,
                                      convert: OptionConversion.wholeNumber("a whole number in 1…1000", where: { (1...1000).contains($0) }))
        static let filter = Option<String?>("--filter", value: "TEXT", help: "Run only entries whose name contains TEXT (several: A,B).",
                                            convert: OptionConversion.text)
        static let passes = Option<String?>("--passes", value: "SCENE", help: "Print SCENE's frame plan (passes, programs, targets and their memory) with each layer's and each draw's cost.",
                                            convert: OptionConversion.text)
        static let check = Flag("--check", help: "Run the ratios in the limits file and exit 1 if one is over its limit (a regression).")
        static let limits = Option<String?>("--limits", value: "FILE", help: "The limits --check reads (default: the checkout's Tests/Bench/limits.json).",
                                            convert: OptionConversion.text)
    }
}

/// One benchmark result. Names are stable once published.
struct BenchResult {
    var name: String
    var unit: String
    var value: Double
}

/// Milliseconds for one call of `body`, median over `runs` after `warmup` calls.
func medianMilliseconds(runs: Int, warmup: Int = 2, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    samples.sort()
    return runs % 2 == 1 ? samples[runs / 2] : (samples[runs / 2 - 1] + samples[runs / 2]) / 2
}

/// Medians of two bodies timed alternately (A, B, A, B, …), for a ratio that load cannot skew.
func interleavedMedians(runs: Int, warmup: Int = 2, _ a: () throws -> Void, _ b: () throws -> Void) rethrows -> (Double, Double) {
    for _ in 0..<warmup { try a(); try b() }
    var sa: [Double] = [], sb: [Double] = []
    for _ in 0..<runs {
        var start = DispatchTime.now().uptimeNanoseconds
        try a()
        sa.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        start = DispatchTime.now().uptimeNanoseconds
        try b()
        sb.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    return (median(sa), median(sb))
}

/// The gradients the reference benchmarks draw, shared with the cairo baseline.
enum BenchScenes {
    static let size = SIMD2<Int>(1920, 1080)
    static let stops: [GradientStop] = [
        GradientStop(color: RGBA(0.1, 0.3, 0.8), location: 0),
        GradientStop(color: RGBA(1.0, 0.5, 0.3), location: 0.6),
        GradientStop(color: RGBA(0.4, 0.6, 1.0), location: 1),
    ]
    /// A diagonal linear gradient, corner to corner (t varies along every row).
    static let linear = Gradient(shape: .linear(start: [0, 0], end: [1, 1]), stops: stops)
    /// A radial gradient from the centre out to 600 points.
    static let radial = Gradient(shape: .radial(center: [0.5, 0.5], startRadius: 0, endRadius: 600), stops: stops)
    /// The sky's most common layer: two stops, top to bottom (one colour per row).
    static let vertical = Gradient(shape: .linear(start: [0.5, 0], end: [0.5, 1]), stops: [
        GradientStop(color: RGBA(0.1, 0.3, 0.8), location: 0), GradientStop(color: RGBA(0.4, 0.6, 1.0), location: 1),
    ])
    /// Two stops, left to right (one colour per column).
    static let horizontal = Gradient(shape: .linear(start: [0, 0.5], end: [1, 0.5]), stops: vertical.stops)

    static func scene(_ g: Gradient, dither: Bool = false) -> Scene {
        var s = Scene()
        s.size = size
        s.dither = dither
        s.layers = [Layer(content: g)]
        return s
    }
}

extension Commands {
    static let bench = Command(
        name: "bench", summary: "Run the benchmark suite (medians, with same-run baselines).",
        usage: "welkin bench [--json | --markdown | --check [--limits FILE] | --passes SCENE] [--runs N] [--filter TEXT[,TEXT…]]",
        discussion: """
        Each entry is the median of N runs after two warm-up runs. Ratios compare against a baseline
        measured in the same run, so they hold on a busy machine where absolute times do not.
        --check runs the ratios named in Tests/Bench/limits.json (or --limits FILE), prints each
        beside its limit, and exits 1 when one is over: a regression guard CI runs.
        --passes SCENE prints the frame's plan at t = 1.5 s and 1280×720 as the viewer plays it (each pass with its program,
        the targets it reads and writes, its blending and scissor; each target with its format,
        size, lifetime and memory) and each layer's median time with the GPU finished after it; then
        every draw in the order drawn (program → target), timed with the GPU finished before and
        after it, and with GL_TIMESTAMP queries where the GPU's timers time work (not on llvmpipe).
        Entries:
          reference.linear.1080p       CPU reference, 1920×1080 diagonal linear gradient (ms, raster only)
          reference.radial.1080p       CPU reference, 1920×1080 radial gradient (ms, raster only)
          cairo.linear.1080p           cairo drawing the same linear gradient (ms, baseline)
          cairo.radial.1080p           cairo drawing the same radial gradient (ms, baseline)
          reference.linear.cairo-ratio reference.linear.1080p / cairo.linear.1080p (target ≤ 2)
          reference.vertical.1080p     CPU reference, 1920×1080 two-stop vertical gradient, dither on (ms)
          cairo.vertical.1080p         cairo drawing the same gradient (no dither: cairo has none) (ms, baseline)
          reference.vertical.cairo-ratio  dither on / cairo (target ≤ 2); …-nodither: dither off (target ≤ 1)
          reference.horizontal.1080p   the same left to right, with cairo.horizontal.1080p and the two ratios
          gpu.day-gradient.720p        GPU frame, Scenes/day-gradient.json at 1280×720, headless, glFinish (ms)
          gpu.bare-pass.720p           GPU, one bare full-screen pass at 1280×720, glFinish (ms, baseline)
          gpu.day-gradient.ratio       gpu.day-gradient.720p / gpu.bare-pass.720p (target ≤ 2)
          ENTRY.gputime                beside every GPU frame entry (gpu.*.720p, bare passes): the GPU's own
                                       time for the same runs, from GL_TIME_ELAPSED timer queries (ms, median);
                                       left out where the context has none that time frames (llvmpipe
                                       answers them per 64×64 tile, not per frame)
        """ + "\n" + skyBenchEntries + "\n" + particleBenchDiscussion + "\n" + exportBenchEntries + "\n" + sceneBenchEntries,
        options: [Options.Bench.json, Options.Bench.markdown, Options.Bench.check, Options.Bench.limits, Options.Bench.passes, Options.Bench.runs,
                  Options.Bench.filter, Options.shaders],
        run: { args in
            let runs = try args[Options.Bench.runs]
            let json = try args[Options.Bench.json], markdown = try args[Options.Bench.markdown]
            if json && markdown {
                throw UsageError(message: "choose one of --json and --markdown", command: named("bench"))
            }
            let filterText = try args[Options.Bench.filter]
            let filter = BenchFilter(filterText)
            guard args.positionals.isEmpty else {
                throw UsageError(message: "bench takes no arguments", command: named("bench"))
            }
            if let scene = try args[Options.Bench.passes] {
                let checking = try args[Options.Bench.check]
                if json || markdown || checking || filterText != nil {
                    throw UsageError(message: "--passes prints one scene's plan: leave out --json, --markdown, --check and --filter", command: named("bench"))
                }
                return try runPassesReport(scene, runs: runs, args: args)
            }
            if try args[Options.Bench.check] {
                if json || markdown {
                    throw UsageError(message: "--check prints its own table: leave out --json and --markdown", command: named("bench"))
                }
                let path: String
                if let given = try args[Options.Bench.limits] {
                    path = given
                } else {
                    let library = try ShaderLibrary.locate(override: try args[Options.shaders])
                    path = (library.directory as NSString).deletingLastPathComponent + "/Tests/Bench/limits.json"
                }
                return try runBenchCheck(try BenchLimits.load(path), runs: runs, filter: filter, args: args)
            } else if try args[Options.Bench.limits] != nil {
                throw UsageError(message: "--limits goes with --check", command: named("bench"))
            }
            var results = try runBenchmarks(runs: runs, filter: filter)
            results += try runGPUBenchmarks(runs: runs, filter: filter, args: args)
            results += try runMeshBenchmarks(runs: runs, filter: filter, args: args)
            results += try runSkyBenchmarks(runs: runs, filter: filter, args: args)
            results += try runPhysicalSkyBenchmarks(runs: runs, filter: filter, args: args)
            results += try runParticleBenchmarks(runs: runs, filter: filter, args: args)
            results += try runSceneBenchmarks(runs: runs, filter: filter, args: args)
            results += try runDefaultFadeBenchmarks(runs: runs, filter: filter, args: args)
            results += try runExportBenchmarks(runs: runs, filter: filter, args: args)
            if json {
                let rows = results.map { r in
                    "  {\"name\": \"\(r.name)\", \"unit\": \"\(r.unit)\", \"value\": \(jsonNumber(r.value))}"
                }
                print("[\n" + rows.joined(separator: ",\n") + "\n]")
            } else if markdown {
                print(markdownTable(results, runs: runs, filter: filterText))
            } else {
                let width = results.map(\.name.count).max() ?? 0
                for r in results {
                    print(r.name + String(repeating: " ", count: width - r.name.count + 2)
                          + String(format: "%10.3f", r.value) + " " + r.unit)
                }
            }
            return 0
        })

    static func runBenchmarks(runs: Int, filter: BenchFilter) throws -> [BenchResult] {
        var results: [BenchResult] = []
        let wanted = filter.wants
        let renderer = ReferenceRenderer()
        // (entry key, gradient, dither, whether a ratio is reported). cairo has no dither: the
        // dithered entries take the same cairo drawing as their baseline.
        let entries: [(String, Gradient, Bool, Bool)] = [
            ("linear", BenchScenes.linear, false, true), ("radial", BenchScenes.radial, false, false),
            ("vertical", BenchScenes.vertical, true, true), ("vertical-nodither", BenchScenes.vertical, false, true),
            ("horizontal", BenchScenes.horizontal, true, true), ("horizontal-nodither", BenchScenes.horizontal, false, true),
        ]
        for (key, gradient, dither, hasRatio) in entries {
            let baseKey = key.replacingOccurrences(of: "-nodither", with: "")
            let referenceName = "reference.\(key).1080p", cairoName = "cairo.\(baseKey).1080p"
            let ratioName = "reference.\(key).cairo-ratio"
            // A -nodither entry shares its cairo row with the dithered one (reported once).
            let reportsCairo = key == baseKey && wanted(cairoName)
            guard wanted(referenceName) || reportsCairo || (hasRatio && wanted(ratioName)) else { continue }
            let frame = Frame(scene: BenchScenes.scene(gradient, dither: dither), time: 0)
            let surface = CairoBaseline.makeSurface(width: BenchScenes.size.x, height: BenchScenes.size.y)
            defer { cairo_surface_destroy(surface) }
            // Both draw into a buffer they keep from run to run, as cairo draws into its surface.
            var image = Image(width: BenchScenes.size.x, height: BenchScenes.size.y)
            let (reference, cairo) = try interleavedMedians(runs: runs, { try renderer.render(frame, into: &image) }, {
                CairoBaseline.paint(gradient, width: BenchScenes.size.x, height: BenchScenes.size.y, surface: surface)
            })
            if wanted(referenceName) { results.append(BenchResult(name: referenceName, unit: "ms", value: reference)) }
            if reportsCairo { results.append(BenchResult(name: cairoName, unit: "ms", value: cairo)) }
            if hasRatio && wanted(ratioName) {
                results.append(BenchResult(name: ratioName, unit: "ratio", value: reference / cairo))
            }
        }
        return results
    }
}

extension Commands {
    /// The checkout's Scenes/ folder (the GPU benchmarks draw the example scenes).
    static func scenesDirectory(_ library: ShaderLibrary) -> String? {
        let candidate = (library.directory as NSString).deletingLastPathComponent + "/Scenes"
        return FileManager.default.fileExists(atPath: candidate + "/day-gradient.json") ? candidate : nil
    }

    /// An example scene from the checkout's Scenes/ at 1280×720, for the GPU benchmarks.
    /// `interactive`: a viewer's frame (FrameOptions.interactive).
    static func exampleFrame(_ file: String, time: Double, size: SIMD2<Int> = SIMD2(1280, 720), interactive: Bool = false,
                             renderer: GLRenderer) throws -> Frame {
        Frame(scene: try exampleScene(file, renderer: renderer), time: time, pixelSize: size, options: FrameOptions(interactive: interactive))
    }

    static func exampleScene(_ file: String, renderer: GLRenderer) throws -> Scene {
        guard let scenes = scenesDirectory(renderer.shaders) else {
            throw Failure(message: "welkin bench: the GPU benchmarks draw Scenes/\(file); run from a checkout")
        }
        return try SceneLoader.load(path: scenes + "/" + file)
    }

    /// Median milliseconds of a GPU frame and of a bare full-screen pass of the same size, timed
    /// interleaved so both see the same load on a shared machine; glFinish after each. With each,
    /// the median GPU time of the same runs from the timer queries (nil without GL_TIME_ELAPSED).
    static func gpuFrameAndBarePass(_ renderer: GLRenderer, _ frame: Frame, runs: Int)
        throws -> (frame: Double, bare: Double, frameGPU: Double?, bareGPU: Double?) {
        try gpuFrameAndBarePass(renderer, frames: { _ in frame }, runs: runs)
    }

    /// The same with the k-th timed frame from `frames` (a viewer's frames, one a tick apart).
    static func gpuFrameAndBarePass(_ renderer: GLRenderer, frames: (Int) -> Frame, runs: Int)
        throws -> (frame: Double, bare: Double, frameGPU: Double?, bareGPU: Double?) {
        let frameGPU = GPUTimes(renderer), bareGPU = GPUTimes(renderer)
        var k = 0
        let size = frames(0).pixelSize
        return try benchDraw(nil) {
            let (f, b) = try interleavedMedians(runs: runs, { try renderer.draw(frames(k)); k += 1; renderer.finish(); frameGPU.record() },
                                                { try renderer.drawBarePass(pixelSize: size); renderer.finish(); bareGPU.record() })
            return (f, b, frameGPU.median(last: runs), bareGPU.median(last: runs))
        }
    }

    /// Runs `body` (GPU draws of the benchmark `name`), its errors as `welkin bench: NAME: sentence`.
    static func benchDraw<T>(_ name: String?, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as any UserFacingError {
            throw Failure(message: "welkin bench: " + (name.map { "\($0): " } ?? "") + e.message)
        }
    }

    static func runGPUBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        let names = ["gpu.day-gradient.720p", "gpu.bare-pass.720p", "gpu.day-gradient.ratio"]
        guard names.contains(where: wanted) else { return [] }
        let renderer = try headlessRenderer(args)
        let t = try gpuFrameAndBarePass(renderer, try exampleFrame("day-gradient.json", time: 0, renderer: renderer), runs: runs)
        return ([BenchResult(name: names[0], unit: "ms", value: t.frame)] + gpuTimeResult(names[0], t.frameGPU)
                + [BenchResult(name: names[1], unit: "ms", value: t.bare)] + gpuTimeResult(names[1], t.bareGPU)
                + [BenchResult(name: names[2], unit: "ratio", value: t.frame / t.bare)]).filter { wanted($0.name) }
    }
}

/// The GPU's own time for each timed run of a GPU entry, from the renderer's GL_TIME_ELAPSED
/// queries: reported beside the wall time as `ENTRY.gputime`, so the bench separates GPU work from
/// CPU work (frame building, simulation, upload, driver overhead).
final class GPUTimes {
    let renderer: GLRenderer
    private(set) var samples: [Double] = []

    init(_ renderer: GLRenderer) { self.renderer = renderer }

    /// Reads the frame just finished (call after glFinish; warm-up runs record too). Nothing on
    /// software rasterisers, whose timer queries do not time frames (GPUTimer.measuresFrames).
    func record() {
        guard renderer.gpuTimer.measuresFrames else { return }
        if let ms = renderer.gpuTimer.waitForLast() { samples.append(ms) }
    }

    /// The median of the last `runs` samples (the timed runs, after the warm-ups); nil when the
    /// context has no timer queries that time frames, or some runs went untimed.
    func median(last runs: Int) -> Double? {
        guard samples.count >= runs, runs > 0 else { return nil }
        let s = samples.suffix(runs).sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// `ENTRY.gputime` for a GPU entry, or nothing when the context cannot time.
func gpuTimeResult(_ entry: String, _ ms: Double?) -> [BenchResult] {
    ms.map { [BenchResult(name: entry + ".gputime", unit: "ms", value: $0)] } ?? []
}

/// The results as the Markdown table the docs include: the command that made it, then one row an
/// entry (its median to four significant figures).
func markdownTable(_ results: [BenchResult], runs: Int, filter: String?) -> String {
    let command = "welkin bench --markdown --runs \(runs)" + (filter.map { " --filter \($0)" } ?? "")
    var lines = ["Medians of \(runs) runs, from `\(command)`:", "", "| entry | median | unit |", "|---|---:|---|"]
    for r in results {
        lines.append("| `\(r.name)` | \(significant(r.value)) | \(r.unit) |")
    }
    return lines.joined(separator: "\n")
}

/// `v` to four significant figures, without an exponent or trailing zeros after the point.
func significant(_ v: Double) -> String {
    guard v.isFinite, v != 0 else { return v.isFinite ? "0" : "\(v)" }
    let digits = max(0, 3 - Int(log10(abs(v)).rounded(.down)))
    var text = String(format: "%.\(digits)f", v)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text
}

func jsonNumber(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    return String(format: "%.6g", v)
}

/// `--filter A,B`: the entries whose name contains A or B; every entry without a filter.
struct BenchFilter {
    let parts: [String]

    init(_ text: String?) {
        parts = text.map { $0.split(separator: ",").map(String.init).filter { !$0.isEmpty } } ?? []
    }

    func wants(_ name: String) -> Bool { parts.isEmpty || parts.contains { name.contains($0) } }
}
