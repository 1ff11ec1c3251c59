// `welkin import`: the particles of imported Particle Designer (.plist) and Starling (.pex) effects
// have the lifespans, speeds, angles, sizes and colours the formats prescribe (Kolmogorov–Smirnov
// tests on the particles `welkin particles --json` prints) and their textures survive byte for
// byte (GPU = CPU parity: WelkinGLTests/ImportParityTests).
//
// The effect files in Tests/Fixtures/effects were written for these tests from the formats' keys
// (textured.plist and spark.png by make-textured.py there). Values that change over a particle's
// life (size, colour, rotation, orbit radius) are given a fixed finish value, so each particle's
// start value is recovered exactly from its value at normalised age u: start = (v − finish·u)/(1 − u).

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImport

/// Kolmogorov–Smirnov statistic of `samples` against the distribution function `cdf`.
func ks(_ samples: [Double], _ cdf: (Double) -> Double) -> Double {
    let s = samples.sorted()
    let n = Double(s.count)
    var d = 0.0
    for (i, x) in s.enumerated() {
        let f = min(max(cdf(x), 0), 1)
        d = max(d, abs(f - Double(i) / n), abs(Double(i + 1) / n - f))
    }
    return d
}

func uniform(_ lo: Double, _ hi: Double) -> (Double) -> Double { { ($0 - lo) / (hi - lo) } }

/// The KS critical value at significance 0.001 for n samples.
func ksCritical(_ n: Int) -> Double { 1.949 / Double(n).squareRoot() }

/// The lifetimes of the particles alive at one instant in the steady state are length-biased:
/// a lifetime L uniform on [a, b] is seen with density ∝ L, so its distribution is (x² − a²)/(b² − a²).
func lengthBiased(_ a: Double, _ b: Double) -> (Double) -> Double { { ($0 * $0 - a * a) / (b * b - a * a) } }

final class ImportStatisticsTests: XCTestCase {
    static let effects = Repository.fixtures.appendingPathComponent("effects")

    /// Imports `file` into a temporary folder as the command does; returns the scene and the result.
    func importEffect(_ file: String, options: ParticleImport.Options = .init()) throws -> (Scene, ParticleImport.Result, URL) {
        let path = Self.effects.appendingPathComponent(file).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let effect = try EffectFile.parse(text, path: path)
        let result = try ParticleImport.convert(effect, effectDirectory: Self.effects.path, name: "imported", options: options)
        let folder = try makeTemporaryDirectory("welkin-import")
        if let t = result.texture { try Data(t.png).write(to: folder.appendingPathComponent(t.fileName)) }
        let scenePath = folder.appendingPathComponent("imported.json")
        try result.scene.write(to: scenePath, atomically: true, encoding: .utf8)
        return (try SceneLoader.load(path: scenePath.path), result, folder)
    }

    func assertKS(_ samples: [Double], _ cdf: (Double) -> Double, _ label: String, minimum: Int = 300, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(samples.count, minimum, "\(label): too few samples", line: line)
        let d = ks(samples, cdf), critical = ksCritical(samples.count)
        print("import KS \(label): n = \(samples.count), D = \(String(format: "%.4f", d)) (critical \(String(format: "%.4f", critical)))")
        XCTAssertLessThan(d, critical, label, line: line)
    }

    /// A start value from the value at normalised age u, given a fixed finish value.
    func start(_ value: Double, finish: Double, _ u: Double) -> Double { (value - finish * u) / (1 - u) }

