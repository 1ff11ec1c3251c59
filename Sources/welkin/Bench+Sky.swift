// `welkin bench` entries for the sky: Scenes/sunset-clouds.json on the GPU against the bare pass,
// and on the CPU reference.

import Foundation
import WelkinAstronomy
import WelkinCore
import WelkinGL
import WelkinReference

extension Commands {
    static let skyBenchEntries = """
          gpu.sunset-clouds.720p       GPU frame, Scenes/sunset-clouds.json at 1280×720 as the viewer draws it while it
                                       plays (t = k/60), headless, glFinish (ms)
          gpu.clouds.final.1080p       GPU, the same scene at 1920×1080 at final quality (a render's: every pixel marched)
                                       (ms, target ≤ 1500)
          gpu.sunset-clouds.bare-pass  the bare full-screen pass, timed interleaved with it (ms, baseline)
          gpu.sunset-clouds.ratio      gpu.sunset-clouds.720p / gpu.sunset-clouds.bare-pass (target ≤ 4)
          reference.sunset-clouds.720p CPU reference, the same frame (ms)
          sky.physical.tables          the physical sky's transmittance and multiple-scattering tables for a new
                                       atmosphere, geometry cached as a slider leaves it (ms, target ≤ 150)
          sky.physical.slider          a changed coefficient: Scenes/physical-day.json's Frame at 1280×720 with a new
                                       Mie coefficient (tables + sky-view table) drawn, glFinish (ms, target ≤ 50)
          sky.physical.slider.viewer   the same change as the viewer draws it: its frame while the new tables are built
                                       in the background (TablesInBackground), the last atmosphere drawn meanwhile (ms)
          sky.physical.sky-view        one sky-view table for a new sun elevation: the cost a moving sun adds per frame (ms)
          reference.physical-day.1080p CPU reference, Scenes/physical-day.json at 1920×1080 (ms, target ≤ 1500)
          reference.clouds.1080p       CPU reference, Scenes/sunset-clouds.json's volumetric cumulus at 1920×1080 (ms,
                                       target ≤ 2000)
          sky.stars.positions          every catalogue star's place for a new date (a new epoch each run: proper
                                       motion, aberration, precession-nutation, then the horizon) (ms, target ≤ 20)
          sky.night.frame              Scenes/night-paris.json's Frame at 1280×720 with its clock running a minute a
                                       frame: stars, planets, Moon, binning (the CPU side of a running night) (ms)
        """

