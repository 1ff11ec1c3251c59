// The physical sky's atmosphere: a spherical shell of air, aerosols and ozone around the ground,
// Earth's by default (Bruneton 2017 and Hillaire 2020 use these values in RGB), every coefficient
// overridable in a scene's `atmosphere` object (decoded by WelkinCore). AtmosphereTables turns it
// into the look-up tables both renderers sample; docs/sky.md gives the sources.
//
// WelkinAtmosphere is pure maths and knows no scenes. It is compiled optimised even in debug
// builds: the tables are tens of millions of floating-point operations, which unoptimised code
// takes seconds over, and every test that draws a physical sky builds them.
//
// Units, here and in scene files: lengths of the shell in km, scale heights in km, coefficients in
// Mm⁻¹ (10⁻⁶ m⁻¹, the unit the literature quotes them in), the observer's altitude in m,
// visibility in km. The tables work in km and km⁻¹ (`…PerKilometre`).

import Foundation

/// The air a physical sky is made of.
public struct Atmosphere: Sendable, Hashable, Codable {
    /// Radius of the ground and of the top of the atmosphere, km.
    public var groundRadius = 6360.0
    public var topRadius = 6460.0
    /// Rayleigh (air molecules) scattering at sea level, Mm⁻¹, per channel; density exp(−h / H).
    public var rayleighScattering = SIMD3<Double>(5.802, 13.558, 33.1)
    public var rayleighScaleHeight = 8.0
    /// Mie (aerosol) scattering and extinction at sea level, Mm⁻¹ (grey); density exp(−h / H).
    public var mieScattering = 3.996
    public var mieExtinction = 4.40
    public var mieScaleHeight = 1.2
    /// Cornette–Shanks asymmetry: 0 scatters evenly, toward 1 ever more forward (the aureole).
    public var mieG = 0.8
    /// Ozone absorption at the profile's peak, Mm⁻¹, per channel; a tent profile, 0 below
    /// `ozonePeak − ozoneHalfWidth`, 1 at `ozonePeak`, 0 above `ozonePeak + ozoneHalfWidth` (km).
    public var ozoneAbsorption = SIMD3<Double>(0.650, 1.881, 0.085)
    public var ozonePeak = 25.0
    public var ozoneHalfWidth = 15.0
    /// The ground's Lambertian reflectance.
    public var groundAlbedo = 0.3
    /// The observer's height above the ground, m.
    public var altitude = 1.0
    /// Meteorological range, km (Koschmieder: extinction at the ground in green = 3.912 / V):
    /// scales the aerosols' density. nil keeps them as given (Earth's defaults: about 218 km).
    public var visibility: Double? = nil

    public init() {}

    /// Koschmieder's constant: ln(1 / 0.02), the 2 % contrast threshold.
    public static let koschmieder = 3.912
    /// The clearest visibility a scene may ask for, km: past about 288 km Rayleigh alone exceeds
    /// 3.912 / V in green and no amount of aerosol can meet it.
    public static let visibilityRange = 0.5...280.0

    /// The factor on the aerosols' density that gives `visibility` (1 without one); 0 when the
    /// air alone is already as murky as asked.
    public func aerosolScale(visibility v: Double?) -> Double {
        guard let v, v > 0 else { return 1 }
        let wanted = Self.koschmieder / v            // km⁻¹
        let rayleigh = rayleighScattering.y * 1e-3    // green, km⁻¹, at the ground
        let ozone = ozoneDensity(altitude: 0) * ozoneAbsorption.y * 1e-3
        let mie = mieExtinction * 1e-3 * exp(-altitude / 1000 / mieScaleHeight)
        guard mie > 0 else { return 1 }
        return max(0, (wanted - rayleigh - ozone) / mie)
    }

    /// The visibility (km) the atmosphere has as given: 3.912 / its green extinction at the ground.
    public var naturalVisibility: Double {
        let e = (rayleighScattering.y + mieExtinction + ozoneDensity(altitude: 0) * ozoneAbsorption.y) * 1e-3
        return Self.koschmieder / e
    }

    /// The ozone profile at `altitude` km, 0…1.
    public func ozoneDensity(altitude h: Double) -> Double {
        guard ozoneHalfWidth > 0 else { return 0 }
        return max(0, 1 - abs(h - ozonePeak) / ozoneHalfWidth)
    }
}

/// The atmosphere with a visibility applied: what the tables are built from, in km⁻¹.
public struct AtmosphereCoefficients: Sendable, Hashable, Codable {
    public var groundRadius: Double
    public var topRadius: Double
    public var rayleighScattering: SIMD3<Double>
    public var rayleighScaleHeight: Double
    public var mieScattering: Double
    public var mieExtinction: Double
    public var mieScaleHeight: Double
    public var mieG: Double
    public var ozoneAbsorption: SIMD3<Double>
    public var ozonePeak: Double
    public var ozoneHalfWidth: Double
    public var groundAlbedo: Double

    /// `atmosphere` with its aerosols scaled for `visibility` (km; nil: the atmosphere's own, if any).
    public init(_ a: Atmosphere, visibility: Double? = nil) {
        let scale = a.aerosolScale(visibility: visibility ?? a.visibility)
        groundRadius = a.groundRadius; topRadius = a.topRadius
        rayleighScattering = a.rayleighScattering * 1e-3
        rayleighScaleHeight = a.rayleighScaleHeight
        mieScattering = a.mieScattering * 1e-3 * scale
        mieExtinction = a.mieExtinction * 1e-3 * scale
        mieScaleHeight = a.mieScaleHeight; mieG = a.mieG
        ozoneAbsorption = a.ozoneAbsorption * 1e-3
        ozonePeak = a.ozonePeak; ozoneHalfWidth = a.ozoneHalfWidth
        groundAlbedo = a.groundAlbedo
    }

    /// Densities at altitude h km: Rayleigh, Mie, ozone.
    @inlinable public func densities(altitude h: Double) -> SIMD3<Double> {
        let ozone = ozoneHalfWidth > 0 ? max(0, 1 - abs(h - ozonePeak) / ozoneHalfWidth) : 0
        return SIMD3(exp(-h / rayleighScaleHeight), exp(-h / mieScaleHeight), ozone)
    }

    /// Extinction, km⁻¹, from the three densities.
    @inlinable public func extinction(_ d: SIMD3<Double>) -> SIMD3<Double> {
        rayleighScattering * d.x + SIMD3(repeating: mieExtinction * d.y) + ozoneAbsorption * d.z
    }
}

