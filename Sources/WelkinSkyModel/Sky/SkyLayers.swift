// The sky layers as scene values: `sky`, `cloudSprites` and `cloudCover`, and top-level `weather`.
//
// Defaults live here, next to the properties that own them; a layer with only `type` set draws a
// sensible sky (docs/sky.md lists every key). Colours and numbers marked "seed 000" are the
// article's (../shared/seeds).

/// One palette keyframe: the sky's colours when the sun is at `elevation` degrees.
public struct SkyKeyframe: Sendable, Equatable, Codable {
    public var elevation: Double
    public var zenith: RGBA
    public var horizon: RGBA
    /// The glow around the sun; its alpha is the glow's strength.
    public var sunGlow: RGBA

    public init(elevation: Double, zenith: RGBA, horizon: RGBA, sunGlow: RGBA) {
        self.elevation = elevation; self.zenith = zenith; self.horizon = horizon; self.sunGlow = sunGlow
    }
}

/// Where the sun is: from a date and a place, or fixed.
public enum SunSource: Sendable, Equatable, Codable {
    /// The real sun at `date` + scene time × `timeScale`, seen from latitude/longitude (degrees).
    case computed(date: Timestamp, latitude: Double, longitude: Double, timeScale: Double)
    /// A fixed sun (degrees).
    case fixed(elevation: Double, azimuth: Double)
}

/// The `sky` layer: a horizon-to-zenith gradient following the sun, the sun's disc and glow, stars.
/// What the sky draws below its horizon: the model's own ground (the palette's horizon colour
/// darkened, the physical sky's lit ground), nothing but sky (the horizon's colour continues to the
/// bottom), or a colour reached through a soft haze.
public enum SkyGround: Sendable, Equatable, Codable {
    case physical, none
    case color(RGBA)

    /// The shaders' code (WELKIN_SKY_GROUND).
    public var code: Int32 {
        switch self {
        case .physical: return 0
        case .none: return 1
        case .color: return 2
        }
    }

    /// Degrees below the horizon over which a colour ground fades in from the horizon's colour.
    public static let fadeDegrees: Float = 2.75
}

public struct SkyLayer: Sendable, Equatable, Codable {
    public var sun: SunSource = .fixed(elevation: 30, azimuth: 180)
    /// Below the horizon.
    public var ground: SkyGround = .physical
    /// Seconds added to the sky's clock (the viewer's T / Shift-T); not a scene key.
    public var clockOffset: Double = 0
    /// Where the view looks, degrees clockwise from north.
    public var viewAzimuth: Double = 180
    /// Horizontal field of view, degrees.
    public var fieldOfView: Double = 100
    /// Unit y of the horizon line.
    public var horizon: Double = 1
    /// Palette keyframes, sorted by elevation (at least one).
    public var palette: [SkyKeyframe] = SkyLayer.defaultPalette
    /// Apparent diameter of the sun's disc, degrees (exaggerated from the real 0.53° so it reads).
    public var sunSize: Double = 2.5
    /// Star density: the fraction of 6-point cells that hold a star.
    public var starDensity: Double = 0.07
    public var stars: Bool = true
    /// Where the stars come from; nil: the Hipparcos catalogue for a dated sky, the random field otherwise.
    public var starSource: StarSource? = nil
    /// The catalogue's faintest star drawn (V magnitude), and a design multiplier of star brightness.
    public var starMagnitudeLimit: Double = 6.5
    public var starBrightness: Double = 1
    /// A dated sky's Moon (at its true size × moonScale) and bright planets.
    public var moon: Bool = true
    public var moonScale: Double = 1
    public var planets: Bool = true
    /// Whether refraction lifts the sun, Moon, planets and stars near the horizon.
    public var refraction: Bool = true
    /// The palette (seed 000) or the physical atmosphere.
    public var model: SkyModel = .palette
    /// The physical model's atmosphere, exposure, tone curve and sun disc.
    public var physical = PhysicalSkySettings()

    public init() {}

    // Seed 000's palettes, sRGB (horizon / zenith).
    public static let seedDay = (horizon: RGBA(0.4, 0.6, 1.0), zenith: RGBA(0.1, 0.3, 0.8))
    public static let seedDusk = (horizon: RGBA(1.0, 0.4, 0.2), zenith: RGBA(0.3, 0.2, 0.6))
    public static let seedNight = (horizon: RGBA(0.1, 0.1, 0.3), zenith: RGBA(0.05, 0.05, 0.15))
    public static let seedSunrise = (horizon: RGBA(1.0, 0.5, 0.3), zenith: RGBA(0.3, 0.2, 0.6))
    public static let seedSunset = (horizon: RGBA(1.0, 0.4, 0.2), zenith: RGBA(0.2, 0.1, 0.4))

