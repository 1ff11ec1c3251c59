// GPU-vs-CPU parity for the physical sky (`"model": "physical"`): the example scenes at t = 0, 1.5
// and 7 s, a fixed sun from 60° down to −12° looking toward and away from it, every tone curve and a
// fixed exposure, a large sun disc, weather and cloud layers over it, equirect panoramas, and the
// scene-linear (EXR) path; plus determinism on both renderers. Display-space tolerance as
// SkyParityTests (ImageDifference: per-channel difference ≤ 2 for all but 0.05 % of pixels);
// scene-linear: |gpu − cpu| ≤ 1e-3·max(1, |cpu|) + 1e-5 per channel for all but 0.05 % of pixels.
// Rendered small (320×180, panoramas 256×128) to keep debug builds quick. Fails, never skips, without GL.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

/// The scene-linear comparison: per channel, |gpu − cpu| ≤ relative·max(1, |cpu|) + absolute; a
/// pixel fails when any channel does (a NaN on either side always fails).
struct LinearDifference: CustomStringConvertible {
    static let relative: Float = 1e-3, absolute: Float = 1e-5
    /// Share of pixels allowed to fail, percent (as ImageDifference).
    static let maxFailingPercent = 0.05

    var pixelCount = 0
    var pixelsOverTolerance = 0
    /// The largest |gpu − cpu| and the largest |gpu − cpu| / max(1, |cpu|), each with where it is.
    var largest: (difference: Float, x: Int, y: Int, channel: Int, gpu: Float, cpu: Float)?
    var largestRelative: (ratio: Float, x: Int, y: Int, channel: Int, gpu: Float, cpu: Float)?

    init(_ gpu: FloatImage, _ cpu: FloatImage) {
        precondition(gpu.width == cpu.width && gpu.height == cpu.height, "sizes differ")
        pixelCount = gpu.pixels.count
        for i in 0..<pixelCount {
            var fails = false
            for c in 0..<4 {
                let a = gpu.pixels[i][c], b = cpu.pixels[i][c]
                let d = abs(a - b)
                let scale = max(1, abs(b))
                if !(d <= Self.relative * scale + Self.absolute) { fails = true }
                let x = i % gpu.width, y = i / gpu.width
                if d.isNaN || d > (largest?.difference ?? -1) { largest = (d, x, y, c, a, b) }
                if d.isNaN || d / scale > (largestRelative?.ratio ?? -1) { largestRelative = (d / scale, x, y, c, a, b) }
            }
            if fails { pixelsOverTolerance += 1 }
        }
    }

    var percentOverTolerance: Double { 100 * Double(pixelsOverTolerance) / Double(max(pixelCount, 1)) }
    var passes: Bool { percentOverTolerance <= Self.maxFailingPercent }

    var description: String {
        let channel = ["R", "G", "B", "A"]
        var s = "\(pixelsOverTolerance)/\(pixelCount) pixels over tolerance (\(String(format: "%.3f", percentOverTolerance)) %)"
        if let l = largest {
            s += "; largest |gpu − cpu| \(l.difference) at \(l.x),\(l.y) \(channel[l.channel]): gpu \(l.gpu) cpu \(l.cpu)"
        }
        if let r = largestRelative {
            s += "; largest relative \(r.ratio) at \(r.x),\(r.y) \(channel[r.channel]): gpu \(r.gpu) cpu \(r.cpu)"
        }
        return s
    }
}

final class PhysicalSkyParityTests: XCTestCase {
    static let size = SIMD2(320, 180)
    static let panoramaSize = SIMD2(256, 128)
    static let exampleScenes = ["physical-day", "physical-twilight", "physical-day-cycle"]

    func load(_ name: String) throws -> Scene {
        try SceneLoader.load(path: Repository.path("Scenes/\(name).json"))
    }

    /// A 320×180 scene of `layers` (JSON objects) and optional top-level keys (`"weather": …,`).
    func decode(_ label: String, layers: [String], top: String = "") throws -> Scene {
        try SceneLoader.decode(#"{"size": [320, 180], \#(top) "layers": [\#(layers.joined(separator: ", "))]}"#,
                               file: "\(label).json", directory: Repository.scenes.path)
    }

