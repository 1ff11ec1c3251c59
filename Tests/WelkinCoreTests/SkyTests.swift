// Sky layers: palette blending, stars, noise, weather, and every decoding error.

import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class SkyTests: XCTestCase {
    func error(_ json: String) -> String { sceneError(json, file: "s.json") }

    func sky(_ keys: String) -> String { "{\"layers\": [{\"type\": \"sky\"\(keys.isEmpty ? "" : ", " + keys)}]}" }

    // MARK: palette

    /// Colours follow the sun's elevation continuously: small elevation steps make small colour
    /// steps everywhere (no jumps at keyframes or hour boundaries as in seed 000).
    func testPaletteBlendsWithoutJumps() {
        let palette = SkyLayer.defaultPalette
        var previous = SkyColors(palette: palette, elevation: -30)
        var e = -30.0
        while e <= 60 {
            e += 0.05
            let c = SkyColors(palette: palette, elevation: e)
            for (a, b) in [(previous.zenith, c.zenith), (previous.horizon, c.horizon), (previous.sunGlow, c.sunGlow)] {
                let step = ((a.lab - b.lab) * (a.lab - b.lab)).sum().squareRoot()
                XCTAssertLessThan(step, 0.01, "colour jumps at elevation \(e)")
            }
            previous = c
        }
    }

    func testPaletteHitsKeyframesAndPads() {
        let palette = SkyLayer.defaultPalette
        for k in palette {
            let c = SkyColors(palette: palette, elevation: k.elevation)
            XCTAssertEqual(c.zenith.rgba.r, k.zenith.r, accuracy: 2e-3)
            XCTAssertEqual(c.horizon.rgba.b, k.horizon.b, accuracy: 2e-3)
        }
        let night = SkyColors(palette: palette, elevation: -40)
        XCTAssertEqual(night.zenith.rgba.b, SkyLayer.seedNight.zenith.b, accuracy: 2e-3)
        let day = SkyColors(palette: palette, elevation: 70)
        XCTAssertEqual(day.horizon.rgba.g, SkyLayer.seedDay.horizon.g, accuracy: 2e-3)
    }

    func testCloudyNightStaysDark() {
        let clear = SkyState(layer: nil, time: 0, weather: .steady(.clear, time: 0))
        var nightLayer = SkyLayer()
        nightLayer.sun = .fixed(elevation: -30, azimuth: 0)
        let cloudyNight = SkyState(layer: nightLayer, time: 0, weather: .steady(.overcast, time: 0))
        XCTAssertLessThan(cloudyNight.colors.zenith.lab.x, clear.colors.zenith.lab.x * 0.7)
    }

    // MARK: stars and noise

    func testStarsAreDeterministicAndSparse() {
        var layer = SkyLayer()
        layer.sun = .fixed(elevation: -30, azimuth: 0)
        let state = SkyState(layer: layer, time: 0, weather: .steady(.clear, time: 0))
        func draw(_ seed: UInt64) -> SkyGradientDraw {
            SkyGradientDraw(layer, state: state, opacity: 1, time: 0, seed: seed, pixelSize: [320, 180], scale: [1, 1])
        }
        let a = draw(1), b = draw(1), c = draw(2)
        var lit = 0, same = 0, differ = 0
        for y in 0..<180 { for x in 0..<320 {
            let p = SIMD2<Float>(Float(x) + 0.5, Float(y) + 0.5)
            let s = a.starLight(p)
            XCTAssertEqual(s, b.starLight(p))
            if s.x > 0 { lit += 1; if c.starLight(p) == s { same += 1 } else { differ += 1 } }
        } }
        XCTAssertGreaterThan(lit, 100, "a night sky has stars")
        XCTAssertLessThan(lit, 320 * 180 / 10, "stars are points, not a haze")
        XCTAssertGreaterThan(differ, same, "another seed, another star field")
        XCTAssertEqual(draw(1).stars.x, 1, "fully visible at −30°")
        var dusk = layer
        dusk.sun = .fixed(elevation: -3, azimuth: 0)
        let duskDraw = SkyGradientDraw(dusk, state: SkyState(layer: dusk, time: 0, weather: .steady(.clear, time: 0)),
                                       opacity: 1, time: 0, seed: 1, pixelSize: [320, 180], scale: [1, 1])
        XCTAssertEqual(duskDraw.stars.x, 0, "no stars above −6°")
    }

    /// The hash and noise are pinned: GLSL (noise.glsl) must produce these same values.
    func testNoiseIsPinned() {
        XCTAssertEqual(Noise.hash32(0), 0)
        XCTAssertEqual(Noise.hash32(1), 0x0000_0000 &+ Noise.hash32(1))
        XCTAssertNotEqual(Noise.hashCell(1, 2, 3), Noise.hashCell(2, 1, 3))
        XCTAssertNotEqual(Noise.latticeHash(1, 2, key: 3), Noise.latticeHash(2, 1, key: 3))
        // valueNoise shares latticeHash's axis products between corners: at lattice points it is latticeHash.
        XCTAssertEqual(Noise.valueNoise(5, -7, 11), Noise.unit(Noise.latticeHash(5, -7, key: Noise.hash32(11))))
        XCTAssertEqual(Noise.valueNoise(-3, 2, 11), Noise.unit(Noise.latticeHash(-3, 2, key: Noise.hash32(11))))
        XCTAssertEqual(Noise.valueNoise(-3, 3, 11), Noise.unit(Noise.latticeHash(-3, 3, key: Noise.hash32(11))))
        XCTAssertEqual(Noise.valueNoise(-2, 2, 11), Noise.unit(Noise.latticeHash(-2, 2, key: Noise.hash32(11))))
        var total: Float = 0
        for i in 0..<1000 {
            let n = Noise.fbm(Float(i) * 0.37, Float(i) * 0.11, 7, octaves: 5)
            XCTAssertTrue(n >= 0 && n < 1)
            total += n
        }
        XCTAssertEqual(total / 1000, 0.5, accuracy: 0.06)
        // Lattice values: uniform, and neighbours (in x, in y, and across seeds) uncorrelated.
        var sum = 0.0, sumSq = 0.0, xy = 0.0, yy = 0.0, seeds = 0.0, count = 0.0
        for y in Int32(-64)..<64 {
            for x in Int32(-64)..<64 {
                let v = Double(Noise.unit(Noise.latticeHash(x, y, key: 5))) - 0.5
                sum += v; sumSq += v * v
                xy += v * (Double(Noise.unit(Noise.latticeHash(x + 1, y, key: 5))) - 0.5)
                yy += v * (Double(Noise.unit(Noise.latticeHash(x, y + 1, key: 5))) - 0.5)
                seeds += v * (Double(Noise.unit(Noise.latticeHash(x, y, key: 5 &+ 0x68e3_1da4))) - 0.5)
                count += 1
            }
        }
        XCTAssertEqual(sum / count, 0, accuracy: 0.01)
        XCTAssertEqual(sumSq / count, 1.0 / 12, accuracy: 0.003)
        for c in [xy, yy, seeds] { XCTAssertEqual(c / sumSq, 0, accuracy: 0.03) }
        // Continuity: one ulp in, about one ulp out.
        let x: Float = 12.75, y: Float = 3.5
        XCTAssertEqual(Noise.valueNoise(x, y, 3), Noise.valueNoise(x.nextUp, y, 3), accuracy: 1e-5)
        XCTAssertEqual(Noise.valueNoise(13.0, y, 3), Noise.valueNoise(Float(13).nextDown, y, 3), accuracy: 1e-5)
    }

    // MARK: weather

    func testWeatherCrossFades() throws {
        let scene = try SceneLoader.decode("""
            {"weather": {"preset": "clear", "transition": 2, "schedule": [{"at": 5, "preset": "rain"}]},
             "layers": [{"type": "sky"}]}
            """)
        let clear = WeatherPreset.clear.parameters, rain = WeatherPreset.rain.parameters
        XCTAssertEqual(WeatherState(scene.weather, time: 4.9, seed: 1).parameters, clear)
        let middle = WeatherState(scene.weather, time: 6, seed: 1).parameters
        XCTAssertEqual(middle.cover, (clear.cover + rain.cover) / 2, accuracy: 1e-9)
        XCTAssertEqual(WeatherState(scene.weather, time: 7.5, seed: 1).parameters, rain)
        // Continuous in time, drift too.
        var previous = WeatherState(scene.weather, time: 0, seed: 1)
        var t = 0.0
        while t < 10 {
            t += 0.01
            let w = WeatherState(scene.weather, time: t, seed: 1)
            XCTAssertLessThan(abs(w.parameters.cover - previous.parameters.cover), 0.01)
            XCTAssertLessThan(abs(w.drift - previous.drift), 0.02)
            XCTAssertGreaterThan(w.drift, previous.drift)
            previous = w
        }
        // Drift is the integral of the speed factor: clear (0.3) for 5 s is 5 s of base drift.
        XCTAssertEqual(WeatherState(scene.weather, time: 5, seed: 1).drift, 5, accuracy: 1e-9)
        XCTAssertEqual(WeatherState(scene.weather, time: 10, seed: 1).drift - WeatherState(scene.weather, time: 8, seed: 1).drift,
                       2 * 0.5 / 0.3, accuracy: 1e-9)
    }

    func testInterruptedTransitionStartsFromWhereItWas() throws {
        let scene = try SceneLoader.decode("""
            {"weather": {"preset": "clear", "transition": 4, "schedule": [{"at": 1, "preset": "storm"}, {"at": 2, "preset": "clear"}]}}
            """)
        let before = WeatherState(scene.weather, time: 2, seed: 1).parameters.cover
        let after = WeatherState(scene.weather, time: 2.0001, seed: 1).parameters.cover
        XCTAssertEqual(before, after, accuracy: 1e-3)
        XCTAssertGreaterThan(before, WeatherPreset.clear.parameters.cover)
    }

    func testStormLightningIsSeededAndOnlyInStorms() throws {
        let storm = try SceneLoader.decode("{\"weather\": \"storm\"}")
        let flashes = stride(from: 0.0, to: 60, by: 0.05).map { WeatherState(storm.weather, time: $0, seed: 3).flash }
        XCTAssertGreaterThan(flashes.filter { $0 > 0.3 }.count, 3)
        XCTAssertEqual(flashes, stride(from: 0.0, to: 60, by: 0.05).map { WeatherState(storm.weather, time: $0, seed: 3).flash })
        let rain = try SceneLoader.decode("{\"weather\": \"rain\"}")
        XCTAssertTrue(stride(from: 0.0, to: 60, by: 0.05).allSatisfy { WeatherState(rain.weather, time: $0, seed: 3).flash == 0 })
    }

    func testExplicitLayerValuesWin() throws {
        let scene = try SceneLoader.decode("""
            {"weather": "storm", "layers": [{"type": "cloudCover", "coverage": 0.1}, {"type": "cloudCover"}]}
            """)
        let frame = Frame(scene: scene, time: 0, pixelSize: [64, 36])
        guard let a = frame.layers[0] as? SkyDraw, case .cover(let explicit) = a.parts[0],
              let b = frame.layers[1] as? SkyDraw, case .cover(let preset) = b.parts[0] else { return XCTFail("two cover layers") }
        XCTAssertEqual(explicit.threshold, Float(CloudCoverDraw.threshold(coverage: 0.1, sharpness: 3)))
        XCTAssertEqual(preset.threshold, Float(CloudCoverDraw.threshold(coverage: WeatherPreset.storm.parameters.cover, sharpness: 3)))
    }

    func testViewerWeatherAndClockChanges() throws {
        var scene = try SceneLoader.decode(sky("\"date\": \"2024-03-20T12:00:00+01:00\", \"latitude\": 48.85, \"longitude\": 2.35"))
        scene.changeWeather(to: .rain, at: 3)
        XCTAssertEqual(scene.weatherPreset(at: 2), .clear)
        XCTAssertEqual(scene.weatherPreset(at: 4), .rain)
        let noon = SkyState.of(scene, time: 0)!.sunElevation
        scene.shiftSkyClock(by: -6 * 3600)
        XCTAssertLessThan(SkyState.of(scene, time: 0)!.sunElevation, noon - 30)
    }

    func testSpritesFollowSeed000() throws {
        let scene = try SceneLoader.decode("{\"layers\": [{\"type\": \"cloudSprites\"}]}")
        let frame = Frame(scene: scene, time: 0)
        guard let d = frame.layers[0] as? SkyDraw, case .sprites(let s) = d.parts[0] else { return XCTFail() }
        XCTAssertEqual(s.boxes.count, 5)
        for (box, info) in zip(s.boxes, s.info) {
            XCTAssertTrue((40...100).contains(box.z), "width 80–200 pt")
            XCTAssertEqual(box.w, box.z * 0.6, accuracy: 1e-3)
            XCTAssertTrue((72...360).contains(box.y), "band 10–50 % of 720")
            XCTAssertTrue([0.9, 0.6, 0.7].contains { abs($0 - info.y) < 1e-6 })
        }
        // Moving right, wrapping.
        let later = Frame(scene: scene, time: 1)
        guard let d2 = later.layers[0] as? SkyDraw, case .sprites(let s2) = d2.parts[0] else { return XCTFail() }
        for (a, b) in zip(s.boxes, s2.boxes) where b.x > a.x { XCTAssertLessThan(b.x - a.x, 1480 / 20 + 1) }
    }

    // MARK: errors

    func testErrors() {
        let cases: [(String, String)] = [
            (sky("\"date\": \"2024-06-21T12:00:00+02:00\", \"latitude\": 91, \"longitude\": 0"),
             "s.json: layers[0].latitude: expected a latitude in −90…90 degrees, got 91"),
            (sky("\"date\": \"2024-06-21T12:00:00+02:00\", \"latitude\": 10, \"longitude\": -180.5"),
             "s.json: layers[0].longitude: expected a longitude in −180…180 degrees, got -180.5"),
            (sky("\"date\": \"21/06/2024\", \"latitude\": 10, \"longitude\": 0"),
             "s.json: layers[0].date: expected an ISO 8601 date with a UTC offset like \"2024-06-21T05:30:00+02:00\", got \"21/06/2024\""),
            (sky("\"date\": \"2024-06-21T12:00:00+02:00\", \"longitude\": 0"), "s.json: layers[0]: missing key 'latitude'"),
            (sky("\"latitude\": 10"), "s.json: layers[0].latitude: 'latitude' needs a 'date' to compute the sun from (or set 'sunElevation' instead)"),
            (sky("\"date\": \"2024-06-21T12:00:00+02:00\", \"latitude\": 1, \"longitude\": 2, \"sunElevation\": 3"),
             "s.json: layers[0].sunElevation: 'sunElevation' fixes the sun, but 'date' computes it; use one or the other"),
            (sky("\"palette\": []"), "s.json: layers[0].palette: a palette needs at least one keyframe"),
            (sky("\"palette\": [{\"elevation\": 5, \"zenith\": \"blue\", \"horizon\": \"white\"}, {\"elevation\": -5, \"zenith\": \"blue\", \"horizon\": \"white\"}]"),
             "s.json: layers[0].palette[1].elevation: keyframes must be in increasing order of elevation: -5° follows 5°"),
            (sky("\"palette\": [{\"elevation\": 5, \"zenith\": \"blue\"}]"), "s.json: layers[0].palette[0]: missing key 'horizon'"),
            (sky("\"fieldOfView\": 0"), "s.json: layers[0].fieldOfView: expected a field of view in 1…360 degrees, got 0"),
            (sky("\"sunElevaton\": 3"), "s.json: layers[0].sunElevaton: unknown key 'sunElevaton'; did you mean 'sunElevation'?"),
            ("{\"layers\": [{\"type\": \"cloudCover\", \"coverage\": 1.2}]}", "s.json: layers[0].coverage: expected a coverage in 0…1, got 1.2"),
            ("{\"layers\": [{\"type\": \"cloudCover\", \"wind\": [1]}]}", "s.json: layers[0].wind: expected [x, y], got an array of 1"),
            ("{\"layers\": [{\"type\": \"cloudSprites\", \"kinds\": [\"cumulous\"]}]}", "s.json: layers[0].kinds[0]: unknown cloud kind 'cumulous'; did you mean 'cumulus'?"),
            ("{\"layers\": [{\"type\": \"cloudSprites\", \"size\": [200, 80]}]}", "s.json: layers[0].size: expected [low, high] with low ≤ high, got [200, 80]"),
            ("{\"layers\": [{\"type\": \"cloudSprites\", \"count\": 33}]}", "s.json: layers[0].count: expected a whole number in 0…32, got 33"),
            ("{\"weather\": \"drizzle\"}", "s.json: weather: unknown weather preset 'drizzle' (expected one of: clear, cloudy, overcast, rain, snow, storm, fog)"),
            ("{\"weather\": {\"preset\": \"rain\", \"transition\": -1}}", "s.json: weather.transition: expected seconds in 0…3600, got -1"),
            ("{\"weather\": {\"schedule\": [{\"at\": 5, \"preset\": \"rain\"}, {\"at\": 2, \"preset\": \"snow\"}]}}",
             "s.json: weather.schedule[1].at: schedule entries must be in order of time: 2 s follows 5 s"),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(error(json), expected, json)
        }
    }

    func testEverySkySceneLoads() throws {
        let directory = Repository.scenes
        for name in ["day-cycle", "sunset-clouds", "rainy-evening", "snowy-night", "weather-tour", "storm", "phone-snow"] {
            let scene = try SceneLoader.load(path: directory.appendingPathComponent(name + ".json").path)
            XCTAssertNotNil(Frame(scene: scene, time: 1.5).sky, name)
        }
    }
}
