import Foundation
import XCTest

/// `welkin ephemeris`: its JSON (every key, sane values, agreement with `welkin sun`), its table,
/// and its usage errors.
final class EphemerisCommandTests: XCTestCase {
    func run(_ arguments: [String]) throws -> EndToEndTests.Run { try EndToEndTests.run(arguments) }

    let paris = ["--date", "2024-03-15T22:30:00+01:00", "--lat", "48.8566", "--lon", "2.3522"]

    func testJSONHasEveryKeyAndSaneValues() throws {
        let r = try run(["ephemeris"] + paris + ["--height", "35", "--stars", "2", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(Set(json.keys), ["date", "assumed", "latitude", "longitude", "sun", "moon", "planets", "stars"])
        XCTAssertEqual(json["date"] as? String, "2024-03-15T22:30:00+01:00")
        XCTAssertTrue(json["assumed"] is NSNull)
        XCTAssertEqual(json["latitude"] as? Double, 48.8566)
        XCTAssertEqual(json["longitude"] as? Double, 2.3522)

        let sun = try XCTUnwrap(json["sun"] as? [String: Double])
        XCTAssertEqual(Set(sun.keys), ["elevation", "apparentElevation", "azimuth"])
        XCTAssertLessThan(sun["elevation"]!, -20, "10:30 pm in March")
        // The same SunPosition as `welkin sun`.
        let s = try run(["sun"] + paris + ["--json"])
        let sunJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(sun["apparentElevation"], sunJSON["elevation"] as? Double)
        XCTAssertEqual(sun["azimuth"], sunJSON["azimuth"] as? Double)

        let moon = try XCTUnwrap(json["moon"] as? [String: Any])
        XCTAssertEqual(Set(moon.keys), ["elevation", "apparentElevation", "azimuth", "distanceKm", "angularDiameter", "illuminatedFraction",
                                        "phaseAngle", "brightLimbAngle", "magnitude", "rise", "set"])
        let fraction = try XCTUnwrap(moon["illuminatedFraction"] as? Double)
        XCTAssertTrue((0...1).contains(fraction), "\(fraction)")
        XCTAssertEqual(fraction, 0.36, accuracy: 0.03, "a waxing crescent, 2 days before first quarter")
        XCTAssertTrue((356_000...407_000).contains(moon["distanceKm"] as? Double ?? 0))
        XCTAssertEqual(moon["angularDiameter"] as? Double ?? 0, 0.53, accuracy: 0.03)
        XCTAssertTrue((0...180).contains(moon["phaseAngle"] as? Double ?? -1))
        XCTAssertTrue((0..<360).contains(moon["brightLimbAngle"] as? Double ?? -1))
        XCTAssertTrue((0..<360).contains(moon["azimuth"] as? Double ?? -1))
        XCTAssertGreaterThan(moon["apparentElevation"] as? Double ?? 0, moon["elevation"] as? Double ?? 0)
        // The Moon is up at 22:30 in the west: it sets first (after midnight), then rises in the morning.
        let rise = try XCTUnwrap(moon["rise"] as? String), set = try XCTUnwrap(moon["set"] as? String)
        XCTAssertTrue(rise.hasPrefix("2024-03-16T09:") && rise.hasSuffix("+01:00"), rise)
        XCTAssertTrue(set.hasPrefix("2024-03-16T02:") && set.hasSuffix("+01:00"), set)

        let planets = try XCTUnwrap(json["planets"] as? [[String: Any]])
        XCTAssertEqual(planets.map { $0["name"] as? String ?? "" }, ["mercury", "venus", "mars", "jupiter", "saturn"])
        for p in planets {
            XCTAssertEqual(Set(p.keys), ["name", "elevation", "apparentElevation", "azimuth", "magnitude"])
            XCTAssertTrue((-5...2).contains(p["magnitude"] as? Double ?? 99), "\(p)")
        }

        let stars = try XCTUnwrap(json["stars"] as? [[String: Any]])
        XCTAssertGreaterThan(stars.count, 15)
        XCTAssertLessThan(stars.count, 93, "fewer than the whole sky's stars to V 2")
        XCTAssertEqual(stars.first?["hip"] as? Int, 32349, "Sirius, up in the south-west")
        var previous = -Double.infinity
        for star in stars {
            XCTAssertEqual(Set(star.keys), ["hip", "elevation", "apparentElevation", "azimuth", "magnitude", "bv"])
            let magnitude = star["magnitude"] as? Double ?? 99
            XCTAssertLessThanOrEqual(magnitude, 2)
            XCTAssertGreaterThanOrEqual(magnitude, previous, "brightest first")
            previous = magnitude
            XCTAssertGreaterThan(star["elevation"] as? Double ?? -1, 0, "\(star)")
            XCTAssertTrue((-0.5...2.5).contains(star["bv"] as? Double ?? 99), "\(star)")
        }
        // Without --stars there is no "stars" key.
        let plain = try run(["ephemeris"] + paris + ["--json"])
        let plainJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        XCTAssertNil(plainJSON["stars"])
    }

    func testTableMentionsTheMoonPlanetsAndStars() throws {
        let r = try run(["ephemeris"] + paris + ["--stars", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for word in ["Sun", "Moon", "Mercury", "Venus", "Mars", "Jupiter", "Saturn", "below the horizon", "next moonrise",
                     "2024-03-16T09:", "illuminated", "Stars to V 1.0", "Sirius", "Capella"] {
            XCTAssertTrue(r.stdout.contains(word), "\(word) missing from:\n\(r.stdout)")
        }
        let jupiter = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("Jupiter") })
        XCTAssertFalse(jupiter.contains("below the horizon"), "Jupiter is 7° up in the west")
        // A date alone says what it assumed.
        let d = try run(["ephemeris", "--date", "2024-03-15", "--lat", "48.8566", "--lon", "2.3522"])
        XCTAssertEqual(d.status, 0, d.stderr)
        XCTAssertTrue(d.stdout.hasPrefix("date        2024-03-15T12:00:00Z (a date alone: noon at UTC+00:00"), d.stdout)
    }

    func testBadInputIsAUsageError() throws {
        let cases: [([String], String)] = [
            (["--date", "2024-03-15T22:30:00+01:00", "--lon", "2"], "welkin: missing --lat"),
            (paris + ["--stars", "9"], "welkin: --stars expects a magnitude in −2…6.5, got '9'"),
            (paris + ["--height", "20000"], "welkin: --height expects metres in −500…10000, got '20000'"),
            (["--date", "2024-03-15T22:30:00+01:00", "--lat", "91", "--lon", "2"], "welkin: --lat expects degrees in −90…90, got '91'"),
            (["--date", "yesterday", "--lat", "1", "--lon", "2"], "welkin: --date expects an ISO 8601 date"),
            (["--lat", "1", "--lon", "2"], "welkin: missing --date DATE"),
        ]
        for (arguments, message) in cases {
            let r = try run(["ephemeris"] + arguments)
            XCTAssertEqual(r.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(r.stderr.hasPrefix(message), r.stderr)
            XCTAssertTrue(r.stderr.contains("Usage: welkin ephemeris --date DATE"), r.stderr)
            XCTAssertEqual(r.stdout, "")
        }
    }
}