    /// A physical sky with a fixed sun at `elevation` (azimuth 200°), looking `toward` it or away,
    /// with the horizon placed so the sun's elevation is the frame's middle row.
    func fixedSun(_ elevation: Double, toward: Bool, extra: String = "") -> String {
        let sunAzimuth = 200.0, fieldOfView = 100.0
        let degreesPerPixel = fieldOfView / Double(Self.size.x)
        let horizon = 0.5 + elevation / (degreesPerPixel * Double(Self.size.y))
        return #"{"type": "sky", "model": "physical", "sunElevation": \#(elevation), "sunAzimuth": \#(sunAzimuth), "# +
            #""viewAzimuth": \#(toward ? sunAzimuth : sunAzimuth + 180), "fieldOfView": \#(fieldOfView), "horizon": \#(horizon)\#(extra)}"#
    }

    func check(_ scene: Scene, time: Double, label: String, size: SIMD2<Int> = PhysicalSkyParityTests.size,
               options: FrameOptions = FrameOptions(), plain: Bool = false, line: UInt = #line) throws {
        try assertParity(Frame(scene: scene, time: time, pixelSize: size, options: options), label: "physical sky \(label)",
                         plain: plain, line: line)
    }

    /// renderLinear on both renderers, compared with LinearDifference.
    func checkLinear(_ scene: Scene, time: Double, label: String, size: SIMD2<Int> = PhysicalSkyParityTests.size,
                     projection: FrameOptions.Projection = .view, line: UInt = #line) throws {
        let renderer = try TestGL.renderer()
        let frame = Frame(scene: scene, time: time, pixelSize: size, options: FrameOptions(projection: projection, linearLight: true))
        let gpu = try renderer.renderLinear(frame)
        let cpu = try ReferenceRenderer().renderLinear(frame)
        XCTAssertEqual([gpu.width, gpu.height, cpu.width, cpu.height], [size.x, size.y, size.x, size.y], label, line: line)
        guard gpu.pixels.count == cpu.pixels.count else { return }
        let difference = LinearDifference(gpu, cpu)
        print("physical sky linear parity \(label) t=\(time): \(difference)")
        XCTAssertTrue(difference.passes, "\(label) (scene-linear) at \(time) s: \(difference)", line: line)
    }

    // MARK: Display space

    func testExampleScenesAtThreeTimes() throws {
        for name in Self.exampleScenes {
            let scene = try load(name)
            for time in [0, 1.5, 7] { try check(scene, time: time, label: name) }
        }
    }

    /// Day, low sun, sunset, civil and nautical twilight, night; the sun's side and the other.
    func testFixedSunTowardAndAwayFromTheSun() throws {
        for elevation in [60.0, 20, 5, 0, -3, -6, -12] {
            for toward in [true, false] {
                let scene = try decode("fixed", layers: [fixedSun(elevation, toward: toward)])
                try check(scene, time: 1.5, label: "sun \(elevation)° \(toward ? "toward" : "away")")
            }
        }
    }

