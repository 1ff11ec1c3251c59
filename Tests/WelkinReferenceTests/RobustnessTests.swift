// No crash and no hang on any scene: the inputs the mutation harness and the fuzzer found
// (Tests/Fuzz/mutate.py, Sources/WelkinFuzz), run in-process through decode → Frame → the CPU
// reference (PipelineProbe), at ordinary and huge scene times. docs/robustness.md.

import Foundation
import XCTest
@testable import WelkinCore
@testable import WelkinReference

final class RobustnessTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The harness's times and two past any real use (10⁹ s; 10³⁰⁶ s, where × 1000 overflows).
    static let times = PipelineProbe.times + [1e9, 1e306]

    // Budgeted simulation histories cost up to about a second in a release build, much more in a
    // debug one: these tests run the same paths on a fiftieth of the budget. (The mutation harness
    // holds the release build, default budget, to 5 s per run.)
    override func setUp() { SimulationCache.shared.workBudget = SimulationPlan.workBudget / 50 }
    override func tearDown() { SimulationCache.shared.workBudget = SimulationPlan.workBudget }

    /// Runs `json` through the pipeline at every time; fails if it takes `limit` seconds or more
    /// (generous: debug and AddressSanitizer builds are many times slower than release; what
    /// these cases cost before was minutes, or forever).
    func probe(_ json: String, _ name: String, limit: Double = 30, times: [Double] = times,
               file: StaticString = #filePath, line: UInt = #line) -> PipelineProbe.Outcome {
        probe(Array(json.utf8), name, limit: limit, times: times, file: file, line: line)
    }

    func probe(_ bytes: [UInt8], _ name: String, limit: Double = 30, times: [Double] = times,
               file: StaticString = #filePath, line: UInt = #line) -> PipelineProbe.Outcome {
        let start = DispatchTime.now()
        let outcome = PipelineProbe.run(bytes, file: name, directory: Self.repository.appendingPathComponent("Scenes").path,
                                        times: times)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertLessThan(seconds, limit, "\(name) took \(seconds) s", file: file, line: line)
        SimulationCache.shared.removeAll()
        return outcome
    }

    func scene(_ name: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent("Scenes/\(name)"), encoding: .utf8)
    }

    /// Replaces the first `of` in `text` (the test fails when it is missing).
    func edit(_ text: String, _ of: String, _ with: String) -> String {
        XCTAssertTrue(text.contains(of), "no '\(of)' to replace")
        guard let r = text.range(of: of) else { return text }
        return text.replacingCharacters(in: r, with: with)
    }

    // Issue 12's two: a finite but huge number overflowed to infinity and trapped converting to an
    // integer when the sprite's pixel bounds were computed (SpriteRaster, PreparedParticles).
    func testHugeScaleRangeAndPosition() throws {
        let snow = try scene("snow.json")
        let cases = [edit(snow, "\"scaleRange\": 0.6,", "\"scaleRange\": 1e308,"),
                     edit(snow, "\"position\": [0.5, 0]", "\"position\": [0.5, 1e308]")]
        // The property tables now refuse these values at load time with the key's range; the run-time
        // guards stay for values within range whose products overflow (the other tests here).
        for (i, json) in cases.enumerated() {
            switch probe(json, "snow-\(i).json") {
            case .rendered: break
            case .rejected(let message): XCTAssertTrue(message.hasPrefix("snow-\(i).json: layers[1]."), message)
            case .unsupported: XCTFail("case \(i)")
            }
        }
    }

    /// Particle values that overflow Float or Double: sprite centres, sizes and angles that are
    /// infinite or NaN (dropped from the Frame), and colours that are NaN (quantised to 0).
    func testParticleValuesPastFloatRange() throws {
        let fire = try scene("fire.json"), snow = try scene("snow.json"), rain = try scene("rain.json")
        let cases: [(String, String)] = [
            ("velocity", edit(fire, "\"velocity\": 0,", "\"velocity\": -1e308,")),
            ("yAcceleration", edit(fire, "\"yAcceleration\": -160,", "\"yAcceleration\": 1e38,")),
            ("sway amplitude", edit(fire, "\"amplitude\": 172.8", "\"amplitude\": -1e308")),
            ("sway endAmplitude", edit(fire, "\"endAmplitude\": 0.1111111111111111", "\"endAmplitude\": 1e38")),
            ("position x", edit(fire, "\"position\": [0.5, 1]", "\"position\": [3.5e38, 1]")),
            ("spin", edit(snow, "\"spin\": -0.5,", "\"spin\": 1.7976931348623157e308,")),
            ("velocityRange", edit(snow, "\"velocityRange\": 20,", "\"velocityRange\": 1.7976931348623157e308,")),
            ("streak velocity", edit(rain, "\"velocity\": 450,", "\"velocity\": 3.5e38,")),
            ("streak yAcceleration", edit(rain, "\"yAcceleration\": 400", "\"yAcceleration\": -1e308")),
            ("scaleSpeed", edit(snow, "\"scaleRange\": 0.6,", "\"scaleRange\": 0.6, \"scaleSpeed\": 1e308,")),
            ("tiny spriteSize, huge scale", edit(edit(snow, "\"spriteSize\": 48, \"blur\": 8,", "\"spriteSize\": 1e-300, \"blur\": 8,"),
                                                "\"scale\": 0.15, \"scaleRange\": 0.6,\n        \"velocity\": 40", "\"scale\": 1e300, \"scaleRange\": 0.6,\n        \"velocity\": 40")),
            ("wind", edit(snow, "\"size\": [1280, 720],", "\"size\": [1280, 720], \"wind\": [1e308, -1e308],")),
        ]
        // Rendered, or refused at load time by the key's range (the property tables): never a trap.
        for (name, json) in cases {
            switch probe(json, "\(name).json") {
            case .rendered: break
            case .rejected(let message): XCTAssertTrue(message.hasPrefix("\(name).json: "), message)
            case .unsupported: XCTFail(name)
            }
        }
    }

    /// Scene times past Double's range once multiplied (wind × time, speed × time): cloud cover's
    /// noise offset and cloud sprites' drift were NaN, and NaN reached Int32(_:).
    func testCloudsAtHugeTimes() {
        let json = """
        {"layers": [{"type": "sky"}, {"type": "cloudCover", "wind": [10000, -10000]}, {"type": "cloudSprites", "speed": 1000}]}
        """
        guard case .rendered = probe(json, "clouds.json") else { return XCTFail("did not render") }
        let weather = """
        {"weather": {"preset": "storm", "schedule": [{"at": 5, "preset": "snow"}]}, "layers": [{"type": "sky"}, {"type": "cloudCover"}, {"type": "cloudSprites"}]}
        """
        guard case .rendered = probe(weather, "weather.json") else { return XCTFail("did not render") }
    }

    /// A mesh walk with a tiny interval, or at a huge time: Int(time / interval) trapped on
    /// infinity, and 2²⁶ spring steps per vertex took minutes.
    func testMeshWalksAtHugeTimesAndTinyIntervals() throws {
        let mesh = try scene("mesh-seed.json")
        guard mesh.contains("\"interval\"") else { return XCTFail("mesh-seed.json has no animation") }
        // The decoder now refuses an interval under 1/120 s (the walk itself stays bounded at any
        // interval: SimulationPlanTests.testMeshWalkAtHugeTimesAndTinyIntervals).
        let tiny = mesh.replacingOccurrences(of: #""interval": [0-9.e-]+"#, with: "\"interval\": 1e-300", options: .regularExpression)
        XCTAssertEqual(probe(tiny, "mesh-tiny-interval.json"),
                       .rejected("mesh-tiny-interval.json: layers[0].animation.interval: expected a number of seconds in 1/120…86400, got 1e-300"))
        let fastest = mesh.replacingOccurrences(of: #""interval": [0-9.e-]+"#, with: "\"interval\": \(1.0 / 120)", options: .regularExpression)
        guard case .rendered = probe(fastest, "mesh-fastest-interval.json") else { return XCTFail("did not render") }
    }

    /// Emitters whose simulation used to cost minutes: births far beyond maxParticles at t = 1000.
    func testHeavyEmittersAtLateTimes() throws {
        let rain = try scene("rain.json"), fire = try scene("fire.json")
        for (name, json) in [("rain birthRate", edit(rain, "\"birthRate\": 300,", "\"birthRate\": 300000,")),
                             ("fire birthRate", edit(fire, "\"birthRate\": 66.66666666666667,", "\"birthRate\": 500000,")),
                             ("layer birthRate", edit(fire, "\"prewarm\": 3,", "\"prewarm\": 3600, \"birthRate\": 150000,"))] {
            guard case .rendered = probe(json, "\(name).json", limit: 60) else { return XCTFail("\(name) did not render") }
        }
    }

    /// Many animated meshes or heavy emitters in one scene share the frame's spring steps and
    /// simulation budget: the frame's work does not grow with the number of layers.
    func testManyLayersShareTheFramesBudget() throws {
        func repeated(_ json: String, _ times: Int) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            var copy = object
            copy["layers"] = Array(repeating: object["layers"] as! [Any], count: times).flatMap { $0 }
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        let meshes = try repeated(try scene("mesh-bezier.json"), 30)
        XCTAssertEqual(try SceneLoader.decode(meshes, file: "meshes.json").animatedMeshCount, 30)
        guard case .rendered = probe(meshes, "meshes.json", limit: 30, times: [1.5, 1e9]) else { return XCTFail("meshes did not render") }
        let fires = try repeated(edit(try scene("fire.json"), "\"birthRate\": 66.66666666666667,", "\"birthRate\": 500000,"), 20)
        XCTAssertEqual(try SceneLoader.decode(fires, file: "fires.json").simulatedEmitterCount, 20)
        guard case .rendered = probe(fires, "fires.json", limit: 30, times: [1000, 1e9]) else { return XCTFail("fires did not render") }
    }

    /// NaN quantises to 0 (it trapped in Int32(_:)); every other value as before.
    func testQuantizingNaN() {
        XCTAssertEqual(Dither.quantize(.nan, bias: 0.5), 0)
        XCTAssertEqual(Dither.quantize(-.infinity, bias: 0.5), 0)
        XCTAssertEqual(Dither.quantize(.infinity, bias: 0.5), 255)
        XCTAssertEqual(Dither.quantize(0.5, bias: 0.5), 128)
        XCTAssertEqual(Dither.resolve(SIMD4(.nan, 0.2, .nan, .nan), bias: 0.5), SIMD4(0, 51, 0, 0))
    }

    /// Instances that are not finite never reach the raster; bounds far outside the frame clamp.
    func testSpriteRasterSkipsWhatItCannotPlace() throws {
        var frame = Frame(scene: Scene(), time: 0, pixelSize: SIMD2(16, 9))
        var layer = EmitterLayer()
        layer.cells = [EmitterCell()]
        var draw = ParticleDraw(layer, index: 0, particles: [], opacity: 1, pixelScale: .one)
        let huge = Float.greatestFiniteMagnitude
        draw.batches[0].instances = [
            SpriteInstance(color: .one, center: [.infinity, 4], size: [4, 4], axis: [1, 0]),
            SpriteInstance(color: .one, center: [.nan, 4], size: [4, 4], axis: [1, 0]),
            SpriteInstance(color: .one, center: [8, 4], size: [.nan, 4], axis: [1, 0]),
            SpriteInstance(color: .one, center: [-huge, huge], size: [huge, huge], axis: [1, 0]),
            SpriteInstance(color: .one, center: [8, 4], size: [huge, huge], axis: [0.6, 0.8]),
            SpriteInstance(color: [.nan, 0, 0, 1], center: [8, 4], size: [4, 4], axis: [.nan, 1]),
        ]
        frame.layers = [draw]
        let image = try ReferenceRenderer(threads: 1).render(frame)
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(PreparedParticles.pixelIndex(.nan, below: 16), -1)
        XCTAssertEqual(PreparedParticles.pixelIndex(-.infinity, below: 16), -1)
        XCTAssertEqual(PreparedParticles.pixelIndex(.infinity, below: 16), 16)
        XCTAssertEqual(PreparedParticles.pixelIndex(7, below: 16), 7)
    }

    /// Every file the harness and the fuzzer kept (Tests/Fuzz/regressions): no crash, quickly.
    func testRegressionFiles() throws {
        let folder = Self.repository.appendingPathComponent("Tests/Fuzz/regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThan(files.count, 10)
        for name in files {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            _ = probe([UInt8](bytes), name, limit: 60)
        }
    }
}
