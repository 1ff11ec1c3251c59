// `welkin bench` entries for mesh gradients: the CPU reference against cairo's mesh pattern, and
// the GPU frame against one bare full-screen pass.
//
//   reference.mesh4x4.1080p        CPU reference, 4×4-vertex curved mesh, bilinear, 1920×1080 (ms, tessellation included)
//   cairo.mesh4x4.1080p            cairo drawing the same Coons patches (ms, baseline)
//   reference.mesh4x4.cairo-ratio  reference / cairo (target ≤ 0.25)
//   gpu.mesh.720p                  GPU frame, Scenes/mesh-seed.json at t = 1.5 s, 1280×720, glFinish (ms)
//   gpu.mesh.ratio                 gpu.mesh.720p / a bare full-screen pass timed in the same run (target ≤ 3)

import CCairo
import Foundation
import WelkinBaselines
import WelkinCore
import WelkinGL
import WelkinReference

enum MeshBench {
    /// A 4×4 mesh over the whole frame with moved interior points (curved patches), bilinear
    /// colours as cairo draws them.
    static let mesh: MeshGradient = {
        let points: [UnitPoint] = [[0, 0], [0.33, 0], [0.67, 0], [1, 0],
                                   [0, 0.33], [0.25, 0.42], [0.72, 0.28], [1, 0.33],
                                   [0, 0.67], [0.38, 0.58], [0.62, 0.75], [1, 0.67],
                                   [0, 1], [0.33, 1], [0.67, 1], [1, 1]]
        let colors = ["purple", "red", "orange", "yellow", "blue", "green", "mint", "orange",
                      "indigo", "teal", "cyan", "pink", "indigo", "blue", "teal", "cyan"].map { RGBA.named($0)! }
        var m = MeshGradient(width: 4, height: 4, vertices: .points(points), colors: colors)
        m.smoothsColors = false
        return m
    }()

    static func scene() -> Scene {
        var s = Scene()
        s.size = BenchScenes.size
        s.dither = false
        s.layers = [Layer(content: mesh)]
        return s
    }
}

extension Commands {
    static func runMeshBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        var results: [BenchResult] = []
        let cpuNames = ["reference.mesh4x4.1080p", "cairo.mesh4x4.1080p", "reference.mesh4x4.cairo-ratio"]
        if cpuNames.contains(where: wanted) {
            let scene = MeshBench.scene()
            let renderer = ReferenceRenderer()
            let surface = CairoBaseline.makeSurface(width: BenchScenes.size.x, height: BenchScenes.size.y)
            defer { cairo_surface_destroy(surface) }
            // Interleaved, so both see the same load on a shared machine.
            let (reference, cairo) = try interleavedMedians(runs: runs, { _ = try renderer.render(Frame(scene: scene, time: 0)) }, {
                CairoBaseline.paint(MeshBench.mesh, size: BenchScenes.size, surface: surface)
            })
            results += [BenchResult(name: cpuNames[0], unit: "ms", value: reference),
                        BenchResult(name: cpuNames[1], unit: "ms", value: cairo),
                        BenchResult(name: cpuNames[2], unit: "ratio", value: reference / cairo)].filter { wanted($0.name) }
        }
        let gpuNames = ["gpu.mesh.720p", "gpu.mesh.ratio"]
        if gpuNames.contains(where: wanted) {
            let renderer = try headlessRenderer(args)
            let (mesh, bare) = try gpuFrameAndBarePass(renderer, try exampleFrame("mesh-seed.json", time: 1.5, renderer: renderer), runs: runs)
            results += [BenchResult(name: gpuNames[0], unit: "ms", value: mesh),
                        BenchResult(name: gpuNames[1], unit: "ratio", value: mesh / bare)].filter { wanted($0.name) }
        }
        return results
    }
}
