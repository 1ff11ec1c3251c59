// GPU-vs-CPU parity of imported Particle Designer / Starling effects (Tests/Fixtures/effects):
// orbiting, radially accelerated, textured and start → end interpolated particles draw alike.
// Set WELKIN_SAVE_RENDERS=DIR to keep every GPU and CPU picture as PNG.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinImage
import WelkinImport
import WelkinReference

final class ImportParityTests: XCTestCase {
    func importEffect(_ file: String) throws -> Scene {
        let effects = Repository.fixtures.appendingPathComponent("effects")
        let path = effects.appendingPathComponent(file).path
        let effect = try EffectFile.parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
        let result = try ParticleImport.convert(effect, effectDirectory: effects.path, name: "imported")
        let folder = try makeTemporaryDirectory("welkin-import-parity")
        if let t = result.texture { try Data(t.png).write(to: folder.appendingPathComponent(t.fileName)) }
        let scenePath = folder.appendingPathComponent("imported.json")
        try result.scene.write(to: scenePath, atomically: true, encoding: .utf8)
        return try SceneLoader.load(path: scenePath.path)
    }

    func testGPUMatchesCPUOnImportedEffects() throws {
        for (file, time) in [("gravity.plist", 3.0), ("radial.plist", 4.0), ("fountain.pex", 2.0), ("textured.plist", 2.0)] {
            let scene = try importEffect(file)
            let frame = Frame(scene: scene, time: time, pixelSize: nil)
            var sprites = 0
            for case let p as ParticleDraw in frame.layers { sprites += p.instanceCount }
            try assertParity(frame, label: "import \(file) (\(sprites) sprites)")
            XCTAssertGreaterThan(sprites, 100, file)
        }
    }
}
