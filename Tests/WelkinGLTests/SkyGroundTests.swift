// `ground` on the sky (#37): the model's ground, none (the horizon's light continues to the bottom)
// or a colour faded in through a soft haze; the same on both renderers, both sky models.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class SkyGroundTests: XCTestCase {
    /// A sky whose horizon is at 60 % of the frame, the frame's bottom 20° or so below it.
    func scene(model: String, ground: String?) throws -> Scene {
        let groundKey = ground.map { #", "ground": \#($0)"# } ?? ""
        let physical = model == "physical" ? #", "model": "physical""# : ""
        return try SceneLoader.decode("""
            {"size": [320, 180], "dither": false,
             "layers": [{"type": "sky", "sunElevation": 20, "sunAzimuth": 150, "viewAzimuth": 190, "fieldOfView": 60, "horizon": 0.6\(physical)\(groundKey)}]}
            """)
    }

    func pixel(_ image: Image, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * image.width + x) * 4
        return SIMD3(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    func testNoneAndAColourOnBothModels() throws {
        let renderer = try TestGL.renderer()
        for model in ["palette", "physical"] {
            let own = try renderer.render(Frame(scene: try scene(model: model, ground: nil), time: 0))
            let none = try renderer.render(Frame(scene: try scene(model: model, ground: #""none""#), time: 0))
            let green = try renderer.render(Frame(scene: try scene(model: model, ground: ##""#2f5a2a""##), time: 0))
            // Horizon row 108; the bottom row is some 20° below it.
            let justBelow = pixel(none, 160, 110), bottom = pixel(none, 160, 179)
            // None: no ground, the horizon's light continues to the bottom.
            XCTAssertLessThanOrEqual(abs(bottom.x - justBelow.x) + abs(bottom.y - justBelow.y) + abs(bottom.z - justBelow.z), 3,
                                     "\(model): ground none continues the horizon (\(justBelow) under it, \(bottom) at the bottom)")
            XCTAssertNotEqual(pixel(own, 160, 179), bottom, "\(model): the model's own ground differs")
            // A colour: reached 2.75° below the horizon, exactly; above the horizon the sky is untouched.
            XCTAssertEqual(pixel(green, 160, 179), SIMD3(0x2f, 0x5a, 0x2a), "\(model): the colour ground")
            XCTAssertEqual(pixel(green, 160, 60), pixel(own, 160, 60), "\(model): the sky above is the same")
            // The haze: just under the horizon the colour is partly there.
            let haze = pixel(green, 160, 110)
            XCTAssertNotEqual(haze, SIMD3(0x2f, 0x5a, 0x2a), "\(model): a soft horizon, not a line")
            // Both renderers agree.
            for (label, s) in [("none", try scene(model: model, ground: #""none""#)), ("colour", try scene(model: model, ground: ##""#2f5a2a""##))] {
                try assertParity(Frame(scene: s, time: 0), label: "ground \(model) \(label)")
            }
        }
    }

    func testBadGroundSaysWhere() {
        let json = #"{"layers": [{"type": "sky", "ground": "grass"}]}"#
        XCTAssertThrowsError(try SceneLoader.decode(json)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("layers[0].ground"), message)
            XCTAssertTrue(message.contains("grass"), message)
        }
        XCTAssertThrowsError(try SceneLoader.decode(##"{"layers": [{"type": "sky", "ground": "#12"}]}"##))
        XCTAssertThrowsError(try SceneLoader.decode(#"{"layers": [{"type": "sky", "ground": 3}]}"#))
        XCTAssertNoThrow(try SceneLoader.decode(#"{"layers": [{"type": "sky", "ground": "teal"}]}"#))
        XCTAssertNoThrow(try SceneLoader.decode(#"{"layers": [{"type": "sky", "ground": [0.1, 0.2, 0.3]}]}"#))
    }
}