    /// Seed 000's night, sunset, dusk, sunrise and day colours at elevations where the real sky
    /// looks like them: night below −12° (astronomical-ish), the deep sunset glow in civil twilight,
    /// dusk's violet zenith around sunset, the golden hour's sunrise colours at 0–6°, day above 12°.
    public static let defaultPalette: [SkyKeyframe] = [
        SkyKeyframe(elevation: -12, zenith: seedNight.zenith, horizon: seedNight.horizon, sunGlow: RGBA(0.35, 0.2, 0.45, 0)),
        SkyKeyframe(elevation: -5, zenith: seedSunset.zenith, horizon: seedSunset.horizon, sunGlow: RGBA(1.0, 0.35, 0.15, 0.55)),
        SkyKeyframe(elevation: 0, zenith: seedDusk.zenith, horizon: seedDusk.horizon, sunGlow: RGBA(1.0, 0.45, 0.2, 0.9)),
        SkyKeyframe(elevation: 5, zenith: seedSunrise.zenith, horizon: seedSunrise.horizon, sunGlow: RGBA(1.0, 0.65, 0.35, 0.8)),
        SkyKeyframe(elevation: 14, zenith: seedDay.zenith, horizon: seedDay.horizon, sunGlow: RGBA(1.0, 0.95, 0.85, 0.55)),
    ]
}

/// The `cloudSprites` layer: seed 000's drifting clouds of three kinds.
public struct CloudSpritesLayer: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case cumulus, cirrus, stratus
        /// The shaders' integer code (CLOUD_* in the constants prelude).
        public var code: Int32 {
            switch self { case .cumulus: return 0; case .cirrus: return 1; case .stratus: return 2 }
        }
        /// Seed 000's alpha per kind.
        public var alpha: Double {
            switch self { case .cumulus: return 0.9; case .cirrus: return 0.6; case .stratus: return 0.7 }
        }
    }
    /// Seed 000: 5 clouds.
    public var count: Int = 5
    /// The kinds to choose from (each cloud picks one from the seed).
    public var kinds: [Kind] = Kind.allCases
    /// Width range in points (seed 000: 80–200; height is 0.6 × width).
    public var sizeRange: ClosedRange<Double> = 80...200
    /// Vertical band, unit y (seed 000: 10–50 % of the height).
    public var band: ClosedRange<Double> = 0.1...0.5
    /// Seconds to cross the view (seed 000: 20–40 s) at speed 1.
    public var crossingTime: ClosedRange<Double> = 20...40
    /// Multiplies the drift; nil takes the weather's speed (clear: 1).
    public var speed: Double? = nil
    /// Mixed with the scene's seed.
    public var seed: UInt64 = 0

    public static let maximumCount = 32
    public init() {}
}

/// The `cloudCover` layer: fBm cloud cover from integer-hash noise.
public struct CloudCoverLayer: Sendable, Equatable {
    /// 0…1; nil takes the weather's (clear: 0.25).
    public var coverage: Double? = nil
    /// How hard the cloud edges are (≥ 0.5).
    public var sharpness: Double = 3
    /// Feature size in points (one noise cell at the top of the view).
    public var scale: Double = 260
    /// Drift, points per second [x, y]; nil takes the weather's.
    public var wind: SIMD2<Double>? = nil
    /// Mixed with the scene's seed.
    public var seed: UInt64 = 0
    public var octaves: Int = 5
    public init() {}
}

/// What a scene layer of the sky family holds.
public enum SkyContent: Sendable, Equatable {
    case sky(SkyLayer)
    case cloudSprites(CloudSpritesLayer)
    case cloudCover(CloudCoverLayer)
}

/// The weather presets.
public enum WeatherPreset: String, Sendable, CaseIterable, Codable {
    case clear, cloudy, overcast, rain, snow, storm, fog
}

/// Top-level `weather`: a preset, a cross-fade time and an optional schedule.
public struct Weather: Sendable, Equatable {
    public var preset: WeatherPreset = .clear
    /// Seconds a change of preset takes to cross-fade.
    public var transition: Double = 3
    /// Later presets, by scene time (sorted).
    public var schedule: [(at: Double, preset: WeatherPreset)] = []
    /// Whether and how strongly rain and snow fall (`precipitation`; docs/sky.md).
    public var precipitation = PrecipitationSettings()

    public init(preset: WeatherPreset = .clear, transition: Double = 3, schedule: [(at: Double, preset: WeatherPreset)] = [],
                precipitation: PrecipitationSettings = PrecipitationSettings()) {
        self.preset = preset; self.transition = transition; self.schedule = schedule
        self.precipitation = precipitation
    }

    public static func == (a: Weather, b: Weather) -> Bool {
        a.preset == b.preset && a.transition == b.transition && a.precipitation == b.precipitation
            && a.schedule.elementsEqual(b.schedule, by: { $0.at == $1.at && $0.preset == $1.preset })
    }
}

/// As values (a package's copy of the model reads its scene's weather so); the schedule as
/// `[{"at": …, "preset": …}]`. Not the scene format, which WelkinCore decodes.
extension Weather: Codable {
    private enum CodingKeys: String, CodingKey { case preset, transition, schedule, precipitation }
    private struct Change: Codable { var at: Double; var preset: WeatherPreset }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(preset: try c.decode(WeatherPreset.self, forKey: .preset), transition: try c.decode(Double.self, forKey: .transition),
                  schedule: try c.decode([Change].self, forKey: .schedule).map { ($0.at, $0.preset) },
                  precipitation: try c.decode(PrecipitationSettings.self, forKey: .precipitation))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(preset, forKey: .preset)
        try c.encode(transition, forKey: .transition)
        try c.encode(schedule.map { Change(at: $0.at, preset: $0.preset) }, forKey: .schedule)
        try c.encode(precipitation, forKey: .precipitation)
    }
}
