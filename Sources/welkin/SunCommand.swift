// `welkin sun`: where the sun is, and the date's sunrise, sunset and civil twilight.

import Foundation
import WelkinCore

extension Commands {
    static let sun = Command(
        name: "sun", summary: "Print the sun's elevation and azimuth, and the date's sunrise, sunset and twilight.",
        usage: "welkin sun --date ISO8601 --lat φ --lon λ [--json]",
        discussion: """
        NOAA's solar calculator (after Meeus). Elevation is apparent (standard refraction included),
        azimuth is degrees clockwise from north. Times are printed in the date's own UTC offset, for
        that local calendar date; where the sun does not rise or set (polar day or night) they are
        absent (null in JSON) and 'polar' says which. Example:
          welkin sun --date 2026-06-21T12:00:00+02:00 --lat 48.8566 --lon 2.3522
        """,
        options: [
            OptionSpec(name: "--date", value: "ISO8601", help: "An instant with its UTC offset, e.g. 2026-06-21T12:00:00+02:00."),
            OptionSpec(name: "--lat", value: "φ", help: "Latitude in degrees, north positive (−90…90)."),
            OptionSpec(name: "--lon", value: "λ", help: "Longitude in degrees, east positive (−180…180)."),
            OptionSpec(name: "--json", help: "Print {elevation, azimuth, sunrise, sunset, civilDawn, civilDusk, polar}."),
        ],
        run: { args in
            let command = named("sun")!
            guard args.positionals.isEmpty else { throw UsageError(message: "sun takes no arguments", command: command) }
            guard let dateText = args.value("--date") else { throw UsageError(message: "missing --date ISO8601", command: command) }
            guard let date = Timestamp.parse(dateText) else {
                throw UsageError(message: "--date expects an ISO 8601 date and time with an offset, like 2026-06-21T12:00:00+02:00, got '\(dateText)'", command: command)
            }
            func angle(_ name: String, _ limit: Double) throws -> Double {
                guard let text = args.value(name) else { throw UsageError(message: "missing \(name)", command: command) }
                guard let v = Double(text), v.isFinite, abs(v) <= limit else {
                    throw UsageError(message: "\(name) expects degrees in −\(Int(limit))…\(Int(limit)), got '\(text)'", command: command)
                }
                return v
            }
            let lat = try angle("--lat", 90), lon = try angle("--lon", 180)
            let position = SunPosition(time: date, latitude: lat, longitude: lon)
            let events = SunEvents(date: date, latitude: lat, longitude: lon)
            func time(_ t: Timestamp?) -> String { t.map { "\"\($0)\"" } ?? "null" }
            if args.flag("--json") {
                print("{\"elevation\": \(String(format: "%.4f", position.elevation)), \"azimuth\": \(String(format: "%.4f", position.azimuth)), "
                      + "\"sunrise\": \(time(events.sunrise)), \"sunset\": \(time(events.sunset)), "
                      + "\"civilDawn\": \(time(events.civilDawn)), \"civilDusk\": \(time(events.civilDusk)), "
                      + "\"polar\": \(events.polar.map { "\"\($0)\"" } ?? "null")}")
            } else {
                let none = events.polar == "day" ? "none (polar day)" : events.polar == "night" ? "none (polar night)" : "none"
                print("""
                elevation   \(String(format: "%.2f", position.elevation))°
                azimuth     \(String(format: "%.2f", position.azimuth))°
                civil dawn  \(events.civilDawn?.description ?? none)
                sunrise     \(events.sunrise?.description ?? none)
                sunset      \(events.sunset?.description ?? none)
                civil dusk  \(events.civilDusk?.description ?? none)
                """)
            }
            return 0
        })
}
