// `welkin import`'s rough edges (issue 27): a textureFileName that names a missing PNG falls back
// to soft dots with a warning, and an imported emitter's maxParticles fits its own birth rate ×
// longest lifetime, so loading the scene warns of no dropped births.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImport

final class ImportRoughEdgeTests: XCTestCase {
    /// Converts `text` (an effect file called `file` in `folder`) and loads the written scene.
    /// `effectDirectory` (default `folder`) is where the effect's textureFileName is looked up.
    func load(_ text: String, file: String, in folder: URL, effectDirectory: URL? = nil) throws -> (Scene, ParticleImport.Result) {
        let directory = effectDirectory ?? folder
        let effect = try EffectFile.parse(text, path: directory.appendingPathComponent(file).path)
        let result = try ParticleImport.convert(effect, effectDirectory: directory.path, name: "imported")
        if let t = result.texture { try Data(t.png).write(to: folder.appendingPathComponent(t.fileName)) }
        let scenePath = folder.appendingPathComponent("imported.json")
        try result.scene.write(to: scenePath, atomically: true, encoding: .utf8)
        return (try SceneLoader.load(path: scenePath.path), result)
    }

    func plist(_ pairs: [(String, String)]) -> String {
        "<plist><dict>" + pairs.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict></plist>"
    }

    func testEveryFixtureImportsWithAMaxParticlesThatFitsItsBirthsAndLifetimes() throws {
        let effects = Repository.fixtures.appendingPathComponent("effects")
        for file in ["gravity.plist", "radial.plist", "textured.plist", "fountain.pex"] {
            let text = try String(contentsOf: effects.appendingPathComponent(file), encoding: .utf8)
            let folder = try makeTemporaryDirectory("welkin-import-edges")
            let (scene, _) = try load(text, file: file, in: folder, effectDirectory: effects)
            XCTAssertEqual(scene.warnings.map(\.description).filter { $0.contains("maxParticles") }, [], file)
            let e = try XCTUnwrap(scene.layers[0].content as? EmitterLayer, file)
            let effect = try EffectFile.parse(text, path: file)
            // Never below the effect's own maxParticles, and at least birthRate × the longest lifetime.
            XCTAssertGreaterThanOrEqual(Double(e.maxParticles), try XCTUnwrap(try effect.number("maxParticles")), file)
            XCTAssertGreaterThanOrEqual(Double(e.maxParticles), e.steadyStateBound(e.cells[0]), file)
        }
    }

    func testAWideLifespanVarianceRaisesMaxParticlesAndNoBirthIsDropped() throws {
        let folder = try makeTemporaryDirectory("welkin-import-edges")
        // 100 a second living up to 1.9 s: up to 190 alive, more than the effect's 100.
        let (scene, result) = try load(plist([("maxParticles", "<real>100</real>"), ("particleLifespan", "<real>1</real>"),
                                              ("particleLifespanVariance", "<real>0.9</real>"), ("speed", "<real>10</real>")]),
                                       file: "wide.plist", in: folder)
        XCTAssertEqual(scene.warnings.map(\.description).filter { $0.contains("maxParticles") }, [])
        let e = try XCTUnwrap(scene.layers[0].content as? EmitterLayer)
        XCTAssertGreaterThanOrEqual(e.maxParticles, 190)
        XCTAssertLessThanOrEqual(e.maxParticles, 200)
        XCTAssertEqual(e.cells[0].birthRate, 100)
        XCTAssertFalse(result.warnings.contains { $0.hasPrefix("maxParticles") }, "\(result.warnings)")
        let s = EmitterSimulation(layer: e, layerIndex: 0, sceneSize: scene.size, seed: scene.seed, wind: scene.wind)
        s.advance(to: 20 * EmitterSimulation.stepsPerSecond, threads: 1)
        XCTAssertEqual(s.droppedBirths, 0)
    }

    func testAMissingTextureFileFallsBackToSoftDotsWithAWarningNamingIt() throws {
        let folder = try makeTemporaryDirectory("welkin-import-edges")
        let (scene, result) = try load(plist([("maxParticles", "<real>50</real>"), ("particleLifespan", "<real>1</real>"),
                                              ("startParticleSize", "<real>12</real>"),
                                              ("textureFileName", "<string>gone/missing-spark.png</string>")]),
                                       file: "lost.plist", in: folder)
        XCTAssertNil(result.texture)
        let cell = try XCTUnwrap(scene.layers[0].content as? EmitterLayer).cells[0]
        XCTAssertEqual(cell.sprite, .softDot)
        XCTAssertEqual(cell.blur, 2)    // spriteSize / 6, as with no texture named
        let warning = try XCTUnwrap(result.warnings.first { $0.hasPrefix("textureFileName:") }, "\(result.warnings)")
        XCTAssertTrue(warning.contains("missing-spark.png"), warning)
        XCTAssertTrue(warning.contains("soft dots"), warning)
        XCTAssertEqual(result.warnings.filter { $0.hasPrefix("textureFileName:") }.count, 1, "\(result.warnings)")
    }
}
