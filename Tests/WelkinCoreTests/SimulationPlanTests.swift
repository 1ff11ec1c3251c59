// Bounded simulation work (SimulationPlan, EmitterSimulation's birth jumps): a frame at a huge
// scene time, or of an emitter with a huge birth rate, costs a bounded amount, and where the
// plan says "exact" it draws exactly the particles of the full run.

import Foundation
import XCTest
@testable import WelkinCore

struct NotAnEmitter: Error {}

final class SimulationPlanTests: XCTestCase {
    func emitter(_ json: String, size: String = "[800, 600]") throws -> (Scene, EmitterLayer) {
        let scene = try SceneLoader.decode("{\"size\": \(size), \"layers\": [{\"type\": \"emitter\", \(json)}]}", file: "p.json")
        // A layer that is not an emitter is a broken fixture: the test fails (never skips).
        guard let e = scene.layers[0].content as? EmitterLayer else { throw NotAnEmitter() }
        return (scene, e)
    }

    func simulation(_ scene: Scene, _ e: EmitterLayer, from start: Int = 0, to target: Int, jumps: Bool = true) -> EmitterSimulation {
        let s = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: scene.wind, startStep: start)
        s.jumpsOverBirths = jumps
        s.advance(to: target)
        return s
    }

    /// Seconds `body` takes.
    func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now()
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Snow's cells with a lifetime range, damping and a rate that is not a whole number.
    let snowy = """
    "shape": "line", "position": [0.5, 0], "size": [1, 0], "cells": [
      {"birthRate": 30, "lifetime": 6, "lifetimeRange": 3, "scale": 0.15, "scaleRange": 0.6, "velocity": 30,
       "velocityRange": 20, "emissionRange": 3.14159, "spin": -0.5, "spinRange": 1, "yAcceleration": 30, "damping": 0.2},
      {"birthRate": 66.66666666666667, "lifetime": 2.5, "velocity": 40, "sway": {"amplitude": 4, "frequency": 0.3}}]
    """

    func testAWindowOfOneLifetimeGivesTheFullRunsParticles() throws {
        let (scene, e) = try emitter(snowy)
        let plan = SimulationPlan(e)
        XCTAssertTrue(plan.exact)
        // The longest lifetime is 6 + 3 s (value ± range).
        XCTAssertEqual(plan.lifetimeSteps!, Int((9.0 * 120).rounded(.up)) + 3, accuracy: 2)
        for target in [plan.lifetimeSteps! + 1, 4321, 7200] {
            let start = plan.start(for: target)
            XCTAssertGreaterThan(start, 0)
            let full = simulation(scene, e, to: target), window = simulation(scene, e, from: start, to: target)
            XCTAssertGreaterThan(full.count, 100)
            XCTAssertEqual(window.snapshot(), full.snapshot(), "target \(target)")
        }
    }

    func testAHugeSceneTimeCostsNoMoreThanASmallOne() throws {
        let (scene, _) = try emitter(snowy)
        for t in [1e6, 1e9, 1e300, Double.greatestFiniteMagnitude] {
            var count = 0
            let elapsed = seconds {
                let frame = Frame(scene: scene, time: t, pixelSize: SIMD2(80, 60))
                if let p = frame.layers[0] as? ParticleDraw { count = p.instanceCount }
            }
            XCTAssertLessThan(elapsed, 5, "t = \(t)")
            XCTAssertGreaterThan(count, 150, "t = \(t)")   // about 30 × 7.5·(2/3)… + 66.7 × 2.5, less what is transparent
        }
    }

    func testBirthJumpsGiveTheOneByOneLoopsParticles() throws {
        // Births that die in their step (lifetimes shorter than a step), and births beyond maxParticles.
        let (scene, short) = try emitter("\"cells\": [{\"birthRate\": 50000, \"lifetime\": 0.004, \"lifetimeRange\": 0.006, \"velocity\": 10}]")
        let jumped = simulation(scene, short, to: 300), looped = simulation(scene, short, to: 300, jumps: false)
        XCTAssertGreaterThan(jumped.count, 50)
        XCTAssertEqual(jumped.snapshot(), looped.snapshot())
        let (full, capped) = try emitter("\"maxParticles\": 700, \"cells\": [{\"birthRate\": 20000, \"lifetime\": 0.3}, {\"birthRate\": 900, \"lifetime\": 1}]")
        let a = simulation(full, capped, to: 500), b = simulation(full, capped, to: 500, jumps: false)
        XCTAssertEqual(a.count, 700)
        XCTAssertEqual(a.snapshot(), b.snapshot())
        XCTAssertEqual(a.droppedBirths, b.droppedBirths)
        XCTAssertGreaterThan(a.droppedBirths, 10_000)
    }

    /// `e` with the layer's birthRate set past what the decoder accepts (the simulation bounds its
    /// work whatever the numbers: the decoder's limit is not its only guard), and a scene of it.
    func multiplied(_ scene: Scene, _ e: EmitterLayer, birthRate: Double) -> (Scene, EmitterLayer) {
        var e = e, scene = scene
        e.birthRate = birthRate
        scene.layers[0].content = e
        return (scene, e)
    }

    func testHugeBirthRatesCostBoundedWork() throws {
        // 10¹² births a second (the largest cell rate × the largest layer multiplier: the decoder
        // refuses more than 10⁷, the simulation must not care).
        let (scene, full) = try { let (s, e) = try emitter("\"maxParticles\": 1000, \"cells\": [{\"birthRate\": 1000000, \"lifetime\": 1}]")
                                  return multiplied(s, e, birthRate: 1e6) }()
        var s: EmitterSimulation!
        XCTAssertLessThan(seconds { s = simulation(scene, full, to: 12) }, 2)
        XCTAssertEqual(s.count, 1000)
        // Births k < 10¹² × 0.1 s happened; all but the first thousand were dropped.
        XCTAssertEqual(Double(s.droppedBirths), 1e11 - 1000, accuracy: 2)
        // Every particle dies at birth: no step visits them one by one.
        let (_, instant) = try { let (s, e) = try emitter("\"cells\": [{\"birthRate\": 1000000, \"lifetime\": 0}]")
                                 return multiplied(s, e, birthRate: 1e6) }()
        XCTAssertLessThan(seconds { s = simulation(scene, instant, to: 120) }, 2)
        XCTAssertEqual(s.count, 0)
        // And through the Frame: full at t = 1000 (a budgeted history of a few steps); at t = 10⁹ the
        // cell has long emitted its `maximumBirths`.
        let (heavy, _) = try { let (s, e) = try emitter("\"cells\": [{\"birthRate\": 1000000, \"lifetime\": 3, \"sprite\": \"dot\"}]")
                               return multiplied(s, e, birthRate: 1e6) }()
        for (t, expected) in [(1000.0, EmitterLayer.defaultMaxParticles), (1e9, 0)] {
            var count = -1
            XCTAssertLessThan(seconds {
                if let p = Frame(scene: heavy, time: t, pixelSize: SIMD2(16, 9)).layers[0] as? ParticleDraw { count = p.instanceCount }
            }, 10, "t = \(t)")
            XCTAssertEqual(count, expected, "t = \(t)")
        }
    }

    func testAnEmitterThatCanFillUpSimulatesABudgetedHistory() throws {
        let (scene, e) = try emitter("\"maxParticles\": 300, \"cells\": [{\"birthRate\": 400, \"lifetime\": 1.5, \"velocity\": 20, \"emissionRange\": 6.28}]")
        let plan = SimulationPlan(e, workBudget: 2e6)
        XCTAssertFalse(plan.exact)
        let h = plan.historySteps
        XCTAssertGreaterThan(h, 200)
        // Exact (from the start) below two histories; then from a multiple of the history, one to two back.
        XCTAssertEqual(plan.start(for: 2 * h - 1), 0)
        for target in [2 * h, 2 * h + 7, 5 * h + 3] {
            let start = plan.start(for: target)
            XCTAssertEqual(start % h, 0)
            XCTAssertTrue((h...(2 * h)).contains(target - start), "target \(target) start \(start)")
        }
        // The cache gives the plan's particles however it got there: playing forward across
        // history boundaries, seeking back, or fresh.
        let cache = SimulationCache(workBudget: 2e6)
        func cached(_ target: Int) -> [ParticleSnapshot] {
            cache.withSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: .zero, steps: target) { $0.snapshot() }
        }
        func fresh(_ target: Int) -> [ParticleSnapshot] { simulation(scene, e, from: plan.start(for: target), to: target).snapshot() }
        for target in stride(from: 0, through: 5 * h, by: h / 3 + 17) {
            XCTAssertEqual(cached(target), fresh(target), "played forward to \(target)")
        }
        XCTAssertEqual(cached(2 * h + 5), fresh(2 * h + 5))
        XCTAssertEqual(cached(h - 1), simulation(scene, e, to: h - 1).snapshot())
    }

    /// The cache keeps states of at most `maximumEmitters` emitters and checkpoints under its byte
    /// budget, and still gives the particles a fresh simulation gives.
    func testTheCacheIsBounded() throws {
        let budget = 256 << 10
        let cache = SimulationCache(checkpointBudget: budget)
        let (scene, base) = try emitter(snowy)
        var largest = 0
        for i in 0..<(SimulationCache.maximumEmitters + 8) {
            var e = base
            e.seed = UInt64(i)
            let target = 12 * EmitterSimulation.stepsPerSecond
            let cached = cache.withSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: .zero, steps: target) { $0.snapshot() }
            largest = max(largest, cache.checkpointBytes)
            XCTAssertLessThanOrEqual(cache.checkpointBytes, budget, "emitter \(i)")
            XCTAssertLessThanOrEqual(cache.emitterCount, SimulationCache.maximumEmitters)
            if i % 10 == 0 { XCTAssertEqual(cached, simulation(scene, e, to: target).snapshot(), "emitter \(i)") }
        }
        // The budget was reached (checkpoints were dropped to fit it), not merely never approached.
        XCTAssertGreaterThan(largest, budget / 2)
        XCTAssertEqual(cache.emitterCount, SimulationCache.maximumEmitters)
    }

    func testLifetimesTooLongToBoundAreBudgetedToo() throws {
        // Float ages this old advance by rounded steps: no lifetime window is trusted.
        // (The decoder refuses lifetimes over 30,000 s; the plan must not trust one anyway.)
        var (scene, e) = try emitter("\"cells\": [{\"birthRate\": 2, \"lifetime\": 30000}]")
        e.lifetime = 1000 / 30
        scene.layers[0].content = e
        XCTAssertEqual(e.cells[0].lifetime * e.lifetime, 1e6, accuracy: 1e-3)
        let plan = SimulationPlan(e)
        XCTAssertNil(plan.lifetimeSteps)
        XCTAssertFalse(plan.exact)
        XCTAssertLessThan(seconds { _ = Frame(scene: scene, time: 1e8, pixelSize: SIMD2(16, 9)) }, 5)
    }

    func testMeshWalkAtHugeTimesAndTinyIntervals() throws {
        let walk = MeshRandomWalk(interval: 1e-300, step: 0.01, ranges: [.init(index: 0, x: 0...1, y: 0...1)])
        var moved: [UnitPoint] = []
        XCTAssertLessThan(seconds { moved = walk.positions(start: [[0.5, 0.5]], seed: 1, at: 1.5) }, 5)
        XCTAssertTrue(moved[0].x.isFinite && moved[0].y.isFinite)
        XCTAssertEqual(walk.tickLimit(vertexCount: 1), MeshRandomWalk.maximumSpringSteps / 2)
        let slow = MeshRandomWalk(interval: 1.0 / 9, step: 0.01, ranges: [.init(index: 0, x: 0...1, y: nil)])
        XCTAssertLessThan(seconds { moved = slow.positions(start: [[0.5, 0.5]], seed: 1, at: 1e300) }, 5)
        XCTAssertTrue((0...1).contains(moved[0].x))
    }
}
