// The physical sky's settings on a `sky` layer, and how scenes spell its `atmosphere` object
// (Atmosphere itself, and its tables, are WelkinAtmosphere's).

import Foundation
@_exported import WelkinAtmosphere

/// How the physical sky's radiance becomes display colour.
public enum ToneMap: String, Sendable, CaseIterable {
    /// Troy Sobotka's AgX (Blender 4's default view), as a polynomial fit of its base contrast curve.
    case agx
    /// Narkowicz's fit of the ACES filmic curve.
    case aces
    /// Khronos PBR Neutral.
    case neutral
    /// Clip at 1.
    case clamp

    /// The input at which the curve reaches its white (a bright light held there keeps its hue).
    public var white: Double {
        switch self {
        case .agx: return pow(2, Double(ToneMapping.agxMaximumEV))
        case .aces: return 16
        case .neutral: return 8
        case .clamp: return 1
        }
    }

    /// TONE_MAP_* in the shaders' constants prelude.
    public var code: Int32 {
        switch self { case .agx: return 0; case .aces: return 1; case .neutral: return 2; case .clamp: return 3 }
    }
}

/// The physical sky's exposure: a fixed number of stops, or keyed to the sky's brightness.
public enum Exposure: Sendable, Hashable {
    case auto
    /// Stops: radiance × 2^ev.
    case ev(Double)
}

/// Which model a `sky` layer draws.
public enum SkyModel: String, Sendable, CaseIterable {
    /// Seed 000's palette keyed by sun elevation.
    case palette
    /// Light scattered by the atmosphere (Atmosphere, AtmosphereTables).
    case physical
}

/// The `sky` layer's physical-model settings.
public struct PhysicalSkySettings: Sendable, Hashable {
    public var atmosphere = Atmosphere()
    public var exposure: Exposure = .auto
    public var toneMap: ToneMap = .agx
    public var sunDisc = true
    /// Multiplies the sun disc's true angular diameter (0.533° at 1 au, from the date when dated).
    public var sunScale = 1.0
    /// Scales the glare around the sun on screen (CIE's disability-glare point spread; 0: none).
    public var sunGlare = 1.0
    /// Scales the Milky Way's band in a dated physical night (MilkyWayMap; 1: as measured, 0: none).
    public var milkyWay = 1.0
    /// A city's light scattered by the night air (nil: a dark site).
    public var lightPollution: LightPollution?
    /// Ground fog: the weather's (the fog preset's, fading with it), none, or the layer's own.
    public var fog: FogSetting = .weather
    public init() {}
}

/// Which ground fog a physical sky draws.
public enum FogSetting: Sendable, Hashable {
    /// The weather's: the `fog` preset's, cross-fading with it; none in other weather.
    case weather
    /// None, whatever the weather.
    case off
    /// This fog, whatever the weather.
    case fog(Fog)
}

/// Fog near the ground, in front of the sky, the ground and the sun: droplets whose extinction
/// falls off exponentially with height (exponential height fog), lit by the sun and the sky.
public struct Fog: Sendable, Hashable {
    /// Metres one sees through it at the ground: extinction 3.912 / visibility (Koschmieder's law
    /// at a 2 % contrast threshold, as meteorological visibility is defined).
    public var visibility: Double
    /// Metres over which its density falls by a factor of e (a valley's radiation fog: tens of metres).
    public var height: Double

    public init(visibility: Double, height: Double = Fog.defaultHeight) {
        self.visibility = visibility
        self.height = height
    }

    /// Koschmieder's constant: −ln 0.02.
    public static let koschmieder = 3.912
    public static let defaultHeight = 100.0
    /// The fog preset's: dense fog (under 200 m by the usual definition).
    public static let preset = Fog(visibility: 150)
    public static let visibilityRange = 10.0...100_000.0
    public static let heightRange = 1.0...5000.0

    /// Extinction at the ground, m⁻¹.
    public var extinction: Double { Self.koschmieder / visibility }

    public static let properties = PropertyTable("fog", title: "fog",
        "Fog near the ground: how far one sees through it and how deep it lies.", [
            Property("visibility", .number(visibilityRange), default: .described("required"), unit: "m",
                     expected: "a visibility in 10…100000 m", "How far one sees through the fog at the ground (50: dense fog; 1000: mist)."),
            Property("height", .number(heightRange), default: .number(defaultHeight), unit: "m",
                     expected: "a height in 1…5000 m", "Metres over which the fog thins by a factor of e: shallow fog lets the sky and the sun through overhead."),
        ])
}

/// Artificial light in the night sky, as the zenith's total brightness on a clear moonless night.
public enum LightPollution: Sendable, Hashable {
    /// Bortle's class, 1 (excellent dark site) … 9 (inner city).
    case bortle(Int)
    /// The zenith's V brightness, magnitudes per square arcsecond (what a Sky Quality Meter reads).
    case zenith(Double)

    /// The zenith's total V brightness, mag/arcsec²: for a Bortle class the middle of the Sky
    /// Quality Meter readings commonly given for it (21.76–22.0 for class 1 … under 18 for 8 and 9).
    public var zenithMagnitude: Double {
        switch self {
        case .bortle(let n): return Self.bortleZenith[min(max(n, 1), 9) - 1]
        case .zenith(let m): return m
        }
    }

    public static let properties = PropertyTable("lightPollution", title: "lightPollution",
        "The night sky's brightness at the zenith, for a site with artificial light.", [
            Property("zenith", .number(zenithRange), default: .described("required"), unit: "mag/arcsec²",
                     expected: "a brightness in 16…22 mag/arcsec²", "The zenith's V brightness on a clear moonless night (21.9: a dark site; 17: a city centre)."),
        ])

    public static let bortleZenith: [Double] = [21.9, 21.7, 21.45, 21.0, 19.8, 18.9, 18.25, 17.8, 17.3]
    /// Zenith brightness accepted, mag/arcsec² (an inner city's 16 … beyond a perfectly dark site).
    public static let zenithRange = 16.0...22.0
}

extension WeatherPreset {
    /// The visibility (km) each preset gives a physical sky: nil keeps the atmosphere's own (clear).
    /// Chosen by eye: cloudy days still show distant hills, rain and snow close the view in.
    public var visibility: Double? {
        switch self {
        case .clear: return nil
        case .cloudy: return 30
        case .overcast: return 15
        case .rain: return 8
        case .snow: return 5
        case .storm: return 6
        case .fog: return 12
        }
    }
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