    /// Each tone curve with auto exposure, and with a fixed exposure bright enough to clip.
    func testEveryToneMapAndAFixedExposure() throws {
        for toneMap in ToneMap.allCases {
            for exposure in [#""auto""#, "4"] {
                let scene = try decode("tone", layers: [fixedSun(10, toward: true, extra: #", "toneMap": "\#(toneMap.rawValue)", "exposure": \#(exposure)"#)])
                try check(scene, time: 0, label: "\(toneMap.rawValue) exposure \(exposure)")
            }
        }
    }

    /// The disc at 8× its size: clear of the horizon, and cut by it.
    func testLargeSunDiscInView() throws {
        for elevation in [15.0, 1] {
            let scene = try decode("disc", layers: [fixedSun(elevation, toward: true, extra: #", "sunScale": 8"#)])
            try check(scene, time: 0, label: "sunScale 8 at \(elevation)°")
        }
    }

    /// clear → storm from t = 1 (2 s cross-fade), halfway at 1.5: the aerosols and tables change
    /// with the weather; alone, and with cloud cover and cloud sprites over the sky.
    func testWeatherCrossFadeAndCloudsOnTop() throws {
        let weather = #""seed": 5, "weather": {"preset": "clear", "transition": 2, "schedule": [{"at": 1, "preset": "storm"}]},"#
        let sky = fixedSun(25, toward: true)
        let bare = try decode("weather", layers: [sky], top: weather)
        let clouded = try decode("weather-clouds", layers: [sky, #"{"type": "cloudCover", "coverage": 0.5}"#,
                                                             #"{"type": "cloudSprites", "count": 8}"#], top: weather)
        for time in [0.5, 1.5, 3.5] {
            try check(bare, time: time, label: "physical clear→storm")
            try check(clouded, time: time, label: "physical clear→storm + clouds")
        }
    }

    /// Equirect panoramas: a physical sky alone, and a palette sky with clouds.
    func testEquirectPanoramas() throws {
        let options = FrameOptions(projection: .equirect)
        try check(try load("physical-day"), time: 0, label: "physical-day equirect", size: Self.panoramaSize, options: options)
        try check(try load("physical-twilight"), time: 0, label: "physical-twilight equirect", size: Self.panoramaSize, options: options)
        try check(try load("sunset-clouds"), time: 1.5, label: "sunset-clouds equirect", size: Self.panoramaSize, options: options)
    }

    /// Layers blended into the float target and a separate resolve (not fused with the last layer),
    /// and an odd size.
    func testPlainPathAndOddSize() throws {
        let clouded = try decode("plain", layers: [fixedSun(12, toward: true), #"{"type": "cloudCover", "coverage": 0.5}"#])
        try check(try load("physical-day"), time: 1.5, label: "physical-day", plain: true)
        try check(clouded, time: 1.5, label: "physical + cloudCover", plain: true)
        try check(try load("physical-twilight"), time: 1.5, label: "physical-twilight odd", size: SIMD2(97, 61))
    }

    // MARK: Scene-linear

    /// renderLinear: a physical sky under cloud cover (the brief's case), the physical sky alone,
    /// the same as an equirect panorama, and a lone palette sky (decoded from sRGB to linear).
    func testSceneLinearAgrees() throws {
        let sky = fixedSun(20, toward: true)
        try checkLinear(try decode("linear-clouds", layers: [sky, #"{"type": "cloudCover", "coverage": 0.5}"#]), time: 1.5,
                        label: "physical + cloudCover")
        try checkLinear(try load("physical-day"), time: 0, label: "physical-day")
        try checkLinear(try load("physical-day"), time: 0, label: "physical-day equirect", size: Self.panoramaSize, projection: .equirect)
        try checkLinear(try decode("linear-palette", layers: [#"{"type": "sky", "sunElevation": 10}"#]), time: 0,
                        label: "palette sky alone")
    }

    // MARK: Determinism

    /// The same frame twice gives the same bytes on each renderer, and the CPU's threads do not
    /// change them (1 and 2 threads: this machine's cores). At 160×90: nine renders a scene.
    func testDeterministicOnBothRenderersAndAcrossThreads() throws {
        let scene = try decode("determinism", layers: [fixedSun(8, toward: true), #"{"type": "cloudCover", "coverage": 0.5}"#,
                                                        #"{"type": "cloudSprites", "count": 8}"#],
                               top: #""seed": 3, "weather": {"preset": "clear", "transition": 2, "schedule": [{"at": 1, "preset": "storm"}]},"#)
        let renderer = try TestGL.renderer()
        for (scene, time, label) in [(try load("physical-day"), 1.5, "physical-day"), (scene, 1.5, "physical + clouds + weather")] {
            let frame = Frame(scene: scene, time: time, pixelSize: SIMD2(160, 90))
            XCTAssertTrue(try renderer.render(frame) == renderer.render(frame), "\(label): two GPU renders differ")
            let single = try ReferenceRenderer(threads: 1).render(frame)
            XCTAssertTrue(single == (try ReferenceRenderer(threads: 1).render(frame)), "\(label): two CPU renders differ")
            XCTAssertTrue(single == (try ReferenceRenderer(threads: 2).render(frame)), "\(label): 1 and 2 CPU threads differ")

            let linearFrame = Frame(scene: scene, time: time, pixelSize: SIMD2(160, 90), options: FrameOptions(linearLight: true))
            XCTAssertTrue(try renderer.renderLinear(linearFrame) == renderer.renderLinear(linearFrame), "\(label): two scene-linear GPU renders differ")
            XCTAssertTrue(try ReferenceRenderer(threads: 1).renderLinear(linearFrame) == ReferenceRenderer(threads: 2).renderLinear(linearFrame),
                          "\(label): scene-linear with 1 and 2 CPU threads differ")
        }
    }
}
