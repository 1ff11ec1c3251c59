// The ephemeris' own invariants: the catalogue, the fast horizon frame against ERFA's, refraction.

import CERFA
import Foundation
import XCTest
@testable import WelkinAstronomy

final class EphemerisTests: XCTestCase {
    func testCatalogueHoldsEveryStarToMagnitude6_5BrightestFirst() throws {
        let catalog = try XCTUnwrap(StarCatalog.shared)
        XCTAssertGreaterThan(catalog.stars.count, 8000)
        XCTAssertLessThan(catalog.stars.count, 10000)
        XCTAssertEqual(catalog.stars.first?.hip, 32349, "Sirius first")
        XCTAssertEqual(Double(catalog.stars[0].magnitude), -1.46, accuracy: 0.05)
        XCTAssertLessThanOrEqual(Double(catalog.stars.last!.magnitude), 6.5)
        for (a, b) in zip(catalog.stars, catalog.stars.dropFirst()) { XCTAssertLessThanOrEqual(a.magnitude, b.magnitude) }
    }

    /// The stars' cached-epoch, matrix path against eraAtciq + eraAtioq for the exact instant.
    func testStarPlacesMatchERFAsFullChain() throws {
        let catalog = try XCTUnwrap(StarCatalog.shared)
        let observer = Observer(latitude: 48.8566, longitude: 2.3522, height: 35)
        for utc in ["2024-03-15T21:30:00Z", "2024-03-15T23:59:00Z", "1990-06-01T02:00:00Z"] {
            let time = AstroTime(unixSeconds: unixSeconds(utc))
            let places = catalog.places(time: time, observer: observer)
            let e = Ephemeris(time: time, observer: observer)
            var a = e.astrom
            var worst = 0.0
            for i in stride(from: 0, to: catalog.stars.count, by: 7) {
                let s = catalog.stars[i]
                let mas = Double.pi / (180 * 3600 * 1000)
                var ri = 0.0, di = 0.0
                eraAtciq(s.ra, s.dec, Double(s.pmRA) * mas / cos(s.dec), Double(s.pmDec) * mas, Double(s.parallax) / 1000, 0, &a, &ri, &di)
                let exact = e.horizontal(ra: ri, dec: di)
                let d = separation(places[i].position, elevation: exact.elevation, azimuth: exact.azimuth)
                worst = max(worst, max(d.elevation, d.azimuth))
            }
            // 0.1″: the epoch held for up to 1.5 hours.
            XCTAssertLessThan(worst, 0.1 / 3600, utc)
        }
    }

    func testRefractionIsSaemundssons() {
        XCTAssertEqual(Refraction.degrees(trueElevation: 0) * 60, 28.9, accuracy: 0.2)
        XCTAssertEqual(Refraction.degrees(trueElevation: 10) * 60, 5.41, accuracy: 0.01)
        XCTAssertEqual(Refraction.degrees(trueElevation: 45) * 60, 1.0, accuracy: 0.05)
        XCTAssertEqual(Refraction.degrees(trueElevation: 90), 0, accuracy: 1e-4)
        XCTAssertEqual(Horizontal(elevation: 0, azimuth: 0).apparentElevation, Refraction.degrees(trueElevation: 0))
    }

    func testDeltaTFollowsTheLeapSecondsAndThePolynomials() {
        // 2024: 37 leap seconds → 69.184 s; 1950: Espenak–Meeus ≈ 29.1 s.
        XCTAssertEqual(AstroTime(unixSeconds: unixSeconds("2024-03-15T21:30:00Z")).deltaT, 69.184, accuracy: 1e-9)
        XCTAssertEqual(AstroTime(unixSeconds: unixSeconds("1950-01-01T00:00:00Z")).deltaT, 29.07, accuracy: 0.1)
        XCTAssertEqual(AstroTime(unixSeconds: unixSeconds("1972-01-01T00:00:00Z")).deltaT, 42.184, accuracy: 1e-9)
    }
}
