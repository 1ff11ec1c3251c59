// `welkin ephemeris`: the Sun, the Moon, the planets and optionally the stars for a date and place,
// as the night sky draws them (WelkinAstronomy, through ERFA).

import Foundation
import WelkinAstronomy
import WelkinCore

extension Commands {
    static let ephemeris = Command(
        name: "ephemeris", summary: "Print where the Sun, the Moon, the planets and the stars are for a date and place.",
        usage: "welkin ephemeris --date DATE --lat φ --lon λ [--height m] [--stars MAG] [--json]",
        discussion: """
        Topocentric apparent places through ERFA (IAU 2006/2000A), as the night sky draws them: the
        Moon by ELP-2000/82 (Meeus), the planets by a truncated VSOP87, the stars from the shipped
        Hipparcos catalogue (every star to V 6.5). 'elevation' is airless (geometric, seen from the
        observer); 'apparent' adds Sæmundsson's refraction (the Sun's, like 'welkin sun', is NOAA's
        calculator). Azimuth is degrees clockwise from north. UTC is taken as UT1 (within 0.9 s);
        TT − UT1 (ΔT) follows the leap seconds from 1972 and Espenak & Meeus before. Distances are
        from the observer. Moonrise and moonset are the first within 26 hours after DATE, when the
        upper limb crosses the apparent horizon, printed in DATE's UTC offset. DATE is as for
        'welkin sun': an instant with its offset, 'now', a time without an offset (UTC) or a date
        alone (noon in the longitude's nautical time zone). Example:
          welkin ephemeris --date 2024-03-15T22:30:00+01:00 --lat 48.8566 --lon 2.3522 --stars 2
        """,
        options: [Options.date, Options.latitude, Options.longitude, Options.Ephemeris.height, Options.Ephemeris.stars, Options.Ephemeris.json],
        run: { args in
            let command = named("ephemeris")!
            guard args.positionals.isEmpty else { throw UsageError(message: "ephemeris takes no arguments", command: command) }
            let (dateText, lat, lon) = try observer(args, command: command)
            let height = try args[Options.Ephemeris.height]
            let starLimit = try args[Options.Ephemeris.stars]
            guard let (date, assumed) = sunDate(dateText, longitude: lon) else {
                throw UsageError(message: "--date expects an ISO 8601 date and time with an offset (2026-06-21T12:00:00+02:00), 'now', a time without an offset (UTC) or a date alone (local noon), got '\(dateText)'", command: command)
            }
            var catalog: StarCatalog?
            if starLimit != nil {
                catalog = try StarCatalog.shipped.get()
            }
            let sky = EphemerisReport(date: date, observer: Observer(latitude: lat, longitude: lon, height: height),
                                      starLimit: starLimit, catalog: catalog)
            print(try args[Options.Ephemeris.json] ? sky.json(assumed: assumed) : sky.text(assumed: assumed))
            return 0
        })
}

extension Options {
    /// `welkin ephemeris`'s own options.
    enum Ephemeris {
        static let height = Option<Double>("--height", value: "m", help: "Height above the WGS84 ellipsoid in metres (−500…10000; default 0).",
                                           default: 0, convert: OptionConversion.number("metres in −500…10000", where: { (-500...10000).contains($0) }))
        static let stars = Option<Double?>("--stars", value: "MAG", help: "Also list the catalogue stars to magnitude MAG (−2…6.5) above the horizon.",
                                           convert: OptionConversion.number("a magnitude in −2…6.5", where: { (-2...6.5).contains($0) }))
        static let json = Options.json.with(help: "Print one JSON object: {date, assumed, latitude, longitude, sun, moon, planets[, stars]}.")
    }
}

/// Everything `welkin ephemeris` prints, computed once.
struct EphemerisReport {
    let date: Timestamp
    let observer: Observer
    let sun: SunPosition
    let moon: MoonPlace
    let moonEvents: (rise: Double?, set: Double?)
    let planets: [PlanetPlace]
    let starLimit: Double?
    let catalog: StarCatalog?
    /// Stars at or brighter than the limit with airless elevation > 0, brightest first.
    let stars: [StarPlace]

