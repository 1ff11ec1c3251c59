// The weather's rain and snow fill the frame evenly from the first frame, on a portrait phone frame
// as on a landscape one (issue #23: "On Scenes/phone-snow.json at t = 0 and t = 3, each quarter of
// the image height holds between 0.7× and 1.3× of the mean precipitation coverage (measured
// against the same frame without precipitation)").

import XCTest
import WelkinCore
import WelkinTestSupport
@testable import WelkinReference

final class PrecipitationFillTests: XCTestCase {
    /// The precipitation's coverage in each quarter of the image height: Σ over the quarter's pixels
    /// of |R − R₀| + |G − G₀| + |B − B₀|, where the unprimed frame has the weather's precipitation
    /// and the primed one is the same frame with `weather.precipitation` off.
    func quarterCoverage(_ scene: Scene, time: Double, pixelSize: SIMD2<Int>? = nil) throws -> [Double] {
        var dry = scene
        dry.weather?.precipitation = .off
        let renderer = ReferenceRenderer()
        let wet = try renderer.render(Frame(scene: scene, time: time, pixelSize: pixelSize))
        let plain = try renderer.render(Frame(scene: dry, time: time, pixelSize: pixelSize))
        XCTAssertEqual(wet.width, plain.width)
        XCTAssertEqual(wet.height, plain.height)
        var quarters = [Double](repeating: 0, count: 4)
        for y in 0..<wet.height {
            let quarter = min(3, y * 4 / wet.height)
            var row = 0
            for x in 0..<wet.width {
                let i = (y * wet.width + x) * 4
                for c in 0..<3 { row += abs(Int(wet.pixels[i + c]) - Int(plain.pixels[i + c])) }
            }
            quarters[quarter] += Double(row)
        }
        return quarters
    }

    /// Asserts each quarter holds 0.7…1.3 × the quarters' mean, and returns the ratios.
    @discardableResult
    func checkEven(_ name: String, time: Double, pixelSize: SIMD2<Int>? = nil) throws -> [Double] {
        let scene = try SceneLoader.load(path: Repository.path("Scenes/\(name).json"))
        let quarters = try quarterCoverage(scene, time: time, pixelSize: pixelSize)
        let mean = quarters.reduce(0, +) / 4
        XCTAssertGreaterThan(mean, 0, "\(name) at \(time) s: no precipitation drawn")
        let ratios = quarters.map { mean > 0 ? $0 / mean : 0 }
        let shown = ratios.map { String(format: "%.3f", $0) }.joined(separator: ", ")
        for (k, ratio) in ratios.enumerated() {
            XCTAssert((0.7...1.3).contains(ratio), "\(name) at \(time) s: quarter \(k + 1) holds \(shown) × the mean")
        }
        print("precipitation quarters, \(name) at \(time) s (top to bottom, × the mean): \(shown)")
        return ratios
    }

    /// The criterion: the portrait phone frame (390×844) snowing, at t = 0 and t = 3.
    func testPhoneSnowFillsEveryQuarterFromTheFirstFrame() throws {
        let scene = try SceneLoader.load(path: Repository.path("Scenes/phone-snow.json"))
        XCTAssertEqual(scene.size, SIMD2(390, 844))
        XCTAssertEqual(scene.weather?.preset, .snow)
        for t in [0.0, 3] { try checkEven("phone-snow", time: t) }
    }

    /// A landscape frame in the rain, and one in the snow, drawn at half size (the precipitation
    /// is laid out in the scene's points, so it is the same field).
    func testLandscapeRainAndSnowFillEveryQuarter() throws {
        for t in [0.0, 3] {
            try checkEven("rainy-evening", time: t, pixelSize: [640, 360])
            try checkEven("snowy-night", time: t, pixelSize: [640, 360])
        }
    }
}
