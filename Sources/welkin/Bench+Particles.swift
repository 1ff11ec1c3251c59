// `welkin bench` entries for particles: the simulation's hot loop against a plain C loop doing the
// same maths (measured in the same run, interleaved), its memory per particle, and the GPU drawing
// Scenes/snow.json.

import CSimBaseline
import Foundation
import WelkinCore
import WelkinGL

extension Commands {
    static let particleBenchDiscussion = """
          sim.1m.swift                 particle steps per second, 1,000,000 live particles, one core (Swift)
          sim.1m.c                     the same update in a plain C loop, -O3, same run (baseline)
          sim.1m.ratio                 Swift / C steps per second: median over back-to-back pairs (target ≥ 0.9)
          sim.bytes-per-particle       simulation memory per live particle at 1,000,000 (target ≤ 64)
          sim.1m.2cores                the same update split over two threads as a big cell's step is (steps/s)
          sim.1m.2cores.ratio          two threads / one, median over back-to-back pairs (target ≥ 1.7)
          gpu.snow.720p                GPU frame, Scenes/snow.json at 1280×720, headless, glFinish (ms)
          gpu.particles.1m.720p        a viewer frame of Tests/Fixtures/bench/particles-1m.json (1,000,000 live 8 pt
                                       dots, 5 s lifetime) at 1280×720: the Frame at t = k/60 built (simulation
                                       advanced from the last frame) and drawn, glFinish (ms, median; budget ≤ 400)
          gpu.particles.1m.build       the Frame-building part of it: simulation and sprite instances (ms, median)
          gpu.particles.1m.count       the live particles it draws
          memory.particles.1m.peak     peak resident memory of a child `welkin render` of that scene (MiB, its
                                       VmHWM from /proc; median; budget ≤ 200)
        """

