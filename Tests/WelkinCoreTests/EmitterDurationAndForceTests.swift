// The emitter keys added for Particle Designer / cocos2d effects, on the simulation itself:
// `emissionDuration` (births stop exactly at the duration, the live count then falls to zero one
// lifetime later, through both the step-by-step and the windowed frame simulation), tangential
// acceleration (motion perpendicular to the radius vector, clockwise on screen for positive values,
// against a fine-step integration of the continuous equation and the documented step scheme), and
// orbit radii that keep their sign as in cocos2d and Starling.

import Foundation
import XCTest
@testable import WelkinCore

final class EmitterDurationAndForceTests: XCTestCase {
    func scene(_ emitter: String) throws -> Scene {
        try SceneLoader.decode("{\"size\": [800, 600], \"layers\": [{\"type\": \"emitter\", \(emitter)}]}", file: "p.json")
    }

    func simulation(_ s: Scene) throws -> EmitterSimulation {
        let e = try XCTUnwrap(s.layers[0].content as? EmitterLayer, "not an emitter")
        return EmitterSimulation(layer: e, layerIndex: 0, sceneSize: s.size, seed: s.seed, wind: s.wind)
    }

    // MARK: emissionDuration

    /// Birth k happens at k / rate; with rate 100 and emissionDuration 0.3, births 0…29 (k/100 < 0.3)
    /// happen and birth 30 (at exactly 0.3 s) does not. Lifetime 2.004 s keeps every death 0.4/600 s
    /// away from a step boundary, so the live count at step n is exactly
    /// #{k < 30 : k/100 < n/120 and n/120 − k/100 < 2.004}.
    static let rate = 100.0, duration = 0.3, lifetime = 2.004
    static func expectedCount(step n: Int) -> Int {
        let t = Double(n) * EmitterSimulation.dt
        return (0..<30).filter { k in
            let born = Double(k) / rate
            return born < t && t - born < lifetime
        }.count
    }

