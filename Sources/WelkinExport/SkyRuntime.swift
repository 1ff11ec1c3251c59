// The runtime exported palette skies carry (SkyExport.swift writes the code that calls it): the
// sun's position, the sky palette and the weather's tint. Twins of WelkinCore's Sky/ maths, held to
// it by RuntimeTwinTests (RuntimeSupport.swift says how).

extension RuntimeSupport {
    static let sun = RuntimeSnippet(name: "sun", order: 30, requires: [], pure: true, source: #"""
    /// Twin of Welkin's SunPosition (Sources/WelkinSkyModel/Sky/SunPosition.swift): NOAA's solar
    /// calculator after Meeus; apparent elevation (refraction included) and azimuth clockwise from
    /// north, in degrees, for an instant in seconds since 1970 UTC.
    private enum WelkinSun {
        static func position(unixSeconds: Double, latitude: Double, longitude: Double) -> (elevation: Double, azimuth: Double) {
            let julianDay = unixSeconds / 86400 + 2440587.5
            let (declination, equationOfTime) = solarTerms(julianDay: julianDay)
            let utcMinutes = mod(unixSeconds / 60, 1440)
            let trueSolarTime = mod(utcMinutes + equationOfTime + 4 * longitude, 1440)
            var hourAngle = trueSolarTime / 4 - 180
            if hourAngle < -180 { hourAngle += 360 }
            let phi = latitude * .pi / 180, delta = declination * .pi / 180, h = hourAngle * .pi / 180
            let cosZenith = max(-1, min(1, sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(h)))
            let zenith = acos(cosZenith)
            let geometric = 90 - zenith * 180 / .pi
            let elevation = geometric + refraction(elevation: geometric)
            let denominator = cos(phi) * sin(zenith)
            var azimuth: Double
            if abs(denominator) < 1e-12 {
                azimuth = latitude > 0 ? 180 : 0
            } else {
                let cosAz = max(-1, min(1, (sin(phi) * cos(zenith) - sin(delta)) / denominator))
                let a = acos(cosAz) * 180 / .pi
                azimuth = hourAngle > 0 ? mod(a + 180, 360) : mod(540 - a, 360)
            }
            return (elevation, azimuth)
        }

        /// NOAA's atmospheric refraction (degrees) for a geometric elevation (degrees).
        static func refraction(elevation e: Double) -> Double {
            if e > 85 { return 0 }
            let t = tan(e * .pi / 180)
            let arcseconds: Double
            if e > 5 {
                arcseconds = 58.1 / t - 0.07 / (t * t * t) + 0.000086 / pow(t, 5)
            } else if e > -0.575 {
                arcseconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
            } else {
                arcseconds = -20.772 / t
            }
            return arcseconds / 3600
        }

        static func mod(_ x: Double, _ m: Double) -> Double {
            let r = x.truncatingRemainder(dividingBy: m)
            return r < 0 ? r + m : r
        }

        /// The sun's declination (degrees) and the equation of time (minutes): NOAA's series.
        static func solarTerms(julianDay: Double) -> (declination: Double, equationOfTime: Double) {
            let t = (julianDay - 2451545) / 36525
            let rad = Double.pi / 180
            let l0 = mod(280.46646 + t * (36000.76983 + t * 0.0003032), 360)
            let m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
            let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
            let c = sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
                + sin(2 * m * rad) * (0.019993 - 0.000101 * t) + sin(3 * m * rad) * 0.000289
            let trueLongitude = l0 + c
            let omega = 125.04 - 1934.136 * t
            let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega * rad)
            let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
            let obliquity = meanObliquity + 0.00256 * cos(omega * rad)
            let declination = asin(sin(obliquity * rad) * sin(apparentLongitude * rad)) / rad
            let y = pow(tan(obliquity * rad / 2), 2)
            let l = l0 * rad, mr = m * rad
            let equationOfTime = 4 / rad * (y * sin(2 * l) - 2 * e * sin(mr) + 4 * e * y * sin(mr) * cos(2 * l)
                                            - 0.5 * y * y * sin(4 * l) - 1.25 * e * e * sin(2 * mr))
            return (declination, equationOfTime)
        }
    }
    """#)

    static let skyPalette = RuntimeSnippet(name: "skyPalette", order: 31, requires: ["colorMath"], pure: true, source: #"""
    /// Twin of Welkin's OklabColor (Sources/WelkinSkyModel/Sky/SkyState.swift): straight OKLab and alpha.
    private struct WelkinOklab: Sendable {
        var lab: SIMD3<Double>
        var alpha: Double

