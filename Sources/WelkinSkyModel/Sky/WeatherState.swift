// Weather at an instant: each preset's parameters, cross-faded over the transition, and the
// seeded lightning of storms. Pure functions of the scene time, so any frame can be drawn alone.

import Foundation

/// What a weather preset sets. Every field blends linearly during a cross-fade.
public struct WeatherParameters: Sendable, Equatable {
    /// How far the sky's palette moves toward the weather's colours (0 = the time-of-day palette).
    public var tint: Double
    /// The weather's colours (seed 000), sRGB; their lightness follows the time of day.
    public var tintZenith: RGBA
    public var tintHorizon: RGBA
    /// cloudCover's default coverage, 0…1.
    public var cover: Double
    /// Seed 000's cloud speed factor (sunny 0.3, cloudy 0.1, rainy 0.5).
    public var cloudSpeed: Double
    /// Points per second: cloud cover drift and the push on rain and snow.
    public var wind: SIMD2<Double>
    /// Precipitation intensities, 0…1.
    public var rain: Double
    public var snow: Double
    /// Lightning strength for storms, 0…1.
    public var lightning: Double
    /// How dark thick cloud undersides get, 0…1.
    public var cloudDarkness: Double
    /// How much of the star field shows through, 0…1.
    public var starVisibility: Double
    /// The physical sky's aerosol density, × the atmosphere's (clear: 1; the others from their
    /// `visibility` over Earth's default aerosols).
    public var aerosols: Double = 1
    /// The `clouds` layer's type, coverage, density and cirrus (CloudShape.of).
    public var clouds = CloudShape.of(.clear)
    /// Ground fog's extinction at the ground, m⁻¹ (Fog.extinction; 0: none). Blending the
    /// extinction (not the visibility) thickens fog in and thins it out smoothly.
    public var fog = 0.0

    static func lerp(_ a: WeatherParameters, _ b: WeatherParameters, _ f: Double) -> WeatherParameters {
        func m(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        func c(_ x: RGBA, _ y: RGBA) -> RGBA { RGBA(m(x.r, y.r), m(x.g, y.g), m(x.b, y.b), m(x.a, y.a)) }
        return WeatherParameters(tint: m(a.tint, b.tint), tintZenith: c(a.tintZenith, b.tintZenith),
                                 tintHorizon: c(a.tintHorizon, b.tintHorizon), cover: m(a.cover, b.cover),
                                 cloudSpeed: m(a.cloudSpeed, b.cloudSpeed), wind: a.wind + (b.wind - a.wind) * f,
                                 rain: m(a.rain, b.rain), snow: m(a.snow, b.snow), lightning: m(a.lightning, b.lightning),
                                 cloudDarkness: m(a.cloudDarkness, b.cloudDarkness),
                                 starVisibility: m(a.starVisibility, b.starVisibility), aerosols: m(a.aerosols, b.aerosols),
                                 clouds: CloudShape.lerp(a.clouds, b.clouds, f), fog: m(a.fog, b.fog))
    }
}

extension WeatherPreset {
    // Seed 000's weather colours (horizon / zenith).
    static let sunny = (horizon: SkyLayer.seedDay.horizon, zenith: SkyLayer.seedDay.zenith)
    static let cloudyColors = (horizon: RGBA(0.6, 0.6, 0.8), zenith: RGBA(0.3, 0.3, 0.5))
    static let rainyColors = (horizon: RGBA(0.3, 0.3, 0.5), zenith: RGBA(0.1, 0.1, 0.3))
    /// Fog's pale grey, a little lighter toward the horizon (the seed has no fog).
    static let fogColors = (horizon: RGBA(0.8, 0.81, 0.82), zenith: RGBA(0.66, 0.68, 0.72))

    /// Seed 000's cloud speed factors (sunny 0.3, cloudy 0.1, rainy 0.5); clouds drift at
    /// factor / 0.3 times their base speed, so a clear sky crosses in the seed's 20–40 s.
    public static let clearSpeedFactor = 0.3

    /// The aerosol factor that gives Earth's default atmosphere the preset's visibility.
    static func aerosols(_ preset: WeatherPreset) -> Double {
        Atmosphere().aerosolScale(visibility: preset.visibility)
    }

    public var parameters: WeatherParameters {
        var p = presetParameters
        p.clouds = CloudShape.of(self)
        if self == .fog { p.fog = Fog.preset.extinction }
        return p
    }

