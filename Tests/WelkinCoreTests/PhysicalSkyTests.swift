// The physical sky's model: decoding and its errors, Earth's defaults and visibility, the tables
// against closed forms, tone curves, auto exposure over a day, panoramas' direction mapping.

import Foundation
import XCTest
import WelkinCore
import WelkinTestSupport

final class PhysicalSkyTests: XCTestCase {
    func sky(_ keys: String) -> String { "{\"layers\": [{\"type\": \"sky\", \(keys)}]}" }

    func decodeSky(_ keys: String) throws -> SkyLayer {
        let scene = try SceneLoader.decode(sky(keys), file: "s.json")
        guard case .sky(let layer)? = scene.layers.first?.content as? SkyContent else { throw NotASky() }
        return layer
    }
    struct NotASky: Error {}

    func testDefaultsAreEarthsAndTheIssuesNumbers() throws {
        let layer = try decodeSky("\"model\": \"physical\"")
        XCTAssertEqual(layer.model, .physical)
        let a = layer.physical.atmosphere
        XCTAssertEqual(a, Atmosphere())
        XCTAssertEqual(a.groundRadius, 6360); XCTAssertEqual(a.topRadius, 6460)
        XCTAssertEqual(a.rayleighScattering, SIMD3(5.802, 13.558, 33.1))
        XCTAssertEqual(a.mieScattering, 3.996); XCTAssertEqual(a.mieExtinction, 4.40); XCTAssertEqual(a.mieG, 0.8)
        XCTAssertEqual(a.ozoneAbsorption, SIMD3(0.650, 1.881, 0.085))
        XCTAssertEqual(a.groundAlbedo, 0.3); XCTAssertEqual(a.altitude, 1)
        XCTAssertEqual(layer.physical.exposure, .auto); XCTAssertEqual(layer.physical.toneMap, .agx)
        // Without `visibility` the aerosols are as given: about 218 km.
        XCTAssertEqual(a.naturalVisibility, 217.8, accuracy: 0.1)
        XCTAssertEqual(try decodeSky("\"sunElevation\": 3").model, .palette, "the palette stays the default")
    }

    func testOverridesDecode() throws {
        let layer = try decodeSky("""
            "model": "physical", "exposure": 3.5, "toneMap": "neutral", "sunDisc": false, "sunScale": 4,
            "atmosphere": {"rayleighScattering": 10, "mieG": 0.7, "ozoneAbsorption": [1, 2, 3], "visibility": 20, "altitude": 2000}
            """)
        XCTAssertEqual(layer.physical.exposure, .ev(3.5))
        XCTAssertEqual(layer.physical.toneMap, .neutral)
        XCTAssertFalse(layer.physical.sunDisc)
        XCTAssertEqual(layer.physical.sunScale, 4)
        XCTAssertEqual(layer.physical.atmosphere.rayleighScattering, SIMD3(repeating: 10))
        XCTAssertEqual(layer.physical.atmosphere.ozoneAbsorption, SIMD3(1, 2, 3))
        XCTAssertEqual(layer.physical.atmosphere.mieG, 0.7)
        XCTAssertEqual(layer.physical.atmosphere.visibility, 20)
        XCTAssertEqual(layer.physical.atmosphere.altitude, 2000)
    }

