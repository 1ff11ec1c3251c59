// The physical sky's settings on a `sky` layer, and how scenes spell its `atmosphere` object
// (Atmosphere itself, and its tables, are WelkinAtmosphere's).

import Foundation
@_exported import WelkinAtmosphere

/// How the physical sky's radiance becomes display colour.
public enum ToneMap: String, Sendable, CaseIterable, Codable {
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
public enum Exposure: Sendable, Hashable, Codable {
    case auto
    /// Stops: radiance × 2^ev.
    case ev(Double)
}

/// Which model a `sky` layer draws.
public enum SkyModel: String, Sendable, CaseIterable, Codable {
    /// Seed 000's palette keyed by sun elevation.
    case palette
    /// Light scattered by the atmosphere (Atmosphere, AtmosphereTables).
    case physical
}

/// The `sky` layer's physical-model settings.
public struct PhysicalSkySettings: Sendable, Hashable, Codable {
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
public enum FogSetting: Sendable, Hashable, Codable {
    /// The weather's: the `fog` preset's, cross-fading with it; none in other weather.
    case weather
    /// None, whatever the weather.
    case off
    /// This fog, whatever the weather.
    case fog(Fog)
}

/// Fog near the ground, in front of the sky, the ground and the sun: droplets whose extinction
/// falls off exponentially with height (exponential height fog), lit by the sun and the sky.
public struct Fog: Sendable, Hashable, Codable {
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
}

/// Artificial light in the night sky, as the zenith's total brightness on a clear moonless night.
public enum LightPollution: Sendable, Hashable, Codable {
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

