// The Milky Way's map and where it is in the sky: the galactic frame carried to the horizon against
// skyfield's (its own galactic_frame, JPL DE421, IERS), and the shipped map's layout.

import Foundation
import XCTest
@testable import WelkinAstronomy

final class MilkyWayTests: XCTestCase {
    /// The three galactic axes (the centre, l = 90°, the north pole) at every reference instant and
    /// place within 0.02° of skyfield's (its galactic frame and its stars' pipeline): the band is
    /// where it is to well under a texel (0.55°). (Each axis alone is placed as a star is, within
    /// 0.005°; aberration, up to 20.5″, is not a rotation, and making the three orthonormal moves
    /// them by up to some 35″.)
    func testTheGalacticFrameAgainstSkyfield() throws {
        var request = request(referenceCases)
        request["galactic"] = true
        let reference = try skyfield(request)
        XCTAssertEqual(reference.count, referenceCases.count)
        var worst = 0.0
        for (c, r) in zip(referenceCases, reference) {
            let rows = MilkyWayMap.horizonToGalactic(time: AstroTime(unixSeconds: unixSeconds(c.utc)), observer: c.observer)
            let axes = r["galactic"] as? [[String: Any]] ?? []
            XCTAssertEqual(axes.count, 3)
            for (row, axis) in zip(rows, axes) {
                let e = axis["elevation"] as! Double, az = axis["azimuth"] as! Double
                let er = e * .pi / 180, ar = az * .pi / 180
                let expected = SIMD3(cos(er) * sin(ar), cos(er) * cos(ar), sin(er))
                let angle = acos(min(max((row * expected).sum(), -1), 1)) * 180 / .pi
                worst = max(worst, angle)
                XCTAssertLessThanOrEqual(angle, 0.02, "\(c.utc) \(c.observer)")
            }
            // A rotation: orthonormal rows.
            for i in 0..<3 {
                for j in 0..<3 {
                    XCTAssertEqual((rows[i] * rows[j]).sum(), i == j ? 1 : 0, accuracy: 1e-12)
                }
            }
        }
        print("galactic axes: worst \(worst)° from skyfield's")
    }

    /// The shipped map: 650 × 325 texels; the band (|b| < 5°) is several times the light at
    /// |b| > 60°, which is nearly nothing (the poles' light is the glow's); the bulge toward the
    /// centre outshines the anticentre; the Large Magellanic Cloud shows at (280.5°, −32.9°).
    func testTheShippedMap() throws {
        let map = try XCTUnwrap(MilkyWayMap.shared, "\(MilkyWayMap.shipped)")
        XCTAssertEqual(map.width, 650)
        XCTAssertEqual(map.height, 325)
        func value(_ l: Double, _ b: Double) -> Double {
            let i = min(Int(l / 360 * Double(map.width)), map.width - 1), j = min(Int((90 - b) / 180 * Double(map.height)), map.height - 1)
            let o = 3 * (j * map.width + i)
            let v = (0..<3).map { Double(map.texels[o + $0]) / 255 }
            return map.scale * (0.2126 * v[0] * v[0] + 0.7152 * v[1] * v[1] + 0.0722 * v[2] * v[2])
        }
        func mean(_ b: ClosedRange<Double>) -> Double {
            var sum = 0.0, n = 0
            for l in stride(from: 0.5, to: 360, by: 1) { for bb in stride(from: b.lowerBound, through: b.upperBound, by: 1) { sum += value(l, bb); n += 1 } }
            return sum / Double(n)
        }
        let plane = mean(-4...4), high = max(mean(60...85), mean(-85 ... -60))
        XCTAssertGreaterThan(plane, 2, "the band's excess over the poles")
        XCTAssertLessThan(high, 0.5)
        XCTAssertGreaterThan(value(5, -4), 2 * value(180, -1))
        XCTAssertGreaterThan(value(280.5, -32.9), 5 * value(250, -32.9))
        print("band \(plane), |b| > 60°: \(high) × the poles' light above them")
    }
}