    func testErrors() {
        let cases: [(String, String)] = [
            (sky("\"exposure\": 2"), "s.json: layers[0].exposure: 'exposure' belongs to the physical sky; add \"model\": \"physical\" to use it"),
            (sky("\"model\": \"physics\""), "s.json: layers[0].model: unknown sky model 'physics'; did you mean 'physical'?"),
            (sky("\"model\": \"physical\", \"exposure\": \"bright\""), "s.json: layers[0].exposure: unknown \"auto\" or a number of stops in −30…30 'bright' (expected one of: auto)"),
            (sky("\"model\": \"physical\", \"exposure\": 31"), "s.json: layers[0].exposure: expected \"auto\" or a number of stops in −30…30, got 31"),
            (sky("\"model\": \"physical\", \"toneMap\": \"filmic\""), "s.json: layers[0].toneMap: unknown tone curve 'filmic' (expected one of: agx, aces, neutral, clamp)"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"topRadius\": 6360}"),
             "s.json: layers[0].atmosphere.topRadius: the top of the atmosphere (6360 km) must be more than 1 km above the ground (6360 km)"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"mieScattering\": 5, \"mieExtinction\": 4}"),
             "s.json: layers[0].atmosphere.mieExtinction: aerosols cannot scatter more than they take out: mieExtinction (4) is below mieScattering (5)"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"visibility\": 500}"),
             "s.json: layers[0].atmosphere.visibility: expected a visibility in 0.5…280 km, got 500"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"rayleighScattering\": [1, 2]}"),
             "s.json: layers[0].atmosphere.rayleighScattering: expected a coefficient in 0…1000 Mm⁻¹ or [r, g, b] of them, got an array of 2"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"mieG\": 1}"), "s.json: layers[0].atmosphere.mieG: expected an asymmetry in 0…0.99, got 1"),
            (sky("\"model\": \"physical\", \"atmosphere\": {\"rayleigh\": 1}"), "s.json: layers[0].atmosphere.rayleigh: unknown key 'rayleigh' (known keys: groundRadius, topRadius, rayleighScattering, rayleighScaleHeight, mieScattering, mieExtinction, mieScaleHeight, mieG, ozoneAbsorption, ozonePeak, ozoneHalfWidth, groundAlbedo, altitude, visibility)"),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(sceneError(json, file: "s.json"), expected, json)
        }
    }

    /// Koschmieder: with a visibility V the green extinction at the ground is 3.912 / V.
    func testVisibilitySetsTheGroundExtinction() {
        for v in [5.0, 20, 100, 200] {
            var a = Atmosphere()
            a.visibility = v
            a.altitude = 0
            let c = AtmosphereCoefficients(a)
            let extinction = c.extinction(c.densities(altitude: 0)).y
            XCTAssertEqual(extinction, 3.912 / v, accuracy: 1e-12, "V = \(v) km")
        }
    }

    /// A steady clear sky is exactly the atmosphere as given; other weather thickens the aerosols.
    func testWeatherHaze() {
        let clear = PhysicalSkyDraw.coefficients(Atmosphere(), aerosols: WeatherPreset.clear.parameters.aerosols)
        XCTAssertEqual(clear, AtmosphereCoefficients(Atmosphere()))
        for preset in WeatherPreset.allCases where preset != .clear {
            let c = PhysicalSkyDraw.coefficients(Atmosphere(), aerosols: preset.parameters.aerosols)
            let v = 3.912 / c.extinction(c.densities(altitude: 0.001)).y
            XCTAssertEqual(v, preset.visibility!, accuracy: 0.01, "\(preset)")
        }
    }

    /// The table's vertical transmittance from the ground against the closed form
    /// exp(−(βR·HR + βM·HM + βO·(ozone column))).
    func testTransmittanceAgainstTheClosedForm() {
        let c = AtmosphereCoefficients(Atmosphere())
        let tables = AtmosphereTables.shared(for: c)
        let top = c.topRadius - c.groundRadius
        func column(_ h: Double) -> Double { h * (1 - exp(-top / h)) }
        let depth = c.rayleighScattering * column(c.rayleighScaleHeight) + SIMD3(repeating: c.mieExtinction * column(c.mieScaleHeight))
            + c.ozoneAbsorption * c.ozoneHalfWidth
        let expected = SIMD3(exp(-depth.x), exp(-depth.y), exp(-depth.z))
        let t = tables.transmittanceToTop(r: c.groundRadius, mu: 1)
        for i in 0..<3 { XCTAssertEqual(t[i], expected[i], accuracy: expected[i] * 2e-4) }
        // Below the horizon the planet blocks the sun.
        XCTAssertEqual(tables.transmittanceToSun(r: c.groundRadius + 0.001, mus: -0.1), .zero)
    }

    /// Tables are pure functions of the atmosphere: built twice, the same bits.
    func testTablesAreDeterministic() {
        var a = Atmosphere()
        a.mieG = 0.77   // not the cached default
        let key = SkyViewTable.Key(coefficients: AtmosphereCoefficients(a), altitude: 0.001, sunElevation: 7.25)
        let first = SkyViewTable.shared(for: key).texels
        var b = a
        b.mieG = 0.78
        for e in [1.0, 2, 3, 4, 5, 6, 8] {   // push the first out of the caches
            _ = SkyViewTable.shared(for: SkyViewTable.Key(coefficients: AtmosphereCoefficients(b), altitude: 0.001, sunElevation: e))
        }
        XCTAssertEqual(SkyViewTable.shared(for: key).texels, first)
    }

    func testToneCurves() {
        for map in ToneMap.allCases {
            var previous: Float = -1
            for k in 0...60 {
                let x = Float(pow(2, Double(k) / 4 - 10))
                let y = ToneMapping.applyToneMap(map.code, SIMD3(repeating: x))
                XCTAssertGreaterThanOrEqual(y.y, previous - 1e-5, "\(map) is monotonic at \(x)")
                XCTAssertTrue((0...1).contains(y.y), "\(map)(\(x)) = \(y)")
                previous = y.y
            }
        }
        XCTAssertEqual(ToneMapping.applyToneMap(ToneMap.clamp.code, SIMD3(0.25, 2, -1)), SIMD3(0.25, 1, 0))
        XCTAssertGreaterThan(ToneMapping.agx(SIMD3(repeating: 1000)).min(), 0.95, "AgX reaches white")
    }

    /// Auto exposure over a day in a minute changes smoothly: at 60 frames a second no step
    /// between frames exceeds 0.05 EV, and the night's is at most what a dark site's glow alone gets.
    func testAutoExposureIsSmoothOverADay() throws {
        let scene = try SceneLoader.load(path: Repository.path("Scenes/physical-day-cycle.json"))
        guard case .sky(let layer)? = scene.layers.first?.content as? SkyContent else { return XCTFail("no sky") }
        let c = AtmosphereCoefficients(Atmosphere())
        let air = FadingAtmosphere(Atmosphere(), weather: WeatherState.steady(.clear, time: 0))
        let glow = NightGlow(air, r: c.groundRadius + 0.001, groundAlbedo: 0.3, pollution: nil)
        let noon = AtmosphereTables.shared(for: c).multipleScattering(r: c.groundRadius + 0.001, mus: 1)
        let darkest = PhysicalSkyDraw.keyStops(glow.meanLuminance, noon: 0.2126 * noon.x + 0.7152 * noon.y + 0.0722 * noon.z)
        var previous: Double?
        var largest = 0.0, lowest = Double.infinity, highest = -Double.infinity
        for frame in 0...3600 {
            let ev = PhysicalSkyDraw.autoExposure(layer, coefficients: c, altitude: 0.001, time: Double(frame) / 60, glow: glow.meanLuminance)
            if let previous { largest = max(largest, abs(ev - previous)) }
            previous = ev
            lowest = min(lowest, ev); highest = max(highest, ev)
        }
        XCTAssertLessThan(largest, 0.05, "largest step between frames: \(largest) EV")
        XCTAssertLessThanOrEqual(highest, darkest + 1e-9)
        XCTAssertGreaterThan(highest - lowest, 3, "night is brighter in the exposure than noon: \(lowest)…\(highest) EV")
    }

    /// An equirect pixel maps to the scene view's pixel looking the same way.
    func testEquirectMapsDirections() throws {
        let scene = try SceneLoader.decode(#"{"size": [960, 540], "layers": [{"type": "sky", "model": "physical", "sunElevation": 20, "sunAzimuth": 135, "viewAzimuth": 200, "fieldOfView": 90, "horizon": 0.8}]}"#, file: "e.json")
        let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(720, 360), options: FrameOptions(projection: .equirect))
        guard let sky = frame.layers.first as? SkyDraw, let remap = sky.projection, case .physical(let p)? = sky.parts.first else {
            return XCTFail("no remapped physical sky")
        }
        // Column centre x + 0.5 looks at azimuth 360 (x + 0.5) / W; row y at 90 − 180 (y + 0.5) / H.
        for (x, y) in [(0, 0), (359, 179), (270, 100), (719, 359)] {
            guard let view = remap.projectionViewPixel(SIMD2(Float(x) + 0.5, Float(y) + 0.5)) else { return XCTFail("no view pixel") }
            let az = p.viewAzimuth + (view.x - p.centerX) * p.degreesPerPixel
            let el = (p.horizonY - view.y) * p.degreesPerPixel
            var d = Double(az) - 360 * (Double(x) + 0.5) / 720
            d -= 360 * (d / 360).rounded()
            XCTAssertEqual(d, 0, accuracy: 1e-3)
            XCTAssertEqual(Double(el), 90 - 180 * (Double(y) + 0.5) / 360, accuracy: 1e-3)
        }
        XCTAssertEqual(p.pixelAngle, 0.5)
    }

    /// A panorama leaves the screen-space layers out and names them.
    func testPanoramaLeavesOutScreenLayers() throws {
        let scene = try SceneLoader.decode(#"{"weather": "snow", "layers": [{"type": "sky", "model": "physical"}, {"type": "text", "string": "Hi", "size": 20, "position": [0.5, 0.5]}]}"#, file: "p.json")
        let frame = Frame(scene: scene, time: 1, pixelSize: SIMD2(64, 32), options: FrameOptions(projection: .equirect))
        XCTAssertEqual(frame.omittedLayers, ["precipitation", "text"])
        XCTAssertEqual(frame.layers.count, 1)
    }

    /// A weather cross-fade blends the skies of its two ends: halfway through, the radiance is
    /// halfway between the clear and the overcast sky's (two atmospheres for the whole fade).
    func testAWeatherFadeBlendsTheSkiesOfItsEnds() throws {
        let scene = try SceneLoader.decode("""
            {"size": [64, 36], "weather": {"preset": "clear", "transition": 2, "schedule": [{"at": 1, "preset": "overcast"}]},
             "layers": [{"type": "sky", "model": "physical", "sunElevation": 20, "sunAzimuth": 180, "exposure": 0}]}
            """, file: "fade.json")
        let fade = WeatherState(scene.weather, time: 2, seed: scene.seed).aerosolFade
        XCTAssertEqual(fade.from, WeatherPreset.clear.parameters.aerosols)
        XCTAssertEqual(fade.to, WeatherPreset.overcast.parameters.aerosols)
        XCTAssertEqual(fade.weight, 0.5, accuracy: 1e-12)
        XCTAssertEqual(WeatherState(scene.weather, time: 4, seed: scene.seed).aerosolFade.weight, 0, "after the fade")
        func radiance(_ t: Double) throws -> [SIMD3<Float>] {
            guard let sky = Frame(scene: scene, time: t).layers.first as? SkyDraw, case .physical(let p)? = sky.parts.first else {
                throw NotASky()
            }
            return [(180.0, 10.0), (200, 30), (0, 5), (90, 60)].map { az, el in
                let e = Float(el) * .pi / 180, d = Float(az - 180) * .pi / 180
                let nu = sin(e) * p.sunSine + cos(e) * p.sunCosine * cos(d)
                return p.scattered(azimuth: Float(az), elevation: Float(el), nu: nu)
            }
        }
        let clear = try radiance(0.5), middle = try radiance(2), overcast = try radiance(4)
        for i in clear.indices {
            let expected = (clear[i] + overcast[i]) * 0.5
            for ch in 0..<3 { XCTAssertEqual(middle[i][ch], expected[ch], accuracy: expected[ch] * 1e-4, "direction \(i)") }
            XCTAssertNotEqual(clear[i], overcast[i], "the weather changes the sky")
        }
    }
}