    private var presetParameters: WeatherParameters {
        let c = Self.cloudyColors, r = Self.rainyColors, s = Self.sunny
        switch self {
        case .clear:
            return WeatherParameters(tint: 0, tintZenith: s.zenith, tintHorizon: s.horizon, cover: 0.25, cloudSpeed: 0.3,
                                     wind: [14, 0], rain: 0, snow: 0, lightning: 0, cloudDarkness: 0.15, starVisibility: 1,
                                     aerosols: Self.aerosols(self))
        case .cloudy:
            return WeatherParameters(tint: 0.55, tintZenith: c.zenith, tintHorizon: c.horizon, cover: 0.58, cloudSpeed: 0.1,
                                     wind: [6, 0], rain: 0, snow: 0, lightning: 0, cloudDarkness: 0.35, starVisibility: 0.5,
                                     aerosols: Self.aerosols(self))
        case .overcast:
            return WeatherParameters(tint: 0.85, tintZenith: c.zenith, tintHorizon: c.horizon, cover: 0.88, cloudSpeed: 0.1,
                                     wind: [5, 0], rain: 0, snow: 0, lightning: 0, cloudDarkness: 0.55, starVisibility: 0.1,
                                     aerosols: Self.aerosols(self))
        case .rain:
            return WeatherParameters(tint: 0.9, tintZenith: r.zenith, tintHorizon: r.horizon, cover: 0.85, cloudSpeed: 0.5,
                                     wind: [24, 0], rain: 1, snow: 0, lightning: 0, cloudDarkness: 0.7, starVisibility: 0.05,
                                     aerosols: Self.aerosols(self))
        case .snow:
            return WeatherParameters(tint: 0.6, tintZenith: c.zenith, tintHorizon: c.horizon, cover: 0.72, cloudSpeed: 0.1,
                                     wind: [8, 0], rain: 0, snow: 1, lightning: 0, cloudDarkness: 0.35, starVisibility: 0.35,
                                     aerosols: Self.aerosols(self))
        case .storm:
            return WeatherParameters(tint: 1, tintZenith: r.zenith, tintHorizon: r.horizon, cover: 0.96, cloudSpeed: 0.5,
                                     wind: [40, 0], rain: 1, snow: 0, lightning: 1, cloudDarkness: 0.9, starVisibility: 0,
                                     aerosols: Self.aerosols(self))
        case .fog:
            // The air itself is the weather: still, no cloud seen through it, no stars.
            let f = Self.fogColors
            return WeatherParameters(tint: 0.92, tintZenith: f.zenith, tintHorizon: f.horizon, cover: 0, cloudSpeed: 0.05,
                                     wind: [2, 0], rain: 0, snow: 0, lightning: 0, cloudDarkness: 0.3, starVisibility: 0,
                                     aerosols: Self.aerosols(self))
        }
    }
}

/// The weather at one scene time.
public struct WeatherState: Sendable, Equatable {
    public var parameters: WeatherParameters
    /// ∫ cloud speed factor / 0.3 dt from 0 to t: how far (in seconds of clear-sky drift) clouds moved.
    public var drift: Double
    /// ∫ wind dt from 0 to t, points.
    public var windTravel: SIMD2<Double>
    /// Lightning flash brightness now, 0…1.
    public var flash: Double
    /// The second-long slot whose stroke gives most of the flash now (nil: no flash): what seeds
    /// where it strikes and its bolt, so a flash keeps its place when it runs into the next second.
    public var strokeSlot: Double?
    /// During a cross-fade, the aerosol factors it fades between and the fade's weight (0 before
    /// and after one, from = to): the physical sky blends the skies of its two ends rather than
    /// building an atmosphere for every frame's blend.
    public var aerosolFade = (from: 1.0, to: 1.0, weight: 0.0)

    public static func == (a: WeatherState, b: WeatherState) -> Bool {
        a.parameters == b.parameters && a.drift == b.drift && a.windTravel == b.windTravel && a.flash == b.flash
            && a.aerosolFade == b.aerosolFade && a.strokeSlot == b.strokeSlot
    }

    /// Clear weather that never changes (scenes without `weather`).
    public static func steady(_ preset: WeatherPreset, time: Double) -> WeatherState {
        let p = preset.parameters
        return WeatherState(parameters: p, drift: time * p.cloudSpeed / WeatherPreset.clearSpeedFactor,
                            windTravel: p.wind * time, flash: 0)
    }

    public init(parameters: WeatherParameters, drift: Double, windTravel: SIMD2<Double>, flash: Double) {
        self.parameters = parameters; self.drift = drift; self.windTravel = windTravel; self.flash = flash
    }

