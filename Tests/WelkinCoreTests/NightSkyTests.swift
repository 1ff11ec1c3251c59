// The night sky's scene keys and what each changes: the catalogue for a dated sky and the random
// field otherwise, visibility with the sky's brightness, brightness with magnitude, extinction, the
// Moon's phase and lit side, refraction, and determinism.

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore
import WelkinAstronomy

final class NightSkyTests: XCTestCase {
    func sky(_ keys: String, model: String = "physical") throws -> SkyLayer {
        let scene = try SceneLoader.decode(#"{"size": [640, 360], "layers": [{"type": "sky", "model": "\#(model)"\#(keys)}]}"#, file: "n.json")
        guard case .sky(let layer)? = scene.layers[0].content as? SkyContent else {
            XCTFail("the scene's first layer is not a sky")
            return SkyLayer()
        }
        return layer
    }

    let paris = #", "date": "2025-01-03T22:30:00+01:00", "latitude": 48.8566, "longitude": 2.3522"#

    func frameNight(_ keys: String, model: String = "physical", time: Double = 0) throws -> NightSkyDraw? {
        let scene = try SceneLoader.decode(#"{"size": [640, 360], "layers": [{"type": "sky", "model": "\#(model)"\#(keys)}]}"#, file: "n.json")
        let frame = Frame(scene: scene, time: time, pixelSize: SIMD2(640, 360))
        let draw = try XCTUnwrap(frame.layers.first as? SkyDraw)
        return draw.parts.first?.nightSky
    }

    func testDatedSkiesUseTheCatalogueAndUndatedOnesTheRandomField() throws {
        XCTAssertEqual(try sky(paris).effectiveStarSource, .catalog)
        XCTAssertEqual(try sky("").effectiveStarSource, .random)
        XCTAssertEqual(try sky(paris + #", "stars": "random""#).effectiveStarSource, .random)
        XCTAssertNil(try frameNight(#", "sunElevation": -30"#), "an undated sky has no night sky")
        let night = try XCTUnwrap(frameNight(paris))
        XCTAssertGreaterThan(night.entries.count / 2, 500)
        XCTAssertNil(try frameNight(paris + #", "stars": false, "moon": false, "planets": false"#))
        XCTAssertEqual(sceneError(#"{"layers": [{"type": "sky", "stars": "catalog"}]}"#),
                       "Scenes/x.json: layers[0].stars: the star catalogue needs a 'date', 'latitude' and 'longitude' to place the stars (or use \"random\")")
        XCTAssertTrue(sceneError(#"{"layers": [{"type": "sky", "stars": "all"}]}"#).contains("layers[0].stars"))
        XCTAssertTrue(sceneError(#"{"layers": [{"type": "sky", "moonScale": 100}]}"#).contains("layers[0].moonScale"))
    }

    /// The random field stays off where the catalogue draws (and the other way round).
    func testOnlyOneStarFieldAtATime() throws {
        let scene = try SceneLoader.decode(#"{"size": [640, 360], "layers": [{"type": "sky"\#(paris)}]}"#, file: "n.json")
        guard case .sky(let s)? = (Frame(scene: scene, time: 0, pixelSize: SIMD2(640, 360)).layers.first as? SkyDraw)?.parts.first else {
            return XCTFail("no palette part")
        }
        XCTAssertEqual(s.stars.x, 0, "no random stars under the catalogue")
        XCTAssertNotNil(s.night)
    }

    /// Stars come out one by one as twilight darkens: fewer at −8° than at −18°, the brightest first.
    func testTwilightHidesFaintStarsFirst() throws {
        func count(_ date: String, model: String) throws -> (Int, Float) {
            let n = try XCTUnwrap(frameNight(#", "date": "\#(date)", "latitude": 48.8566, "longitude": 2.3522, "viewAzimuth": 90"#, model: model))
            let peaks = stride(from: 1, to: n.entries.count, by: 2).map { n.entries[$0].x }
            return (Set(stride(from: 0, to: n.entries.count, by: 2).map { [n.entries[$0].x, n.entries[$0].y] }).count, peaks.max() ?? 0)
        }
        for model in ["physical", "palette"] {
            // Paris, 3 January 2025: sun at about −5°, −10° and −18°.
            let early = try count("2025-01-03T17:35:00+01:00", model: model)
            let mid = try count("2025-01-03T18:05:00+01:00", model: model)
            let night = try count("2025-01-03T19:30:00+01:00", model: model)
            XCTAssertLessThan(early.0, mid.0, model)
            XCTAssertLessThan(mid.0, night.0, model)
            XCTAssertGreaterThan(night.0, 300, model)
        }
    }

    /// Flux ∝ 10^(−0.4 m): a catalogue star's drawn light against its magnitude, and extinction.
    func testBrightnessFollowsMagnitudeAndAirMass() {
        XCTAssertEqual(NightSkyDraw.airmass(elevation: 90), 1, accuracy: 0.001)
        XCTAssertEqual(NightSkyDraw.airmass(elevation: 30), 2, accuracy: 0.01)
        XCTAssertGreaterThan(NightSkyDraw.airmass(elevation: 0), 35)
        let t = NightSkyDraw.paletteTransmittance(airmass: 3)
        XCTAssertTrue(t.x > t.y && t.y > t.z, "redder near the horizon")
        XCTAssertLessThan(NightSkyDraw.scintillation(airmass: 1), NightSkyDraw.scintillation(airmass: 5))
        // Schaefer: a dark sky (21.8 mag/arcsec²) shows about 6.5, a bright one nothing faint.
        XCTAssertEqual(NightSkyDraw.limitingMagnitude(0), 6.5, accuracy: 0.1)
        XCTAssertLessThan(NightSkyDraw.limitingMagnitude(1e-3), 2)
        // Colour: hot stars bluer, cool ones redder, the sun white.
        let blue = StarColor.rgb(colorIndex: -0.2), red = StarColor.rgb(colorIndex: 1.6), sun = StarColor.rgb(colorIndex: 0.65)
        XCTAssertGreaterThan(blue.z, blue.x)
        XCTAssertGreaterThan(red.x, red.z)
        XCTAssertEqual(sun.x, sun.z, accuracy: 1e-9)
    }

    /// The Moon's lit side faces the Sun: at dusk on 3 January 2025 a thin crescent (phase angle
    /// about 140°) with the Sun below the western horizon, so its lit limb points west and down.
    func testTheMoonsTerminatorFacesTheSun() throws {
        let n = try XCTUnwrap(frameNight(#", "date": "2025-01-03T18:30:00+01:00", "latitude": 48.8566, "longitude": 2.3522, "viewAzimuth": 215"#))
        XCTAssertEqual(n.moonVisible, 1)
        XCTAssertLessThan(n.moonSun.z, -0.5, "a crescent: the Sun is behind the Moon")
        XCTAssertGreaterThan(n.moonSun.x, 0, "the Sun (azimuth 250°) is toward increasing azimuth from the Moon (216°)")
        XCTAssertLessThan(n.moonSun.y, 0, "and below it")
        // Its true size: 0.5° across is 6.4 pixels of a 100° view 640 wide... × moonScale.
        let scaled = try XCTUnwrap(frameNight(#", "date": "2025-01-03T18:30:00+01:00", "latitude": 48.8566, "longitude": 2.3522, "moonScale": 3"#))
        XCTAssertEqual(n.moonInverseRadius / scaled.moonInverseRadius, 3, accuracy: 1e-4)
        XCTAssertEqual(1 / Double(n.moonInverseRadius) * 2, 0.52, accuracy: 0.04)
    }

    func testRefractionLiftsTheNightSky() throws {
        let layer = try sky(paris)
        let on = try XCTUnwrap(NightSky(layer: layer, clock: try XCTUnwrap(Timestamp.parse("2025-01-03T22:30:00+01:00"))))
        var flat = layer
        flat.refraction = false
        let off = try XCTUnwrap(NightSky(layer: flat, clock: try XCTUnwrap(Timestamp.parse("2025-01-03T22:30:00+01:00"))))
        XCTAssertEqual(on.points.count, off.points.count)
        for (a, b) in zip(on.points, off.points) where b.elevation > 0 {
            XCTAssertEqual(a.elevation - b.elevation, Refraction.degrees(trueElevation: b.elevation), accuracy: 1e-9)
        }
    }

    func testDeterministicAcrossRuns() throws {
        let a = try frameNight(paris, time: 3.25), b = try frameNight(paris, time: 3.25)
        XCTAssertEqual(a, b)
        let c = try frameNight(paris, time: 3.5)
        XCTAssertNotEqual(a?.entries, c?.entries, "stars twinkle")
    }
}
