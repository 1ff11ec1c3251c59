// `welkin new`'s presets (StarterScene): every one decodes at any size, and its camera frames the
// screen as promised — about 100° from top to bottom on a phone, 90° across on a landscape screen,
// the horizon 82 % of the way down.

import Foundation
import XCTest
import WelkinCore

final class StarterSceneTests: XCTestCase {
    func testEveryPresetDecodesAtEverySize() throws {
        for preset in StarterScene.allCases {
            for size in [SIMD2(390, 844), SIMD2(1280, 720), SIMD2(1024, 1024), SIMD2(2, 1000)] {
                let scene = try SceneLoader.decode(preset.json(size: size), file: "\(preset.rawValue).json")
                XCTAssertEqual(scene.size, size, "\(preset)")
                XCTAssertTrue(scene.layers.first?.content is SkyContent, "\(preset): a sky first")
                XCTAssertEqual(scene.layers.count, preset.isNight ? 1 : 2, "\(preset): clouds except at night")
            }
        }
    }

    func testTheCameraFramesTheScreen() {
        func vertical(_ size: SIMD2<Int>, _ across: Int) -> Double {
            2 * atan(tan(Double(across) * .pi / 360) * Double(size.y) / Double(size.x)) * 180 / .pi
        }
        let phone = StarterScene.camera(for: SIMD2(390, 844))
        XCTAssertEqual(phone.fieldOfView, 58)
        XCTAssertEqual(vertical(SIMD2(390, 844), phone.fieldOfView), 100, accuracy: 1.5, "a phone sees about 100° top to bottom")
        let wide = StarterScene.camera(for: SIMD2(1280, 720))
        XCTAssertEqual(wide.fieldOfView, 90)
        for size in [SIMD2(390, 844), SIMD2(1280, 720), SIMD2(1000, 1000), SIMD2(3840, 1080), SIMD2(100, 1000)] {
            let c = StarterScene.camera(for: size)
            // Where the horizon (0° elevation) falls on a pinhole camera pitched up by c.pitch.
            let half = vertical(size, c.fieldOfView) / 2 * .pi / 180
            let below = tan(Double(c.pitch) * .pi / 180) / tan(half)
            XCTAssertEqual(0.5 + below / 2, 0.82, accuracy: 0.02, "\(size): the horizon 82 % down")
        }
    }

    func testTheDescriptionSaysHowItWasMade() throws {
        let text = StarterScene.storm.json(size: SIMD2(390, 844))
        XCTAssertEqual(try SceneLoader.decode(text, file: "storm.json").name, "Storm (phone)")
        XCTAssertTrue(text.contains("\"description\": \"Made by welkin new --preset storm --size 390x844: "), text)
    }
}
