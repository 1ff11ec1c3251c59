// How scenes spell the physical sky's settings: the property tables of `fog`, `lightPollution` and
// `atmosphere`, the atmosphere as JSON, and its decoding (the settings themselves are
// WelkinSkyModel's PhysicalSkySettings.swift; Atmosphere and its tables WelkinAtmosphere's).

import Foundation
import WelkinAtmosphere

extension Fog {
    public static let properties = PropertyTable("fog", title: "fog",
        "Fog near the ground: how far one sees through it and how deep it lies.", [
            Property("visibility", .number(visibilityRange), default: .described("required"), unit: "m",
                     expected: "a visibility in 10…100000 m", "How far one sees through the fog at the ground (50: dense fog; 1000: mist)."),
            Property("height", .number(heightRange), default: .number(defaultHeight), unit: "m",
                     expected: "a height in 1…5000 m", "Metres over which the fog thins by a factor of e: shallow fog lets the sky and the sun through overhead."),
        ])
}

extension LightPollution {
    public static let properties = PropertyTable("lightPollution", title: "lightPollution",
        "The night sky's brightness at the zenith, for a site with artificial light.", [
            Property("zenith", .number(zenithRange), default: .described("required"), unit: "mag/arcsec²",
                     expected: "a brightness in 16…22 mag/arcsec²", "The zenith's V brightness on a clear moonless night (21.9: a dark site; 17: a city centre)."),
        ])

}

extension Atmosphere {
    public static let properties: PropertyTable = {
        let d = Atmosphere()
        let coefficient = 0.0...1000.0
        func rgb(_ v: SIMD3<Double>) -> PropertyDefault { .described("[\(format(v.x)), \(format(v.y)), \(format(v.z))]") }
        // "1/Mm" (per megametre, 10⁻⁶ m⁻¹): the panel's font has no superscript minus.
        let perMm = "1/Mm"
        return PropertyTable("atmosphere", title: "atmosphere", "The physical sky's air: Earth's by default (Bruneton 2017, Hillaire 2020).", [
            Property("groundRadius", .number(100...100_000), default: .number(d.groundRadius), unit: "km", expected: "a radius in 100…100000 km",
                     "The planet's radius."),
            Property("topRadius", .number(100...100_500), default: .number(d.topRadius), unit: "km", expected: "a radius in 100…100500 km, above groundRadius",
                     "Where the atmosphere ends."),
            Property("rayleighScattering", .oneOf([.number(coefficient), .array(.number(coefficient), count: 3...3)]), default: rgb(d.rayleighScattering),
                     unit: perMm, expected: "a coefficient in 0…1000 Mm⁻¹ or [r, g, b] of them", "Air molecules' scattering at the ground (what makes the sky blue)."),
            Property("rayleighScaleHeight", .number(0.1...100), default: .number(d.rayleighScaleHeight), unit: "km", expected: "a height in 0.1…100 km",
                     "Height over which the air thins by e."),
            Property("mieScattering", .number(coefficient), default: .number(d.mieScattering), unit: perMm, expected: "a coefficient in 0…1000 Mm⁻¹",
                     "Aerosols' scattering at the ground (haze, the aureole)."),
            Property("mieExtinction", .number(coefficient), default: .number(d.mieExtinction), unit: perMm, expected: "a coefficient in 0…1000 Mm⁻¹, at least mieScattering",
                     "Aerosols' extinction at the ground (scattering + absorption)."),
            Property("mieScaleHeight", .number(0.01...100), default: .number(d.mieScaleHeight), unit: "km", expected: "a height in 0.01…100 km",
                     "Height over which aerosols thin by e."),
            Property("mieG", .number(0...0.99), default: .number(d.mieG), expected: "an asymmetry in 0…0.99",
                     "Cornette-Shanks asymmetry: how forward aerosols scatter (the aureole's tightness)."),
            Property("ozoneAbsorption", .oneOf([.number(coefficient), .array(.number(coefficient), count: 3...3)]), default: rgb(d.ozoneAbsorption),
                     unit: perMm, expected: "a coefficient in 0…1000 Mm⁻¹ or [r, g, b] of them", "Ozone's absorption at its peak (keeps the twilight zenith blue)."),
            Property("ozonePeak", .number(0...1000), default: .number(d.ozonePeak), unit: "km", expected: "a height in 0…1000 km", "Where the ozone layer is densest."),
            Property("ozoneHalfWidth", .number(0...1000), default: .number(d.ozoneHalfWidth), unit: "km", expected: "a thickness in 0…1000 km",
                     "Half the ozone layer's thickness (a tent profile)."),
            Property("groundAlbedo", .number(0...1), default: .number(d.groundAlbedo), expected: "an albedo in 0…1", "The ground's reflectance."),
            Property("altitude", .number(0...100_000), default: .number(d.altitude), unit: "m", expected: "an altitude in 0…100000 m, below the top",
                     "The observer's height above the ground."),
            Property("visibility", .number(visibilityRange), default: .described("the weather's"), unit: "km",
                     expected: "a visibility in 0.5…280 km", "Haze for design: scales the aerosols so the view reaches this far (Koschmieder)."),
        ])
    }()
}

