// The `clouds` layer as a designer who knows real skies would check it: cumulus redden toward
// sunset and are brighter on the side facing the sun; a storm's deck hides the sun; every cloud
// layer of every example has soft edges at 1920×1080 (sprites and cover included); the march is the
// same on every thread count. CPU only (the GPU's parity is SkyParityTests'); the per-pixel maths
// runs optimised here (WelkinReference is built with -O).

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore
@testable import WelkinReference
import WelkinImage

final class CloudsTests: XCTestCase {
    func cumulusScene(sunElevation: Double, sunAzimuth: Double) throws -> Scene {
        try SceneLoader.decode("""
        {"size": [480, 270], "seed": 11, "layers": [
          {"type": "sky", "sunElevation": \(sunElevation), "sunAzimuth": \(sunAzimuth), "viewAzimuth": 180, "fieldOfView": 90},
          {"type": "clouds", "cloudType": "cumulus", "coverage": 0.4, "cirrus": 0}]}
        """, file: "cumulus.json")
    }

    /// The march's grid for `scene` at `time` and `size`.
    func grid(_ scene: Scene, time: Double = 0, size: SIMD2<Int>? = nil, threads: Int = 2) throws -> (draw: CloudsDraw, colors: [SIMD4<Float>]) {
        let frame = Frame(scene: scene, time: time, pixelSize: size ?? scene.size)
        let draw = try XCTUnwrap(frame.layers.compactMap { $0 as? CloudsDraw }.first, "no clouds layer")
        let start = Date()
        let raster = CloudsRaster(draw, threads: threads)
        print("TIMING march \(draw.gridSize) \(Date().timeIntervalSince(start))")
        return (draw, Array(raster.grid))
    }