    static func runParticleBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        var results: [BenchResult] = []
        let simNames = ["sim.1m.swift", "sim.1m.c", "sim.1m.ratio", "sim.bytes-per-particle"]
        if simNames.contains(where: wanted) {
            let (swift, c, ratio, bytes) = simulationBenchmark(particles: 1_000_000, runs: runs)
            results += [BenchResult(name: simNames[0], unit: "steps/s", value: swift),
                        BenchResult(name: simNames[1], unit: "steps/s", value: c),
                        BenchResult(name: simNames[2], unit: "ratio", value: ratio),
                        BenchResult(name: simNames[3], unit: "bytes", value: bytes)].filter { wanted($0.name) }
        }
        let coreNames = ["sim.1m.2cores", "sim.1m.2cores.ratio"]
        if coreNames.contains(where: wanted) {
            let (two, ratio) = twoCoreBenchmark(particles: 1_000_000, runs: runs)
            results += [BenchResult(name: coreNames[0], unit: "steps/s", value: two),
                        BenchResult(name: coreNames[1], unit: "ratio", value: ratio)].filter { wanted($0.name) }
        }
        if wanted("gpu.snow.720p") {
            let renderer = try headlessRenderer(args)
            let frame = try exampleFrame("snow.json", time: 0, renderer: renderer)
            let gpu = GPUTimes(renderer)
            let ms = try benchDraw(nil) { try medianMilliseconds(runs: runs) { try renderer.draw(frame); renderer.finish(); gpu.record() } }
            results.append(BenchResult(name: "gpu.snow.720p", unit: "ms", value: ms))
            results += gpuTimeResult("gpu.snow.720p", gpu.median(last: runs))
        }
        results += try runParticleScaleBenchmarks(runs: runs, filter: filter, args: args)
        return results
    }

    /// The million-particle fixture of the checkout (Tests/Fixtures/bench/particles-1m.json).
    static func millionParticleScene(_ renderer: GLRenderer) throws -> String {
        let path = (renderer.shaders.directory as NSString).deletingLastPathComponent + "/Tests/Fixtures/bench/particles-1m.json"
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(message: "welkin bench: the particle entries draw Tests/Fixtures/bench/particles-1m.json; run from a checkout")
        }
        return path
    }

    static func runParticleScaleBenchmarks(runs: Int, filter: BenchFilter, args: Arguments) throws -> [BenchResult] {
        let wanted = filter.wants
        let names = ["gpu.particles.1m.720p", "gpu.particles.1m.build", "gpu.particles.1m.count", "memory.particles.1m.peak"]
        guard names.contains(where: wanted) || wanted(names[0] + ".gputime") else { return [] }
        let renderer = try headlessRenderer(args)
        let path = try millionParticleScene(renderer)
        var results: [BenchResult] = []
        if names.prefix(3).contains(where: wanted) || wanted(names[0] + ".gputime") {
            let scene = try SceneLoader.load(path: path)
            var k = 0, count = 0
            var builds: [Double] = []
            let gpu = GPUTimes(renderer)
            // As the viewer plays: each frame 1/60 s after the last, the simulation cache advancing
            // two steps (the first warm-up simulates the 5 s prewarm window).
            let ms = try medianMilliseconds(runs: runs) {
                let start = DispatchTime.now().uptimeNanoseconds
                let frame = Frame(scene: scene, time: Double(k) / 60, pixelSize: SIMD2(1280, 720))
                builds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                k += 1
                count = frame.layers.reduce(0) { n, layer in n + ((layer as? ParticleDraw)?.instanceCount ?? 0) }
                try benchDraw(names[0]) { try renderer.draw(frame) }
                renderer.finish()
                gpu.record()
            }
            let build = builds.suffix(runs).sorted()
            results.append(BenchResult(name: names[0], unit: "ms", value: ms))
            results += gpuTimeResult(names[0], gpu.median(last: runs))
            results.append(BenchResult(name: names[1], unit: "ms", value: build.count % 2 == 1 ? build[build.count / 2]
                                       : (build[build.count / 2 - 1] + build[build.count / 2]) / 2))
            results.append(BenchResult(name: names[2], unit: "particles", value: Double(count)))
        }
        if wanted(names[3]) {
            var peaks: [Double] = []
            let png = NSTemporaryDirectory() + "/welkin-bench-\(getpid()).png"
            defer { try? FileManager.default.removeItem(atPath: png) }
            for _ in 0..<max(1, min(runs, 5)) { peaks.append(try childPeakMebibytes(["render", path, "-o", png], args: args)) }
            peaks.sort()
            results.append(BenchResult(name: names[3], unit: "MiB", value: peaks[peaks.count / 2]))
        }
        return results.filter { wanted($0.name) }
    }

    /// Peak resident memory of a child `welkin ARGUMENTS…` in MiB: its VmHWM, read from
    /// /proc/PID/status every 2 ms while it runs (VmHWM only grows; the last reading before it exits
    /// is its peak but for the last 2 ms). Not wait4's ru_maxrss: posix_spawn starts the child in
    /// the bench's own address space (CLONE_VM), and exec then records the bench's peak — a
    /// million-particle bench read 304 MiB for a render that peaks at 194. Throws when it fails.
    static func childPeakMebibytes(_ arguments: [String], args: Arguments) throws -> Double {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var all = [executable] + arguments
        if let shaders = try args[Options.shaders] { all += ["--shaders", shaders] }
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = all.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(message: "welkin bench: could not start \(executable): \(String(cString: strerror(spawned)))") }
        var peakKiB = 0
        var status: Int32 = 0
        while true {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") {
                peakKiB = max(peakKiB, kib)
            }
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Failure(message: "welkin bench: waitpid failed: \(String(cString: strerror(errno)))") }
            usleep(2000)
        }
        guard status == 0 else { throw Failure(message: "welkin bench: `welkin \(arguments.joined(separator: " "))` failed (status \(status))") }
        guard peakKiB > 0 else { throw Failure(message: "welkin bench: could not read the child's VmHWM from /proc") }
        return Double(peakKiB) / 1024
    }

    /// Steps per second of `particles` live particles stepped on two threads (EmitterSimulation's
    /// split of a big cell), and the median ratio to one thread over back-to-back pairs in
    /// alternating order (at least 31), so load on a shared machine hits both alike.
    static func twoCoreBenchmark(particles n: Int, runs: Int) -> (twoCores: Double, ratio: Double) {
        let store = ParticleStore(capacity: n)
        for i in 0..<n {
            let f = Float(i % 1000)
            store.append(position: SIMD2(f, f * 0.5), velocity: SIMD2(f * 0.01, 30), age: 0, lifetime: .greatestFiniteMagnitude,
                         scale: 1, spin: 0, color: SIMD4(1, 1, 1, 1), phase: 0, birth: UInt32(i))
        }
        let k = StepConstants(damping: 0.1, dt: EmitterSimulation.dt, acceleration: SIMD2(5, 30))
        let dt = Float(EmitterSimulation.dt)
        let kinematic = CellKinematics(motion: .ballistic, constants: k, centre: .zero)
        let stepsPerSample = 4
        func time(threads: Int) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<stepsPerSample {
                let dead = threads > 1 ? EmitterSimulation.integrate(store, kinematic, dt: dt, threads: threads) : store.integrate(k, dt: dt)
                if dead { store.removeDead() }
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        _ = time(threads: 1); _ = time(threads: 2)
        var twos: [Double] = [], ratios: [Double] = []
        for run in 0..<max(runs, 31) {
            let (one, two) = run % 2 == 0 ? { let a = time(threads: 1); return (a, time(threads: 2)) }()
                                           : { let b = time(threads: 2); return (time(threads: 1), b) }()
            twos.append(two); ratios.append(one / two)
        }
        func median(_ s: [Double]) -> Double {
            let t = s.sorted()
            return t.count % 2 == 1 ? t[t.count / 2] : (t[t.count / 2 - 1] + t[t.count / 2]) / 2
        }
        return (Double(stepsPerSample) / median(twos), median(ratios))
    }

    /// Steps per second of the Swift store and the C loop over `particles` live particles (one
    /// thread, none dying), timed in alternating pairs so both see the same machine; the median of
    /// the pairs' ratios; and the store's bytes per particle after growing to that count one birth
    /// at a time, as a simulation does.
    static func simulationBenchmark(particles n: Int, runs: Int) -> (swift: Double, c: Double, ratio: Double, bytesPerParticle: Double) {
        let store = ParticleStore()
        for i in 0..<n {
            store.reserve(store.count + 1, limit: EmitterLayer.maximumParticles)
            let f = Float(i % 1000)
            store.append(position: SIMD2(f, f * 0.5), velocity: SIMD2(f * 0.01, 30), age: 0, lifetime: .greatestFiniteMagnitude,
                         scale: 1, spin: 0, color: SIMD4(1, 1, 1, 1), phase: 0, birth: UInt32(i))
        }
        let bytes = Double(store.allocatedBytes) / Double(store.count)
        let k = StepConstants(damping: 0.1, dt: EmitterSimulation.dt, acceleration: SIMD2(5, 30))
        let dt = Float(EmitterSimulation.dt)

        // The C loop's own arrays, with the same contents.
        let arrays = (0..<6).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: n) }
        defer { arrays.forEach { $0.deallocate() } }
        let (px, py, vx, vy, age, lifetime) = (arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5])
        px.update(from: store.px, count: n); py.update(from: store.py, count: n)
        vx.update(from: store.vx, count: n); vy.update(from: store.vy, count: n)
        age.update(repeating: 0, count: n); lifetime.update(repeating: .greatestFiniteMagnitude, count: n)
        let stepsPerSample = 4
        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        func cStep() {
            _ = welkin_sim_step(px, py, vx, vy, age, lifetime, n, k.decay, k.b, k.c, k.acceleration.x, k.acceleration.y, dt)
        }
        func swiftStep() {
            if store.integrate(k, dt: dt) { store.removeDead() }
        }
        var swiftSamples: [Double] = [], cSamples: [Double] = [], ratios: [Double] = []
        for _ in 0..<2 { swiftStep(); cStep() }
        // At least 31 pairs: the machine is shared, and a pair measured back to back (in
        // alternating order) sees the same load, so the median of the pairs' ratios is steadier
        // than a ratio of medians.
        for run in 0..<max(runs, 31) {
            var swift = 0.0, c = 0.0
            if run % 2 == 0 {
                swift = time { for _ in 0..<stepsPerSample { swiftStep() } }
                c = time { for _ in 0..<stepsPerSample { cStep() } }
            } else {
                c = time { for _ in 0..<stepsPerSample { cStep() } }
                swift = time { for _ in 0..<stepsPerSample { swiftStep() } }
            }
            swiftSamples.append(swift); cSamples.append(c); ratios.append(c / swift)
        }
        func median(_ s: [Double]) -> Double {
            let t = s.sorted()
            return t.count % 2 == 1 ? t[t.count / 2] : (t[t.count / 2 - 1] + t[t.count / 2]) / 2
        }
        return (Double(stepsPerSample) / median(swiftSamples), Double(stepsPerSample) / median(cSamples), median(ratios), bytes)
    }
}
