// The shipped VSOP87 series: a frame check against ERFA's eraPlan94 (an independent theory, Simon
// et al. 1994, whose own errors are tens of arcseconds) and the loader's refusal of damaged files.
// Their accuracy against JPL DE421 is EphemerisAccuracyTests' planets test.

import CERFA
import Foundation
import WelkinResources
import XCTest
@testable import WelkinAstronomy

final class VSOP87Tests: XCTestCase {
    /// TT Julian dates (two parts) spread over 1950–2050, where precession (0.7° between the ends)
    /// and the obliquity (23.4°) would show if either were missing or turned the wrong way.
    let dates: [(Double, Double)] = [(2_433_282.5, 0.0), (2_440_000.5, 0.25), (2_447_161.5, 0.5), (2_451_545.0, 0.0),
                                     (2_455_197.5, 0.75), (2_460_000.5, 0.1), (2_465_000.5, 0.9), (2_469_807.5, 0.0)]

    func testAgreesWithPlan94() throws {
        let series = try VSOP87.shipped.get()
        for planet in Planet.allCases {
            // Plan94's error budget (arcseconds of the heliocentric position, as an angle at the Sun).
            let tolerance = planet == .jupiter || planet == .saturn ? 120.0 : 30.0
            var worst = 0.0
            for tt in dates {
                let p = series.heliocentric(planet, tt: tt)
                var pv = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
                XCTAssertEqual(eraPlan94(tt.0, tt.1, planet.erfaNumber, &pv), 0)
                let q = SIMD3(pv[0].0, pv[0].1, pv[0].2)
                // The whole difference (direction and distance) over the distance, in arcseconds.
                let difference = length(p - q) / length(q) * 180 / .pi * 3600
                worst = max(worst, difference)
                XCTAssertLessThanOrEqual(difference, tolerance, "\(planet) at JD \(tt.0 + tt.1)")
            }
            XCTAssertGreaterThan(worst, 0, "\(planet): VSOP87 and Plan94 are different theories")
        }
    }

    func testShippedFileIsWhatEphemerisUses() throws {
        let series = try VSOP87.shipped.get()
        XCTAssertEqual(series.ranges.count, 5 * 3 * 6)
        let e = Ephemeris(time: AstroTime(unixSeconds: 1_700_000_000), observer: Observer(latitude: 0, longitude: 0))
        XCTAssertEqual(e.heliocentric(.mars, tt: e.time.tt), series.heliocentric(.mars, tt: e.time.tt))
        // Sane distances from the Sun, au.
        let r = Planet.allCases.map { length(series.heliocentric($0, tt: e.time.tt)) }
        for (distance, range) in zip(r, [0.30...0.47, 0.71...0.73, 1.38...1.67, 4.95...5.46, 9.0...10.1]) {
            XCTAssertTrue(range.contains(distance), "\(distance) au")
        }
    }

    func testRejectsDamagedFiles() throws {
        let good = try RuntimeFiles.contents(of: "vsop87.bin", target: "WelkinAstronomy")
        XCTAssertNoThrow(try VSOP87(data: good))

        func rejects(_ data: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try VSOP87(data: data), what, file: file, line: line) { error in
                guard case VSOP87Error.malformed = error else { return XCTFail("\(what): \(error)", file: file, line: line) }
            }
        }
        rejects(Data(), "empty")
        rejects(good.prefix(12), "header cut short")
        rejects(good.prefix(16), "no series")
        rejects(good.prefix(good.count / 2), "cut in half")
        rejects(good.dropLast(), "one byte short")
        rejects(good + Data([0]), "one byte too many")
        var magic = good
        magic[0] = UInt8(ascii: "X")
        rejects(magic, "wrong magic")
        var planets = good
        planets[8] = 6
        rejects(planets, "six planets")
        // The first series' count garbled to 0xFFFFFFFF: must fail on the size, not allocate or overflow.
        var count = good
        for i in 16..<20 { count[i] = 0xFF }
        rejects(count, "huge count")
        // A count one too large shifts everything after it.
        var shifted = good
        shifted[16] &+= 1
        rejects(shifted, "count off by one")
        // A term that is not finite (the first term's A set to NaN).
        var nan = good
        let bits = Double.nan.bitPattern
        for i in 0..<8 { nan[20 + i] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i))) }
        rejects(nan, "NaN amplitude")
    }
}
