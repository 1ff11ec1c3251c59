// `welkin bench` entries for export: a whole MP4 export of Scenes/snow.json (render, readback and
// encoding overlapped) against ffmpeg alone fed the same frames from memory, timed interleaved.

import Foundation
import WelkinCore
import WelkinImage
import WelkinGL
import WelkinReference
import WelkinVideo

extension Commands {
    static let exportBenchEntries = """
          export.snow.720p             frames/s exporting a 4 s MP4 of Scenes/snow.json, 1280×720, 30 fps (GPU + ffmpeg)
          export.encoder.720p          frames/s of ffmpeg alone, fed the same 120 frames pre-rendered in memory (baseline)
          export.snow.encoder-ratio    export.snow.720p / export.encoder.720p (1 = rendering costs the export nothing)
        """

    static func runExportBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        let names = ["export.snow.720p", "export.encoder.720p", "export.snow.encoder-ratio"]
        guard names.contains(where: wanted) else { return [] }
        guard let ffmpeg = FFmpegEncoder.locate() else {
            throw Failure(message: "welkin bench: the export entries need the ffmpeg program on PATH (Debian: apt install ffmpeg)")
        }
        let renderer = try headlessRenderer(args)
        guard let scenes = scenesDirectory(renderer.shaders) else {
            throw Failure(message: "welkin bench: the export benchmarks draw Scenes/snow.json; run from a checkout")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-bench-export-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let settings = ExportSettings(scene: try SceneLoader.load(path: scenes + "/snow.json"),
                                      target: try ExportTarget(folder + "/snow.mp4"), start: 0, fps: 30, frameCount: 120,
                                      size: SIMD2(1280, 720))
        // The encoder's input, rendered once: the very frames the export produces.
        var frames: [Image] = []
        for k in 0..<settings.frameCount {
            frames.append(try gpuRender(renderer, Frame(scene: settings.scene, time: settings.time(ofFrame: k), pixelSize: settings.size), of: settings.scene))
        }
        func export() throws {
            let exporter = Exporter(settings: settings, renderer: .gpu(renderer), makeSink: { try makeSink(settings, ffmpeg: ffmpeg) })
            _ = try exporter.run(progress: nil, handlesSignals: false)
        }
        func encodeOnly() throws {
            let sink = try makeSink(settings, ffmpeg: ffmpeg)
            do {
                for (k, image) in frames.enumerated() { try sink.write(image, index: k) }
                try sink.finish()
                _ = try sink.moveIntoPlace()
            } catch {
                sink.discard()
                throw error
            }
        }
        // A whole export takes seconds: a fifth of the runs (odd, for a true median), one warm-up.
        let (exportMs, encoderMs) = try interleavedMedians(runs: max(1, runs / 5) | 1, warmup: 1, export, encodeOnly)
        let exportFPS = Double(settings.frameCount) / (exportMs / 1000)
        let encoderFPS = Double(settings.frameCount) / (encoderMs / 1000)
        return [BenchResult(name: names[0], unit: "frames/s", value: exportFPS),
                BenchResult(name: names[1], unit: "frames/s", value: encoderFPS),
                BenchResult(name: names[2], unit: "ratio", value: exportFPS / encoderFPS)].filter { wanted($0.name) }
    }
}
