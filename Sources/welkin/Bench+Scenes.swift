// `welkin bench` entries for every example scene: what a frame costs in the viewer at 1280×720.

import Foundation
import WelkinCore
import WelkinGL

extension Commands {
    static let sceneBenchEntries = """
          gpu.scene.NAME.720p          one per file in Scenes/ (user-shader scenes aside): a viewer frame at 1280×720
                                       (interactive: the clouds at their viewer quality), headless — the Frame at
                                       t = 1.5 s + k/60 built (simulation included) and
                                       drawn, glFinish (ms, median; budget ≤ 16.7); with gpu.scene.NAME.720p.gputime
          gpu.default.steady.720p      the built-in default scene at 1280×720, frames at t = 3 s + k/60 (clear, no weather fade) (ms)
          gpu.default.fade.720p        the same at t = 7 s + k/60, inside the 6–9 s cross-fade from clear to snow (ms)
          gpu.default.fade.ratio       fade ÷ steady, timed alternately (target ≤ 1.2: a fade reuses its two end atmospheres)
          gpu.still.redrawn.720p       physical-day's frame at 1.5 s built and drawn again and again: a frame where nothing
                                       moved (the viewer redraws on every tick of a playing scene, and on a panel or console
                                       redraw), before reuse (ms)
          gpu.still.reused.720p        the same with reusesUnchangedFrames, as the viewer draws: the frame built and compared,
                                       not drawn (ms)
          gpu.default.sun.720p         120 consecutive frames of the default scene from t = 1 s (its sun sinking at 120× time;
                                       a new sky-view table every 0.25° of sun): the median frame (ms)
          gpu.default.sun.p99          the 99th percentile of the same frames (ms)
          gpu.default.sun.p99.ratio    p99 ÷ median (target ≤ 1.5: no frame pays for a table alone)
          gpu.scene.NAME.ratio         that frame ÷ a bare full-screen pass of the same size timed alternately with it
                                       (what `welkin bench --check` holds to the limits in Tests/Bench/limits.json)
        """

    /// A viewer's frame options (the clouds at their viewer quality).
    static let viewer = FrameOptions(interactive: true)

    /// The example scenes the per-scene entries draw: every `Scenes/*.json` without a user shader.
    static func benchScenes(_ directory: String) throws -> [(name: String, scene: Scene)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        return try files.compactMap { file in
            let scene = try SceneLoader.load(path: directory + "/" + file)
            let hasShader = scene.layers.contains { $0.content is ShaderLayer }
            return hasShader ? nil : (String(file.dropLast(5)), scene)
        }
    }

