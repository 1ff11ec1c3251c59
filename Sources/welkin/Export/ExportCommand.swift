// `welkin export`: a scene over time to MP4, WebM, GIF or a numbered PNG sequence. Every option,
// OUT's folder and ffmpeg's presence are checked before the first frame is rendered.

import Foundation
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinVideo

extension Commands {
    /// Limits checked before any work (docs/export.md).
    enum ExportLimits {
        static let maximumDuration = 3600.0
        static let maximumFPS = 240.0
        /// Browsers play GIF frame delays under 2 centiseconds at 10 cs: faster GIFs crawl.
        static let maximumGIFFPS = 50.0
        static let maximumSamples = 8
        /// ffmpeg holds every frame of a GIF until the palette is made (1 GiB of RGBA).
        static let maximumGIFPixels = 1 << 28
        static let maximumSide = 16384
        /// Without a natural length (see `naturalDuration`).
        static let defaultDuration = 4.0
        static let defaultFPS = 30.0
    }

    static let export = Command(
        name: "export", summary: "Render a scene over time to a video (MP4, WebM), a GIF or numbered PNGs.",
        usage: "welkin export [SCENE] -o OUT [--from T0] [--to T1 | --duration D] [--fps N] [--size WxH] [--projection P] [--samples K] [--cpu] [--quality CRF] [--loop]"
            + " [--color-space SPACE]",
        discussion: """
        OUT's extension picks the format: .mp4 (H.264), .webm (VP9), .gif (one palette for the clip,
        ordered dithering, looping), or .png with a frame-number pattern such as frames/sky-%04d.png
        (frame k is numbered k, from 0; written by Welkin's PNG writer). Video and GIF need the ffmpeg
        program on PATH. Frame k is the scene at T0 + k / fps, exactly as 'welkin render --time' draws it.
        Default length: one day for a sky with a date and timeScale, until the last weather change has
        faded in for a weather schedule, otherwise 4 s.
        Output goes to a hidden temporary file (or folder) next to OUT and is renamed into place at the
        end: a failure or Ctrl-C leaves no partial file and an existing OUT untouched. Progress goes to
        stderr: a self-updating line on a terminal, a plain line every 5 s otherwise.
        --projection equirect, fisheye or cubemap exports the sky alone as a 360° video, an all-sky dome
        or a cube map's horizontal cross (--size is then one face's), as 'welkin render' draws them.
        """,
        options: [
            Options.Export.output, Options.Export.from, Options.Export.to, Options.Export.duration, Options.Export.fps, Options.size,
            Options.Export.projection, Options.Export.samples, Options.Export.cpu, Options.Export.quality, Options.Export.loop,
            Options.shaders, Options.colorSpace,
        ],
        run: { args in try runExport(args) })

