// `welkin soak`: draw scenes headless for a while and watch the process's memory and GL objects.

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage
@preconcurrency import CEpoxy

extension Commands {
    static let soak = Command(
        name: "soak", summary: "Draw scenes headless for a while; fail if memory or GL objects grow.",
        usage: "welkin soak SCENE... [--seconds S] [--size WxH] [--cpu-every N]",
        discussion: """
        Each scene is drawn frame after frame on the GPU at the scene clock (frame k at k/60 s, so
        particles are born and die and weather changes), with a read-back every frame like an export,
        and a CPU reference frame every N frames (default 30). Resident memory is sampled every
        second. Warm-up is the first fifth of the time (at least 2 s) or, when longer, the time the scene
        takes to settle: its last scheduled weather change faded in, plus the longest life of its
        particles (25 s for the weather's rain and snow), so a scene whose particle count is still
        rising is not mistaken for a leak (a run too short for that is refused). The scene fails when resident
        memory grows more than 1 % (and more than 2 MiB) between the end of the warm-up and the end,
        or when the number of live GL textures, buffers, framebuffers or vertex arrays changes in that
        time. Programs are reported but may grow: they are a cache of shader variants, one per
        combination of sky parts, cloud kinds and weather a scene reaches (the sky keeps at most 48,
        least recently used dropped first). Programs and memory are sampled together
        once a second: growth in a second that made new programs is the cache filling and is reported
        apart; the rest must stay under 1 %.
        `make soak` runs it on snow, fire, weather-tour and mesh-seed.
        """,
        options: [Options.Soak.seconds, Options.Soak.size, Options.Soak.cpuEvery, Options.shaders],
        run: { args in
            let command = named("soak")!
            guard !args.positionals.isEmpty else { throw UsageError(message: "expected at least one scene file", command: command) }
            let seconds = try args[Options.Soak.seconds]
            let cpuEvery = try args[Options.Soak.cpuEvery]
            let size = try args[Options.Soak.size] ?? SIMD2(640, 360)
            let scenes = try args.positionals.map { try SceneLoader.load(path: $0) }
            let renderer = try headlessRenderer(args)
            var failed = false
            for (path, scene) in zip(args.positionals, scenes) {
                let report = try soakScene(scene, renderer: renderer, seconds: seconds, size: size, cpuEvery: cpuEvery)
                print("\(path): \(report.frames) frames in \(String(format: "%.0f", seconds)) s; resident \(mib(report.startRSS)) → \(mib(report.warmRSS)) after warm-up → \(mib(report.endRSS)) at the end (\(String(format: "%+.2f", report.growthPercent)) %\(report.variantsAfterWarmUp > 0 ? ", of which \(mib(report.variantGrowth)) in the seconds \(report.variantsAfterWarmUp) new shader variants were compiled: \(String(format: "%+.2f", report.otherGrowthPercent)) % besides" : "")); GL objects after warm-up: \(report.glBefore); at the end: \(report.glAfter)")
                if !report.passed {
                    printError("\(path): memory or GL objects grew: \(report.reason)")
                    failed = true
                }
            }
            return failed ? 1 : 0
        })

    struct SoakReport {
        var frames = 0
        var startRSS = 0, warmRSS = 0, endRSS = 0
        var glBefore = GLObjectCount(), glAfter = GLObjectCount()
        /// Shader variants compiled after the warm-up, and the memory grown in the seconds they were made.
        var variantsAfterWarmUp = 0, variantGrowth = 0
        var growthPercent: Double { warmRSS > 0 ? Double(endRSS - warmRSS) / Double(warmRSS) * 100 : 0 }
        /// The growth after the warm-up less what new shader variants took.
        var otherGrowth: Int { endRSS - warmRSS - variantGrowth }
        var otherGrowthPercent: Double { warmRSS > 0 ? Double(otherGrowth) / Double(warmRSS) * 100 : 0 }
        var reason: String {
            glGrew ? "GL objects \(glBefore) → \(glAfter)" : "resident memory +\(String(format: "%.2f", otherGrowthPercent)) % after warm-up, besides new shader variants"
        }
        var glGrew: Bool {
            var before = glBefore, after = glAfter
            before.programs = 0; after.programs = 0
            return before != after
        }
        var passed: Bool {
            !glGrew && !(otherGrowthPercent > 1 && otherGrowth > 2 << 20)
        }
    }