    init(date: Timestamp, observer: Observer, starLimit: Double?, catalog: StarCatalog?) {
        self.date = date; self.observer = observer; self.starLimit = starLimit; self.catalog = catalog
        sun = SunPosition(time: date, latitude: observer.latitude, longitude: observer.longitude)
        let e = Ephemeris(unixSeconds: date.unixSeconds, observer: observer)
        moon = e.moon
        planets = e.planets
        moonEvents = Ephemeris.moonEvents(after: date.unixSeconds, observer: observer)
        if let starLimit, let catalog {
            stars = catalog.places(time: e.time, observer: observer, magnitudeLimit: starLimit)
                .filter { $0.position.elevation > 0 }
                .sorted { (catalog.stars[$0.index].magnitude, $0.index) < (catalog.stars[$1.index].magnitude, $1.index) }
        } else {
            stars = []
        }
    }

    func event(_ t: Double?) -> Timestamp? { t.map { Timestamp(unixSeconds: $0, offsetSeconds: date.offsetSeconds) } }

    // MARK: JSON

    func json(assumed: String?) -> String {
        func n(_ v: Double, _ decimals: Int = 4) -> String { v.isFinite ? String(format: "%.\(decimals)f", v) : "null" }
        func s(_ t: String?) -> String { t.map { JSONValue.quoted($0) } ?? "null" }
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\(JSONValue.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }
        var top: [(String, String)] = [
            ("date", s(date.description)), ("assumed", s(assumed)),
            ("latitude", n(observer.latitude)), ("longitude", n(observer.longitude)),
            ("sun", object([("elevation", n(sun.geometricElevation)), ("apparentElevation", n(sun.elevation)), ("azimuth", n(sun.azimuth))])),
            ("moon", object([
                ("elevation", n(moon.position.elevation)), ("apparentElevation", n(moon.position.apparentElevation)),
                ("azimuth", n(moon.position.azimuth)), ("distanceKm", n(moon.distanceKm, 1)),
                ("angularDiameter", n(moon.angularDiameter)), ("illuminatedFraction", n(moon.illuminatedFraction)),
                ("phaseAngle", n(moon.phaseAngle)), ("brightLimbAngle", n(moon.brightLimbAngle)),
                ("magnitude", n(moon.magnitude, 2)),
                ("rise", s(event(moonEvents.rise)?.description)), ("set", s(event(moonEvents.set)?.description)),
            ])),
            ("planets", "[" + planets.map { p in
                object([("name", JSONValue.quoted(p.planet.rawValue)), ("elevation", n(p.position.elevation)),
                        ("apparentElevation", n(p.position.apparentElevation)), ("azimuth", n(p.position.azimuth)),
                        ("magnitude", n(p.magnitude, 2))])
            }.joined(separator: ", ") + "]"),
        ]
        if let catalog, starLimit != nil {
            top.append(("stars", "[" + stars.map { place in
                let star = catalog.stars[place.index]
                return object([("hip", "\(star.hip)"), ("elevation", n(place.position.elevation)),
                               ("apparentElevation", n(place.position.apparentElevation)), ("azimuth", n(place.position.azimuth)),
                               ("magnitude", n(Double(star.magnitude), 2)), ("bv", n(Double(star.colorIndex), 3))])
            }.joined(separator: ", ") + "]"))
        }
        return object(top)
    }

    // MARK: Text