    static func runPhysicalSkyBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        var results: [BenchResult] = []
        // Every run a coefficient no cache has seen (the geometry stays, as a panel slider leaves it).
        var k = 0
        func fresh() -> Atmosphere {
            k += 1
            var a = Atmosphere()
            a.mieScattering = 3.996 * (1 + Double(k) * 1e-6)
            a.mieExtinction = 4.40 * (1 + Double(k) * 1e-6)
            return a
        }
        if wanted("sky.physical.tables") {
            let ms = try medianMilliseconds(runs: runs, warmup: 1) { _ = AtmosphereTables(AtmosphereCoefficients(fresh())) }
            results.append(BenchResult(name: "sky.physical.tables", unit: "ms", value: ms))
        }
        if wanted("sky.physical.sky-view") {
            let tables = AtmosphereTables.shared(for: AtmosphereCoefficients(Atmosphere()))
            var e = 10.0
            let ms = try medianMilliseconds(runs: runs, warmup: 1) {
                e += 0.01
                _ = SkyViewTable(SkyViewTable.Key(coefficients: tables.coefficients, altitude: 0.001, sunElevation: e), tables: tables)
            }
            results.append(BenchResult(name: "sky.physical.sky-view", unit: "ms", value: ms))
        }
        if wanted("sky.stars.positions"), let catalog = StarCatalog.shared {
            // A date a day later each run: a new epoch, nothing cached.
            var seconds = 1_735_932_600.0
            let observer = Observer(latitude: 48.8566, longitude: 2.3522)
            let ms = try medianMilliseconds(runs: runs, warmup: 1) {
                seconds += 86_400
                _ = catalog.places(time: AstroTime(unixSeconds: seconds), observer: observer)
            }
            results.append(BenchResult(name: "sky.stars.positions", unit: "ms", value: ms))
        }
        if wanted("sky.night.frame") {
            let renderer = try headlessRenderer(args)
            guard let directory = scenesDirectory(renderer.shaders) else {
                throw Failure(message: "welkin bench: sky.night.frame builds Scenes/night-paris.json; run from a checkout")
            }
            var scene = try SceneLoader.load(path: directory + "/night-paris.json")
            if case .sky(var layer)? = scene.layers[0].content as? SkyContent, case .computed(let d, let lat, let lon, _) = layer.sun {
                layer.sun = .computed(date: d, latitude: lat, longitude: lon, timeScale: 3600)
                scene.layers[0].content = SkyContent.sky(layer)
            }
            var t = 0.0
            let ms = try medianMilliseconds(runs: runs, warmup: 1) {
                t += 1.0 / 60
                _ = Frame(scene: scene, time: t, pixelSize: SIMD2(1280, 720))
            }
            results.append(BenchResult(name: "sky.night.frame", unit: "ms", value: ms))
        }
        if wanted("reference.clouds.1080p") {
            let renderer = try headlessRenderer(args)
            let frame = try exampleFrame("sunset-clouds.json", time: 0, size: SIMD2(1920, 1080), renderer: renderer)
            let ms = try medianMilliseconds(runs: max(1, runs / 3) | 1, warmup: 1) { _ = try ReferenceRenderer().render(frame) }
            results.append(BenchResult(name: "reference.clouds.1080p", unit: "ms", value: ms))
        }
        let slider = "sky.physical.slider", reference = "reference.physical-day.1080p", viewerSlider = "sky.physical.slider.viewer"
        guard wanted(slider) || wanted(reference) || wanted(viewerSlider) else { return results }
        let renderer = try headlessRenderer(args)
        guard let directory = scenesDirectory(renderer.shaders) else {
            throw Failure(message: "welkin bench: the physical sky entries draw Scenes/physical-day.json; run from a checkout")
        }
        var scene = try SceneLoader.load(path: directory + "/physical-day.json")
        if wanted(slider) {
            let ms = try medianMilliseconds(runs: runs, warmup: 1) {
                if case .sky(var layer)? = scene.layers[0].content as? SkyContent {
                    layer.physical.atmosphere = fresh()
                    scene.layers[0].content = SkyContent.sky(layer)
                }
                try renderer.draw(Frame(scene: scene, time: 0, pixelSize: SIMD2(1280, 720)))
                renderer.finish()
            }
            results.append(BenchResult(name: slider, unit: "ms", value: ms))
        }
        if wanted(viewerSlider) {
            // A slider dragged in the viewer: a new value every frame, the tables of the latest
            // value built on the background queue while the render thread draws.
            let background = TablesInBackground()
            _ = background.scene(scene, time: 0)
            try renderer.draw(Frame(scene: scene, time: 0, pixelSize: SIMD2(1280, 720), options: FrameOptions(interactive: true)))
            let ms = try medianMilliseconds(runs: runs, warmup: 1) {
                if case .sky(var layer)? = scene.layers[0].content as? SkyContent {
                    layer.physical.atmosphere = fresh()
                    scene.layers[0].content = SkyContent.sky(layer)
                }
                let shown = background.scene(scene, time: 0)
                try renderer.draw(Frame(scene: shown, time: 0, pixelSize: SIMD2(1280, 720), options: FrameOptions(interactive: true)))
                renderer.finish()
            }
            results.append(BenchResult(name: viewerSlider, unit: "ms", value: ms))
        }
        if wanted(reference) {
            let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(1920, 1080))
            let ms = try medianMilliseconds(runs: max(1, runs / 3) | 1, warmup: 1) { _ = try ReferenceRenderer().render(frame) }
            results.append(BenchResult(name: reference, unit: "ms", value: ms))
        }
        return results
    }

    static func runSkyBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        let gpuNames = ["gpu.sunset-clouds.720p", "gpu.sunset-clouds.bare-pass", "gpu.sunset-clouds.ratio"]
        let referenceName = "reference.sunset-clouds.720p", finalName = "gpu.clouds.final.1080p"
        guard gpuNames.contains(where: wanted) || wanted(referenceName) || wanted(finalName) else { return [] }
        let renderer = try headlessRenderer(args)
        let frame = try exampleFrame("sunset-clouds.json", time: 0, renderer: renderer)
        var results: [BenchResult] = []
        if gpuNames.contains(where: wanted) {
            let scene = try exampleScene("sunset-clouds.json", renderer: renderer)
            let t = try gpuFrameAndBarePass(renderer, frames: { k in
                Frame(scene: scene, time: Double(k) / 60, pixelSize: SIMD2(1280, 720), options: FrameOptions(interactive: true))
            }, runs: runs)
            results += ([BenchResult(name: gpuNames[0], unit: "ms", value: t.frame)] + gpuTimeResult(gpuNames[0], t.frameGPU)
                        + [BenchResult(name: gpuNames[1], unit: "ms", value: t.bare)] + gpuTimeResult(gpuNames[1], t.bareGPU)
                        + [BenchResult(name: gpuNames[2], unit: "ratio", value: t.frame / t.bare)]).filter { wanted($0.name) }
        }
        if wanted(finalName) {
            let still = try exampleFrame("sunset-clouds.json", time: 0, size: SIMD2(1920, 1080), renderer: renderer)
            let ms = try medianMilliseconds(runs: max(1, runs / 3) | 1, warmup: 1) { try renderer.draw(still); renderer.finish() }
            results.append(BenchResult(name: finalName, unit: "ms", value: ms))
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
