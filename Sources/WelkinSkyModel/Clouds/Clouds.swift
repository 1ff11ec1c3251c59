// The `clouds` layer: a volume of cloud between a base and a top altitude, seen from the ground
// through the sky's view, ray-marched and lit by the sun and the sky (docs/sky.md, "Clouds").
//
// Defaults live here, next to the properties that own them. A layer with only `type` set takes its
// cloud type, coverage, density and wind from the scene's weather, so the weather presets drive it
// (clear: fair-weather cumulus, overcast: a stratus deck, storm: dark, low and heavy).

/// Cloud types (genera), each a base and top altitude, a vertical profile and a feature size.
public enum CloudType: String, Sendable, CaseIterable, Codable {
    case cumulus, stratocumulus, stratus, cumulonimbus

    /// Base and top altitude, km: fair-weather cumulus from 1.2 km with heaped tops; a
    /// stratocumulus sheet of cells; a low stratus deck; a storm's deep, low-based cloud.
    public var altitudes: ClosedRange<Double> {
        switch self {
        case .cumulus: return 1.2...2.6
        case .stratocumulus: return 1.0...1.9
        case .stratus: return 0.5...1.4
        case .cumulonimbus: return 0.6...4.5
        }
    }

    /// The vertical profile: how fast density rises above the base and falls below the top
    /// (smoothstep slopes over the height fraction), how much the top is rounded (cumulus domes),
    /// and how lumpy the base is (cumulus have flat bases; decks sag).
    public var profile: SIMD4<Double> {
        switch self {
        case .cumulus: return [10, 1.6, 1, 0.03]
        case .stratocumulus: return [6, 2.5, 0.6, 0.2]
        case .stratus: return [4, 3.5, 0.15, 0.3]
        case .cumulonimbus: return [8, 1.4, 0.5, 0.25]
        }
    }

    /// The horizontal size of the weather map's tile and of the shape noise's tile, km.
    public var scales: SIMD2<Double> {
        switch self {
        case .cumulus: return [14, 3.2]
        case .stratocumulus: return [9, 2.0]
        case .stratus: return [30, 4.5]
        case .cumulonimbus: return [40, 6]
        }
    }

    /// How strongly a deck's base shows its relief — lighter where the sheet is thinner, darker
    /// in its thicker rolls and undulations (CloudsDraw.relief): none for heaped cumulus, whose
    /// form shows in the march itself; most for the flat stratus sheet, which is otherwise one grey.
    public var relief: Double {
        switch self {
        case .cumulus: return 0
        case .stratocumulus: return 0.5
        case .stratus: return 0.7
        case .cumulonimbus: return 0.55
        }
    }

    /// How much of a cloud's shape comes from the 3D noise rather than the 2D weather map
    /// (heaped cumulus most, flat stratus least).
    public var shapeWeight: Double {
        switch self {
        case .cumulus: return 0.5
        case .stratocumulus: return 0.4
        case .stratus: return 0.25
        case .cumulonimbus: return 0.35
        }
    }
}

/// The `clouds` layer.
public struct CloudsLayer: Sendable, Equatable, Codable {
    /// nil takes the weather's (CloudShape.of).
    public var cloudType: CloudType? = nil
    /// 0…1; nil takes the weather's.
    public var coverage: Double? = nil
    /// Multiplies the cloud's extinction; nil takes the weather's (clear 1, storm 2.2).
    public var density: Double? = nil
    /// Base and top altitude, km; nil takes the type's.
    public var altitude: ClosedRange<Double>? = nil
    /// Drift, metres per second [east, north]; nil takes the weather's wind.
    public var wind: SIMD2<Double>? = nil
    /// How fast the clouds' shapes change as they drift (1: a few minutes per new shape; 0: frozen).
    public var evolution: Double = 1
    /// The thin high cirrus layer at 8–9 km, 0…1; nil takes the weather's.
    public var cirrus: Double? = nil
    /// Multiplies the feature size.
    public var scale: Double = 1
    /// A deck's relief, 0…1 (CloudType.relief); nil takes the type's.
    public var relief: Double? = nil
    /// In the viewer, while the picture changes: the fraction of the output's width and height the
    /// volume is marched at (upsampled bilinearly). A still picture in the viewer is refined to the
    /// final quality; renders, exports and the reference march every pixel.
    public var resolution: Double = 0.25
    /// In the viewer, while the picture changes: the most view samples through the layer (the final
    /// quality takes `finalSteps`, or these if more).
    public var steps: Int = 32
    /// The final quality's most samples along a view ray.
    public static let finalSteps = 32
    /// Mixed with the scene's seed.
    public var seed: UInt64 = 0

    public init() {}

    public static let maximumSteps = 64
}

/// A cloud layer's numbers: what a type and the weather set, blended during a weather cross-fade.
public struct CloudShape: Sendable, Equatable {
    /// Base and top altitude, km.
    public var base: Double
    public var top: Double
    public var profile: SIMD4<Double>
    public var scales: SIMD2<Double>
    public var shapeWeight: Double
    public var relief: Double
    public var coverage: Double
    public var density: Double
    public var cirrus: Double

    public init(_ type: CloudType, coverage: Double, density: Double, cirrus: Double) {
        base = type.altitudes.lowerBound; top = type.altitudes.upperBound
        profile = type.profile; scales = type.scales; shapeWeight = type.shapeWeight; relief = type.relief
        self.coverage = coverage; self.density = density; self.cirrus = cirrus
    }

    /// The preset's clouds: clear and cloudy skies of cumulus, overcast, rain and snow under a
    /// stratus deck, a storm's low, deep and dark cumulonimbus.
    public static func of(_ preset: WeatherPreset) -> CloudShape {
        switch preset {
        case .clear: return CloudShape(.cumulus, coverage: 0.32, density: 1, cirrus: 0.35)
        case .cloudy: return CloudShape(.cumulus, coverage: 0.58, density: 1.2, cirrus: 0.5)
        case .overcast: return CloudShape(.stratus, coverage: 0.92, density: 1.4, cirrus: 0)
        case .rain: return CloudShape(.stratus, coverage: 0.97, density: 1.8, cirrus: 0)
        case .snow: return CloudShape(.stratus, coverage: 0.9, density: 1.5, cirrus: 0)
        case .storm: return CloudShape(.cumulonimbus, coverage: 1, density: 2.6, cirrus: 0)
        // Fog hides what is above it (a clouds layer fades out as the weather turns to fog).
        case .fog: return CloudShape(.stratus, coverage: 0, density: 1, cirrus: 0)
        }
    }

    static func lerp(_ a: CloudShape, _ b: CloudShape, _ f: Double) -> CloudShape {
        func m(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        var c = a
        c.base = m(a.base, b.base); c.top = m(a.top, b.top)
        c.profile = a.profile + (b.profile - a.profile) * f
        c.scales = a.scales + (b.scales - a.scales) * f
        c.shapeWeight = m(a.shapeWeight, b.shapeWeight); c.relief = m(a.relief, b.relief)
        c.coverage = m(a.coverage, b.coverage); c.density = m(a.density, b.density); c.cirrus = m(a.cirrus, b.cirrus)
        return c
    }
}
