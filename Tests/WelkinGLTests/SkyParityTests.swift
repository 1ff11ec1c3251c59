// GPU-vs-CPU parity for the sky layers: every sky scene at t = 0, 1.5 and 7 s, day-cycle.json at
// every simulated hour, and the bare noise. Tolerance as ParityTests: per-channel difference ≤ 2
// for all but 0.05 % of pixels. Rendered at a quarter of the scene size to keep debug builds quick
// (`welkin compare` checks the full size). Fails, never skips, without GL.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class SkyParityTests: XCTestCase {
    static let scenesDirectory = Repository.scenes.path
    static let skyScenes = ["day-cycle", "sunset-clouds", "rainy-evening", "snowy-night", "weather-tour", "storm"]
    static let size = SIMD2(320, 180)

    func check(_ scene: Scene, time: Double, label: String, plain: Bool = false, size: SIMD2<Int> = SkyParityTests.size,
               line: UInt = #line) throws {
        try assertParity(Frame(scene: scene, time: time, pixelSize: size), label: "sky \(label)", plain: plain, line: line)
    }

    func load(_ name: String) throws -> Scene {
        try SceneLoader.load(path: "\(Self.scenesDirectory)/\(name).json")
    }

    func testEverySkySceneAtThreeTimes() throws {
        for name in Self.skyScenes {
            let scene = try load(name)
            for time in [0, 1.5, 7] { try check(scene, time: time, label: name) }
        }
    }

    /// The built-in scene (`welkin`, `make run`): clear, snowing, cloudy and at sunset.
    func testTheDefaultScene() throws {
        for time in [0, 12, 24, 34.0] { try check(Scene.defaultScene, time: time, label: "default") }
    }

    /// 60 s is 24 hours: one frame per simulated hour, night, twilight and day.
    func testDayCycleEveryHour() throws {
        let scene = try load("day-cycle")
        for hour in 0...24 { try check(scene, time: Double(hour) * 2.5, label: "day-cycle-\(hour)h") }
    }

    /// Layers blended into the float target and a separate resolve (not fused with the last layer).
    func testPlainPathAndOddSize() throws {
        let scene = try load("sunset-clouds")
        try check(scene, time: 1.5, label: "sunset-clouds", plain: true)
        try check(scene, time: 7, label: "sunset-clouds-odd", size: SIMD2(97, 61))
    }

    /// The noise itself, with soft edges so alpha follows the fBm value nearly linearly; every
    /// octave count, on a transparent background without dither.
    func testNoiseAgrees() throws {
        for octaves in [1, 3, 5, 8] {
            let scene = try SceneLoader.decode("""
                {"size": [320, 180], "dither": false, "background": "clear",
                 "layers": [{"type": "cloudCover", "coverage": 0.5, "sharpness": 0.5, "scale": 40, "octaves": \(octaves),
                             "wind": [37, -11]}]}
                """, file: "noise.json")
            try check(scene, time: 123.25, label: "noise-\(octaves)")
        }
    }

    /// Sky layers between other layers, one of them translucent, at a scaled size.
    func testMixedWithGradientsAndOpacity() throws {
        let scene = try SceneLoader.decode("""
            {"size": [640, 360], "seed": 9, "weather": {"preset": "storm", "transition": 1},
             "layers": [{"type": "linearGradient", "stops": ["black", "#203050"]},
                        {"type": "sky", "sunElevation": -20, "opacity": 0.8, "starDensity": 0.2, "horizon": 0.8},
                        {"type": "cloudSprites", "count": 12, "opacity": 0.7},
                        {"type": "radialGradient", "stops": ["#FFFFFF40", "clear"]},
                        {"type": "cloudCover", "coverage": 0.6}]}
            """, file: "mixed.json")
        for time in [0.0, 2.2, 5.9] { try check(scene, time: time, label: "mixed") }
    }
}
