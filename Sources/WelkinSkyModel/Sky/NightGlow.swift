// The night sky's own light in the physical model: the natural background of a dark moonless
// night (airglow, zodiacal light, the unresolved starlight the catalogue leaves out) and a city's
// light scattered by the air, as radiance in the model's units (the Sun's top-of-atmosphere
// irradiance per steradian) at elevations 90°·(k/16)², k = 0…16, both renderers interpolating
// between them alike (PhysicalSkyDraw.nightGlow, atmosphere.glsl's nightGlow).

import Foundation

public struct NightGlow: Sendable, Equatable {
    /// Samples over elevation: 90°·(k/(samples − 1))², gathered at the horizon where the glow changes fastest.
    public static let samples = 17
    /// A dark site's zenith on a moonless night, V mag/arcsec² (Sky Quality Meter readings at the
    /// darkest sites are 21.8–22.0; about half of it is airglow).
    public static let naturalZenith = 21.9
    /// The zodiacal light's share of that zenith: its light at a typical dark-site zenith, |β| 60°
    /// and 120° from the Sun (Leinert et al.'s Table 17: 82, 23.26 mag/arcsec²). Where the
    /// zodiacal light is drawn direction by direction (ZodiacalLight, `zodiacalApart`), the glow
    /// drawn is the rest (22.27 mag/arcsec² at the zenith); the exposure's key, the ground's light and
    /// `full` keep the whole, so the night's exposure and its stars are as before.
    public static let zodiacalZenith = 23.26
    /// The natural background's colour: B − V ≈ 0.9, a little redder than the Sun (Leinert et al.
    /// 1998 give 0.7–1.0 for the dark sky's components), relative to the Sun's white.
    public static let naturalColorIndex = 0.8
    /// The airglow's emitting layer, km: a thin shell there is brighter toward the horizon by van
    /// Rhijn's factor 1/√(1 − (R/(R + h))² cos² e), before the air below it dims it.
    public static let airglowHeight = 90.0
    /// A city's dome: its colour (sodium and warm LEDs, B − V ≈ 1.4 against the Sun) and how much
    /// brighter the horizon is than the zenith (1 + 7 (1 − sin e)⁴: all-sky surveys of lit sites
    /// measure their horizons two to three magnitudes above their zeniths).
    public static let domeColorIndex = 1.4
    public static let domeHorizonRatio = 8.0

    /// Radiance (sky units, sr⁻¹) at each sample, the ground's below the horizon, and the mean
    /// luminance of the sky above (the exposure's key), each for the natural background alone and
    /// with the city's light.
    public var sky: [SIMD3<Double>]
    /// `sky` with the zodiacal light's typical share where it is drawn apart (`sky` itself otherwise).
    public var full: [SIMD3<Double>]
    public var ground: SIMD3<Double>
    public var meanLuminance: Double
    public var naturalMeanLuminance: Double

    /// A surface brightness in V mag/arcsec² as radiance over the Sun's irradiance per steradian.
    public static func radiance(magnitudesPerSquareArcsecond m: Double) -> Double {
        pow(10, -0.4 * (m - NightSkyDraw.sunMagnitude)) * pow(180 * 3600 / Double.pi, 2)
    }

    /// The elevation (degrees) of sample k.
    public static func elevation(sample k: Int) -> Double {
        let u = Double(k) / Double(samples - 1)
        return 90 * u * u
    }

