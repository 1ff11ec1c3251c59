// The exported emitter simulation (EmitterSimulationRuntime.swift) is a twin of WelkinCore's: this
// builds the emitters CanvasEmitterExport writes, runs them forward, back and far ahead in a driver,
// and holds every particle's position, velocity, scale, angle and colour to WelkinCore's snapshot.

import Foundation
import XCTest
@testable import WelkinExport
@testable import WelkinCore

final class EmitterTwinTests: XCTestCase {
    /// Every emitter a scene of `paths` has, plus one with the extras the examples lack (orbit,
    /// forces, end values, rotation, damping, emission duration, maxParticles).
    static func emitters() throws -> [(key: String, scene: Scene, index: Int)] {
        var out: [(key: String, scene: Scene, index: Int)] = []
        for name in ["fire.json", "stars.json"] {
            let scene = try SceneLoader.load(path: SwiftCompiler.repository.appendingPathComponent("Scenes/" + name).path)
            for (i, layer) in scene.layers.enumerated() where layer.content is EmitterLayer { out.append(("\(name)[\(i)]", scene, i)) }
        }
        let features = try SceneLoader.load(path: SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/export-features.json").path)
        for (i, layer) in features.layers.enumerated() where layer.content is EmitterLayer { out.append(("export-features.json[\(i)]", features, i)) }

        var extras = Scene()
        extras.size = [400, 300]
        extras.seed = 11
        extras.wind = [3, -1]
        var e = EmitterLayer()
        e.shape = .circle; e.mode = .outline; e.size = [0.3, 0]; e.prewarm = 1; e.maxParticles = 120; e.renderMode = .oldestLast
        var orbiting = EmitterCell()
        orbiting.name = "orbit"; orbiting.birthRate = 40; orbiting.lifetime = 2; orbiting.lifetimeRange = 0.5
        var orbit = Orbit(); orbit.radius = 50; orbit.radiusRange = 10; orbit.endRadius = 5; orbit.speed = 2; orbit.speedRange = 0.5
        orbiting.orbit = orbit; orbiting.endColor = RGBA(1, 0.2, 0.1, 0); orbiting.endRedRange = 0.2; orbiting.emissionDuration = 2.5
        var pushed = EmitterCell()
        pushed.name = "forces"; pushed.birthRate = 50; pushed.lifetime = 1.5; pushed.velocity = 60; pushed.velocityRange = 20
        pushed.emissionRange = 6.28; pushed.radialAcceleration = -30; pushed.tangentialAcceleration = 40
        pushed.tangentialAccelerationRange = 10; pushed.damping = 0.8; pushed.endScale = 2; pushed.endScaleRange = 0.5
        pushed.rotation = 0.3; pushed.rotationRange = 0.2; pushed.endRotation = 2; pushed.spin = 0.5
        pushed.scaleOverLife = Ramp([1, 0.5, 1.5]); pushed.colorOverLife = Ramp([RGBA(1, 1, 1), RGBA(0.2, 0.5, 1, 0.5)])
        pushed.redSpeed = -0.1; pushed.windFactor = 2; pushed.yAcceleration = 20
        e.cells = [orbiting, pushed]
        extras.layers = [Layer(name: "extras", content: e)]
        out.append(("extras", extras, 0))
        return out
    }

    func testExportedSimulationMatchesWelkinCore() throws {
        let emitters = try Self.emitters()
        XCTAssertEqual(emitters.count, 5)
        // Forward (a frame steps on), back (a fresh start), far ahead (a fresh window), then on.
        let times = [0.5, 1.5, 7, 1.5, 40, 40.25]
        var program = "import Foundation\n\n" + RuntimeSupport.all.filter(\.pure).sorted().map(\.source).joined(separator: "\n\n")
        program += "\n\n// MARK: driver\n\nprivate func driver() {\n"
        for (k, item) in emitters.enumerated() {
            let e = item.scene.layers[item.index].content as! EmitterLayer
            let c = ExportContext(scene: item.scene, target: .swiftUI)
            var s = SwiftSource()
            s.block("let emitter\(k): WelkinParticleEmitter = {", "}()") { s in CanvasEmitterExport.writeEmitter(e, index: item.index, c, into: &s) }
            program += s.text + "\n"
            program += "var simulation\(k) = WelkinParticleSimulation(emitter\(k), sceneSize: [\(item.scene.size.x), \(item.scene.size.y)])\n"
            for (j, t) in times.enumerated() {
                program += "simulation\(k) = simulation\(k).advanced(toTime: \(t))\n"
                let key = RuntimeTwinTests.printing("\(item.key) \(j)", """
                    simulation\(k).particles.enumerated().flatMap { c, list in list.flatMap { p -> [Double] in
                        let s = simulation\(k).shown(p, cell: c)
                        return [Double(c), s.position.x, s.position.y, s.velocity.x, s.velocity.y, s.scale, s.angle, s.color.x, s.color.y, s.color.z, s.color.w]
                    } }
                    """)
                program += key + "\n"
            }
        }
        program += "}\n\ndriver()\n"
        let printed = try SwiftCompiler.runDriver(program, name: "emitter-twins")

        var compared = 0
        for item in emitters {
            let e = item.scene.layers[item.index].content as! EmitterLayer
            for (j, t) in times.enumerated() {
                // WelkinCore from empty at the emitter's start: the full run.
                let simulation = EmitterSimulation(layer: e, layerIndex: item.index, sceneSize: item.scene.size,
                                                   seed: item.scene.seed, wind: item.scene.wind)
                simulation.advance(to: EmitterSimulation.steps(at: t, prewarm: e.prewarm))
                let expected = simulation.snapshot().flatMap { p -> [Double] in
                    [Double(p.cellIndex), p.position.x, p.position.y, p.velocity.x, p.velocity.y, p.scale, p.angle,
                     p.color.x, p.color.y, p.color.z, p.color.w]
                }
                let key = "\(item.key) \(j)"
                guard let values = printed[key] else { XCTFail("\(key): not printed"); continue }
                XCTAssertEqual(values.count, expected.count, "\(key) at \(t) s: \(values.count / 11) particles instead of \(expected.count / 11)")
                XCTAssertGreaterThan(expected.count, 0, key)
                var worst = 0.0
                for (v, w) in zip(values, expected) {
                    worst = max(worst, abs(v - w) / max(1, abs(w)))
                }
                XCTAssertLessThanOrEqual(worst, 0, "\(key) at \(t) s: the exported simulation strays \(worst) (relative) from WelkinCore's")
                compared += expected.count / 11
            }
        }
        print("EmitterTwinTests: compared \(compared) particles")
    }
}
