// The night sky on both renderers: GPU = CPU where the stars, planets and Moon are (not only on
// the dark sky around them), in both sky models, in the view and in panoramas, display-referred
// and scene-linear; and in a 4096×2048 equirect EXR the 40 brightest stars above 20° are local
// maxima within a pixel of where the ephemeris puts them, brighter stars carrying more flux (over
// each pixel's solid angle).

import Foundation
import XCTest
import WelkinTestSupport
import WelkinAstronomy
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class NightSkyParityTests: XCTestCase {
    /// A 640×360 dated sky over Paris: `model` and extra keys.
    func scene(_ date: String, model: String, view: Double = 215, extra: String = "") throws -> Scene {
        try SceneLoader.decode(#"""
        {"size": [640, 360], "layers": [{"type": "sky", "model": "\#(model)", "date": "\#(date)", "latitude": 48.8566,
         "longitude": 2.3522, "viewAzimuth": \#(view), "fieldOfView": 100, "horizon": 0.9\#(extra)}]}
        """#, file: "night.json")
    }

    /// Display parity over the whole frame (ImageDifference) and over the pixels the night sky lights:
    /// those at least 6/255 above the darkest of their 5×5 neighbourhood in the CPU image (star cores,
    /// planets, the Moon's disc), of which there must be `minimumLit`; 99.5 % of them within 2/255.
    func check(_ scene: Scene, label: String, size: SIMD2<Int>? = nil, options: FrameOptions = FrameOptions(),
               minimumLit: Int, line: UInt = #line) throws {
        let frame = Frame(scene: scene, time: 0, pixelSize: size ?? scene.size, options: options)
        let (gpu, cpu) = try assertParity(frame, label: "night \(label)", line: line)
        let w = cpu.width, h = cpu.height
        func lum(_ img: Image, _ x: Int, _ y: Int) -> Int {
            let i = 4 * (y * w + x)
            return Int(img.pixels[i]) + Int(img.pixels[i + 1]) + Int(img.pixels[i + 2])
        }
        var lit = 0, within = 0, worst = 0
        for y in 2..<(h - 2) {
            for x in 2..<(w - 2) {
                var floor = Int.max
                for dy in -2...2 { for dx in -2...2 { floor = min(floor, lum(cpu, x + dx, y + dy)) } }
                guard lum(cpu, x, y) - floor >= 18 else { continue }
                lit += 1
                let i = 4 * (y * w + x)
                let d = (0..<3).map { abs(Int(gpu.pixels[i + $0]) - Int(cpu.pixels[i + $0])) }.max()!
                worst = max(worst, d)
                if d <= 2 { within += 1 }
            }
        }
        print("night parity \(label): lit pixels \(lit), within 2/255 \(within), worst \(worst)")
        XCTAssertGreaterThanOrEqual(lit, minimumLit, "\(label): the night sky lit too few pixels to compare", line: line)
        XCTAssertGreaterThanOrEqual(Double(within), 0.995 * Double(lit), "\(label): lit pixels differ (worst \(worst)/255)", line: line)
    }

    func testPhysicalNightWithMoonAndPlanets() throws {
        // Dusk, 3 January 2025: the crescent Moon beside Venus, Saturn above (moonScale 4 to light more pixels).
        try check(scene("2025-01-03T18:30:00+01:00", model: "physical", extra: #", "moonScale": 4"#), label: "physical-dusk", minimumLit: 150)
        // Deep night facing south: Orion, Sirius, moonlight in the air (a gibbous Moon up in the east).
        let moonlit = try scene("2025-01-10T23:00:00+01:00", model: "physical", view: 160)
        let frame = Frame(scene: moonlit, time: 0, pixelSize: moonlit.size)
        guard case .physical(let sky)? = (frame.layers.first as? SkyDraw)?.parts.first else { return XCTFail("no physical sky") }
        XCTAssertGreaterThan(sky.moonSkyScale, 0, "the moonlit air is drawn (WELKIN_MOONLIGHT on the GPU)")
        try check(moonlit, label: "physical-moonlit", minimumLit: 150)
    }

    /// The Milky Way: GPU = CPU over the whole frame of Scenes/milky-way.json (the band, its rifts
    /// and the stars in it), and the GPU's band is there: the frame differs from the same night
    /// with `"milkyWay": 0` by at least 6/255 over much of it.
    func testTheMilkyWayOnBothRenderers() throws {
        let path = Repository.scenes.appendingPathComponent("milky-way.json").path
        let scene = try SceneLoader.load(path: path)
        let size = SIMD2(640, 360)
        let frame = Frame(scene: scene, time: 0, pixelSize: size)
        guard case .physical(let sky)? = (frame.layers.first as? SkyDraw)?.parts.first else { return XCTFail("no physical sky") }
        XCTAssertTrue(sky.drawsMilkyWay, "a moonless night at a dark site draws the band")
        try check(scene, label: "milky-way", size: size, minimumLit: 150)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var layers = try XCTUnwrap(json["layers"] as? [[String: Any]])
        layers[0]["milkyWay"] = 0
        json["layers"] = layers
        let bare = try SceneLoader.decode(String(decoding: JSONSerialization.data(withJSONObject: json), as: UTF8.self), file: "milky-way.json")
        let renderer = try TestGL.renderer()
        let with = try renderer.render(frame)
        let without = try renderer.render(Frame(scene: bare, time: 0, pixelSize: size))
        var brighter = 0
        for i in stride(from: 0, to: with.pixels.count, by: 4) where Int(with.pixels[i + 1]) >= Int(without.pixels[i + 1]) + 6 { brighter += 1 }
        print("milky way: \(brighter) of \(size.x * size.y) pixels 6/255 brighter with the band")
        XCTAssertGreaterThan(brighter, size.x * size.y / 10)
    }

    /// The zodiacal light's cone in the west after dusk (La Palma, March): GPU = CPU over the frame.
    func testTheZodiacalLightOnBothRenderers() throws {
        let scene = try SceneLoader.decode(#"""
        {"size": [640, 360], "layers": [{"type": "sky", "model": "physical", "date": "2025-03-26T21:40:00+00:00", "latitude": 28.76,
         "longitude": -17.88, "atmosphere": {"altitude": 2400}, "viewAzimuth": 270, "fieldOfView": 120, "horizon": 0.85}]}
        """#, file: "zodiacal.json")
        let frame = Frame(scene: scene, time: 0)
        guard let sky = frame.layers.first as? SkyDraw, case .physical(let p)? = sky.parts.first else { return XCTFail("no physical sky") }
        XCTAssertTrue(p.drawsZodiacalLight)
        try check(scene, label: "zodiacal", minimumLit: 100)
        // The panorama follows the sky from frame to frame (the renderer uploads it when it changes):
        // the same sky turning at 600×, GPU = CPU at 0, 1 and 2 s on one renderer.
        let turning = try SceneLoader.decode(#"""
        {"size": [320, 180], "layers": [{"type": "sky", "model": "physical", "date": "2025-03-26T21:40:00+00:00", "latitude": 28.76,
         "longitude": -17.88, "timeScale": 600, "atmosphere": {"altitude": 2400}, "viewAzimuth": 270, "fieldOfView": 120, "horizon": 0.85}]}
        """#, file: "zodiacal-turning.json")
        var panoramas: [[SIMD3<Float>]] = []
        for t in [0.0, 1, 2] {
            let f = Frame(scene: turning, time: t)
            if let sky = f.layers.first as? SkyDraw, case .physical(let q)? = sky.parts.first { panoramas.append(q.zodiacalPanorama) }
            _ = try assertParity(f, label: "zodiacal turning")
        }
        XCTAssertEqual(Set(panoramas.map { $0.map(\.y) }).count, 3, "the panorama changes as the sky turns")
    }

    func testPaletteNightWithMoonAndPlanets() throws {
        try check(scene("2025-01-03T18:30:00+01:00", model: "palette", extra: #", "moonScale": 4"#), label: "palette-dusk", minimumLit: 150)
        try check(scene("2025-01-03T22:30:00+01:00", model: "palette", view: 180), label: "palette-night", minimumLit: 150)
    }

    func testPanoramaOfTheNight() throws {
        try check(scene("2025-01-03T22:30:00+01:00", model: "physical"), label: "physical-equirect", size: SIMD2(1024, 512),
                  options: FrameOptions(projection: .equirect), minimumLit: 300)
    }

    /// Scene-linear: star pixels are 10⁻⁶…10⁻³ of the sun's irradiance per steradian, far below the
    /// physical sky's absolute tolerance, so they are compared relative to the brightest star pixel.
    func testSceneLinearStarsAgree() throws {
        let renderer = try TestGL.renderer()
        let s = try scene("2025-01-03T22:30:00+01:00", model: "physical", view: 180)
        let frame = Frame(scene: s, time: 0, pixelSize: SIMD2(640, 360), options: FrameOptions(linearLight: true))
        let gpu = try renderer.renderLinear(frame)
        let cpu = try ReferenceRenderer().renderLinear(frame)
        let peak = cpu.pixels.map { max($0.x, $0.y, $0.z) }.max() ?? 0
        XCTAssertGreaterThan(peak, 0)
        var lit = 0, over = 0
        var worst: Float = 0
        for (a, b) in zip(gpu.pixels, cpu.pixels) where max(b.x, b.y, b.z) > 0.002 * peak {
            lit += 1
            let d = max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
            worst = max(worst, d / peak)
            if d > 2e-3 * peak { over += 1 }
        }
        print("night linear parity: \(lit) star pixels (over 0.2 % of the peak), \(over) over 0.2 % of the peak, worst \(worst) of the peak")
        XCTAssertGreaterThan(lit, 200)
        XCTAssertLessThanOrEqual(Double(over), 0.005 * Double(lit))
    }

    func testEquirectEXRStarsAreWhereTheEphemerisPutsThem() throws {
        let date = "2025-01-01T00:30:00+01:00"
        let observer = Observer(latitude: 48.8566, longitude: 2.3522)
        let seconds = try XCTUnwrap(Timestamp.parse(date)).unixSeconds
        XCTAssertLessThan(Ephemeris(unixSeconds: seconds, observer: observer).moon.position.elevation, -5, "a moonless night")
        let s = try scene(date, model: "physical", extra: #", "moon": false, "planets": false"#)
        let size = SIMD2(4096, 2048)
        let frame = Frame(scene: s, time: 0, pixelSize: size, options: FrameOptions(projection: .equirect, linearLight: true))
        let image = try TestGL.renderer().renderLinear(frame)
        let w = image.width, h = image.height
        func lum(_ x: Int, _ y: Int) -> Float {
            let p = image.pixels[y * w + ((x % w) + w) % w]
            return 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z
        }
        let catalog = try XCTUnwrap(StarCatalog.shared)
        let places = catalog.places(time: AstroTime(unixSeconds: seconds), observer: observer)
        let chosen = places.filter { $0.position.apparentElevation > 20 }.prefix(40)
        XCTAssertEqual(chosen.count, 40)
        var fluxes: [(magnitude: Double, flux: Float)] = []
        for place in chosen {
            let x = place.position.azimuth / 360 * Double(w), y = (90 - place.position.apparentElevation) / 180 * Double(h)
            // The brightest pixel within one pixel of the ephemeris' place must be a local maximum.
            var best = (x: 0, y: 0, l: -Float.infinity)
            for py in Int((y - 1.5).rounded(.up))...Int((y + 0.5).rounded(.down)) {
                for px in Int((x - 1.5).rounded(.up))...Int((x + 0.5).rounded(.down)) where lum(px, py) > best.l { best = (px, py, lum(px, py)) }
            }
            var isMaximum = true
            for dy in -1...1 { for dx in -1...1 where (dx, dy) != (0, 0) && lum(best.x + dx, best.y + dy) > best.l { isMaximum = false } }
            XCTAssertTrue(isMaximum, "HIP \(catalog.stars[place.index].hip) (V \(catalog.stars[place.index].magnitude)) at \(x), \(y): no local maximum within a pixel")
            // The flux: radiance × each pixel's solid angle (an equirect row's pixels span cos e of
            // their height across), over a box as wide in the sky as it is tall: a star is round in
            // the sky, so 1/cos e pixels wide in the map.
            var flux: Float = 0
            let across = Int((3 / max(cos(place.position.apparentElevation * .pi / 180), 0.1)).rounded(.up))
            for dy in -3...3 {
                let e = 90 - (Double(best.y + dy) + 0.5) / Double(h) * 180
                for dx in -across...across { flux += lum(best.x + dx, best.y + dy) * Float(cos(e * .pi / 180)) }
            }
            fluxes.append((Double(catalog.stars[place.index].magnitude), flux))
        }
        // Brighter carries more: every pair more than a magnitude apart is in order.
        var pairs = 0, ordered = 0
        for a in fluxes { for b in fluxes where a.magnitude < b.magnitude - 1 { pairs += 1; if a.flux > b.flux { ordered += 1 } } }
        print("equirect EXR: 40 stars; \(ordered) of \(pairs) pairs a magnitude apart in order of flux")
        XCTAssertGreaterThan(pairs, 50)
        XCTAssertEqual(ordered, pairs)
    }
}