extension Atmosphere {
    /// The atmosphere as a scene file spells it (what the panel shows and edits a copy of).
    public var json: JSONValue {
        func rgb(_ v: SIMD3<Double>) -> JSONValue { .array([.number(v.x), .number(v.y), .number(v.z)]) }
        var members: [(String, JSONValue)] = [
            ("groundRadius", .number(groundRadius)), ("topRadius", .number(topRadius)),
            ("rayleighScattering", rgb(rayleighScattering)), ("rayleighScaleHeight", .number(rayleighScaleHeight)),
            ("mieScattering", .number(mieScattering)), ("mieExtinction", .number(mieExtinction)),
            ("mieScaleHeight", .number(mieScaleHeight)), ("mieG", .number(mieG)),
            ("ozoneAbsorption", rgb(ozoneAbsorption)), ("ozonePeak", .number(ozonePeak)), ("ozoneHalfWidth", .number(ozoneHalfWidth)),
            ("groundAlbedo", .number(groundAlbedo)), ("altitude", .number(altitude)),
        ]
        if let visibility { members.append(("visibility", .number(visibility))) }
        return .object(members)
    }
}

extension SceneLoader {
    /// `atmosphere`: an object of Atmosphere.properties.
    static func decodeAtmosphere(_ node: Node) throws -> Atmosphere {
        let object = try node.object(Atmosphere.properties)
        try object.checkKeys()
        var a = Atmosphere()
        func rgb(_ key: String) throws -> SIMD3<Double>? {
            try object.decode(key) { n, p in
                let expected = p.expectedPhrase
                if case .number = n.value.kind { return SIMD3(repeating: try n.number(in: 0...1000, expected)) }
                let items = try n.array()
                guard items.count == 3 else { throw n.error(.invalidValue, "expected \(expected), got an array of \(items.count)") }
                return SIMD3(try items[0].number(in: 0...1000, expected), try items[1].number(in: 0...1000, expected),
                             try items[2].number(in: 0...1000, expected))
            }
        }
        if let v = try object.number("groundRadius") { a.groundRadius = v }
        if let v = try object.number("topRadius") { a.topRadius = v }
        if let v = try rgb("rayleighScattering") { a.rayleighScattering = v }
        if let v = try object.number("rayleighScaleHeight") { a.rayleighScaleHeight = v }
        if let v = try object.number("mieScattering") { a.mieScattering = v }
        if let v = try object.number("mieExtinction") {
            a.mieExtinction = v
        } else if object["mieScattering"] != nil {
            // Scattering alone keeps Earth's aerosols' single-scattering albedo (3.996 / 4.40).
            a.mieExtinction = a.mieScattering * Atmosphere().mieExtinction / Atmosphere().mieScattering
        }
        if let v = try object.number("mieScaleHeight") { a.mieScaleHeight = v }
        if let v = try object.number("mieG") { a.mieG = v }
        if let v = try rgb("ozoneAbsorption") { a.ozoneAbsorption = v }
        if let v = try object.number("ozonePeak") { a.ozonePeak = v }
        if let v = try object.number("ozoneHalfWidth") { a.ozoneHalfWidth = v }
        if let v = try object.number("groundAlbedo") { a.groundAlbedo = v }
        if let v = try object.number("altitude") { a.altitude = v }
        if let v = try object.number("visibility") { a.visibility = v }
        if !(a.topRadius > a.groundRadius + 1) {
            throw (object["topRadius"] ?? node).error(.outOfRange, "the top of the atmosphere (\(format(a.topRadius)) km) must be more than 1 km above the ground (\(format(a.groundRadius)) km)")
        }
        if a.altitude / 1000 >= a.topRadius - a.groundRadius {
            throw (object["altitude"] ?? node).error(.outOfRange, "the observer (\(format(a.altitude)) m) must be below the top of the atmosphere (\(format((a.topRadius - a.groundRadius) * 1000)) m up)")
        }
        if a.mieExtinction < a.mieScattering {
            throw (object["mieExtinction"] ?? node).error(.outOfRange, "aerosols cannot scatter more than they take out: mieExtinction (\(format(a.mieExtinction))) is below mieScattering (\(format(a.mieScattering)))")
        }
        return a
    }
}
