// `welkin bench` entries for every example scene: what a frame costs in the viewer at 1280×720.

import Foundation
import WelkinCore
import WelkinGL

extension Commands {
    static let sceneBenchEntries = """
          gpu.scene.NAME.720p          one per file in Scenes/ (user-shader scenes aside): a viewer frame at 1280×720,
                                       headless — the Frame at t = 1.5 s + k/60 built (simulation included) and
                                       drawn, glFinish (ms, median; budget ≤ 16.7); with gpu.scene.NAME.720p.gputime
        """

    /// The example scenes the per-scene entries draw: every `Scenes/*.json` without a user shader.
    static func benchScenes(_ directory: String) throws -> [(name: String, scene: Scene)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        return try files.compactMap { file in
            let scene = try SceneLoader.load(path: directory + "/" + file)
            let hasShader = scene.layers.contains { $0.content is ShaderLayer }
            return hasShader ? nil : (String(file.dropLast(5)), scene)
        }
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
            let entry = "gpu.scene.\(name).720p"
            guard filter.wants(entry) else { continue }
            var k = 0
            let gpu = GPUTimes(renderer)
            let ms = try medianMilliseconds(runs: runs) {
                let frame = Frame(scene: scene, time: 1.5 + Double(k) / 60, pixelSize: SIMD2(1280, 720))
                k += 1
                try benchDraw(entry) { try renderer.draw(frame) }
                renderer.finish()
                gpu.record()
            }
            results.append(BenchResult(name: entry, unit: "ms", value: ms))
            results += gpuTimeResult(entry, gpu.median(last: runs))
        }
        return results
    }
}
