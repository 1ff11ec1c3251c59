// `welkin sun`: where the sun is, and the date's sunrise, sunset and civil twilight.

import Foundation
import WelkinCore

extension Commands {
    static let sun = Command(
        name: "sun", summary: "Print the sun's elevation and azimuth, and the date's sunrise, sunset and twilight.",
        usage: "welkin sun --date DATE --lat φ --lon λ [--json]",
        discussion: """
        NOAA's solar calculator (after Meeus). Elevation is apparent (standard refraction included),
        azimuth is degrees clockwise from north. Times are printed in the date's own UTC offset, for
        that local calendar date; where the sun does not rise or set (polar day or night) they are
        absent (null in JSON) and 'polar' says which. DATE is an instant with its offset, 'now', a
        time without an offset (taken as UTC), or a date alone (noon in the longitude's nautical time
        zone, UTC + round(λ / 15) hours); the output says which it assumed. Example:
          welkin sun --date 2026-06-21T12:00:00+02:00 --lat 48.8566 --lon 2.3522
        """,
        options: [Options.date, Options.latitude, Options.longitude, Options.Sun.json],
        run: { args in
            let command = named("sun")!
            guard args.positionals.isEmpty else { throw UsageError(message: "sun takes no arguments", command: command) }
            let (dateText, lat, lon) = try observer(args, command: command)
            guard let (date, assumed) = sunDate(dateText, longitude: lon) else {
                throw UsageError(message: "--date expects an ISO 8601 date and time with an offset (2026-06-21T12:00:00+02:00), 'now', a time without an offset (UTC) or a date alone (local noon), got '\(dateText)'", command: command)
            }
            let position = SunPosition(time: date, latitude: lat, longitude: lon)
            let events = SunEvents(date: date, latitude: lat, longitude: lon)
            func time(_ t: Timestamp?) -> String { t.map { "\"\($0)\"" } ?? "null" }
            if try args[Options.Sun.json] {
                print("{\"date\": \"\(date)\", \"assumed\": \(assumed.map { "\"\($0)\"" } ?? "null"), \"elevation\": \(String(format: "%.4f", position.elevation)), \"azimuth\": \(String(format: "%.4f", position.azimuth)), "
                      + "\"sunrise\": \(time(events.sunrise)), \"sunset\": \(time(events.sunset)), "
                      + "\"civilDawn\": \(time(events.civilDawn)), \"civilDusk\": \(time(events.civilDusk)), "
                      + "\"polar\": \(events.polar.map { "\"\($0)\"" } ?? "null")}")
            } else {
                let none = events.polar == "day" ? "none (polar day)" : events.polar == "night" ? "none (polar night)" : "none"
                if let assumed { print("date        \(date) (\(assumed))") }
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

extension Commands {
    /// `--date`, `--lat` and `--lon` of `welkin sun` and `welkin ephemeris`, each required, in that order.
    static func observer(_ args: Arguments, command: Command) throws -> (date: String, latitude: Double, longitude: Double) {
        guard let date = try args[Options.date] else { throw UsageError(message: "missing --date DATE", command: command) }
        func required(_ option: Option<Double?>) throws -> Double {
            guard let v = try args[option] else { throw UsageError(message: "missing \(option.name)", command: command) }
            return v
        }
        return (date, try required(Options.latitude), try required(Options.longitude))
    }

    /// The instant `welkin sun --date` means, and what was assumed to get it (nil for a full
    /// timestamp with its offset).
    static func sunDate(_ text: String, longitude: Double, now: Date = Date()) -> (Timestamp, String?)? {
        if text == "now" {
            return (Timestamp(unixSeconds: now.timeIntervalSince1970.rounded(.down), offsetSeconds: 0), "now, in UTC")
        }
        if let t = Timestamp.parse(text) { return (t, nil) }
        let isDateAlone = text.utf8.count == 10 && Timestamp.parse(text + "T12:00Z") != nil
        if isDateAlone {
            let hours = Int((longitude / 15).rounded())
            let offset = String(format: "%@%02d:00", hours < 0 ? "-" : "+", abs(hours))
            guard let t = Timestamp.parse(text + "T12:00:00" + offset) else { return nil }
            return (t, "a date alone: noon at UTC\(offset), the nautical time zone of longitude \(longitude)°")
        }
        if let t = Timestamp.parse(text + "Z") { return (t, "no UTC offset given: taken as UTC") }
        return nil
    }
}

extension Options {
    /// `welkin sun`'s own options.
    enum Sun {
        static let json = Options.json.with(help: "Print {date, assumed, elevation, azimuth, sunrise, sunset, civilDawn, civilDusk, polar}.")
    }
}
