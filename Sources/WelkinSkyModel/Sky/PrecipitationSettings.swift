// The weather's rain and snow as values: which kind, and how much of each a scene lets fall (the
// particles they draw are WelkinCore's Precipitation.swift).

/// Which precipitation an emitter draws.
public enum PrecipitationKind: Int, Sendable, CaseIterable, Codable {
    case rain, snow

    /// The weather's intensity of this kind, 0…1.
    public func intensity(_ p: WeatherParameters) -> Double {
        switch self {
        case .rain: return p.rain
        case .snow: return p.snow
        }
    }
}

/// Top-level `weather.precipitation`: whether and how strongly the weather's rain and snow fall.
public struct PrecipitationSettings: Sendable, Equatable, Codable {
    /// Multiplies the birth rate of rain (0 turns it off).
    public var rain: Double = 1
    /// Multiplies the birth rate of snow (0 turns it off).
    public var snow: Double = 1
    /// The most either may be.
    public static let maximumAmount = 4.0

    public init(rain: Double = 1, snow: Double = 1) {
        self.rain = rain; self.snow = snow
    }

    public static let off = PrecipitationSettings(rain: 0, snow: 0)

    package func amount(_ kind: PrecipitationKind) -> Double {
        switch kind {
        case .rain: return rain
        case .snow: return snow
        }
    }
}