    /// The weather of `weather` at `time`, lightning seeded by `seed`.
    public init(_ weather: Weather?, time: Double, seed: UInt64) {
        guard let weather else { self = .steady(.clear, time: time); return }
        // Segments: each starts at its `at` from the state reached there and fades to its preset.
        var segments: [(at: Double, preset: WeatherPreset)] = [(-Double.infinity, weather.preset)]
        segments += weather.schedule
        let transition = max(weather.transition, 0)
        var start = weather.preset.parameters
        var totalDrift = 0.0
        var travel = SIMD2<Double>.zero
        var state = start
        var fade: (from: Double, to: Double, weight: Double)?
        // Integrate from 0 (or from the time itself, when negative) segment by segment.
        var clock = min(0, time)
                for (index, segment) in segments.enumerated() {
            let end = index + 1 < segments.count ? segments[index + 1].at : Double.infinity
            let target = segment.preset.parameters
            let from = start
            // Parameters at a time within this segment.
            func at(_ t: Double) -> (WeatherParameters, Double) {
                guard transition > 0, segment.at.isFinite else { return (target, 1) }
                let u = min(max((t - segment.at) / transition, 0), 1)
                if u >= 1 { return (target, 1) }
                return (WeatherParameters.lerp(from, target, u * u * (3 - 2 * u)), u)
            }
            // ∫ of a quantity fading smoothly from a to b over the transition, from the segment start.
            func integral(_ a: Double, _ b: Double, from t0: Double, to t1: Double) -> Double {
                func primitive(_ t: Double) -> Double {
                    guard transition > 0, segment.at.isFinite else { return b * t }
                    let u = min(max((t - segment.at) / transition, 0), 1)
                    let faded = transition * (u * u * u - u * u * u * u / 2)   // ∫ smoothstep du × T
                    let before = min(t - segment.at, 0)
                    let after = max(t - segment.at - transition, 0)
                    return a * before + a * (transition * u) + (b - a) * faded + b * after
                }
                return primitive(t1) - primitive(t0)
            }
            let t1 = min(time, end)
            if t1 > clock {
                let speedA = from.cloudSpeed / WeatherPreset.clearSpeedFactor, speedB = target.cloudSpeed / WeatherPreset.clearSpeedFactor
                totalDrift += integral(speedA, speedB, from: clock, to: t1)
                travel.x += integral(from.wind.x, target.wind.x, from: clock, to: t1)
                travel.y += integral(from.wind.y, target.wind.y, from: clock, to: t1)
                clock = t1
            }
            if time < end {
                let (now, u) = at(time)
                state = now
                if u > 0 && u < 1 { fade = (from.aerosols, target.aerosols, u * u * (3 - 2 * u)) }
                break
            }
            start = at(end).0
        }
        if time < 0 {
            // Before the scene starts the first preset holds; extrapolate backwards.
            let p = segments[0].preset.parameters
            totalDrift = time * p.cloudSpeed / WeatherPreset.clearSpeedFactor
            travel = p.wind * time
        }
        parameters = state
        aerosolFade = fade ?? (state.aerosols, state.aerosols, 0)
        drift = totalDrift.isFinite ? totalDrift : 0
        windTravel = SIMD2(travel.x.isFinite ? travel.x : 0, travel.y.isFinite ? travel.y : 0)
        if state.lightning > 0 {
            let stroke = Self.lightningStroke(time: time, seed: seed)
            flash = state.lightning * stroke.brightness
            strokeSlot = stroke.slot
        } else {
            flash = 0
        }
    }

    /// Seeded lightning: each second may hold one flash (a bright stroke and a fainter return).
    public static func lightning(time: Double, seed: UInt64) -> Double {
        lightningStroke(time: time, seed: seed).brightness
    }

    /// The flash's brightness, and the slot whose stroke gives most of it (nil: none).
    public static func lightningStroke(time: Double, seed: UInt64) -> (brightness: Double, slot: Double?) {
        guard time.isFinite else { return (0, nil) }
        let slotLength = 1.0
        let slot = (time / slotLength).rounded(.down)
        var brightness = 0.0
        var strongest: (slot: Double, brightness: Double)?
        for k in [slot - 1, slot] {
            guard abs(k) < 1e9 else { continue }
            let h = Noise.hashCell(Int32(k), 0x5717, UInt32(truncatingIfNeeded: seed) ^ 0x11ab)
            guard Double(Noise.unit(h)) < 0.16 else { continue }
            let offset = Double(Noise.unit(Noise.hashNext(h))) * slotLength * 0.8
            let dt = time - (k * slotLength + offset)
            func pulse(_ x: Double, _ width: Double) -> Double {
                guard x >= 0, x < width else { return 0 }
                let f = 1 - x / width
                return f * f
            }
            let b = pulse(dt, 0.22) + 0.7 * pulse(dt - 0.14, 0.3)
            brightness += b
            if b > 0, b > strongest?.brightness ?? 0 { strongest = (k, b) }
        }
        return (min(brightness, 1), strongest?.slot)
    }
}