    /// Straight display colour of a premultiplied grid colour.
    func straight(_ c: SIMD4<Float>) -> SIMD3<Float> { SIMD3(c.x, c.y, c.z) / c.w }
    func luminance(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    /// Mean R/B of the cloud's lit side (the brightest quarter of opaque cloud pixels).
    func litRedness(_ g: (draw: CloudsDraw, colors: [SIMD4<Float>])) -> Float {
        let cloud = g.colors.filter { $0.w > 0.6 }.map(straight).sorted { luminance($0) > luminance($1) }
        let lit = cloud.prefix(max(cloud.count / 4, 1))
        return lit.reduce(0) { $0 + $1.x / max($1.z, 1e-3) } / Float(lit.count)
    }

    /// The mean luminance of the sun-side third and the far third of each horizontal run of cloud
    /// (alpha > 0.6, at least 12 grid pixels): (sun side, far side).
    func sides(_ g: (draw: CloudsDraw, colors: [SIMD4<Float>]), sunOnLeft: Bool) -> (Float, Float) {
        let w = g.draw.gridSize.x
        var near: Float = 0, far: Float = 0, runs = 0
        for y in 0..<g.draw.gridSize.y {
            var x = 0
            while x < w {
                guard g.colors[y * w + x].w > 0.6 else { x += 1; continue }
                var end = x
                while end < w, g.colors[y * w + end].w > 0.6 { end += 1 }
                if end - x >= 12 {
                    let third = (end - x) / 3
                    let left = (x..<(x + third)).map { luminance(straight(g.colors[y * w + $0])) }.reduce(0, +) / Float(third)
                    let right = ((end - third)..<end).map { luminance(straight(g.colors[y * w + $0])) }.reduce(0, +) / Float(third)
                    near += sunOnLeft ? left : right
                    far += sunOnLeft ? right : left
                    runs += 1
                }
                x = end
            }
        }
        return (near / Float(max(runs, 1)), far / Float(max(runs, 1)))
    }

    func testCumulusRedAtSunsetAndBrighterOnTheSunSide() throws {
        // Facing south with a 90° view, azimuths 135°…225° are in view: a sun at 100° (east) is off
        // the left edge, at 260° off the right one.
        let low = try grid(cumulusScene(sunElevation: 2, sunAzimuth: 100))
        let high = try grid(cumulusScene(sunElevation: 40, sunAzimuth: 100))
        let redLow = litRedness(low), redHigh = litRedness(high)
        print("cumulus lit side R/B: \(redLow) at 2°, \(redHigh) at 40°")
        XCTAssertGreaterThan(redLow, redHigh * 1.3, "the lit side at sunset is redder than at 40°")

        for (azimuth, left) in [(100.0, true), (260.0, false)] {
            for elevation in [15.0, 40.0] {
                let (sunSide, farSide) = sides(try grid(cumulusScene(sunElevation: elevation, sunAzimuth: azimuth)), sunOnLeft: left)
                print("cumulus sun at \(azimuth)°, \(elevation)°: sun side \(sunSide), far side \(farSide)")
                XCTAssertGreaterThan(sunSide, farSide * 1.03, "sun at \(azimuth)°, \(elevation)°: the sun-facing side is brighter")
            }
        }
    }

    /// Scenes/storm.json: the sun is in view behind the deck, and what the sun itself adds there,
    /// against the same frame with the sun behind the viewer, is at most one level in 255, at
    /// moments with and without lightning. And with the deck's relief off (its rolls, kilometres
    /// across, put the sun's spot on a lighter or a darker one by chance), the spot is no brighter
    /// than the cloud around it (within the deck's own patches: the ring's brighter tenth).
    func testTheStormHidesTheSun() throws {
        let storm = try SceneLoader.load(path: Repository.scenes.path + "/storm.json")
        var flat = storm
        for (i, layer) in flat.layers.enumerated() {
            if var clouds = layer.content as? CloudsLayer { clouds.relief = 0; flat.layers[i].content = clouds }
        }
        for (scene, relief) in [(storm, true), (flat, false)] {
            var away = scene
            if case .sky(var sky)? = away.layers[0].content as? SkyContent, case .fixed(let e, let a) = sky.sun {
                sky.sun = .fixed(elevation: e, azimuth: a + 180)
                away.layers[0].content = SkyContent.sky(sky)
            }
            let size = SIMD2(640, 360)
            for time in [0.0, 2.5, 6] {
                let frame = Frame(scene: scene, time: time, pixelSize: size)
                let image = try ReferenceRenderer().render(frame)
                let without = try ReferenceRenderer().render(Frame(scene: away, time: time, pixelSize: size))
                let sky = try XCTUnwrap(frame.sky)
                let sun = sky.sunPixel(pixelSize: size)
                XCTAssertTrue(sun.x > 60 && sun.x < Double(size.x - 60) && sun.y > 60, "the sun is in view: \(sun)")
                var disc: [Float] = [], discWithout: [Float] = [], ring: [Float] = []
                for y in Int(sun.y) - 60...Int(sun.y) + 60 {
                    for x in Int(sun.x) - 60...Int(sun.x) + 60 {
                        let d = ((Double(x) + 0.5 - sun.x) * (Double(x) + 0.5 - sun.x) + (Double(y) + 0.5 - sun.y) * (Double(y) + 0.5 - sun.y)).squareRoot()
                        func l(_ p: SIMD4<UInt8>) -> Float { luminance(SIMD3(Float(p.x), Float(p.y), Float(p.z))) }
                        if d <= 4 { disc.append(l(image[x, y])); discWithout.append(l(without[x, y])) } else if d >= 25 && d <= 60 { ring.append(l(image[x, y])) }
                    }
                }
                let atSun = disc.reduce(0, +) / Float(disc.count), sunless = discWithout.reduce(0, +) / Float(discWithout.count)
                let brighterTenth = ring.sorted()[ring.count * 9 / 10]
                print("storm t=\(time), relief \(relief): luminance at the sun \(atSun) (\(sunless) with the sun behind the viewer), around it: mean \(ring.reduce(0, +) / Float(ring.count)), 90th percentile \(brighterTenth)")
                if !relief { XCTAssertLessThanOrEqual(atSun, brighterTenth, "t=\(time): the sun's spot is brighter than the deck around it") }
                XCTAssertLessThanOrEqual(atSun - sunless, 1, "t=\(time), relief \(relief): the sun shows through the storm deck")
            }
        }
    }

    /// Scenes/rainy-evening.json (a closed rain deck over London a few minutes after sunset): the
    /// far deck along the horizon under the set sun takes the sky's glow (CloudsDraw.hazeGlow), as
    /// an overcast's western edge does at dusk; across from it, it keeps the horizon's colour. For
    /// each grid column, the opaque pixel nearest the horizon: the columns within 10 of the sun's
    /// against the ten farthest from it. (A rain deck: its shafts left out, which stand in front.)
    func testTheFarDeckTakesTheSetSunsGlow() throws {
        let scene = try SceneLoader.load(path: Repository.scenes.path + "/rainy-evening.json")
        let size = SIMD2(640, 360)
        // (Without its rain shafts, which stand in front of the glow: testRainShafts….)
        var draw = try grid(scene, size: size).draw
        draw.shafts = .zero
        let raster = CloudsRaster(draw, threads: 2)
        let g = (draw: draw, colors: withExtendedLifetime(raster) { Array(raster.grid) })
        let frame = Frame(scene: scene, time: 0, pixelSize: size)
        let sky = try XCTUnwrap(frame.sky)
        XCTAssertLessThan(sky.sunElevation, 0, "the sun has set")
        let sunColumn = Int(sky.sunPixel(pixelSize: size).x / Double(g.draw.gridScale.x))
        let w = g.draw.gridSize.x, h = g.draw.gridSize.y
        XCTAssertTrue((10..<(w - 10)).contains(sunColumn), "the sun's azimuth is in view: column \(sunColumn) of \(w)")
        func lowest(_ x: Int) -> SIMD3<Float>? {
            for y in stride(from: h - 1, through: 0, by: -1) where g.colors[y * w + x].w > 0.6 { return straight(g.colors[y * w + x]) }
            return nil
        }
        func mean(_ columns: [Int]) -> SIMD3<Float> {
            let c = columns.compactMap(lowest)
            return c.reduce(.zero, +) / Float(max(c.count, 1))
        }
        let toward = mean(Array((sunColumn - 10)...(sunColumn + 10)))
        let far = sunColumn > w / 2 ? Array(0..<10) : Array((w - 10)..<w)
        let away = mean(far)
        print("rainy evening's horizon deck: toward the sun \(toward), away \(away)")
        XCTAssertGreaterThan(luminance(toward), luminance(away) * 1.25, "the deck under the set sun is lighter")
        XCTAssertGreaterThan(toward.x / max(toward.z, 1e-4), away.x / max(away.z, 1e-4) * 1.2, "and warmer")
    }

    /// Scenes/weather/rain-wide.json: rain shafts hang from the deck as columns against the far
    /// horizon (CloudsDraw.shafts) — within 3° of the horizon the march with them differs from the
    /// same draw without them, column by column; the same columns at two heights there (one
    /// column's shaft darkens or lightens it from the horizon up); nothing above 25°; and a weather
    /// without rain has none.
    func testRainShaftsHangAsColumnsNearTheHorizon() throws {
        let scene = try SceneLoader.load(path: Repository.scenes.path + "/weather/rain-wide.json")
        let size = SIMD2(640, 360)
        let g = try grid(scene, size: size)
        XCTAssertGreaterThan(g.draw.shafts.x, 0, "rain has shafts")
        var flat = g.draw
        flat.shafts = .zero
        let raster = CloudsRaster(flat, threads: 2)
        let without = withExtendedLifetime(raster) { Array(raster.grid) }
        let w = g.draw.gridSize.x, h = g.draw.gridSize.y
        func elevation(_ y: Int) -> Float? {
            g.draw.projection.projectionAngles(SIMD2(Float(w / 2) * g.draw.gridScale.x, (Float(y) + 0.5) * g.draw.gridScale.y))?.y
        }
        // Each column's change in luminance (premultiplied) at the rows 1° and 2.5° up.
        func row(at degrees: Float) -> Int? { (0..<h).min { abs((elevation($0) ?? 99) - degrees) < abs((elevation($1) ?? 99) - degrees) } }
        let low = try XCTUnwrap(row(at: 1)), higher = try XCTUnwrap(row(at: 2.5))
        func change(_ y: Int) -> [Float] {
            (0..<w).map { x in luminance(SIMD3(g.colors[y * w + x].x, g.colors[y * w + x].y, g.colors[y * w + x].z))
                - luminance(SIMD3(without[y * w + x].x, without[y * w + x].y, without[y * w + x].z)) }
        }
        let a = change(low), b = change(higher)
        let touched = a.filter { abs($0) > 0.01 }.count
        print("rain shafts: \(touched) of \(w) columns changed by more than 0.01 at 1°, the largest \(a.map(abs).max() ?? 0)")
        XCTAssertGreaterThan(touched, w / 20, "shafts show along the horizon")
        XCTAssertLessThan(touched, w * 9 / 10, "as columns, not a veil over the whole horizon")
        // Column by column, the change at 1° and at 2.5° go together (a shaft hangs down to the horizon).
        let ma = a.reduce(0, +) / Float(w), mb = b.reduce(0, +) / Float(w)
        let cov = zip(a, b).reduce(Float(0)) { $0 + ($1.0 - ma) * ($1.1 - mb) }
        let va = a.reduce(Float(0)) { $0 + ($1 - ma) * ($1 - ma) }, vb = b.reduce(Float(0)) { $0 + ($1 - mb) * ($1 - mb) }
        let correlation = cov / max((va * vb).squareRoot(), 1e-12)
        print("rain shafts: correlation of the columns' change at 1° and 2.5°: \(correlation)")
        XCTAssertGreaterThan(correlation, 0.5, "the shafts are columns")
        for y in 0..<h where (elevation(y) ?? 0) > 25 {
            for x in 0..<w { XCTAssertEqual(g.colors[y * w + x], without[y * w + x], "row \(y) is \(elevation(y)!)° up") ; if g.colors[y * w + x] != without[y * w + x] { return } }
        }
        let clear = try grid(try SceneLoader.decode("""
        {"size": [320, 180], "weather": "overcast", "layers": [{"type": "sky"}, {"type": "clouds"}]}
        """, file: "overcast.json"))
        XCTAssertEqual(clear.draw.shafts, .zero, "no rain, no shafts")
    }

    /// Every example with clouds, cloud cover or cloud sprites: edges anti-aliased, never a hard
    /// fragment — no layer's alpha changes by more than 0.55 between neighbouring pixels at
    /// 1920×1080 (the volumetric clouds are marched at every pixel: a sharp silhouette, through
    /// the upsample's tent, steps by at most 0.5; the sprites' by 0.25).
    func testCloudEdgesAreAntialiasedInEveryExample() throws {
        let size = SIMD2(1920, 1080)
        var checked = 0
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.scenes.path).filter { $0.hasSuffix(".json") }.sorted()
        var scenes = try files.map { ($0, try SceneLoader.load(path: Repository.scenes.path + "/" + $0)) }
        scenes.append(("the default scene", Scene.defaultScene))
        for (name, scene) in scenes {
            let clouded = scene.layers.contains { layer in
                if layer.content is CloudsLayer { return true }
                switch layer.content as? SkyContent {
                case .cloudSprites?, .cloudCover?: return true
                default: return false
                }
            }
            guard clouded else { continue }
            // Without the weather's rain and snow (the frame's particles are no cloud layer).
            var scene = scene
            scene.weather?.precipitation = .off
            let frame = Frame(scene: scene, time: 0, pixelSize: size)
            for layer in frame.layers {
                // Each cloud layer alone, drawn by the reference's own (optimised) rows over transparent.
                var alone: [(kind: String, draw: any CPURasterizable)] = []
                if let clouds = layer as? CloudsDraw { alone.append(("clouds", clouds)) }
                if let sky = layer as? SkyDraw {
                    for part in sky.parts {
                        if case .sprites = part { alone.append(("cloudSprites", SkyDraw(parts: [part]))) }
                        if case .cover = part { alone.append(("cloudCover", SkyDraw(parts: [part]))) }
                    }
                }
                for (kind, draw) in alone {
                    let raster = try draw.raster(width: size.x, height: size.y, threads: 2)
                    try checkSoft(raster, size: size, label: "\(name) \(kind)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 6, "the examples' cloud layers")
    }

    func checkSoft(_ raster: any LayerRowRaster, size: SIMD2<Int>, label: String) throws {
        var worst: Float = 0, at = SIMD2(0, 0)
        var previous = [SIMD4<Float>](repeating: .zero, count: size.x)
        var row = [SIMD4<Float>](repeating: .zero, count: size.x)
        for y in 0..<size.y {
            for x in 0..<size.x { row[x] = .zero }
            row.withUnsafeMutableBufferPointer { raster.drawRow(y: y, into: $0.baseAddress!, width: size.x) }
            for x in 0..<size.x {
                let a = row[x].w
                if x > 0, abs(a - row[x - 1].w) > worst { worst = abs(a - row[x - 1].w); at = SIMD2(x, y) }
                if y > 0, abs(a - previous[x].w) > worst { worst = abs(a - previous[x].w); at = SIMD2(x, y) }
            }
            swap(&row, &previous)
        }
        print("soft edges: \(label): largest alpha step \(worst) at \(at)")
        XCTAssertLessThanOrEqual(worst, label.hasSuffix(" clouds") ? 0.55 : 0.25, "\(label): alpha steps by \(worst) at \(at)")
    }

    /// After dusk the Moon lights the clouds: from its direction, brighter than on the same night
    /// without it (`"moon": false`), and not at all when it is down.
    func testTheMoonLightsCloudsAtNight() throws {
        func scene(_ extra: String, date: String = "2025-01-13T23:30:00+01:00") throws -> Scene {
            try SceneLoader.decode("""
            {"size": [480, 270], "seed": 5, "layers": [
              {"type": "sky", "date": "\(date)", "latitude": 48.8566, "longitude": 2.3522, "viewAzimuth": 180\(extra)},
              {"type": "clouds", "cloudType": "cumulus", "coverage": 0.45}]}
            """, file: "moon.json")
        }
        let moonlit = try grid(scene(""))
        XCTAssertGreaterThan(moonlit.draw.sunLight.max(), 0, "the full Moon 60° up lights the clouds")
        let moonAzimuth = atan2(Double(moonlit.draw.sunDirection.x), Double(moonlit.draw.sunDirection.y)) * 180 / .pi
        XCTAssertEqual(moonAzimuth, 133.3, accuracy: 0.5, "from the Moon's azimuth (welkin ephemeris: 133.34°)")
        let dark = try grid(scene(#", "moon": false"#))
        XCTAssertEqual(dark.draw.sunLight, .zero)
        func mean(_ g: (draw: CloudsDraw, colors: [SIMD4<Float>])) -> Float {
            let cloud = g.colors.filter { $0.w > 0.6 }.map { luminance(straight($0)) }
            return cloud.reduce(0, +) / Float(max(cloud.count, 1))
        }
        print("clouds at night: mean luminance \(mean(moonlit)) moonlit, \(mean(dark)) without the Moon")
        XCTAssertGreaterThan(mean(moonlit), mean(dark) * 1.5)
        // At the new Moon of 29 January 2025 it is below the horizon at 1:00: no moonlight.
        XCTAssertEqual(try grid(scene("", date: "2025-01-29T01:00:00+01:00")).draw.sunLight.max(), 0, accuracy: 1e-6)
    }

    /// The same grid on one thread and on four, and the same grid twice.
    func testTheMarchIsDeterministic() throws {
        let scene = try cumulusScene(sunElevation: 20, sunAzimuth: 150)
        let one = try grid(scene, threads: 1).colors, four = try grid(scene, threads: 4).colors
        XCTAssertEqual(one, four)
        XCTAssertEqual(one, try grid(scene, threads: 1).colors)
        XCTAssertGreaterThan(one.filter { $0.w > 0.5 }.count, one.count / 20, "some cloud is drawn")
    }
}