    func testGravityPlistLifespansSpeedsAnglesSizesRotationsAndColours() throws {
        let (scene, result, _) = try importEffect("gravity.plist")
        XCTAssertEqual(result.warnings, [])
        let particles = ParticleSnapshot.all(in: scene, at: 4).particles
        // maxParticles 2000 / particleLifespan 2 = 1000 a second: about 2000 alive (rate × mean
        // lifespan); maxParticles is raised to 2501 (rate × the longest lifespan 2.5 s, + 1) so no
        // birth is dropped and the lifespans stay length-biased.
        XCTAssertGreaterThan(particles.count, 1800)
        XCTAssertLessThanOrEqual(particles.count, 2200)
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail("not an emitter") }
        XCTAssertEqual(e.maxParticles, 2501)
        assertKS(particles.map(\.lifetime), lengthBiased(1.5, 2.5), "lifespan 2 ± 0.5 s")
        // No acceleration: the speed is the birth speed, the direction the birth angle (y up).
        assertKS(particles.map { ($0.velocity * $0.velocity).sum().squareRoot() }, uniform(80, 160), "speed 120 ± 40")
        assertKS(particles.map { atan2(-$0.velocity.y, $0.velocity.x) * 180 / .pi }, uniform(30, 90), "angle 60 ± 30°")
        let young = particles.filter { $0.age / $0.lifetime < 0.8 }
        let spriteSize = 30.0
        assertKS(young.map { start($0.scale * spriteSize, finish: 10, $0.age / $0.lifetime) }, uniform(20, 40), "start size 30 ± 10")
        assertKS(young.map { start($0.angle * 180 / .pi, finish: 180, $0.age / $0.lifetime) }, uniform(15, 75), "rotation start 45 ± 30°")
        let finish = [0.2, 0.3, 0.9, 0.1], mean = [0.6, 0.5, 0.4, 0.8], variance = [0.2, 0.1, 0.3, 0.15]
        for c in 0..<4 {
            assertKS(young.map { start($0.color[c], finish: finish[c], $0.age / $0.lifetime) },
                     uniform(mean[c] - variance[c], mean[c] + variance[c]), "start colour[\(c)] \(mean[c]) ± \(variance[c])")
        }
        // The finish values are reached at the end of life.
        let old = particles.filter { $0.age / $0.lifetime > 0.995 }
        XCTAssertFalse(old.isEmpty)
        for p in old {
            XCTAssertEqual(p.scale * spriteSize, 10, accuracy: 0.2)
            XCTAssertEqual(p.color.z, 0.9, accuracy: 0.01)
        }
        // sourcePositionVariance (20, 10) about the centre: births within ± it (checked on the youngest).
        for p in particles where p.age < 0.01 {
            XCTAssertLessThanOrEqual(abs(p.position.x - 256), 20 + 160 * 0.01 + 1e-3)
            XCTAssertLessThanOrEqual(abs(p.position.y - 256), 10 + 160 * 0.01 + 1e-3)
        }
    }

    func testRadialPlistOrbits() throws {
        let (scene, result, _) = try importEffect("radial.plist")
        XCTAssertEqual(result.warnings, [])
        let particles = ParticleSnapshot.all(in: scene, at: 6).particles
        XCTAssertGreaterThan(particles.count, 1300)
        assertKS(particles.map(\.lifetime), lengthBiased(2, 4), "lifespan 3 ± 1 s")
        let young = particles.filter { $0.age / $0.lifetime < 0.8 }
        // cocos2d: position = centre − (cos a, sin a)·r in y-up points, a = angle + rotatePerSecond·age,
        // r from maxRadius to minRadius over the life.
        var radii: [Double] = [], angles: [Double] = []
        for p in young {
            let u = p.age / p.lifetime
            let up = SIMD2(p.position.x - 256, -(p.position.y - 256))
            let r = (up * up).sum().squareRoot()
            radii.append(start(r, finish: 20, u))
            var a = atan2(-up.y, -up.x) * 180 / .pi - 90 * p.age
            a = a - 360 * ((a + 90) / 360).rounded(.down)   // into [−90, 270)
            angles.append(a)
        }
        assertKS(radii, uniform(120, 180), "maxRadius 150 ± 30 → minRadius 20")
        assertKS(angles, uniform(45, 135), "angle 90 ± 45°, turning 90°/s")
        // finish −1: the size stays the start size.
        assertKS(particles.map { $0.scale * 20 }, uniform(15, 25), "size 20 ± 5, constant")
        for (c, m, v, f) in [(1, 0.5, 0.2, 0.0), (2, 0.2, 0.2, 1.0)] {
            assertKS(young.map { start($0.color[c], finish: f, $0.age / $0.lifetime) }, uniform(m - v, m + v), "start colour[\(c)] \(m) ± \(v)")
        }
        XCTAssertTrue(scene.layers.contains { ($0.content as? EmitterLayer)?.renderMode == .additive },
                      "blend (770, 1) is additive")
    }

    /// cocos2d's minRadius −1 (START_RADIUS_EQUAL_TO_END_RADIUS, CCParticleSystem.cpp) keeps each
    /// particle at its start radius: no endRadius in the scene, distances uniform on maxRadius ± variance
    /// at every age (read as a radius of −1, the orbits would shrink through the centre).
    func testRadialPlistMinRadiusMinusOneKeepsTheStartRadius() throws {
        let path = Self.effects.appendingPathComponent("radial.plist").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "<key>minRadius</key>\n\t<real>20.0</real>", with: "<key>minRadius</key>\n\t<real>-1.0</real>")
        XCTAssertTrue(text.contains("<real>-1.0</real>\n\t<key>minRadiusVariance</key>"))
        let effect = try EffectFile.parse(text, path: path)
        let result = try ParticleImport.convert(effect, effectDirectory: Self.effects.path, name: "imported", options: .init())
        let folder = try makeTemporaryDirectory("welkin-import")
        if let t = result.texture { try Data(t.png).write(to: folder.appendingPathComponent(t.fileName)) }
        let scenePath = folder.appendingPathComponent("imported.json")
        try result.scene.write(to: scenePath, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: scenePath.path)
        guard let e = scene.layers[0].content as? EmitterLayer, let orbit = e.cells[0].orbit else { return XCTFail("no orbit") }
        XCTAssertNil(orbit.endRadius)
        XCTAssertEqual(orbit.radius, 150)
        let particles = ParticleSnapshot.all(in: scene, at: 6).particles
        let old = particles.filter { $0.age / $0.lifetime > 0.5 }
        let radii = old.map { p -> Double in let d = p.position - SIMD2(256, 256); return (d * d).sum().squareRoot() }
        assertKS(radii, uniform(120, 180), "minRadius −1: radius 150 ± 30 throughout")
    }

    func testPexRadialAccelerationLifespansSizesAndColours() throws {
        let (scene, result, _) = try importEffect("fountain.pex")
        XCTAssertEqual(result.warnings, [])
        let particles = ParticleSnapshot.all(in: scene, at: 3).particles
        XCTAssertGreaterThan(particles.count, 500)
        assertKS(particles.map(\.lifetime), lengthBiased(0.8, 1.6), "particleLifeSpan 1.2 ± 0.4 s")
        assertKS(particles.map { $0.scale * 24 }, uniform(16, 32), "size 24 ± 8, constant (finish −1)")
        let young = particles.filter { $0.age / $0.lifetime < 0.8 }
        for (c, m, v) in [(0, 0.3, 0.1), (1, 0.7, 0.1)] {
            assertKS(young.map { start($0.color[c], finish: 1, $0.age / $0.lifetime) }, uniform(m - v, m + v), "start colour[\(c)] \(m) ± \(v)")
        }
        // Speed 0 and radial acceleration 200 alone: each particle runs straight away from the
        // emitter's position, its speed 200 · age.
        for p in particles where p.age > 0.1 {
            let d = p.position - SIMD2(256, 256)
            let speed = (p.velocity * p.velocity).sum().squareRoot()
            XCTAssertEqual(speed, 200 * p.age, accuracy: 0.01 * 200 * p.age)
            let cross = d.x * p.velocity.y - d.y * p.velocity.x
            XCTAssertEqual(cross / ((d * d).sum().squareRoot() * speed), 0, accuracy: 1e-3)
            XCTAssertGreaterThan((d * p.velocity).sum(), 0)
        }
    }

    func testEmbeddedGzipTextureIsKeptByteForByte() throws {
        let (scene, result, folder) = try importEffect("textured.plist")
        let png = try Data(contentsOf: Self.effects.appendingPathComponent("spark.png"))
        XCTAssertEqual(result.texture?.fileName, "spark.png")
        XCTAssertEqual(result.texture.map { Data($0.png) }, png)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("spark.png")), png)
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail("not an emitter") }
        XCTAssertEqual(e.cells[0].sprite, .image)
        XCTAssertEqual(e.cells[0].imageSize, [32, 32])
        XCTAssertEqual(e.renderMode, .additive)
        // The embedded data really is gzip (the fixture's own bytes, decoded independently of the importer's path).
        let text = try String(contentsOf: Self.effects.appendingPathComponent("textured.plist"), encoding: .utf8)
        let effect = try EffectFile.parse(text, path: "textured.plist")
        let data = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(try effect.string("textureImageData"))))
        XCTAssertEqual(Array(data.prefix(2)), [0x1F, 0x8B])
    }

    /// A .plist's angles and gravity point up (cocos2d), a .pex's down (Starling): both become Welkin's y-down values.
    func testAxisConventions() throws {
        func cell(_ s: Scene) throws -> EmitterCell {
            return try XCTUnwrap(s.layers[0].content as? EmitterLayer, "not an emitter").cells[0]
        }
        let plist = try cell(importEffect("gravity.plist").0)
        XCTAssertEqual(plist.emissionLongitude, -60 * .pi / 180, accuracy: 1e-12)
        XCTAssertEqual(plist.emissionRange, 60 * .pi / 180, accuracy: 1e-12)
        XCTAssertEqual(plist.birthRate, 1000)
        let textured = try cell(importEffect("textured.plist").0)
        XCTAssertEqual(textured.yAcceleration, -40)
        let pex = try cell(importEffect("fountain.pex").0)
        XCTAssertEqual(pex.emissionLongitude, 90 * .pi / 180, accuracy: 1e-12)
        XCTAssertEqual(pex.birthRate, 500)
        var options = ParticleImport.Options()
        options.keepPosition = true
        options.size = [400, 300]
        guard let e = try importEffect("gravity.plist", options: options).0.layers[0].content as? EmitterLayer else { return XCTFail("not an emitter") }
        XCTAssertEqual(e.position.x, 0.5, accuracy: 1e-12)       // 200 / 400
        XCTAssertEqual(e.position.y, 0.5, accuracy: 1e-12)       // 1 − 150 / 300
        XCTAssertEqual(e.shape, .rectangle)
        XCTAssertEqual(e.size.x, 40.0 / 400, accuracy: 1e-12)
    }

    func testImportedScenesAreDeterministicAcrossThreads() throws {
        let (scene, _, _) = try importEffect("fountain.pex")
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail("not an emitter") }
        func run(_ threads: Int) -> [ParticleSnapshot] {
            let s = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: scene.wind)
            s.parallelThreshold = 16
            s.advance(to: 360, threads: threads)
            return s.snapshot()
        }
        let one = run(1)
        XCTAssertFalse(one.isEmpty)
        XCTAssertEqual(one, run(4))
    }
}
