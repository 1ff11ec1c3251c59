// `welkin bench` entries for the sky: Scenes/sunset-clouds.json on the GPU against the bare pass,
// and on the CPU reference.

import Foundation
import WelkinCore
import WelkinGL
import WelkinReference

extension Commands {
    static let skyBenchEntries = """
          gpu.sunset-clouds.720p       GPU frame, Scenes/sunset-clouds.json at 1280×720, headless, glFinish (ms)
          gpu.sunset-clouds.bare-pass  the bare full-screen pass, timed interleaved with it (ms, baseline)
          gpu.sunset-clouds.ratio      gpu.sunset-clouds.720p / gpu.sunset-clouds.bare-pass (target ≤ 4)
          reference.sunset-clouds.720p CPU reference, the same frame (ms)
        """

    static func runSkyBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        let gpuNames = ["gpu.sunset-clouds.720p", "gpu.sunset-clouds.bare-pass", "gpu.sunset-clouds.ratio"]
        let referenceName = "reference.sunset-clouds.720p"
        guard gpuNames.contains(where: wanted) || wanted(referenceName) else { return [] }
        let renderer = try headlessRenderer(args)
        let frame = try exampleFrame("sunset-clouds.json", time: 0, renderer: renderer)
        var results: [BenchResult] = []
        if gpuNames.contains(where: wanted) {
            let t = try gpuFrameAndBarePass(renderer, frame, runs: runs)
            results += ([BenchResult(name: gpuNames[0], unit: "ms", value: t.frame)] + gpuTimeResult(gpuNames[0], t.frameGPU)
                        + [BenchResult(name: gpuNames[1], unit: "ms", value: t.bare)] + gpuTimeResult(gpuNames[1], t.bareGPU)
                        + [BenchResult(name: gpuNames[2], unit: "ratio", value: t.frame / t.bare)]).filter { wanted($0.name) }
        }
        if wanted(referenceName) {
            let reference = ReferenceRenderer()
            // A CPU frame takes long: fewer runs than the GPU entries (still a median), one warm-up.
            let ms = try medianMilliseconds(runs: max(1, runs / 3) | 1, warmup: 1) { _ = try reference.render(frame) }
            results.append(BenchResult(name: referenceName, unit: "ms", value: ms))
        }
        return results
    }
}
