// The particle simulation: distributions (Kolmogorov–Smirnov), steady state, kinematics, prewarm,
// determinism across runs, thread counts and the simulation cache.

import Foundation
import XCTest
@testable import WelkinCore

/// Kolmogorov–Smirnov statistic of `samples` against the uniform distribution on [lo, hi].
func ksUniform(_ samples: [Double], _ lo: Double, _ hi: Double) -> Double {
    let s = samples.sorted()
    let n = Double(s.count)
    var d = 0.0
    for (i, x) in s.enumerated() {
        let f = min(max((x - lo) / (hi - lo), 0), 1)
        d = max(d, abs(f - Double(i) / n), abs(Double(i + 1) / n - f))
    }
    return d
}

/// The KS critical value at significance 0.001 for n samples.
func ksCritical(_ n: Int) -> Double { 1.949 / Double(n).squareRoot() }

final class ParticleSimulationTests: XCTestCase {
    func scene(_ emitter: String, size: String = "[800, 600]", extra: String = "") throws -> Scene {
        try SceneLoader.decode("{\"size\": \(size)\(extra), \"layers\": [{\"type\": \"emitter\", \(emitter)}]}", file: "p.json")
    }

    func particles(_ scene: Scene, _ t: Double) -> [ParticleSnapshot] {
        ParticleSnapshot.all(in: scene, at: t).particles
    }