    static func soakScene(_ scene: Scene, renderer: GLRenderer, seconds: Double, size: SIMD2<Int>, cpuEvery: Int) throws -> SoakReport {
        var report = SoakReport()
        let reference = ReferenceRendererBox()
        // One frame first, so the programs and textures the scene needs exist before counting.
        _ = try gpuRender(renderer, Frame(scene: scene, time: 0, pixelSize: size), of: scene)
        report.startRSS = residentBytes()
        let start = Date()
        let warmUp = max(2, seconds / 5, settleTime(scene))
        guard warmUp < seconds * 0.8 else {
            throw Failure(message: "welkin soak: \(scene.sourcePath ?? scene.name) takes \(String(format: "%.0f", warmUp)) s to settle (weather schedule and particle lifetimes); soak it for at least \(String(format: "%.0f", (warmUp / 0.8).rounded(.up))) s")
        }
        var warmed = false
        var image = Image(width: size.x, height: size.y)
        // Shader variants are compiled the first time a frame needs them (cloud sprites drifting
        // into new combinations reach new ones long after a scene settles), and each costs llvmpipe
        // megabytes of machine code. Once a second the programs are counted with the memory: a
        // second in which programs were made charges its growth to that cache (bounded: the sky
        // keeps at most 48 variants); a leak grows in the seconds between.
        var programs = GLObjectCount.live().programs, lastRSS = residentBytes(), nextSample = 1.0
        while Date().timeIntervalSince(start) < seconds {
            let frame = Frame(scene: scene, time: Double(report.frames) / 60, pixelSize: size)
            _ = try gpuRender(renderer, frame, of: scene)
            if cpuEvery > 0 && report.frames % cpuEvery == 0 && !frameHasShader(frame) {
                try reference.renderer.render(frame, into: &image)
            }
            report.frames += 1
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= nextSample {   // once a second: the count asks GL about 4096 names
                nextSample = elapsed.rounded(.down) + 1
                let now = GLObjectCount.live().programs, rss = residentBytes()
                if warmed && now > programs {
                    report.variantsAfterWarmUp += now - programs
                    report.variantGrowth += max(0, rss - lastRSS)
                }
                programs = now; lastRSS = rss
            }
            if !warmed && elapsed >= warmUp {
                warmed = true
                report.warmRSS = residentBytes()
                report.glBefore = GLObjectCount.live()
                programs = report.glBefore.programs; lastRSS = report.warmRSS
            }
        }
        report.endRSS = residentBytes()
        if !warmed { report.warmRSS = report.startRSS; report.glBefore = GLObjectCount.live() }
        report.glAfter = GLObjectCount.live()
        return report
    }

    /// Seconds until `scene` reaches its steady state: the last weather change faded in, then the
    /// longest particle life (the weather's rain and snow live as long as their slowest particle
    /// takes to fall through the frame).
    static func settleTime(_ scene: Scene) -> Double {
        var weatherEnd = 0.0
        if let weather = scene.weather {
            weatherEnd = (weather.schedule.last?.at ?? 0) + weather.transition + PrecipitationKind.longestLifetime(in: scene)
        }
        var particles = 0.0
        for layer in scene.layers {
            guard let e = layer.content as? EmitterLayer else { continue }
            for cell in e.cells where cell.enabled {
                particles = max(particles, cell.longestLifetime * e.lifetime)
            }
        }
        return max(weatherEnd, particles)
    }

    static func frameHasShader(_ frame: Frame) -> Bool {
        frame.layers.contains { $0 is ShaderDraw }
    }

    /// Resident set size of this process, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}

import WelkinReference

/// Holds the CPU renderer for the soak (a reference type, so the loop's closure need not copy it).
final class ReferenceRendererBox {
    let renderer = ReferenceRenderer()
}

extension Options {
    /// `welkin soak`'s own options.
    enum Soak {
        static let seconds = Option<Double>("--seconds", value: "S", help: "Seconds per scene (default 20, at most 86400).", default: 20,
                                            convert: OptionConversion.number("a number of seconds in 1…86400", where: { (1...86400).contains($0) }))
        static let size = Options.size.with(help: "Frame size in pixels (default 640x360).")
        static let cpuEvery = Option<Int>("--cpu-every", value: "N", help: "Also draw one CPU reference frame every N frames (0: never; default 30).",
                                          default: 30, convert: OptionConversion.wholeNumber("a whole number ≥ 0", where: { $0 >= 0 }))
    }
}
