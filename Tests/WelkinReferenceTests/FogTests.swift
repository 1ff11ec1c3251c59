// Ground fog on the physical sky (issue #37: "a fog/haze layer or setting (visibility down to 50 m,
// height falloff, lit by sun and sky, the horizon and the ground dissolving into it), on both
// renderers"; "fog at 100 m hides a ground feature 1 km away").

import XCTest
import WelkinCore
import WelkinTestSupport
import WelkinImage
@testable import WelkinReference

final class FogTests: XCTestCase {
    /// A 400×400 view 100° across (0.25° a pixel) from 20 m up, the horizon 40 pixels from the top,
    /// over a colour ground; `fog` is the sky's fog key ("" for none).
    func render(fog: String, ground: String, weather: String = "clear") throws -> Image {
        let scene = try SceneLoader.decode("""
            {"size": [400, 400], "weather": "\(weather)",
             "layers": [{"type": "sky", "model": "physical", "sunElevation": 35, "sunAzimuth": 150, "viewAzimuth": 180,
                         "fieldOfView": 100, "horizon": 0.1, "ground": "\(ground)", "atmosphere": {"altitude": 20}\(fog)}]}
            """)
        return try ReferenceRenderer().render(Frame(scene: scene, time: 0))
    }

    /// The largest difference (any channel, /255) between two renders along row y.
    func rowDifference(_ a: Image, _ b: Image, row y: Int) -> Int {
        var m = 0
        for x in 0..<a.width {
            let i = (y * a.width + x) * 4
            for c in 0..<3 { m = max(m, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))) }
        }
        return m
    }

    /// The ground seen 1 km away or more (rows 41…44: 1.0–1.1° below the horizon from 20 m up, the
    /// flat ground 1018 m away and further) is the same whether it is black or white in 100 m fog,
    /// while the ground 28 m away (45° down, row 220) still shows through it; without the fog the far
    /// ground shows. The weather's `fog` preset hides it too.
    func testFogAt100MetresHidesTheGroundAKilometreAway() throws {
        let fog = #", "fog": {"visibility": 100, "height": 100}"#
        let black = try render(fog: fog, ground: "#000000"), white = try render(fog: fog, ground: "#ffffff")
        for y in 41...44 {
            XCTAssertLessThanOrEqual(rowDifference(black, white, row: y), 1, "row \(y): the ground a kilometre away shows through 100 m fog")
        }
        let near = rowDifference(black, white, row: 220)
        XCTAssertGreaterThan(near, 60, "the ground 28 m away should show through 100 m fog (e^−1: about 94/255)")
        XCTAssertLessThan(near, 140, "the ground 28 m away is not seen as if there were no fog")
        let clearBlack = try render(fog: "", ground: "#000000"), clearWhite = try render(fog: "", ground: "#ffffff")
        // (Without fog a colour ground fades in through 2.75° of haze: 1.1° down it is some 16 % in.)
        XCTAssertGreaterThan(rowDifference(clearBlack, clearWhite, row: 43), 25, "without fog the far ground shows")
        let presetBlack = try render(fog: "", ground: "#000000", weather: "fog")
        let presetWhite = try render(fog: "", ground: "#ffffff", weather: "fog")
        XCTAssertLessThanOrEqual(rowDifference(presetBlack, presetWhite, row: 43), 1, "the fog preset (150 m) hides the ground a kilometre away")
        // `"fog": false` takes the weather's fog away.
        let offBlack = try render(fog: #", "fog": false"#, ground: "#000000", weather: "fog")
        let offWhite = try render(fog: #", "fog": false"#, ground: "#ffffff", weather: "fog")
        XCTAssertGreaterThan(rowDifference(offBlack, offWhite, row: 43), 25, "fog false: the far ground shows")
    }

    /// The fog dissolves the horizon: the rows above and below it are within a few levels of each
    /// other in fog, where without it the colour ground meets the sky in a plain line.
    func testTheHorizonDissolvesInFog() throws {
        let foggy = try render(fog: #", "fog": 150"#, ground: "#405030")
        let clear = try render(fog: "", ground: "#405030")
        var fogStep = 0, clearStep = 0
        for x in stride(from: 0, to: 400, by: 40) {
            func luminance(_ image: Image, _ y: Int) -> Double {
                let i = (y * image.width + x) * 4
                return 0.2126 * Double(image.pixels[i]) + 0.7152 * Double(image.pixels[i + 1]) + 0.0722 * Double(image.pixels[i + 2])
            }
            fogStep = max(fogStep, Int(abs(luminance(foggy, 38) - luminance(foggy, 42)).rounded()))
            clearStep = max(clearStep, Int(abs(luminance(clear, 38) - luminance(clear, 60)).rounded()))
        }
        XCTAssertLessThanOrEqual(fogStep, 3, "fog: the rows 0.5° above and below the horizon differ by \(fogStep)")
        XCTAssertGreaterThan(clearStep, 40, "no fog: the ground meets the sky (\(clearStep))")
    }

    /// Fog is bright and nearly neutral by day (the eye adapts to it): the fog preset at 390×844
    /// looking up 38° with the sun 28° up averages over 170/255 with its channels within 12 of each
    /// other, and the sun shows through it as a pale disc brighter than the fog around it.
    func testFogIsBrightNeutralAndShowsAPaleSun() throws {
        let scene = try SceneLoader.load(path: Repository.path("Scenes/weather/fog-phone.json"))
        let image = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        var sum = SIMD3<Double>.zero
        var n = 0.0
        for y in 0..<(image.height / 2) {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                sum += SIMD3(Double(image.pixels[i]), Double(image.pixels[i + 1]), Double(image.pixels[i + 2]))
                n += 1
            }
        }
        let mean = sum / n
        print("fog-phone's upper half: mean \(mean)")
        XCTAssertGreaterThan((mean.x + mean.y + mean.z) / 3, 170)
        XCTAssertLessThan(mean.max() - mean.min(), 12, "nearly neutral: \(mean)")
        var brightest = 0
        for y in 0..<image.height {
            for x in 0..<image.width { brightest = max(brightest, Int(image.pixels[(y * image.width + x) * 4 + 1])) }
        }
        XCTAssertGreaterThan(Double(brightest), mean.y + 40, "the sun's pale disc shows through the fog")
    }

    /// Scene errors name the key and say what is expected; fog is the physical sky's.
    func testFogSettingsAreCheckedWithTheirPaths() throws {
        let cases: [(String, String)] = [
            (#""fog": 5"#, "fog: expected a visibility in 10…100000 m"),
            (#""fog": {"height": 30}"#, "the object needs \"visibility\""),
            (#""fog": {"visibility": 100, "height": 0}"#, "fog.height"),
            (#""fog": "thick""#, "fog"),
        ]
        for (fog, expected) in cases {
            XCTAssertThrowsError(try SceneLoader.decode(#"{"layers": [{"type": "sky", "model": "physical", "# + fog + "}]}"), fog) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(fog): \(error)")
            }
        }
        XCTAssertThrowsError(try SceneLoader.decode(#"{"layers": [{"type": "sky", "fog": 100}]}"#)) { error in
            XCTAssertTrue("\(error)".contains("'fog' belongs to the physical sky"), "\(error)")
        }
        let scene = try SceneLoader.decode(#"{"layers": [{"type": "sky", "model": "physical", "fog": {"visibility": 80, "height": 40}}]}"#)
        guard case .sky(let sky)? = scene.layers[0].content as? SkyContent else { return XCTFail("not a sky") }
        XCTAssertEqual(sky.physical.fog, FogSetting.fog(Fog(visibility: 80, height: 40)))
    }

    /// A weather fade into fog thickens it by its extinction: halfway from clear to fog, half the
    /// fog preset's extinction (a visibility of 300 m), none before.
    func testFogFadesInWithTheWeather() throws {
        let scene = try SceneLoader.decode("""
            {"weather": {"preset": "clear", "transition": 4, "schedule": [{"at": 10, "preset": "fog"}]},
             "layers": [{"type": "sky", "model": "physical"}]}
            """)
        XCTAssertEqual(WeatherState(scene.weather, time: 5, seed: 1).parameters.fog, 0)
        // Smoothstep: halfway through the transition is halfway.
        XCTAssertEqual(WeatherState(scene.weather, time: 12, seed: 1).parameters.fog, Fog.preset.extinction / 2, accuracy: 1e-9)
        XCTAssertEqual(WeatherState(scene.weather, time: 20, seed: 1).parameters.fog, Fog.preset.extinction, accuracy: 1e-12)
    }
}