    /// Emission angles fill the cone's full angle, emissionLongitude ± emissionRange/2 (not ± emissionRange).
    func testEmissionAnglesAreUniformOverTheCone() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "cells": [{"birthRate": 2000, "lifetime": 10, "velocity": 100,
          "emissionLongitude": 0.3, "emissionRange": 1.2}]
        """)
        let ps = particles(s, 1.5)
        XCTAssertEqual(ps.count, 3000)
        let angles = ps.map { atan2($0.velocity.y, $0.velocity.x) }
        let d = ksUniform(angles, 0.3 - 0.6, 0.3 + 0.6)
        print("KS emission angle: D = \(d), n = \(ps.count), critical(0.001) = \(ksCritical(ps.count))")
        XCTAssertLessThan(d, ksCritical(ps.count))
        XCTAssertGreaterThan(ksUniform(angles, 0.3 - 1.2, 0.3 + 1.2), ksCritical(ps.count))   // not a half angle
    }

    /// Every scalar range is Core Animation's `value ± range`: uniform on [m − r, m + r]. Sampled from
    /// [m − r/2, m + r/2] instead, each of these KS tests fails with D ≈ 0.25.
    func testScalarRangesAreUniformOverValuePlusOrMinusRange() throws {
        let s = try scene("""
        "cells": [{"birthRate": 4000, "lifetime": 5, "lifetimeRange": 2, "velocity": 100, "velocityRange": 40,
                   "emissionRange": 6.283185307179586, "scale": 1, "scaleRange": 0.5, "spin": 0.5, "spinRange": 2,
                   "color": [0.5, 0.4, 0.6, 0.5], "redRange": 0.3, "greenRange": 0.2, "blueRange": 0.35, "alphaRange": 0.25}]
        """)
        guard let e = s.layers[0].content as? EmitterLayer else { return XCTFail() }
        let sim = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: s.size, seed: s.seed, wind: .zero)
        sim.advance(to: EmitterSimulation.stepsPerSecond)   // 1 s: 4000 births, all alive (lifetimes ≥ 3 s)
        let store = sim.stores[0]
        let n = store.count
        XCTAssertEqual(n, 4000)
        func values(_ field: UnsafeMutablePointer<Float>) -> [Double] { (0..<n).map { Double(field[$0]) } }
        let speeds = (0..<n).map { i -> Double in let v = SIMD2(store.vx[i], store.vy[i]); return Double((v * v).sum().squareRoot()) }
        let cases: [(name: String, samples: [Double], mean: Double, range: Double)] = [
            ("lifetime", values(store.lifetime), 5, 2), ("speed", speeds, 100, 40),
            ("scale", values(store.scale), 1, 0.5), ("spin", values(store.spin), 0.5, 2),
            ("red", values(store.red), 0.5, 0.3), ("green", values(store.green), 0.4, 0.2),
            ("blue", values(store.blue), 0.6, 0.35), ("alpha", values(store.alpha), 0.5, 0.25),
        ]
        for c in cases {
            let (lo, hi) = (c.mean - c.range, c.mean + c.range)
            let d = ksUniform(c.samples, lo, hi)
            print("KS \(c.name) on [\(lo), \(hi)]: D = \(d), n = \(n), critical(0.001) = \(ksCritical(n))")
            XCTAssertLessThan(d, ksCritical(n), c.name)
            // The test has power: the half-width interval is rejected.
            XCTAssertGreaterThan(ksUniform(c.samples, c.mean - c.range / 2, c.mean + c.range / 2), ksCritical(n), c.name)
            // Every value lies inside m ± r and the samples reach both ends.
            let slack = 1e-4 * max(1, abs(c.mean) + c.range)
            XCTAssertGreaterThanOrEqual(c.samples.min()!, lo - slack, c.name)
            XCTAssertLessThanOrEqual(c.samples.max()!, hi + slack, c.name)
            XCTAssertLessThan(c.samples.min()!, lo + 0.01 * c.range, c.name)
            XCTAssertGreaterThan(c.samples.max()!, hi - 0.01 * c.range, c.name)
        }
    }

    /// Seed 002's snow as Core Animation draws it: 'flake' (velocity 30 ± 20) leaves at 10…50 points
    /// per second, 'blurry flake' (40 ± 20) at 20…60, scales 0.15 ± 0.6 clamp to 0…0.75.
    func testSeed002SnowSpreadsItsSpeedsOverValuePlusOrMinusRange() throws {
        let s = try SceneLoader.load(path: EmitterDecodingTests.repository.appendingPathComponent("Scenes/snow.json").path)
        let ps = particles(s, 0)
        let a = SIMD2<Double>(5, 30)   // the cells' xAcceleration, yAcceleration; no wind, no damping
        for (cell, lo, hi) in [("flake", 10.0, 50.0), ("blurry flake", 20, 60)] {
            let mine = ps.filter { $0.cell == cell }
            XCTAssertEqual(Double(mine.count), 300, accuracy: 1, cell)   // 30/s × 10 s of prewarm
            let speeds = mine.map { p -> Double in let v0 = p.velocity - a * p.age; return (v0 * v0).sum().squareRoot() }
            XCTAssertGreaterThanOrEqual(speeds.min()!, lo - 1e-3, cell)
            XCTAssertLessThanOrEqual(speeds.max()!, hi + 1e-3, cell)
            XCTAssertLessThan(speeds.min()!, lo + 1, cell)
            XCTAssertGreaterThan(speeds.max()!, hi - 1, cell)
            XCTAssertLessThan(ksUniform(speeds, lo, hi), ksCritical(speeds.count), cell)
            XCTAssertEqual(mine.map(\.scale).max()!, 0.75, accuracy: 0.01, cell)
        }
    }

    func testNegativeSampledScalesAndLifetimesClampToZero() throws {
        let s = try scene("\"cells\": [{\"birthRate\": 500, \"lifetime\": 5, \"scale\": 0.15, \"scaleRange\": 0.6}]")
        let ps = particles(s, 2)
        XCTAssertTrue(ps.allSatisfy { $0.scale >= 0 })
        let zero = Double(ps.filter { $0.scale == 0 }.count) / Double(ps.count)
        XCTAssertEqual(zero, 0.375, accuracy: 0.05)   // P(0.15 + (2u − 1)·0.6 < 0) = P(u < 0.375): seed 002's flakes
        let lives = try scene("\"cells\": [{\"birthRate\": 500, \"lifetime\": 1, \"lifetimeRange\": 3}]")
        guard let e = lives.layers[0].content as? EmitterLayer else { return XCTFail() }
        let sim = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: lives.size, seed: 0, wind: .zero)
        sim.advance(to: EmitterSimulation.stepsPerSecond)
        // Lifetimes in 1 ± 3, uniform on [−2, 4]: a third clamp to 0 and die at birth; of the rest, one
        // born at age a ago has died when its lifetime is below a (P = a/6, mean 1/12 over a in 0…1).
        XCTAssertEqual(sim.births[0], 500)
        XCTAssertEqual(Double(500 - sim.count) / 500, 1.0 / 3 + 1.0 / 12, accuracy: 0.05)
    }

    func testSteadyStateCountIsBirthRateTimesLifetime() throws {
        let fixed = try scene("\"cells\": [{\"birthRate\": 200, \"lifetime\": 2}]")
        for t in [3.0, 5.25, 9.9] {
            XCTAssertEqual(Double(particles(fixed, t).count), 400, accuracy: 1, "t = \(t)")
        }
        let ranged = try scene("\"birthRate\": 2, \"cells\": [{\"birthRate\": 150, \"lifetime\": 3, \"lifetimeRange\": 2}]")
        let counts = [6.0, 7.0, 8.0, 9.0].map { Double(particles(ranged, $0).count) }
        let mean = counts.reduce(0, +) / Double(counts.count)
        XCTAssertEqual(mean, 2 * 150 * 3, accuracy: 2 * 150 * 3 * 0.03)
    }

    func testKinematicsFollowV0TPlusHalfATSquared() throws {
        let s = try scene("""
        "position": [0.25, 0.5], "cells": [{"birthRate": 50, "lifetime": 4, "velocity": 60, "velocityRange": 30,
          "emissionRange": 6.283185307179586, "xAcceleration": 5, "yAcceleration": 30}]
        """, extra: ", \"wind\": [2, -4]")
        let a = SIMD2<Double>(5 + 2, 30 - 4)
        let p0 = SIMD2<Double>(200, 300)
        let ps = particles(s, 3.3)
        XCTAssertGreaterThan(ps.count, 100)
        for p in ps {
            let v0 = p.velocity - a * p.age
            let expected = p0 + v0 * p.age + 0.5 * a * p.age * p.age
            XCTAssertEqual(p.position.x, expected.x, accuracy: 0.02)
            XCTAssertEqual(p.position.y, expected.y, accuracy: 0.02)
            XCTAssertEqual((v0 * v0).sum().squareRoot(), 60, accuracy: 30.01)   // velocity 60 ± 30
        }
    }

    func testDampingRelaxesVelocityExponentially() throws {
        let s = try scene("""
        "cells": [{"birthRate": 10, "lifetime": 5, "velocity": 100, "yAcceleration": 40, "damping": 0.8}]
        """)
        for p in particles(s, 4) {
            // dv/dt = a − k v from v0 = (100, 0): v = a/k + (v0 − a/k)·e^(−k·age).
            let e = exp(-0.8 * p.age)
            XCTAssertEqual(p.velocity.x, 100 * e, accuracy: 0.01)
            XCTAssertEqual(p.velocity.y, 40 / 0.8 * (1 - e), accuracy: 0.01)
        }
    }

    func testPrewarmEqualsRunningFromEmpty() throws {
        let cells = """
        "shape": "line", "position": [0.5, 0], "size": [1, 0], "cells": [{"birthRate": 30, "lifetime": 20, "scale": 0.15,
          "scaleRange": 0.6, "velocity": 30, "velocityRange": 20, "emissionRange": 3.14159, "spin": -0.5, "spinRange": 1,
          "yAcceleration": 30, "xAcceleration": 5, "sway": {"amplitude": 4, "frequency": 0.3}}]
        """
        let prewarmed = try scene("\"prewarm\": 10, " + cells)
        let cold = try scene(cells)
        XCTAssertEqual(particles(prewarmed, 0), particles(cold, 10))
        XCTAssertEqual(particles(prewarmed, 2.5), particles(cold, 12.5))
        XCTAssertEqual(particles(prewarmed, 0).count, 300)
    }

    func testDeterministicAcrossRunsCacheAndThreads() throws {
        let s = try scene("""
        "shape": "circle", "mode": "surface", "size": [0.5, 0], "seed": 3,
        "cells": [{"name": "a", "birthRate": 3000, "lifetime": 1.5, "lifetimeRange": 1, "velocity": 50, "velocityRange": 50,
                   "emissionRange": 6.28, "yAcceleration": 10, "damping": 0.3},
                  {"name": "b", "birthRate": 40, "lifetime": 3, "spin": 1, "spinRange": 2, "alphaSpeed": -0.2}]
        """)
        SimulationCache.shared.removeAll()
        let first = particles(s, 2.2)
        // Played forward through the cache, then seeking back: the same particles.
        SimulationCache.shared.removeAll()
        for t in stride(from: 0.0, through: 2.2, by: 1.0 / 60) { _ = particles(s, t) }
        XCTAssertEqual(particles(s, 2.2), first)
        XCTAssertEqual(particles(s, 1.1).count, { SimulationCache.shared.removeAll(); return particles(s, 1.1).count }())
        SimulationCache.shared.removeAll()
        let forward = particles(s, 1.1)
        _ = particles(s, 2.2)
        XCTAssertEqual(particles(s, 1.1), forward)

        guard let e = s.layers[0].content as? EmitterLayer else { return XCTFail() }
        func run(threads: Int) -> [ParticleSnapshot] {
            let sim = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: s.size, seed: s.seed, wind: .zero)
            sim.parallelThreshold = 1000
            sim.advance(to: EmitterSimulation.steps(at: 2.2, prewarm: 0), threads: threads)
            return sim.snapshot()
        }
        let one = run(threads: 1)
        XCTAssertEqual(one, first)
        XCTAssertEqual(run(threads: 2), one)
        XCTAssertEqual(run(threads: 5), one)
    }

    func testMaxParticlesBoundsMemoryAndDropsBirths() throws {
        let s = try scene("\"maxParticles\": 1000, \"cells\": [{\"birthRate\": 100000, \"lifetime\": 100}]")
        XCTAssertEqual(s.warnings.map(\.path), ["layers[0].maxParticles"])
        XCTAssertTrue(s.warnings[0].message.contains("10000000 live particles, more than maxParticles (1000)"), s.warnings[0].message)
        guard let e = s.layers[0].content as? EmitterLayer else { return XCTFail() }
        let sim = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: s.size, seed: 1, wind: .zero)
        sim.advance(to: 60)
        XCTAssertEqual(sim.count, 1000)
        XCTAssertGreaterThan(sim.droppedBirths, 40_000)
        XCTAssertLessThanOrEqual(sim.allocatedBytes, 1000 * ParticleStore.bytesPerParticle)
    }

    func testFrameCarriesOneInstancePerVisibleParticle() throws {
        let s = try scene("""
        "renderMode": "oldestLast", "cells": [{"birthRate": 10, "lifetime": 2, "velocity": 20, "sprite": "flake", "spriteSize": 10,
          "alphaOverLife": [1, 0.5]}, {"birthRate": 5, "lifetime": 2, "sprite": "streak", "velocity": 100, "color": [1, 1, 1, 0]}]
        """)
        let frame = Frame(scene: s, time: 1, pixelSize: SIMD2(400, 300))
        guard let draw = frame.layers[0] as? ParticleDraw else { return XCTFail() }
        XCTAssertEqual(draw.batches.count, 2)
        XCTAssertEqual(draw.batches[0].instances.count, 10)
        XCTAssertEqual(draw.batches[1].instances.count, 0)   // transparent: nothing to draw
        // oldestLast: the newest first; sizes and positions in pixels (half the scene size).
        let ps = particles(s, 1).filter { $0.cellIndex == 0 }
        let newest = ps.last!
        XCTAssertEqual(draw.batches[0].instances[0].center, SIMD2<Float>(newest.position * 0.5))
        XCTAssertEqual(draw.batches[0].instances[0].size.x, 5, accuracy: 1e-5)
        XCTAssertTrue(Frame(scene: s, time: 1, pixelSize: SIMD2(400, 300)).layers[0].isEqual(to: frame.layers[0]))
    }

    func testStepsAtSceneTime() {
        XCTAssertEqual(EmitterSimulation.steps(at: 1.5, prewarm: 10), 1380)
        XCTAssertEqual(EmitterSimulation.steps(at: 0, prewarm: 0), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: -5, prewarm: 1), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: .nan, prewarm: 1), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: 7, prewarm: 0), 840)
    }
}
