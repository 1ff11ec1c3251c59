// ParticleDraw built straight from the stores (parallel chunks) against the same particles built
// one by one from a snapshot: the same sprites in the same order, for any thread count.

import Foundation
import XCTest
@testable import WelkinCore

final class ParticleDrawTests: XCTestCase {
    /// Over several chunks' worth of particles, with some transparent ones (skipped: they leave
    /// gaps the chunks close), two cells, every render mode and a pixel scale.
    func testStoresAndSnapshotGiveTheSameSprites() throws {
        let chunkSize = ParticleDraw.chunkSize
        ParticleDraw.chunkSize = 1000
        defer { ParticleDraw.chunkSize = chunkSize }
        for mode in ["oldestFirst", "oldestLast", "additive"] {
            let scene = try SceneLoader.decode("""
                {"size": [400, 300], "layers": [{"type": "emitter", "shape": "rectangle", "mode": "surface", "size": [1, 1],
                  "position": [0.5, 0.5], "prewarm": 2, "renderMode": "\(mode)", "cells": [
                  {"name": "a", "sprite": "dot", "spriteSize": 6, "birthRate": 4000, "lifetime": 2, "lifetimeRange": 1,
                   "velocity": 20, "velocityRange": 10, "emissionRange": 6.28, "spin": 1, "spinRange": 2,
                   "color": [1, 0.5, 0.2, 0.5], "alphaRange": 1},
                  {"name": "b", "sprite": "streak", "spriteSize": 3, "birthRate": 900, "lifetime": 1.5, "velocity": 50,
                   "streakDuration": 0.1, "alphaSpeed": -0.4}]}]}
                """, file: "draw.json")
            guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail() }
            SimulationCache.shared.removeAll()
            let fromStores = ParticleDraw(e, index: 0, scene: scene, time: 1, opacity: 0.8, pixelScale: SIMD2(1.5, 1.5))
            XCTAssertGreaterThan(fromStores.batches[0].instances.count, 3 * ParticleDraw.chunkSize, mode)
            let steps = EmitterSimulation.steps(at: 1, prewarm: e.prewarm)
            let simulation = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: scene.wind)
            simulation.advance(to: steps, threads: 1)
            let snapshot = simulation.snapshot()
            let fromSnapshot = ParticleDraw(e, index: 0, particles: snapshot, opacity: 0.8, pixelScale: SIMD2(1.5, 1.5))
            XCTAssertLessThan(fromSnapshot.instanceCount, snapshot.count, "\(mode): some particles are transparent")
            XCTAssertEqual(fromStores.batches, fromSnapshot.batches, mode)
        }
    }

    /// Stores keep birth order as particles die (no sort per frame), so a snapshot is the store
    /// read in order.
    func testStoresStayInBirthOrder() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 200], "layers": [{"type": "emitter", "cells": [
              {"birthRate": 500, "lifetime": 1, "lifetimeRange": 0.9}]}]}
            """, file: "order.json")
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail() }
        let simulation = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: .zero)
        simulation.advance(to: 600)
        let store = simulation.stores[0]
        XCTAssertGreaterThan(store.count, 100)
        XCTAssertNil(store.birthOrder())
        XCTAssertTrue((1..<store.count).allSatisfy { store.birth[$0 - 1] < store.birth[$0] })
    }

    /// A million sprites' instances are 32 MB, not 48 (memory.particles.1m.peak ≤ 200 MiB): the
    /// colour is stored in half precision, rounded to the nearest half, and read back as stored.
    func testSpriteInstancesAre32BytesWithTheirColourInHalfPrecision() {
        XCTAssertEqual(MemoryLayout<SpriteInstance>.stride, 32)
        let exact = SIMD4<Float>(0.123456, 0.5, 0.987654, 0.75)
        let s = SpriteInstance(color: exact, center: [1, 2], size: [3, 3], axis: [1, 0])
        XCTAssertEqual(s.color, SIMD4<Float>(SIMD4<Float16>(exact)))
        for i in 0..<4 { XCTAssertEqual(s.color[i], exact[i], accuracy: exact[i] * 0x1p-11) }
        XCTAssertEqual(s.center, [1, 2])
        // A colour past half precision's range is not finite once stored: the instance is dropped.
        XCTAssertFalse(SpriteInstance(color: [1e6, 0, 0, 1], center: [0, 0], size: [1, 1], axis: [1, 0]).isFinite)
    }
}
