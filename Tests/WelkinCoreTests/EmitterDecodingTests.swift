// Decoding emitter layers: defaults, the example scenes, and every bad input named by JSON path.

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class EmitterDecodingTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-emitter-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    static let repository = Repository.root

    func decode(_ layer: String) throws -> Scene {
        try SceneLoader.decode("{\"layers\": [\(layer)]}", file: "e.json", directory: directory)
    }

    func error(_ layer: String) -> String {
        do { _ = try decode(layer); return "no error" } catch { return "\(error)" }
    }

    /// A PNG header claiming width × height (enough for the loader's size check).
    func pngHeader(_ width: UInt32, _ height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [width, height] { bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        return Data(bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0])
    }

    func testDefaults() throws {
        let scene = try decode("{\"type\": \"emitter\", \"cells\": [{}]}")
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail() }
        XCTAssertEqual(e, { var d = EmitterLayer(); d.cells = [EmitterCell()]; return d }())
        XCTAssertEqual(e.maxParticles, 100_000)
        XCTAssertEqual(e.renderMode, .oldestFirst)
        XCTAssertEqual(e.cells[0].windFactor, 1)
        XCTAssertEqual(e.cells[0].sprite, .dot)
        XCTAssertEqual(scene.wind, .zero)
    }

    func testExampleScenesLoad() throws {
        for name in ["snow", "fire", "rain", "stars"] {
            let scene = try SceneLoader.load(path: Self.repository.appendingPathComponent("Scenes/\(name).json").path)
            XCTAssertEqual(scene.warnings, [], name)
        }
        let snow = try SceneLoader.load(path: Self.repository.appendingPathComponent("Scenes/snow.json").path)
        guard let e = snow.layers[1].content as? EmitterLayer else { return XCTFail() }
        XCTAssertEqual(e.shape, .line)
        XCTAssertEqual(e.prewarm, 10)
        XCTAssertEqual(e.cells.map(\.name), ["flake", "blurry flake"])
        XCTAssertEqual(e.cells.map(\.velocity), [30, 40])
        for c in e.cells {
            XCTAssertEqual([c.birthRate, c.lifetime, c.scale, c.scaleRange, c.velocityRange, c.emissionRange, c.spin,
                            c.spinRange, c.yAcceleration, c.xAcceleration], [30, 20, 0.15, 0.6, 20, Double.pi, -0.5, 1, 30, 5])
        }
    }

    func testBadInputNamesThePath() throws {
        let cases: [(String, String)] = [
            ("{\"type\": \"emitter\", \"cells\": [{\"birthRate\": -1}]}",
             "e.json: layers[0].cells[0].birthRate: expected a number in 0…1000000, got -1"),
            ("{\"type\": \"emitter\", \"cells\": [{\"lifetime\": 1e999}]}",
             "e.json: layers[0].cells[0].lifetime: expected a finite number, got inf"),
            ("{\"type\": \"emitter\", \"cells\": [{\"spriteSize\": -3}]}",
             "e.json: layers[0].cells[0].spriteSize: expected a number in 0…4096, got -3"),
            ("{\"type\": \"emitter\", \"cells\": [{\"sprite\": \"flak\"}]}",
             "e.json: layers[0].cells[0].sprite: unknown sprite 'flak'; did you mean 'flake'?"),
            ("{\"type\": \"emitter\", \"cells\": [{\"sprite\": \"image\"}]}",
             "e.json: layers[0].cells[0]: missing key 'image' (a PNG path, relative to the scene file) for \"sprite\": \"image\""),
            ("{\"type\": \"emitter\", \"cells\": [{\"image\": \"nope.png\"}]}",
             "e.json: layers[0].cells[0].image: no such image 'nope.png' (looked for \(directory!)/nope.png)"),
            ("{\"type\": \"emitter\", \"cells\": [{\"velocty\": 3}]}",
             "e.json: layers[0].cells[0].velocty: unknown key 'velocty'; did you mean 'velocity'?"),
            ("{\"type\": \"emitter\", \"shape\": \"cirle\", \"cells\": []}",
             "e.json: layers[0].shape: unknown emitter shape 'cirle'; did you mean 'circle'?"),
            ("{\"type\": \"emitter\", \"maxParticles\": 0, \"cells\": []}",
             "e.json: layers[0].maxParticles: expected a whole number in 1…1000000, got 0"),
            ("{\"type\": \"emitter\", \"maxParticles\": 1000001, \"cells\": []}",
             "e.json: layers[0].maxParticles: expected a whole number in 1…1000000, got 1000001"),
            // The layer's multipliers times the cell's values: births a second and the longest life.
            ("{\"type\": \"emitter\", \"birthRate\": 20, \"cells\": [{\"birthRate\": 500001}]}",
             "e.json: layers[0].cells[0].birthRate: birthRate 500001 × the layer's birthRate 20 is 10000020 births a second; at most 10000000"),
            ("{\"type\": \"emitter\", \"birthRate\": 1e6, \"cells\": [{\"name\": \"a\"}, {\"birthRate\": 11}]}",
             "e.json: layers[0].cells[1].birthRate: birthRate 11 × the layer's birthRate 1000000 is 11000000 births a second; at most 10000000"),
            ("{\"type\": \"emitter\", \"lifetime\": 3, \"cells\": [{\"lifetime\": 1}, {\"lifetime\": 9000, \"lifetimeRange\": 1000.5}]}",
             "e.json: layers[0].cells[1].lifetime: lifetime + lifetimeRange (10000.5 s) × the layer's lifetime 3 is 30001.5 s; a particle may live at most 30000 s"),
            ("{\"type\": \"emitter\", \"prewarm\": -2, \"cells\": []}",
             "e.json: layers[0].prewarm: expected seconds in 0…3600, got -2"),
            ("{\"type\": \"emitter\"}", "e.json: layers[0]: missing key 'cells'"),
            ("{\"type\": \"emitter\", \"cells\": [{\"sway\": {\"amplitud\": 1}}]}",
             "e.json: layers[0].cells[0].sway.amplitud: unknown key 'amplitud'; did you mean 'amplitude'?"),
            ("{\"type\": \"emitter\", \"cells\": [{\"alphaOverLife\": []}]}",
             "e.json: layers[0].cells[0].alphaOverLife: expected 1…64 samples spaced evenly over the particle's life, got 0"),
        ]
        for (layer, expected) in cases { XCTAssertEqual(error(layer), expected) }
        XCTAssertThrowsError(try SceneLoader.decode("{\"wind\": [1]}", file: "e.json"))
    }

    func testImages() throws {
        try pngHeader(5000, 10).write(to: URL(fileURLWithPath: directory + "/huge.png"))
        try Data("not a png at all, no no no".utf8).write(to: URL(fileURLWithPath: directory + "/fake.png"))
        try pngHeader(40, 20).write(to: URL(fileURLWithPath: directory + "/ok.png"))
        XCTAssertEqual(error("{\"type\": \"emitter\", \"cells\": [{\"image\": \"huge.png\"}]}"),
                       "e.json: layers[0].cells[0].image: the image 'huge.png' is 5000×10 pixels; sprites may be at most 4096×4096")
        XCTAssertEqual(error("{\"type\": \"emitter\", \"cells\": [{\"image\": \"fake.png\"}]}"),
                       "e.json: layers[0].cells[0].image: 'fake.png' is not a PNG image")
        XCTAssertEqual(error("{\"type\": \"emitter\", \"cells\": [{\"sprite\": \"dot\", \"image\": \"ok.png\"}]}"),
                       "e.json: layers[0].cells[0].image: 'image' needs \"sprite\": \"image\" (this cell's sprite is 'dot')")
        let scene = try decode("{\"type\": \"emitter\", \"cells\": [{\"image\": \"ok.png\"}]}")
        guard let e = scene.layers[0].content as? EmitterLayer else { return XCTFail() }
        XCTAssertEqual(e.cells[0].sprite, .image)
        XCTAssertEqual(e.cells[0].imagePath, directory + "/ok.png")
        XCTAssertEqual(e.cells[0].imageSize, SIMD2(40, 20))
        XCTAssertEqual(e.cells[0].spriteSize, 40)
    }
}