    static func runDefaultFadeBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let names = ["gpu.default.steady.720p", "gpu.default.fade.720p", "gpu.default.fade.ratio"]
        var results = try runDefaultSunBenchmarks(filter: filter, args: args)
        results += try runPausedBenchmarks(runs: runs, filter: filter, args: args)
        guard names.contains(where: filter.wants) else { return results }
        let renderer = try headlessRenderer(args)
        let scene = Scene.defaultScene
        var k = 0, j = 0
        let size = SIMD2(1280, 720)
        let (steady, fade) = try interleavedMedians(runs: runs, {
            try renderer.draw(Frame(scene: scene, time: 3 + Double(k) / 60, pixelSize: size, options: viewer)); k += 1
            renderer.finish()
        }, {
            try renderer.draw(Frame(scene: scene, time: 7 + Double(j) / 60, pixelSize: size, options: viewer)); j += 1
            renderer.finish()
        })
        results += [BenchResult(name: names[0], unit: "ms", value: steady), BenchResult(name: names[1], unit: "ms", value: fade),
                    BenchResult(name: names[2], unit: "ratio", value: fade / steady)].filter { filter.wants($0.name) }
        return results
    }

    /// A frame where nothing moved: the same frame of physical-day again and again, with and
    /// without `reusesUnchangedFrames`.
    static func runPausedBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let names = ["gpu.still.redrawn.720p", "gpu.still.reused.720p"]
        guard names.contains(where: filter.wants) else { return [] }
        let renderer = try headlessRenderer(args)
        // The frame built anew each time, as the viewer builds it.
        let scene = try exampleFrame("physical-day.json", time: 1.5, renderer: renderer)
        guard let directory = scenesDirectory(renderer.shaders) else { return [] }
        let loaded = try SceneLoader.load(path: directory + "/physical-day.json")
        func frame() -> Frame { Frame(scene: loaded, time: 1.5, pixelSize: scene.pixelSize, options: viewer) }
        let redrawn = try medianMilliseconds(runs: runs) { try renderer.draw(frame()); renderer.finish() }
        renderer.reusesUnchangedFrames = true
        let reused = try medianMilliseconds(runs: runs) { try renderer.draw(frame()); renderer.finish() }
        return [BenchResult(name: names[0], unit: "ms", value: redrawn), BenchResult(name: names[1], unit: "ms", value: reused)]
            .filter { filter.wants($0.name) }
    }

    /// The default scene's frames one after another, as the viewer draws them while its sun moves:
    /// the median and the 99th percentile (a frame that builds a sky-view table on its own shows there).
    static func runDefaultSunBenchmarks(filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let names = ["gpu.default.sun.720p", "gpu.default.sun.p99", "gpu.default.sun.p99.ratio"]
        guard names.contains(where: filter.wants) else { return [] }
        let renderer = try headlessRenderer(args)
        let scene = Scene.defaultScene
        let size = SIMD2(1280, 720)
        // Warm-up: programs built, the atmosphere's tables made (a new atmosphere is not this entry's cost).
        for k in 0..<2 { try renderer.draw(Frame(scene: scene, time: 0.5 + Double(k) / 60, pixelSize: size, options: viewer)); renderer.finish() }
        var samples: [Double] = []
        for k in 0..<120 {
            let start = DispatchTime.now().uptimeNanoseconds
            try renderer.draw(Frame(scene: scene, time: 1 + Double(k) / 60, pixelSize: size, options: viewer))
            renderer.finish()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        let median = (samples[59] + samples[60]) / 2
        let p99 = samples[Int((Double(samples.count - 1) * 0.99).rounded(.up))]
        return [BenchResult(name: names[0], unit: "ms", value: median), BenchResult(name: names[1], unit: "ms", value: p99),
                BenchResult(name: names[2], unit: "ratio", value: p99 / median)].filter { filter.wants($0.name) }
    }

    static func runSceneBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        guard filter.parts.isEmpty || filter.parts.contains(where: { "gpu.scene.".contains($0) || $0.hasPrefix("gpu.scene.") }) else {
            return []
        }
        let renderer = try headlessRenderer(args)
        guard let directory = scenesDirectory(renderer.shaders) else {
            throw Failure(message: "welkin bench: the scene entries draw Scenes/*.json; run from a checkout")
        }
        var results: [BenchResult] = []
        for (name, scene) in try benchScenes(directory) {
            let entry = "gpu.scene.\(name).720p", ratioEntry = "gpu.scene.\(name).ratio"
            guard filter.wants(entry) || filter.wants(ratioEntry) else { continue }
            var k = 0
            let gpu = GPUTimes(renderer)
            let size = SIMD2(1280, 720)
            // Interleaved with a bare pass of the same size, so the ratio holds on a busy machine.
            let (ms, bare) = try interleavedMedians(runs: runs, {
                let frame = Frame(scene: scene, time: 1.5 + Double(k) / 60, pixelSize: size, options: viewer)
                k += 1
                try benchDraw(entry) { try renderer.draw(frame) }
                renderer.finish()
                gpu.record()
            }, {
                try renderer.drawBarePass(pixelSize: size)
                renderer.finish()
            })
            if filter.wants(entry) {
                results.append(BenchResult(name: entry, unit: "ms", value: ms))
                results += gpuTimeResult(entry, gpu.median(last: runs))
            }
            if filter.wants(ratioEntry) { results.append(BenchResult(name: ratioEntry, unit: "ratio", value: ms / bare)) }
        }
        return results
    }
}
