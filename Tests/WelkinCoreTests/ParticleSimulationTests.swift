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

    func testVelocitiesAndEmissionAnglesAreUniformOverTheirRanges() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "cells": [{"birthRate": 2000, "lifetime": 10, "velocity": 100, "velocityRange": 40,
          "emissionLongitude": 0.3, "emissionRange": 1.2}]
        """)
        let ps = particles(s, 1.5)
        XCTAssertEqual(ps.count, 3000)
        let speeds = ps.map { ($0.velocity * $0.velocity).sum().squareRoot() }
        let angles = ps.map { atan2($0.velocity.y, $0.velocity.x) }
        let dSpeed = ksUniform(speeds, 80, 120), dAngle = ksUniform(angles, 0.3 - 0.6, 0.3 + 0.6)
        print("KS speed D = \(dSpeed), angle D = \(dAngle), n = \(ps.count), critical(0.001) = \(ksCritical(ps.count))")
        XCTAssertLessThan(dSpeed, ksCritical(ps.count))
        XCTAssertLessThan(dAngle, ksCritical(ps.count))
        XCTAssertGreaterThanOrEqual(speeds.min()!, 80 - 1e-3)
        XCTAssertLessThanOrEqual(speeds.max()!, 120 + 1e-3)
        // A wrong interval is rejected: the test has power.
        XCTAssertGreaterThan(ksUniform(speeds, 70, 130), ksCritical(ps.count))
    }

    func testLifetimesScalesAndColoursSampleTheirRanges() throws {
        let s = try scene("""
        "cells": [{"birthRate": 1000, "lifetime": 5, "lifetimeRange": 2, "scale": 1, "scaleRange": 0.5,
                   "color": [0.5, 0.5, 0.5, 1], "redRange": 0.4}]
        """)
        let ps = particles(s, 3.5)   // everyone alive (lifetimes ≥ 4 s)
        XCTAssertEqual(ps.count, 3500)
        let n = ps.count
        XCTAssertLessThan(ksUniform(ps.map(\.lifetime), 4, 6), ksCritical(n))
        XCTAssertLessThan(ksUniform(ps.map(\.scale), 0.75, 1.25), ksCritical(n))
        XCTAssertLessThan(ksUniform(ps.map(\.color.x), 0.3, 0.7), ksCritical(n))
    }

    func testNegativeSampledScalesAndLifetimesClampToZero() throws {
        let s = try scene("\"cells\": [{\"birthRate\": 500, \"lifetime\": 5, \"scale\": 0.15, \"scaleRange\": 0.6}]")
        let ps = particles(s, 2)
        XCTAssertTrue(ps.allSatisfy { $0.scale >= 0 })
        let zero = Double(ps.filter { $0.scale == 0 }.count) / Double(ps.count)
        XCTAssertEqual(zero, 0.25, accuracy: 0.05)   // P(0.15 + (u − 0.5)·0.6 < 0) = 1/4
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
            XCTAssertEqual((v0 * v0).sum().squareRoot(), 60, accuracy: 15.01)
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

        guard case .emitter(let e) = s.layers[0].content else { return XCTFail() }
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
        guard case .emitter(let e) = s.layers[0].content else { return XCTFail() }
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
        guard case .particles(let draw) = frame.layers[0] else { return XCTFail() }
        XCTAssertEqual(draw.batches.count, 2)
        XCTAssertEqual(draw.batches[0].instances.count, 10)
        XCTAssertEqual(draw.batches[1].instances.count, 0)   // transparent: nothing to draw
        // oldestLast: the newest first; sizes and positions in pixels (half the scene size).
        let ps = particles(s, 1).filter { $0.cellIndex == 0 }
        let newest = ps.last!
        XCTAssertEqual(draw.batches[0].instances[0].center, SIMD2<Float>(newest.position * 0.5))
        XCTAssertEqual(draw.batches[0].instances[0].size.x, 5, accuracy: 1e-5)
        XCTAssertEqual(Frame(scene: s, time: 1, pixelSize: SIMD2(400, 300)).layers[0], frame.layers[0])
    }

    func testStepsAtSceneTime() {
        XCTAssertEqual(EmitterSimulation.steps(at: 1.5, prewarm: 10), 1380)
        XCTAssertEqual(EmitterSimulation.steps(at: 0, prewarm: 0), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: -5, prewarm: 1), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: .nan, prewarm: 1), 0)
        XCTAssertEqual(EmitterSimulation.steps(at: 7, prewarm: 0), 840)
    }
}