    static func runExport(_ args: Arguments) throws -> Int32 {
        let command = named("export")!
        func usage(_ message: String) -> UsageError { UsageError(message: message, command: command) }
        guard let out = try args[Options.Export.output] else { throw usage("missing -o OUT") }
        let target = try ExportTarget(out)

        let start = try args[Options.Export.from]
        let end = try args[Options.Export.to]
        var duration = try args[Options.Export.duration]
        if end != nil && duration != nil { throw usage("give --to or --duration, not both") }
        if let end {
            guard end > start else { throw usage("--to must be after --from (\(shortSeconds(start)) s), got \(shortSeconds(end))") }
            duration = end - start
        }
        if let d = duration, !(d > 0 && d <= ExportLimits.maximumDuration) {
            throw usage("the clip must last more than 0 and at most \(Int(ExportLimits.maximumDuration)) s, got \(shortSeconds(d)) s")
        }
        let fps = try args[Options.Export.fps]
        if target.format == .gif && fps > ExportLimits.maximumGIFFPS {
            throw usage("--fps \(try args.text(Options.Export.fps)!): a GIF plays at most \(Int(ExportLimits.maximumGIFFPS)) frames per second (browsers slow faster ones down)")
        }
        let samples = try args[Options.Export.samples]
        var quality: Int?
        // Its range depends on the format, so --quality is read as text and checked here.
        if let text = try args[Options.Export.quality] {
            guard let (range, _) = target.format.qualityRange else {
                throw usage("--quality applies to .mp4 and .webm only")
            }
            guard let q = Int(text), range.contains(q) else {
                throw usage("--quality for \(target.format.name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
            }
            quality = q
        }
        let requestedSize = try args[Options.size]

        // The scene: load errors exit 1.
        let scene = try applyingColorSpace(args, to: try loadScene(args, command: command), out: nil, command: command)
        if target.format == .gif && scene.outputColorSpace != .srgb {
            throw usage("a GIF cannot say its colour space (players take it as sRGB): export \(scene.outputColorSpace.displayName) as .mp4, .webm or PNGs, or pass --color-space srgb")
        }
        let projection = try args[Options.Export.projection]
        var size = requestedSize ?? (projection == .view ? scene.size : projection.defaultSize)
        switch projection {
        case .view: break
        case .equirect where size.x != 2 * size.y:
            throw usage("an equirect panorama is twice as wide as it is high; --size \(size.x)x\(size.y) is not")
        case .fisheye, .cubemap:
            guard size.x == size.y else {
                throw usage("\(projection == .fisheye ? "an all-sky fisheye is square" : "a cube map's faces are square (--size is one face's)"); --size \(size.x)x\(size.y) is not")
            }
            if projection == .cubemap { size = SIMD2(4 * size.x, 3 * size.x) }
        default: break
        }
        if target.format == .mp4 && (size.x % 2 != 0 || size.y % 2 != 0) {
            throw usage("H.264 (4:2:0) needs an even width and height, got \(size.x)×\(size.y); pass --size \(size.x + size.x % 2)x\(size.y + size.y % 2)")
        }
        if size.x * samples > ExportLimits.maximumSide || size.y * samples > ExportLimits.maximumSide {
            throw usage("--samples \(samples) renders \(size.x * samples)×\(size.y * samples) pixels; each side must be at most \(ExportLimits.maximumSide)")
        }
        let length = duration ?? naturalDuration(of: scene, from: start) ?? ExportLimits.defaultDuration
        let frameCount = max(1, Int((length * fps - 1e-9).rounded(.up)))
        if target.format == .gif && frameCount * size.x * size.y > ExportLimits.maximumGIFPixels {
            throw usage("a GIF of \(frameCount) frames at \(size.x)×\(size.y) is too large (ffmpeg keeps every frame until the palette is made; at most \(ExportLimits.maximumGIFPixels >> 20) M pixels in all): use a smaller --size, --fps or --duration")
        }
        if let capacity = target.patternCapacity, frameCount > capacity {
            throw usage("'\(target.fileName)' numbers at most \(capacity) frames in order, and the export has \(frameCount): use more digits (%0\(String(frameCount - 1).count)d)")
        }
        let useCPU = try args[Options.Export.cpu]
        let sceneLabel = args.positionals.first ?? "<default scene>"
        if useCPU, let index = scene.layers.firstIndex(where: { $0.content is ShaderLayer }) {
            throw Failure(message: "\(sceneLabel): layers[\(index)] is a user shader, which the CPU reference cannot run; export without --cpu")
        }
        try target.checkWritable(frameCount: frameCount)
        var ffmpeg: URL?
        if target.format.usesFFmpeg {
            guard let found = FFmpegEncoder.locate() else {
                throw Failure(message: "welkin: exporting \(target.format.name) needs the ffmpeg program, and there is none on PATH (Debian: apt install ffmpeg); a PNG sequence (-o frames/%04d.png) needs no ffmpeg")
            }
            ffmpeg = found
        }

        let renderer: ExportRenderer = useCPU ? .cpu(ReferenceRenderer()) : .gpu(try headlessRenderer(args))
        let settings = ExportSettings(scene: scene, target: target, start: start, fps: fps, frameCount: frameCount,
                                      size: size, samples: samples, quality: quality, loop: try args[Options.Export.loop], projection: projection)
        if projection != .view { warnOmitted(Frame(scene: scene, time: start, pixelSize: SIMD2(8, 4), options: FrameOptions(projection: .equirect)), scene: sceneLabel) }
        let exporter = Exporter(settings: settings, renderer: renderer, makeSink: { try makeSink(settings, ffmpeg: ffmpeg) })
        let summary = try exporter.run(progress: ExportProgress(total: frameCount), handlesSignals: true)
        let rate = Double(frameCount) / max(summary.seconds, 1e-9)
        print("wrote \(summary.written) (\(frameCount) frames, \(size.x)×\(size.y), \(shortSeconds(fps)) fps, "
               + "t = \(shortSeconds(start)) … \(shortSeconds(settings.time(ofFrame: frameCount - 1))) s, \(target.format.name), \(renderer.description); "
              + "\(String(format: "%.1f", summary.seconds)) s, \(String(format: "%.1f", rate)) frames/s)")
        return 0
    }

