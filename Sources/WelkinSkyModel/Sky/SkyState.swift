// The sky at an instant: where the sun is, the palette blended for its elevation and tinted by the
// weather, and the colours clouds are lit with. Computed once per frame in Double on the CPU; the
// renderers only read the result.

import Foundation

/// A colour in OKLab (straight, not premultiplied) with an alpha.
public struct OklabColor: Sendable, Equatable {
    public var lab: SIMD3<Double>
    public var alpha: Double

    public init(_ c: RGBA) {
        let linear = SIMD3<Float>(ColorMath.srgbToLinear(Float(c.r)), ColorMath.srgbToLinear(Float(c.g)), ColorMath.srgbToLinear(Float(c.b)))
        lab = SIMD3<Double>(ColorMath.linearToOklab(linear))
        alpha = c.a
    }

    public init(lab: SIMD3<Double>, alpha: Double) { self.lab = lab; self.alpha = alpha }

    public static func mix(_ a: OklabColor, _ b: OklabColor, _ t: Double) -> OklabColor {
        OklabColor(lab: a.lab + (b.lab - a.lab) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    /// Linear-light sRGB (may leave 0…1 slightly; callers clamp).
    public var linear: SIMD3<Double> { SIMD3<Double>(ColorMath.oklabToLinear(SIMD3<Float>(lab))) }

    /// Back to straight sRGB, clamped.
    public var rgba: RGBA {
        let l = linear.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        let e = ColorMath.linearToSRGB(SIMD3<Float>(l))
        return RGBA(Double(e.x), Double(e.y), Double(e.z), alpha)
    }
}

/// The sky's colours for one sun elevation.
public struct SkyColors: Sendable, Equatable {
    public var zenith: OklabColor
    public var horizon: OklabColor
    public var sunGlow: OklabColor

    /// The palette at `elevation`: keyframes blended in OKLab with a smoothstep weight, so colours
    /// and their rate of change are continuous (no jumps, no kinks at keyframes).
    public init(palette: [SkyKeyframe], elevation: Double) {
        precondition(!palette.isEmpty)
        func colors(_ k: SkyKeyframe) -> (OklabColor, OklabColor, OklabColor) {
            (OklabColor(k.zenith), OklabColor(k.horizon), OklabColor(k.sunGlow))
        }
        var (z, h, g) = colors(palette[0])
        if elevation >= palette[palette.count - 1].elevation {
            (z, h, g) = colors(palette[palette.count - 1])
        } else if elevation > palette[0].elevation {
            var i = 0
            while elevation >= palette[i + 1].elevation { i += 1 }
            let a = palette[i], b = palette[i + 1]
            let span = b.elevation - a.elevation
            let f = span > 0 ? (elevation - a.elevation) / span : 1
            let w = f * f * (3 - 2 * f)
            let (za, ha, ga) = colors(a), (zb, hb, gb) = colors(b)
            z = .mix(za, zb, w); h = .mix(ha, hb, w); g = .mix(ga, gb, w)
        }
        zenith = z; horizon = h; sunGlow = g
    }

    public init(zenith: OklabColor, horizon: OklabColor, sunGlow: OklabColor) {
        self.zenith = zenith; self.horizon = horizon; self.sunGlow = sunGlow
    }
}

/// Everything about the sky at one instant that a layer needs.
public struct SkyState: Sendable, Equatable {
    /// The sun, degrees (apparent elevation; azimuth clockwise from north).
    public var sunElevation: Double
    public var sunAzimuth: Double
    /// The palette at the sun's elevation, tinted by the weather.
    public var colors: SkyColors
    public var weather: WeatherState
    /// Scene time, seconds.
    public var time: Double
    /// The view the first sky layer sets (cloud layers light themselves from it).
    public var viewAzimuth: Double
    public var fieldOfView: Double
    public var horizon: Double
    public var sunSize: Double
    /// The sky's clock now (its `date` + scene time × `timeScale`, plus the viewer's clock shift)
    /// when the sun follows a date; nil for a fixed sun. Shadertoy's `iDate` reads it.
    public var clock: Timestamp?
    /// A dated sky's stars, planets and Moon (nil for a fixed sun, or when it shows none of them).
    public var night: NightSky?

    /// The sky of `layer` (or the default sky) at scene time `time` under `weather`.
    /// `night`: also place the layer's stars, planets and Moon (its sky part does; the frame's
    /// shared state, which cloud layers read, has no use for them).
    public init(layer: SkyLayer?, time: Double, weather: WeatherState, night withNight: Bool = false) {
        let layer = layer ?? SkyLayer()
        let sun = Self.sun(of: layer, time: time)
        sunElevation = sun.elevation; sunAzimuth = sun.azimuth; clock = sun.clock
        night = withNight ? sun.clock.flatMap { NightSky(layer: layer, clock: $0, sunElevation: sun.elevation) } : nil
        self.weather = weather
        self.time = time
        viewAzimuth = layer.viewAzimuth; fieldOfView = layer.fieldOfView
        horizon = layer.horizon; sunSize = layer.sunSize
        let base = SkyColors(palette: layer.palette, elevation: sunElevation)
        colors = Self.tinted(base, by: weather.parameters, dayPalette: SkyColors(palette: layer.palette, elevation: 90))
    }

    /// Where `layer`'s sun is at scene time `time` (degrees), and the sky's clock when it is dated.
    public static func sun(of layer: SkyLayer, time: Double) -> (elevation: Double, azimuth: Double, clock: Timestamp?) {
        switch layer.sun {
        case .fixed(let e, let a):
            return (e, a, nil)
        case .computed(let date, let latitude, let longitude, let timeScale):
            let seconds = time * timeScale + layer.clockOffset
            let when = date.adding(seconds: seconds.isFinite ? seconds : 0)
            let p = SunPosition(time: when, latitude: latitude, longitude: longitude)
            return (layer.refraction ? p.elevation : p.geometricElevation, p.azimuth, when)
        }
    }

    /// The sun's elevation for `layer` at `time`, degrees.
    public static func sunElevation(of layer: SkyLayer, time: Double) -> Double { sun(of: layer, time: time).elevation }

    /// Moves the palette toward the weather's colours, keeping the time of day's lightness: a cloudy
    /// night stays night. The sun's glow weakens as the tint grows (clouds hide the sun).
    static func tinted(_ c: SkyColors, by w: WeatherParameters, dayPalette day: SkyColors) -> SkyColors {
        guard w.tint > 0 else { return c }
        func tint(_ own: OklabColor, _ weatherColor: RGBA, _ dayColor: OklabColor) -> OklabColor {
            var target = OklabColor(weatherColor)
            let lightness = day.zenith.lab.x > 0 ? min(1.25, own.lab.x / max(dayColor.lab.x, 1e-6)) : 1
            let l = target.lab.x * lightness
            target.lab = SIMD3(l, target.lab.y * lightness, target.lab.z * lightness)
            return .mix(own, target, w.tint)
        }
        var glow = c.sunGlow
        glow.alpha *= 1 - 0.85 * w.tint
        return SkyColors(zenith: tint(c.zenith, w.tintZenith, day.zenith),
                         horizon: tint(c.horizon, w.tintHorizon, day.horizon), sunGlow: glow)
    }

    /// The sun as a unit vector: x east, y north, z up.
    public var sunDirection: SIMD3<Double> {
        let e = sunElevation * .pi / 180, a = sunAzimuth * .pi / 180
        return SIMD3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
    }

    /// Degrees of view per pixel, for a frame `width` pixels wide.
    public func degreesPerPixel(width: Int) -> Double { fieldOfView / Double(max(width, 1)) }

    /// The sun's centre in pixel space (y down) for a frame of `pixelSize`.
    public func sunPixel(pixelSize: SIMD2<Int>) -> SIMD2<Double> {
        let dpp = degreesPerPixel(width: pixelSize.x)
        var da = (sunAzimuth - viewAzimuth).truncatingRemainder(dividingBy: 360)
        if da > 180 { da -= 360 }
        if da < -180 { da += 360 }
        return SIMD2(Double(pixelSize.x) / 2 + da / dpp, horizon * Double(pixelSize.y) - sunElevation / dpp)
    }

    /// How much daylight there is, 0 (night) … 1 (day), from the horizon's lightness.
    public var daylight: Double {
        let l = colors.zenith.lab.x
        return min(max((l - 0.2) / 0.35, 0), 1)
    }

    /// The colours clouds are lit with: sunlit tops and shadowed undersides, straight sRGB.
    public var cloudColors: (lit: RGBA, shadow: RGBA, glow: RGBA) {
        let day = daylight
        let w = weather.parameters
        // Lit: near white by day, taking the sun's glow at low sun, the horizon's hue at night.
        let white = OklabColor(RGBA(0.97, 0.97, 1.0))
        let nightLit = OklabColor(lab: SIMD3(colors.horizon.lab.x * 0.9 + 0.12, colors.horizon.lab.y * 0.6, colors.horizon.lab.z * 0.6), alpha: 1)
        var lit = OklabColor.mix(nightLit, white, day)
        let lowSun = min(max(1 - (sunElevation - 2) / 14, 0), 1) * min(max((sunElevation + 8) / 8, 0), 1)
        let glowColor = OklabColor(lab: colors.sunGlow.lab, alpha: 1)
        lit = .mix(lit, glowColor, 0.65 * lowSun * (1 - 0.75 * w.tint * w.cloudDarkness))
        lit.lab.x *= 1 - 0.35 * w.cloudDarkness
        // Shadow: the zenith's hue, darker; deeper when the weather is heavy.
        var shadow = OklabColor.mix(OklabColor(lab: colors.zenith.lab, alpha: 1), OklabColor(RGBA(0.45, 0.47, 0.55)), 0.55)
        shadow.lab.x *= 0.55 + 0.45 * day
        shadow.lab.x *= 1 - 0.45 * w.cloudDarkness
        shadow.lab.y *= 0.7; shadow.lab.z *= 0.7
        let flash = weather.flash
        if flash > 0 {
            let bright = OklabColor(RGBA(0.92, 0.93, 1.0))
            lit = .mix(lit, bright, flash * 0.8)
            shadow = .mix(shadow, bright, flash * 0.5)
        }
        var g = colors.sunGlow.rgba
        g.a = colors.sunGlow.alpha * (1 - 0.6 * w.cloudDarkness)
        return (lit.rgba, shadow.rgba, g)
    }
}

extension SkyState {
    /// Uniforms user shaders get when the scene has a sky (documented in docs/shaders.md).
    public static let builtInUniforms: [(name: String, type: String, meaning: String)] = [
        ("u_sunDirection", "vec3", "unit vector to the sun: x east, y north, z up"),
        ("u_sunElevation", "float", "the sun's apparent elevation in degrees"),
        ("u_sunPosition", "vec2", "the sun's centre in pixels, origin bottom-left like gl_FragCoord"),
        ("u_skyZenith", "vec3", "the sky's zenith colour now (sRGB, weather included)"),
        ("u_skyHorizon", "vec3", "the sky's horizon colour now (sRGB, weather included)"),
        ("u_sunGlow", "vec4", "the sun's glow colour (sRGB) and strength (a)"),
    ]
}