        init(_ c: WelkinRGBA) {
            let linear = SIMD3<Float>(WelkinColorMath.srgbToLinear(Float(c.r)), WelkinColorMath.srgbToLinear(Float(c.g)),
                                      WelkinColorMath.srgbToLinear(Float(c.b)))
            lab = SIMD3<Double>(WelkinColorMath.linearToOklab(linear))
            alpha = c.a
        }

        init(lab: SIMD3<Double>, alpha: Double) { self.lab = lab; self.alpha = alpha }

        static func mix(_ a: WelkinOklab, _ b: WelkinOklab, _ t: Double) -> WelkinOklab {
            WelkinOklab(lab: a.lab + (b.lab - a.lab) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
        }
    }

    /// One palette keyframe: the sky's colours when the sun is at `elevation` degrees.
    private struct WelkinSkyKeyframe: Sendable {
        var elevation: Double
        var zenith: WelkinRGBA
        var horizon: WelkinRGBA
        /// The glow around the sun (alpha: its strength): a Metal sky draws it; the gradient export does not.
        var sunGlow: WelkinRGBA
    }

    /// Twin of Welkin's SkyColors(palette:elevation:): keyframes blended in OKLab with a smoothstep
    /// weight, so colours and their rate of change are continuous.
    private func welkinSkyColors(_ palette: [WelkinSkyKeyframe], elevation: Double) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
        let c = welkinSkyPalette(palette, elevation: elevation)
        return (c.zenith, c.horizon)
    }

    /// The same blend with the sun's glow (a Metal sky computes its glow per frame).
    private func welkinSkyPalette(_ palette: [WelkinSkyKeyframe], elevation: Double) -> (zenith: WelkinOklab, horizon: WelkinOklab, glow: WelkinOklab) {
        func colors(_ k: WelkinSkyKeyframe) -> (WelkinOklab, WelkinOklab, WelkinOklab) { (WelkinOklab(k.zenith), WelkinOklab(k.horizon), WelkinOklab(k.sunGlow)) }
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
        return (z, h, g)
    }
    """#)

    static let weatherTint = RuntimeSnippet(name: "weatherTint", order: 32, requires: ["skyPalette"], pure: true, source: #"""
    /// Twin of Welkin's weather tint (WeatherState and SkyState.tinted in Sources/WelkinCore/Sky):
    /// presets cross-faded with a smoothstep over `transition` seconds, each moving the palette
    /// toward its colours while keeping the time of day's lightness (a cloudy night stays night).
    private struct WelkinWeather: Sendable {
        struct Tint: Sendable {
            var tint: Double, zenith: WelkinRGBA, horizon: WelkinRGBA
            static func lerp(_ a: Tint, _ b: Tint, _ f: Double) -> Tint {
                func m(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
                func c(_ x: WelkinRGBA, _ y: WelkinRGBA) -> WelkinRGBA { WelkinRGBA(m(x.r, y.r), m(x.g, y.g), m(x.b, y.b), m(x.a, y.a)) }
                return Tint(tint: m(a.tint, b.tint), zenith: c(a.zenith, b.zenith), horizon: c(a.horizon, b.horizon))
            }
        }
        /// The preset from each scene time on; the first entry's `at` is −∞.
        var segments: [(at: Double, tint: Tint)]
        var transition: Double

        func tint(at time: Double) -> Tint {
            let transition = max(self.transition, 0)
            var start = segments[0].tint
            for (index, segment) in segments.enumerated() {
                let end = index + 1 < segments.count ? segments[index + 1].at : Double.infinity
                let from = start, target = segment.tint
                func at(_ t: Double) -> Tint {
                    guard transition > 0, segment.at.isFinite else { return target }
                    let u = min(max((t - segment.at) / transition, 0), 1)
                    if u >= 1 { return target }
                    return .lerp(from, target, u * u * (3 - 2 * u))
                }
                if time < end { return at(time) }
                start = at(end)
            }
            return start
        }

