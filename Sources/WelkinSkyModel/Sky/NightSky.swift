// The real night sky of a dated `sky` layer at an instant: the Hipparcos stars, the bright planets
// and the Moon where they are from the layer's place (WelkinAstronomy), in apparent horizon
// coordinates. Computed once per frame in Double; NightSkyDraw turns it into pixels.

import Foundation
import WelkinAstronomy

/// Where a sky's stars come from: the hashed field of seed 000, or the catalogue.
public enum StarSource: String, Sendable, CaseIterable, Codable {
    case random, catalog
}

public struct NightSky: Sendable, Equatable {
    /// A star or planet: apparent place (degrees), V magnitude, B − V, and an identity (the HIP
    /// number; −1…−5 for the planets) that seeds its twinkle.
    public struct Point: Sendable, Equatable {
        public var azimuth: Double
        public var elevation: Double
        public var magnitude: Double
        public var colorIndex: Double
        public var id: Int
    }

    public struct Moon: Sendable, Equatable {
        /// Apparent place, degrees.
        public var azimuth: Double
        public var elevation: Double
        /// Apparent radius in degrees, moonScale included.
        public var radius: Double
        public var phaseAngle: Double
        public var illuminatedFraction: Double
        /// Position angles (degrees from celestial north through east): the bright limb's and the zenith's.
        public var brightLimbAngle: Double
        public var parallacticAngle: Double
        public var magnitude: Double
    }

    public var points: [Point]
    public var moon: Moon?
    /// Stars, planets and Moon lifted by refraction.
    public var refraction: Bool
    /// The rows turning a horizon direction (x east, y north, z up) into galactic coordinates
    /// (MilkyWayMap.horizonToGalactic): where the Milky Way is, with the catalogue's stars (nil
    /// when they are not shown).
    public var galactic: [SIMD3<Double>]?
    /// The rows turning a horizon direction into ecliptic coordinates (ZodiacalLight.horizonToEcliptic):
    /// where the zodiacal light is.
    public var ecliptic: [SIMD3<Double>]

    /// Points below this apparent elevation are left out (their light cannot reach the view).
    public static let lowestElevation = -2.0

    /// The night sky of `layer` at the sky clock `clock`; nil when the layer shows none of it.
    /// `sunElevation`: with the sun up (above 0° in the physical sky, whose limiting magnitude is
    /// then brighter than every star; above −6° in the palette's, before its stars fade in) the
    /// catalogue is not placed at all.
    public init?(layer: SkyLayer, clock: Timestamp, sunElevation: Double = -90) {
        guard case .computed(_, let latitude, let longitude, _) = layer.sun else { return nil }
        let dark = sunElevation < (layer.model == .physical ? 0 : -6)
        let catalogStars = layer.stars && layer.effectiveStarSource == .catalog && dark
        guard catalogStars || layer.moon || layer.planets else { return nil }
        let observer = Observer(latitude: latitude, longitude: longitude, height: 0)
        let time = AstroTime(unixSeconds: clock.unixSeconds)
        refraction = layer.refraction
        func apparent(_ h: Horizontal) -> Double { layer.refraction ? h.apparentElevation : h.elevation }
        var points: [Point] = []
        let ephemeris = Ephemeris(time: time, observer: observer)
        galactic = catalogStars ? MilkyWayMap.horizonToGalactic(ephemeris) : nil
        ecliptic = ZodiacalLight.horizonToEcliptic(ephemeris)
        if catalogStars, let catalog = StarCatalog.shared {
            let limit = layer.starMagnitudeLimit
            for place in catalog.places(time: time, observer: observer, magnitudeLimit: limit) {
                guard place.position.elevation > Self.lowestElevation else { continue }
                let star = catalog.stars[place.index]
                points.append(Point(azimuth: place.position.azimuth, elevation: apparent(place.position),
                                    magnitude: Double(star.magnitude), colorIndex: Double(star.colorIndex), id: star.hip))
            }
        }
        if layer.planets {
            for (k, planet) in ephemeris.planets.enumerated() where planet.position.elevation > Self.lowestElevation {
                points.append(Point(azimuth: planet.position.azimuth, elevation: apparent(planet.position),
                                    magnitude: planet.magnitude, colorIndex: planet.planet.colorIndex, id: -1 - k))
            }
        }
        self.points = points
        if layer.moon {
            let m = ephemeris.moon
            moon = Moon(azimuth: m.position.azimuth, elevation: apparent(m.position),
                        radius: m.angularDiameter / 2 * layer.moonScale, phaseAngle: m.phaseAngle,
                        illuminatedFraction: m.illuminatedFraction, brightLimbAngle: m.brightLimbAngle,
                        parallacticAngle: m.parallacticAngle, magnitude: m.magnitude)
        } else {
            moon = nil
        }
    }
}

extension SkyLayer {
    /// `stars`' source when the scene does not name one: the catalogue for a dated sky.
    public var effectiveStarSource: StarSource {
        if let starSource { return starSource }
        if case .computed = sun { return .catalog }
        return .random
    }
}

/// The colour of starlight of a B − V index: the blackbody of Ballesteros' (2012) temperature, its
/// chromaticity on the Planckian locus (Kim et al.'s cubic fit, 1667–25000 K) in linear sRGB,
/// divided by the Sun's (B − V 0.65), so sunlike stars are white in the sun's units; luminance 1.
public enum StarColor {
    public static func temperature(colorIndex bv: Double) -> Double {
        let b = min(max(bv, -0.4), 2.0)
        return 4600 * (1 / (0.92 * b + 1.7) + 1 / (0.92 * b + 0.62))
    }

    static func planckian(_ kelvin: Double) -> SIMD3<Double> {
        let t = min(max(kelvin, 1667), 25000)
        let t2 = t * t, t3 = t2 * t
        let x = t <= 4000
            ? -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 { y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683 }
        else if t <= 4000 { y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867 }
        else { y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483 }
        // xyY (Y = 1) → XYZ → linear sRGB (IEC 61966-2-1's matrix).
        let X = x / y, Z = (1 - x - y) / y
        return SIMD3(3.2404542 * X - 1.5371385 - 0.4985314 * Z,
                     -0.9692660 * X + 1.8760108 + 0.0415560 * Z,
                     0.0556434 * X - 0.2040259 + 1.0572252 * Z)
    }

    static let sun = planckian(temperature(colorIndex: 0.65))

    /// Linear-light RGB with luminance 1 (Rec. 709 weights), relative to the Sun's colour, for
    /// B − V in steps of 0.001 over −0.4…2.0 (a table: every frame colours thousands of stars).
    public static func rgb(colorIndex bv: Double) -> SIMD3<Double> {
        let i = Int(((min(max(bv, -0.4), 2.0) + 0.4) * 1000).rounded())
        return table[i]
    }

    static let table: [SIMD3<Double>] = (0...2400).map { i in
        let bv = Double(i) / 1000 - 0.4
        let c = (planckian(temperature(colorIndex: bv)) / sun).clamped(lowerBound: SIMD3(repeating: 0.02), upperBound: SIMD3(repeating: 50))
        return c / (0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z)
    }
}