    func text(assumed: String?) -> String {
        func deg(_ v: Double, _ width: Int = 9) -> String { pad(String(format: "%.2f°", v), width) }
        func mag(_ v: Double) -> String { pad(String(format: "%+.2f", v), 7) }
        var lines: [String] = []
        lines.append("date        \(date)" + (assumed.map { " (\($0))" } ?? ""))
        lines.append("observer    " + String(format: "%.4f°, %.4f°, %.0f m", observer.latitude, observer.longitude, observer.height))
        lines.append("")
        lines.append("            elevation  apparent    azimuth     mag")
        func row(_ name: String, _ elevation: Double, _ apparent: Double, _ azimuth: Double, _ magnitude: Double?) {
            var line = name.padding(toLength: 10, withPad: " ", startingAt: 0) + deg(elevation, 11) + deg(apparent, 10) + deg(azimuth, 11)
            line += magnitude.map { " " + mag($0) } ?? String(repeating: " ", count: 8)
            if elevation + Refraction.degrees(trueElevation: elevation) < 0 { line += "  below the horizon" }
            lines.append(line.trailingSpacesRemoved)
        }
        row("Sun", sun.geometricElevation, sun.elevation, sun.azimuth, nil)
        row("Moon", moon.position.elevation, moon.position.apparentElevation, moon.position.azimuth, moon.magnitude)
        for p in planets {
            row(p.planet.displayName, p.position.elevation, p.position.apparentElevation, p.position.azimuth, p.magnitude)
        }
        lines.append("")
        let none = "none in the next 26 hours"
        lines.append("Moon distance     " + String(format: "%.0f km", moon.distanceKm))
        lines.append("Moon diameter     " + String(format: "%.4f° (%.2f′)", moon.angularDiameter, moon.angularDiameter * 60))
        lines.append("illuminated       " + String(format: "%.1f %% (phase angle %.2f°)", moon.illuminatedFraction * 100, moon.phaseAngle))
        lines.append("bright limb       " + String(format: "%.2f° (position angle from north through east)", moon.brightLimbAngle))
        lines.append("next moonrise     \(event(moonEvents.rise)?.description ?? none)")
        lines.append("next moonset      \(event(moonEvents.set)?.description ?? none)")
        if let catalog, let starLimit {
            lines.append("")
            lines.append(String(format: "Stars to V %.1f above the horizon: %d", starLimit, stars.count))
            if !stars.isEmpty {
                lines.append("HIP     name                elevation    azimuth      V     B−V")
                for place in stars {
                    let star = catalog.stars[place.index]
                    var line = pad("\(star.hip)", -8) + (Self.starNames[star.hip] ?? "").padding(toLength: 16, withPad: " ", startingAt: 0)
                    line += deg(place.position.elevation, 13) + deg(place.position.azimuth, 11) + " " + pad(String(format: "%.2f", star.magnitude), 6)
                    line += " " + pad(String(format: "%.3f", star.colorIndex), 7)
                    lines.append(line)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Right-aligned to `width` characters (left-aligned for a negative width).
    func pad(_ s: String, _ width: Int) -> String {
        let fill = String(repeating: " ", count: max(0, abs(width) - s.count))
        return width < 0 ? s + fill : fill + s
    }

    /// Proper names of the brightest stars (IAU WGSN), by HIP number.
    static let starNames: [Int: String] = [
        32349: "Sirius", 30438: "Canopus", 71683: "Rigil Kentaurus", 69673: "Arcturus", 91262: "Vega", 24608: "Capella",
        24436: "Rigel", 37279: "Procyon", 7588: "Achernar", 27989: "Betelgeuse", 68702: "Hadar", 97649: "Altair",
        60718: "Acrux", 21421: "Aldebaran", 80763: "Antares", 65474: "Spica", 37826: "Pollux", 113368: "Fomalhaut",
        102098: "Deneb", 62434: "Mimosa", 71681: "Toliman", 49669: "Regulus", 33579: "Adhara", 36850: "Castor",
        61084: "Gacrux", 85927: "Shaula", 25336: "Bellatrix", 25428: "Elnath", 45238: "Miaplacidus", 26311: "Alnilam",
        109268: "Alnair", 26727: "Alnitak", 62956: "Alioth", 54061: "Dubhe", 15863: "Mirfak", 34444: "Wezen",
        86228: "Sargas", 90185: "Kaus Australis", 41037: "Avior", 67301: "Alkaid", 28360: "Menkalinan", 82273: "Atria",
        31681: "Alhena", 100751: "Peacock", 11767: "Polaris", 30324: "Mirzam", 46390: "Alphard", 9884: "Hamal",
        50583: "Algieba", 3419: "Diphda", 92855: "Nunki", 68933: "Menkent", 677: "Alpheratz", 5447: "Mirach",
        27366: "Saiph", 72607: "Kochab", 86032: "Rasalhague", 14576: "Algol", 57632: "Denebola", 9640: "Almach",
    ]
}

private extension String {
    var trailingSpacesRemoved: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