        /// The palette's colours moved toward the weather's.
        static func tinted(_ c: (zenith: WelkinOklab, horizon: WelkinOklab), by w: Tint,
                           day: (zenith: WelkinOklab, horizon: WelkinOklab)) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
            guard w.tint > 0 else { return c }
            func tint(_ own: WelkinOklab, _ weatherColor: WelkinRGBA, _ dayColor: WelkinOklab) -> WelkinOklab {
                var target = WelkinOklab(weatherColor)
                let lightness = day.zenith.lab.x > 0 ? min(1.25, own.lab.x / max(dayColor.lab.x, 1e-6)) : 1
                let l = target.lab.x * lightness
                target.lab = SIMD3(l, target.lab.y * lightness, target.lab.z * lightness)
                return .mix(own, target, w.tint)
            }
            return (tint(c.zenith, w.zenith, day.zenith), tint(c.horizon, w.horizon, day.horizon))
        }
    }
    """#)

    static let sky = RuntimeSnippet(name: "skyModel", order: 33, requires: ["sun", "skyPalette", "weatherTint", "colorMath"], pure: true, source: #"""
    /// Welkin's `sky` layer as a gradient: the sun's elevation at scene time t picks the palette's
    /// colours, and the zenith → horizon blend (OKLab, weight t² down to the horizon, as Welkin's
    /// SkyGradientDraw) is sampled into stops. The sun's disc and glow and the stars are not drawn.
    private struct WelkinSky: Sendable {
        enum Sun: Sendable {
            /// The real sun: `unixSeconds` at scene time 0, advanced `timeScale` sky seconds per second.
            case computed(unixSeconds: Double, latitude: Double, longitude: Double, timeScale: Double)
            case fixed(elevation: Double, azimuth: Double)
        }
        var sun: Sun
        var palette: [WelkinSkyKeyframe]
        /// Unit y of the horizon line; below it Welkin darkens the horizon colour (lightness × 0.55).
        var horizon: Double
        var weather: WelkinWeather? = nil

        /// Stops along the sky's height (a fixed count, so Core Animation can animate them): 48
        /// samples keep the blend within half an 8-bit step of Welkin's.
        static let samples = 48

        /// The sun at scene time `t`, degrees.
        func sunPosition(at t: Double) -> (elevation: Double, azimuth: Double) {
            switch sun {
            case .fixed(let e, let a):
                return (e, a)
            case .computed(let start, let latitude, let longitude, let timeScale):
                let seconds = t * timeScale
                return WelkinSun.position(unixSeconds: start + (seconds.isFinite ? seconds : 0), latitude: latitude, longitude: longitude)
            }
        }

        /// Zenith and horizon colours (OKLab) at scene time `t`, the weather's tint included.
        func colors(at t: Double) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
            let base = welkinSkyColors(palette, elevation: sunPosition(at: t).elevation)
            guard let weather else { return base }
            return WelkinWeather.tinted(base, by: weather.tint(at: t), day: welkinSkyColors(palette, elevation: 90))
        }

        /// Gradient stops from the top of the frame (location 0) to `max(horizon, 1)` (location 1).
        func stops(at t: Double) -> [(location: Double, color: WelkinRGBA)] {
            let (z, h) = colors(at: t)
            let zenith = SIMD3<Float>(z.lab), horizonLab = SIMD3<Float>(h.lab)
            func encode(_ lab: SIMD3<Float>) -> WelkinRGBA {
                let rgb = WelkinColorMath.linearToSRGB(WelkinColorMath.oklabToLinear(lab).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
                return WelkinRGBA(Double(rgb.x), Double(rgb.y), Double(rgb.z), 1)
            }
            let span = max(horizon, 1)
            var out: [(location: Double, color: WelkinRGBA)] = []
            for i in 0...Self.samples {
                let f = Float(i) / Float(Self.samples)
                let k = f * f
                out.append((horizon * Double(f) / span, encode(zenith + (horizonLab - zenith) * k)))
            }
            if horizon < 1 {
                var ground = horizonLab
                ground.x = ground.x * 0.55
                out.append((horizon / span, encode(ground)))
                out.append((1, encode(ground)))
            }
            return out
        }
    }
    """#)
}
