import Foundation
import XCTest

/// `welkin import` as a user runs it: the scene and its texture written next to each other, the
/// scene rendering, and bad effects refused with `file: key: sentence`, status 1, nothing written.
final class ImportCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testImportWritesTheSceneAndTheEmbeddedTextureAndTheSceneRenders() throws {
        let out = directory.appendingPathComponent("fire.json").path
        let r = try EndToEndTests.run(["import", "Tests/Fixtures/effects/textured.plist", "-o", out, "--keep-position"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote \(out) and spark.png\n")
        let png = try Data(contentsOf: EndToEndTests.repository.appendingPathComponent("Tests/Fixtures/effects/spark.png"))
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("spark.png")), png)
        let image = directory.appendingPathComponent("fire.png").path
        let render = try EndToEndTests.run(["render", out, "--time", "2", "-o", image])
        XCTAssertEqual(render.status, 0, render.stderr)
        let particles = try EndToEndTests.run(["particles", out, "--time", "2", "--json"])
        XCTAssertEqual(particles.status, 0, particles.stderr)
        XCTAssertTrue(particles.stdout.contains("\"cell\": \"fire\""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["fire.json", "fire.png", "spark.png"])
    }

    func testBadEffectsFailWithFileKeySentenceAndWriteNothing() throws {
        let cases: [(String, String)] = [
            ("<plist><dict><key>emitterType</key><real>2</real></dict></plist>", "bad.plist: emitterType: expected 0 (gravity) or 1 (radial), got 2"),
            ("<plist><dict><key>maxParticles</key><real>10</real><key>particleLifespan</key><real>0</real></dict></plist>",
             "bad.plist: particleLifespan: must be above 0"),
            ("<plist><dict><key>maxParticles</key><real>10</real><key>particleLifespan</key><real>1</real><key>textureImageData</key><string>SUkqAAgAAAA=</string></dict></plist>",
             "bad.plist: textureImageData: the embedded image is a TIFF image; Welkin imports PNG textures only"),
            ("<plist><dict><key>maxParticles</key><real>10</real><key>particleLifespan</key><real>1</real><key>textureImageData</key><string>H4sIAAAAAAAA</string></dict></plist>",
             "bad.plist: textureImageData: cannot decompress the embedded image"),
            ("<plist><dict><key>maxParticles</key><string>many</string></dict></plist>", "bad.plist: maxParticles: expected a number"),
            ("<plist><dict><key>speed</key></dict>", "bad.plist: 1: not a well-formed XML file"),
            ("<particleEmitterConfig><maxParticles value=\"x\"/></particleEmitterConfig>", "bad.plist: maxParticles: expected a number, got 'x'"),
        ]
        for (text, expected) in cases {
            let effect = directory.appendingPathComponent("bad.plist")
            try text.write(to: effect, atomically: true, encoding: .utf8)
            let r = try EndToEndTests.run(["import", effect.path, "-o", directory.appendingPathComponent("out.json").path])
            XCTAssertEqual(r.status, 1, text)
            XCTAssertTrue(r.stderr.hasPrefix(directory.path + "/" + expected), "\(r.stderr) does not start with \(expected)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["bad.plist"], text)
        }
        let usage = try EndToEndTests.run(["import", "Tests/Fixtures/effects/gravity.plist"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("expected -o SCENE.json"))
    }
    /// Issue 27: a textureFileName naming a missing PNG is a warning (soft dots), not a failure, and
    /// an imported scene renders without the maxParticles warning.
    func testMissingTextureFallsBackToSoftDotsAndTheSceneRendersWithoutWarnings() throws {
        let effect = directory.appendingPathComponent("lost.plist")
        try """
        <plist><dict><key>maxParticles</key><real>100</real><key>particleLifespan</key><real>1</real>
        <key>particleLifespanVariance</key><real>0.5</real><key>speed</key><real>40</real>
        <key>startParticleSize</key><real>12</real><key>textureFileName</key><string>missing-spark.png</string></dict></plist>
        """.write(to: effect, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("lost.json").path
        let r = try EndToEndTests.run(["import", effect.path, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote \(out)\n")
        XCTAssertTrue(r.stderr.contains("\(effect.path): textureFileName: ") && r.stderr.contains("missing-spark.png"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["lost.json", "lost.plist"])
        let image = directory.appendingPathComponent("lost.png").path
        let render = try EndToEndTests.run(["render", out, "--time", "2", "-o", image])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertFalse(render.stderr.contains("maxParticles"), render.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: image))

        // The fixtures' effects (lifespan variances of 0.5 s and more) render without it too.
        for fixture in ["gravity.plist", "radial.plist", "fountain.pex"] {
            let scene = directory.appendingPathComponent("fixture.json").path
            let imported = try EndToEndTests.run(["import", "Tests/Fixtures/effects/\(fixture)", "-o", scene])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let rendered = try EndToEndTests.run(["render", scene, "--time", "1", "-o", directory.appendingPathComponent("fixture.png").path])
            XCTAssertEqual(rendered.status, 0, rendered.stderr)
            XCTAssertFalse(rendered.stderr.contains("maxParticles"), "\(fixture): \(rendered.stderr)")
        }
    }

    /// Scenes/aurora-lake.json and its pass files are what `welkin import` makes of
    /// Scenes/shadertoy/aurora-lake.json (the example stays an import), and the scene renders.
    func testTheImportedShadertoyExampleIsWhatImportMakes() throws {
        let out = directory.appendingPathComponent("aurora-lake.json").path
        let r = try EndToEndTests.run(["import", "Scenes/shadertoy/aurora-lake.json", "-o", out, "--size", "640x360"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, "wrote \(out) and aurora-lake-image.frag, aurora-lake-common.glsl, aurora-lake-buffer-a.frag\n")
        for name in ["aurora-lake.json", "aurora-lake-image.frag", "aurora-lake-common.glsl", "aurora-lake-buffer-a.frag"] {
            XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8),
                           try String(contentsOf: EndToEndTests.repository.appendingPathComponent("Scenes/" + name), encoding: .utf8), name)
        }
    }

    /// A shader Welkin cannot run is refused naming the pass; nothing is written.
    func testAShadertoyShaderWithAWebcamIsRefusedAndNothingIsWritten() throws {
        let json = directory.appendingPathComponent("cam.json")
        try #"{"Shader": {"info": {"name": "cam"}, "renderpass": [{"type": "image", "name": "Image", "code": "void mainImage(out vec4 o, in vec2 u) { o = vec4(1.0); }", "inputs": [{"id": 5, "type": "webcam", "channel": 1}], "outputs": [{"id": "4dfGRr", "channel": 0}]}]}}"#
            .write(to: json, atomically: true, encoding: .utf8)
        let r = try EndToEndTests.run(["import", json.path, "-o", directory.appendingPathComponent("cam-scene.json").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(json.path): Shader.renderpass[0].inputs[0]: pass \"Image\" reads the webcam on iChannel1: Welkin has no video inputs; remove the input on Shadertoy and export again\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["cam.json"])
    }
}