    func testEmissionDurationStopsBirthsExactlyAndTheCountFallsToZeroAfterTheLifetime() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "cells": [{"birthRate": 100, "lifetime": 2.004, "velocity": 10,
          "emissionRange": 6.283185307179586, "emissionDuration": 0.3}]
        """)
        let sim = try simulation(s)
        let lastStep = Int(((Self.duration + Self.lifetime) * 120).rounded(.up)) + 120   // a second past the last death
        var counts: [Int] = [], seen = Set<UInt32>()
        for n in 1...lastStep {
            sim.advance(to: n)
            counts.append(sim.count)
            let store = sim.stores[0]
            for i in 0..<store.count { seen.insert(store.birth[i]) }
            XCTAssertEqual(sim.count, Self.expectedCount(step: n), "step \(n)")
        }
        // Exactly the births before the duration: 0…29, none at 0.3 s or after.
        XCTAssertEqual(seen, Set(0..<30))
        XCTAssertEqual(sim.births[0], 30)
        XCTAssertEqual(counts.max(), 30)
        // The boundaries: all 30 alive from step 35 (birth 29 at 0.29 s lies in [34/120, 35/120)),
        // the first death (birth 0) at 2.004 s → step 241, the last (birth 29 at 0.29 s) at step 276.
        XCTAssertEqual(counts[34 - 1], 29); XCTAssertEqual(counts[35 - 1], 30)
        XCTAssertEqual(counts[240 - 1], 30); XCTAssertEqual(counts[241 - 1], 29)
        XCTAssertEqual(counts[275 - 1], 1); XCTAssertEqual(counts[276 - 1], 0)
        XCTAssertTrue(counts[(276 - 1)...].allSatisfy { $0 == 0 }, "no births after the duration")

        // The frame path (a window of steps, jumping over births) agrees, late times included.
        for n in stride(from: 0, through: lastStep, by: 7) {
            let t = (Double(n) + 0.5) / 120
            XCTAssertEqual(ParticleSnapshot.all(in: s, at: t).particles.count, Self.expectedCount(step: n), "frame at \(t) s")
        }
        for t in [10.0, 1000.0, 123_456.5] {
            XCTAssertEqual(ParticleSnapshot.all(in: s, at: t).particles.count, 0, "frame at \(t) s")
        }
    }

    /// The duration counts emitter time, prewarm included: with prewarm 0.2 s, scene time t is emitter time t + 0.2.
    func testEmissionDurationCountsPrewarm() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "prewarm": 0.2, "cells": [{"birthRate": 100, "lifetime": 2.004, "velocity": 10,
          "emissionDuration": 0.3}]
        """)
        for t in [0.0, 0.05, 0.1, 0.15, 1.0, 2.05, 2.1, 2.2, 5.0] {
            let n = EmitterSimulation.steps(at: t, prewarm: 0.2)
            XCTAssertEqual(ParticleSnapshot.all(in: s, at: t).particles.count, Self.expectedCount(step: n), "scene time \(t)")
        }
        XCTAssertEqual(ParticleSnapshot.all(in: s, at: 0.1).particles.count, 30)   // emitter time 0.3: every birth made
        XCTAssertEqual(ParticleSnapshot.all(in: s, at: 2.1).particles.count, 0)    // emitter time 2.3 > 0.29 + 2.004
    }

    /// With a lifetime range, nothing outlives the longest lifetime after the last birth.
    func testEmissionDurationWithALifetimeRangeEmptiesAfterTheLongestLifetime() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "cells": [{"birthRate": 100, "lifetime": 2, "lifetimeRange": 0.5, "velocity": 10,
          "emissionDuration": 0.3}]
        """)
        let sim = try simulation(s)
        var lastLive = 0
        for n in 1...480 {
            sim.advance(to: n)
            if sim.count > 0 { lastLive = n }
            let store = sim.stores[0]
            for i in 0..<store.count { XCTAssertLessThan(store.birth[i], 30) }
        }
        // The last birth is at 0.29 s and lives at most 2.5 s: empty from 2.79 s (step 335) on,
        // and some particle (lifetimes up to 2.5) outlives 2.3 s (step 276).
        XCTAssertLessThanOrEqual(lastLive, 335)
        XCTAssertGreaterThan(lastLive, 276)
        XCTAssertEqual(sim.births[0], 30)
    }

    // MARK: tangential acceleration

    /// One particle at rest at distance 100 pt from the emitter's position (a line emitter's `points`
    /// mode: one of its two ends), pushed only by a tangential acceleration a_t: the unit vector n from
    /// the emitter's position to the particle turned 90° clockwise on screen, t = (−n.y, n.x) (y down).
    /// Checked against (1) an RK4 integration of the continuous equation x″ = a_t·t(x) with a 10⁻⁴ s
    /// step and (2) the documented scheme (the acceleration taken at the start of each 1/120 s step and
    /// held over it, exactly integrated) in Double.
    func testTangentialAccelerationMovesPerpendicularToTheRadiusClockwise() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "shape": "line", "mode": "points", "size": [0.25, 0],
        "cells": [{"name": "clockwise", "birthRate": 1, "lifetime": 100, "emissionDuration": 0.5, "tangentialAcceleration": 150},
                  {"name": "anticlockwise", "birthRate": 1, "lifetime": 100, "emissionDuration": 0.5, "tangentialAcceleration": -150}]
        """)
        let sim = try simulation(s)
        let centre = SIMD2<Double>(400, 300)
        typealias State = (p: SIMD2<Double>, v: SIMD2<Double>)
        func acceleration(_ p: SIMD2<Double>, _ at: Double) -> SIMD2<Double> {
            let d = p - centre
            let length = (d * d).sum().squareRoot()
            let n = length > 0 ? d / length : .zero
            return SIMD2(-n.y, n.x) * at
        }
        /// RK4 of (p, v)′ = (v, a(p)) over `time` seconds.
        func rk4(_ start: State, _ at: Double, time: Double, h: Double = 1e-4) -> State {
            var (p, v) = start
            let steps = Int((time / h).rounded())
            for _ in 0..<steps {
                let a1 = acceleration(p, at), k1p = v
                let a2 = acceleration(p + k1p * (h / 2), at), k2p = v + a1 * (h / 2)
                let a3 = acceleration(p + k2p * (h / 2), at), k3p = v + a2 * (h / 2)
                let a4 = acceleration(p + k3p * h, at), k4p = v + a3 * h
                p += (k1p + 2 * k2p + 2 * k3p + k4p) * (h / 6)
                v += (a1 + 2 * a2 + 2 * a3 + a4) * (h / 6)
            }
            return (p, v)
        }
        /// The documented scheme: a(p) at the start of each step, held, p += v·dt + ½a·dt², v += a·dt.
        func held(_ start: State, _ at: Double, steps: Int) -> State {
            var (p, v) = start
            let dt = EmitterSimulation.dt
            for _ in 0..<steps {
                let a = acceleration(p, at)
                p += v * dt + a * (dt * dt / 2)
                v += a * dt
            }
            return (p, v)
        }

        func particle(_ cell: Int) -> State {
            let store = sim.stores[cell]
            XCTAssertEqual(store.count, 1, "cell \(cell): the one birth at t = 0")
            return (SIMD2(Double(store.px[0]), Double(store.py[0])), SIMD2(Double(store.vx[0]), Double(store.vy[0])))
        }

        // Birth 0 of each cell is at t = 0 and is advanced through the first step on creation.
        sim.advance(to: 1)
        var starts: [State] = [], signs: [Double] = [150, -150]
        for c in 0..<2 {
            let (p1, v1) = particle(c)
            // Which end the particle was born at: the first step moves it by ½·a·dt² ≈ 0.005 pt only.
            let p0 = SIMD2(centre.x + (p1.x > centre.x ? 100 : -100), centre.y)
            let n0 = (p0 - centre) / 100
            XCTAssertEqual(abs(p1.x - p0.x), 0, accuracy: 1e-4, "cell \(c): born at a line end, at rest")
            // After one step the velocity is a_t·t·dt: perpendicular to the radius, |v| = 150/120.
            let speed = (v1 * v1).sum().squareRoot()
            XCTAssertEqual(speed, 150.0 / 120, accuracy: 1e-5, "cell \(c)")
            XCTAssertEqual((v1 * n0).sum(), 0, accuracy: 1e-6, "cell \(c): perpendicular to the radius vector")
            // Clockwise on screen (y down) for positive values: n × v > 0.
            let cross = n0.x * v1.y - n0.y * v1.x
            XCTAssertEqual(cross.sign, signs[c].sign, "cell \(c): positive tangential acceleration turns clockwise on screen")
            XCTAssertEqual(cross, signs[c] / 120, accuracy: 1e-5)
            starts.append((p0, .zero))
        }

        var worstRK = 0.0, worstHeld = 0.0
        for seconds in [0.5, 1.0, 2.0, 3.0] {
            let n = Int(seconds * 120)
            sim.advance(to: n)
            for c in 0..<2 {
                let (p, v) = particle(c)
                let reference = rk4(starts[c], signs[c], time: seconds)
                let scheme = held(starts[c], signs[c], steps: n)
                let errRK = ((p - reference.p) * (p - reference.p)).sum().squareRoot()
                let errHeld = ((p - scheme.p) * (p - scheme.p)).sum().squareRoot()
                let travelled = ((p - starts[c].p) * (p - starts[c].p)).sum().squareRoot()
                print(String(format: "tangential %@ t = %.1f s: travelled %.2f pt, |sim − RK4| = %.4f pt, |sim − held-step scheme| = %.5f pt",
                             c == 0 ? "+150" : "-150", seconds, travelled, errRK, errHeld))
                worstRK = max(worstRK, errRK); worstHeld = max(worstHeld, errHeld)
                // The step scheme's O(dt) departure from the continuous path stays under 1 % of the distance.
                XCTAssertLessThan(errRK, 0.01 * travelled + 0.01, "cell \(c) at \(seconds) s vs RK4")
                XCTAssertLessThan(errHeld, 0.02, "cell \(c) at \(seconds) s vs the documented scheme")
                let dv = v - scheme.v
                XCTAssertLessThan((dv * dv).sum().squareRoot(), 0.01, "cell \(c) velocity at \(seconds) s")
                // Purely tangential pushes only spiral outwards (r″ = r·θ′² > 0), never inwards.
                let d = p - centre
                XCTAssertGreaterThan((d * d).sum().squareRoot(), 100)
            }
        }
        print("tangential: worst |sim − RK4| = \(worstRK) pt, worst |sim − scheme| = \(worstHeld) pt")
        // Mirror images: the two cells' paths are reflections of each other across the x axis through
        // the centre when born at the same end, or point reflections when born at opposite ends.
        let a = particle(0).p - centre, b = particle(1).p - centre
        let sameEnd = (starts[0].p.x > centre.x) == (starts[1].p.x > centre.x)
        let mirrored = sameEnd ? SIMD2(b.x, -b.y) : SIMD2(-b.x, b.y)
        XCTAssertLessThan(((a - mirrored) * (a - mirrored)).sum().squareRoot(), 0.05)
    }

    // MARK: orbit radii

    /// cocos2d and Starling place a radial-mode particle at centre − (cos a, sin a)·r with r = start ±
    /// variance going linearly to end ± variance, never clamped: a negative radius puts the particle on
    /// the opposite side. With the angle and speed fixed, the signed distance along the emission
    /// direction is therefore uniform on [radius − range, radius + range] — here [−20, 40], a third of
    /// it negative (clamped at 0, a third of the particles would sit at the centre and KS rejects it).
    func testOrbitRadiiKeepTheirSign() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "cells": [{"birthRate": 2000, "lifetime": 10,
          "emissionLongitude": 0.7, "orbit": {"radius": 10, "radiusRange": 30, "speed": 0}}]
        """)
        let ps = ParticleSnapshot.all(in: s, at: 1.5).particles
        XCTAssertEqual(ps.count, 3000)
        let direction = SIMD2(cos(0.7), sin(0.7))
        var signed: [Double] = []
        for p in ps {
            let d = p.position - SIMD2(400, 300)
            signed.append((d * direction).sum())
            XCTAssertEqual(d.x * direction.y - d.y * direction.x, 0, accuracy: 1e-3, "on the emission line")
        }
        let d = ksUniform(signed, -20, 40)
        print("KS signed orbit radius on [-20, 40]: D = \(d), n = \(ps.count), critical(0.001) = \(ksCritical(ps.count))")
        XCTAssertLessThan(d, ksCritical(ps.count))
        XCTAssertLessThan(signed.min()!, -19)
        // No endRadius: the radius stays the start radius (cocos2d's minRadius −1).
        let later = ParticleSnapshot.all(in: s, at: 3).particles.filter { $0.birth < 100 }
        for p in later {
            let early = ps.first { $0.birth == p.birth }!
            XCTAssertEqual(p.position.x, early.position.x, accuracy: 1e-3)
            XCTAssertEqual(p.position.y, early.position.y, accuracy: 1e-3)
        }
    }

    /// `advance(to:)` only ages orbiting particles between frames and places them at the last step:
    /// the same particles, bit for bit, as placing them at every step.
    func testOrbitsPlacedOnlyAtTheLastStepMatchEveryStep() throws {
        let s = try scene("""
        "position": [0.5, 0.5], "maxParticles": 900, "cells": [{"birthRate": 500, "lifetime": 2, "lifetimeRange": 1,
          "emissionRange": 6.283185307179586, "orbit": {"radius": 120, "radiusRange": 30, "endRadius": 10, "speed": 2, "speedRange": 1}}]
        """)
        let lazy = try simulation(s), eager = try simulation(s)
        for target in [1, 7, 240, 241, 600] {
            lazy.advance(to: target)
            while eager.steps < target { eager.step() }
            let a = lazy.stores[0], b = eager.stores[0]
            XCTAssertEqual(a.count, b.count, "step \(target)")
            XCTAssertGreaterThan(a.count, 0)
            for i in 0..<min(a.count, b.count) {
                XCTAssertEqual([a.px[i], a.py[i], a.vx[i], a.vy[i], a.age[i]], [b.px[i], b.py[i], b.vx[i], b.vy[i], b.age[i]],
                               "particle \(i) at step \(target)")
                if a.px[i] != b.px[i] { break }
            }
        }
    }
}