    /// The glow under an atmosphere (its transmittance dims the airglow toward the horizon as the
    /// measured zenith value already includes the zenith's own extinction) seen from radius r (km).
    /// `zodiacalApart`: the zodiacal light is drawn on its own (PhysicalSkyDraw.zodiacal), so `sky`
    /// leaves out its typical share.
    public init(_ air: FadingAtmosphere, r: Double, groundAlbedo: Double, pollution: LightPollution?, zodiacalApart: Bool = false) {
        let c = air.coefficients
        let shell = c.groundRadius / (c.groundRadius + Self.airglowHeight)
        let zenithTransmittance = air.transmittanceToSun(r: r, mus: 1)
        let natural = StarColor.rgb(colorIndex: Self.naturalColorIndex) * Self.radiance(magnitudesPerSquareArcsecond: Self.naturalZenith)
        var city = SIMD3<Double>.zero
        if let pollution {
            // The zenith reading is the natural background and the city's light together.
            let total = Self.radiance(magnitudesPerSquareArcsecond: pollution.zenithMagnitude)
            let artificial = max(total - Self.radiance(magnitudesPerSquareArcsecond: Self.naturalZenith), 0)
            city = StarColor.rgb(colorIndex: Self.domeColorIndex) * artificial
        }
        let keep = zodiacalApart ? 1 - Self.radiance(magnitudesPerSquareArcsecond: Self.zodiacalZenith) / Self.radiance(magnitudesPerSquareArcsecond: Self.naturalZenith) : 1
        var sky: [SIMD3<Double>] = []
        var full: [SIMD3<Double>] = []
        var naturalSky: [SIMD3<Double>] = []
        for k in 0..<Self.samples {
            let e = Self.elevation(sample: k) * .pi / 180
            let ce = cos(e)
            let vanRhijn = 1 / (1 - shell * shell * ce * ce).squareRoot()
            let t = air.transmittanceToSun(r: r, mus: sin(e))
            var dim = SIMD3<Double>(repeating: 0)
            for i in 0..<3 where zenithTransmittance[i] > 0 { dim[i] = t[i] / zenithTransmittance[i] }
            let n = natural * dim * vanRhijn
            let lift = 1 - sin(e)
            naturalSky.append(n)
            let dome = city * (1 + (Self.domeHorizonRatio - 1) * lift * lift * lift * lift)
            full.append(n + dome)
            sky.append(zodiacalApart ? n * keep + dome : n + dome)
        }
        // Over the hemisphere by the trapezoid rule in elevation: the mean radiance (weight cos e)
        // and the irradiance on the ground (weight 2π sin e cos e), whose Lambertian radiance is
        // albedo · E / π.
        func luminance(_ v: SIMD3<Double>) -> Double { 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z }
        var mean = SIMD3<Double>.zero, meanNatural = SIMD3<Double>.zero, irradiance = SIMD3<Double>.zero
        var weights = 0.0
        for k in 0..<(Self.samples - 1) {
            let e0 = Self.elevation(sample: k) * .pi / 180, e1 = Self.elevation(sample: k + 1) * .pi / 180
            let de = e1 - e0
            let w0 = cos(e0) * de / 2, w1 = cos(e1) * de / 2
            mean += full[k] * w0 + full[k + 1] * w1
            meanNatural += naturalSky[k] * w0 + naturalSky[k + 1] * w1
            weights += w0 + w1
            let g0: Double = sin(e0) * cos(e0) * Double.pi * de, g1: Double = sin(e1) * cos(e1) * Double.pi * de
            irradiance += full[k] * g0
            irradiance += full[k + 1] * g1
        }
        self.sky = sky
        self.full = full
        ground = irradiance * (groundAlbedo / .pi)
        meanLuminance = luminance(mean / weights)
        naturalMeanLuminance = luminance(meanNatural / weights)
    }

    /// The glow's radiance looking at elevation `el` (degrees), the ground's below `horizon`:
    /// linear between the samples, as atmosphere.glsl reads them.
    @inlinable public static func sample(_ table: [SIMD3<Float>], ground: SIMD3<Float>, elevation el: Float, horizon: Float) -> SIMD3<Float> {
        if el < horizon { return ground }
        let (k, f) = position(elevation: el)
        return table[k] + (table[k + 1] - table[k]) * f
    }

    /// Where elevation `el` (degrees) falls among the samples: the sample below it (0 … samples − 2)
    /// and the fraction of the way to the next, as every table over the glow's elevations is read.
    @inlinable public static func position(elevation el: Float) -> (sample: Int, fraction: Float) {
        let x = (max(el, 0) * (1.0 / 90.0)).squareRoot() * Float(samples - 1)
        let k = min(Int(x), samples - 2)
        return (k, x - Float(k))
    }
}
