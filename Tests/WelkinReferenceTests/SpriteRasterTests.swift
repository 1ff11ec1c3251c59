// The CPU sprite raster: coverage adds up to the shapes' areas, and rows drawn by any number of
// threads give the same picture.

import XCTest
import WelkinCore
@testable import WelkinReference

final class SpriteRasterTests: XCTestCase {
    /// Sum of a sprite's coverage over the pixel centres of a generous box around it.
    func area(_ kind: SpriteKind, size: SIMD2<Float>, blur: Float, axis: SIMD2<Float> = [1, 0]) -> Float {
        let s = SpriteInstance(color: .one, center: [50.3, 49.7], size: size, axis: axis)
        var total: Float = 0
        for y in 0..<100 { for x in 0..<100 {
            total += SpriteShape.coverage(kind, SpriteShape.local(SIMD2(Float(x) + 0.5, Float(y) + 0.5), s), size: size, blur: blur)
        } }
        return total
    }

    func testCoverageAddsUpToTheArea() {
        let r: Float = 12
        XCTAssertEqual(area(.dot, size: [2 * r, 2 * r], blur: 0), .pi * r * r, accuracy: 2)
        // The blurred edge is a radial error function: it adds π·σ² (the outside ring is longer
        // than the inside one), to the 3σ cut.
        XCTAssertEqual(area(.softDot, size: [2 * r, 2 * r], blur: 3), .pi * (r * r + 9), accuracy: 4)
        // A streak is a capsule (fading linearly to its tail: half the area).
        let streak = area(.streak, size: [40, 4], blur: 0, axis: [0.6, 0.8])
        XCTAssertEqual(streak, (36 * 4 + .pi * 4) / 2, accuracy: 6)
        XCTAssertGreaterThan(area(.flake, size: [30, 30], blur: 0), 6 * 15 * 1.2 * 0.8)
        XCTAssertGreaterThan(area(.cloud, size: [40, 40], blur: 2), 0)
    }

    func testEveryFunctionIsZeroOutsideItsSupport() {
        for kind in SpriteKind.allCases where kind != .image {
            let size = SIMD2<Float>(20, 8), blur: Float = 2
            let h = SpriteShape.support(kind, size: size, blur: blur)
            for q in [SIMD2(h.x, 0), SIMD2(0, h.y), SIMD2(-h.x - 0.1, 0), h] {
                XCTAssertEqual(SpriteShape.coverage(kind, q, size: size, blur: blur), 0, "\(kind) at \(q)")
            }
        }
    }

    func testParticleFramesDoNotDependOnThreads() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 120], "layers": [{"type": "emitter", "shape": "rectangle", "size": [1, 1], "renderMode": "oldestLast",
             "cells": [{"birthRate": 200, "lifetime": 2, "sprite": "softDot", "blur": 2, "spriteSize": 12, "velocity": 20,
                        "emissionRange": 6.28, "color": [1, 0.5, 0.2, 0.6]}]}]}
            """, file: "t.json")
        let frame = Frame(scene: scene, time: 3)
        let one = try ReferenceRenderer(threads: 1).render(frame)
        XCTAssertEqual(try ReferenceRenderer(threads: 3).render(frame), one)
        XCTAssertEqual(try ReferenceRenderer(threads: 8).render(frame), one)
    }
}