    /// Seconds for messages: at most three decimals, no trailing zeros (1.967, 2, 0.5).
    static func shortSeconds(_ t: Double) -> String {
        var text = String(format: "%.3f", t)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// The sink for the settings' format; creates the temporary output (fails on a read-only folder).
    static func makeSink(_ settings: ExportSettings, ffmpeg: URL?) throws -> FrameSink {
        if settings.target.format.usesFFmpeg, let ffmpeg {
            return try FFmpegSink(target: settings.target, executable: ffmpeg, size: settings.size, fps: settings.fps,
                                  quality: settings.quality, colorSpace: settings.scene.outputColorSpace)
        }
        return try PNGSequenceSink(target: settings.target, colorSpace: settings.scene.outputColorSpace)
    }

    /// A scene's natural length from `start`: one day for a sky whose sun follows a date with a
    /// timeScale, and until the last scheduled weather change has faded in; nil when neither
    /// applies or it would exceed the duration limit.
    static func naturalDuration(of scene: Scene, from start: Double) -> Double? {
        var lengths: [Double] = []
        for layer in scene.layers {
            if case .sky(let sky)? = layer.content as? SkyContent, case .computed(_, _, _, let timeScale) = sky.sun, timeScale > 0 {
                lengths.append(86400 / timeScale)
            }
        }
        if let weather = scene.weather, let last = weather.schedule.last {
            lengths.append(last.at + weather.transition - start)
        }
        return lengths.filter { $0 > 0 && $0 <= ExportLimits.maximumDuration }.max()
    }
}

extension Options {
    /// `welkin export`'s own options.
    enum Export {
        typealias Limits = Commands.ExportLimits
        static let output = Options.output.with(value: "OUT", help: "Where to write: .mp4, .webm, .gif, or a .png pattern such as frames/sky-%04d.png (required).")
        static let from = Option<Double>("--from", value: "T0", help: "Scene time of the first frame, seconds (default 0).", default: 0, convert: seconds)
        static let to = Option<Double?>("--to", value: "T1", help: "End time, seconds (the last frame is before it).", convert: seconds)
        static let duration = Option<Double?>("--duration", value: "D", help: "Length in seconds, ≤ 3600 (default: the scene's natural length, else 4).",
                                              convert: seconds)
        static let fps = Option<Double>("--fps", value: "N", help: "Frames per second, ≤ 240 (≤ 50 for GIF; default 30).", default: Limits.defaultFPS,
                                        convert: OptionConversion.number("frames per second, more than 0 and at most \(Int(Limits.maximumFPS))",
                                                                         where: { $0 > 0 && $0 <= Limits.maximumFPS }))
        static let projection = Options.projection.with(
            help: "view (default), equirect (2:1), fisheye (square) or cubemap (the faces' cross; --size is a face's).")
        static let samples = Option<Int>("--samples", value: "K", help: "Supersample: render K× larger and average K×K blocks, 1…8 (default 1).",
                                         default: 1, convert: OptionConversion.wholeNumber("a whole number in 1…\(Limits.maximumSamples)",
                                                                                           where: { (1...Limits.maximumSamples).contains($0) }))
        static let cpu = Flag("--cpu", help: "Use the CPU reference renderer instead of the GPU (no user shader layers).")
        /// Text: its range is the format's (`ExportFormat.qualityRange`), checked once the output is known.
        static let quality = Option<String?>("--quality", value: "CRF",
                                             help: "Constant rate factor, lower is better: .mp4 0…51 (default 18), .webm 0…63 (default 30).",
                                             convert: OptionConversion.text)
        static let loop = Flag("--loop", help: "A seamless loop: particles repeat every clip length; the rest cross-fades over the last second (at most a quarter of the clip).")

        /// A clip's times: finite, within ±10⁹ s.
        static let seconds = OptionConversion.number("a number of seconds", where: { abs($0) <= 1e9 })
    }
}
