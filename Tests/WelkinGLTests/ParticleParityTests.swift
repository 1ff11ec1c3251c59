// GPU-vs-CPU parity for particles: the example scenes at t = 0, 1.5, 7 s (and 30 s for snow), and a
// scene with every sprite kind, render mode and layer position. Both renderers draw the same
// Frame, so any difference is rasterisation or shading, never simulation.
// Set WELKIN_SAVE_RENDERS=DIR to keep every GPU and CPU picture as PNG.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class ParticleParityTests: XCTestCase {
    static let repository = Repository.root

    func check(_ scene: Scene, _ name: String, time: Double, size: SIMD2<Int>? = nil, line: UInt = #line) throws {
        let frame = Frame(scene: scene, time: time, pixelSize: size)
        var sprites = 0
        for case let p as ParticleDraw in frame.layers { sprites += p.instanceCount }
        let label = "particles \(name) \(frame.pixelSize.x)×\(frame.pixelSize.y) (\(sprites) sprites)"
        try assertParity(frame, label: label, line: line)
        XCTAssertGreaterThan(sprites, 0, label, line: line)
    }

    func checkScene(_ name: String, times: [Double]) throws {
        let scene = try SceneLoader.load(path: Self.repository.appendingPathComponent("Scenes/\(name).json").path)
        for t in times { try check(scene, name, time: t) }
    }

    func testSnow() throws { try checkScene("snow", times: [0, 1.5, 7, 30]) }
    func testFire() throws { try checkScene("fire", times: [0, 1.5, 7]) }
    func testRain() throws { try checkScene("rain", times: [0, 1.5, 7]) }
    func testStars() throws { try checkScene("stars", times: [0, 1.5, 7]) }

    /// Every sprite kind (an image too), every render mode, an emitter under and over gradients,
    /// a translucent background, and a pixel size that is not the scene size.
    func testEverySpriteAndRenderMode() throws {
        try everySpriteAndRenderMode { scene, mode in
            try check(scene, "sprites-\(mode)", time: 2)
            try check(scene, "sprites-\(mode)", time: 2, size: SIMD2(173, 101))
        }
    }

    /// Batches drawn as GL_POINTS give the instanced quads' image exactly, byte for byte: every
    /// sprite kind and render mode, sprites centred off the frame (the emitter reaches past it)
    /// that still show their part, and a frame of a million-particle kind of scene in small.
    func testPointsDrawWhatQuadsDraw() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.drawsSpritesAsPoints = true }
        func compare(_ scene: Scene, _ label: String, time: Double, size: SIMD2<Int>? = nil) throws {
            let frame = Frame(scene: scene, time: time, pixelSize: size)
            renderer.drawsSpritesAsPoints = true
            let points = try renderer.render(frame)
            renderer.drawsSpritesAsPoints = false
            let quads = try renderer.render(frame)
            let difference = ImageDifference(points, quads)
            XCTAssertEqual(difference.maxDifference, 0, "\(label): \(difference)")
        }
        try everySpriteAndRenderMode(emitterSize: "[1.3, 1.4]") { scene, mode in
            try compare(scene, "sprites-\(mode)", time: 2)
            try compare(scene, "sprites-\(mode) 173×101", time: 2, size: SIMD2(173, 101))
        }
        let dense = try SceneLoader.decode("""
            {"size": [320, 180], "layers": [
              {"type": "emitter", "shape": "rectangle", "mode": "surface", "position": [0.5, 0.5], "size": [1.1, 1.1], "prewarm": 5,
               "cells": [{"name": "dot", "sprite": "dot", "spriteSize": 8, "color": [0.9, 0.95, 1, 0.6], "birthRate": 4000,
                          "lifetime": 5, "velocity": 12, "velocityRange": 8, "emissionRange": 3.14159, "yAcceleration": 2}]}]}
            """, file: "dense.json")
        try compare(dense, "20,000 dots", time: 0)
    }

    func everySpriteAndRenderMode(emitterSize: String = "[0.6, 0.5]", _ body: (Scene, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-sprites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = Image(width: 9, height: 6)
        for y in 0..<6 { for x in 0..<9 { image[x, y] = SIMD4(UInt8(x * 28), UInt8(y * 40), 200, UInt8(x == 0 || y == 5 ? 0 : 90 + x * 18)) } }
        try PNG.write(image, to: directory.appendingPathComponent("tile.png").path)
        func cell(_ sprite: String, _ extra: String = "", size: Int = 14) -> String {
            """
            {"name": "\(sprite)", "sprite": "\(sprite)", "spriteSize": \(size), "birthRate": 12, "lifetime": 3, "lifetimeRange": 1,
             "velocity": 40, "velocityRange": 30, "emissionRange": 6.283, "spin": 1, "spinRange": 2, "scaleRange": 0.8,
             "color": [0.9, 0.6, 0.3, 0.8], "greenRange": 0.4, "alphaSpeed": -0.1, "yAcceleration": 10 \(extra)}
            """
        }
        let cells = [cell("dot"), cell("softDot", ", \"blur\": 3"), cell("flake"), cell("streak", ", \"streakDuration\": 0.2"),
                     cell("cloud", ", \"blur\": 2", size: 30), cell("image", ", \"image\": \"tile.png\"")].joined(separator: ", ")
        for (mode, background) in [("oldestFirst", "#10203080"), ("oldestLast", "black"), ("additive", "#203040")] {
            let json = """
            {"size": [240, 160], "background": "\(background)", "wind": [-10, 3],
             "layers": [{"type": "linearGradient", "stops": ["#00000000", "#FF950060"]},
                        {"type": "emitter", "shape": "rectangle", "position": [0.5, 0.5], "size": \(emitterSize),
                         "renderMode": "\(mode)", "opacity": 0.9, "cells": [\(cells)]},
                        {"type": "emitter", "shape": "circle", "mode": "outline", "size": [0.3, 0], "seed": 4,
                         "cells": [\(cell("dot", ", \"sway\": {\"amplitude\": 6, \"frequency\": 1, \"endAmplitude\": 0}"))]}
                        \(mode == "oldestLast" ? ", {\"type\": \"radialGradient\", \"stops\": [\"#FFFFFF30\", \"#00000000\"]}" : "")]}
            """
            try body(try SceneLoader.decode(json, file: "sprites.json", directory: directory.path), mode)
        }
    }
}
