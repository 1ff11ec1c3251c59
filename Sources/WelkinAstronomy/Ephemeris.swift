// The sky from a place at an instant: the Moon, the Sun and the bright planets, topocentric and
// apparent, through ERFA (the BSD-licensed edition of the IAU's SOFA library).
//
// The chain is SOFA's: the Earth's barycentric position and velocity (eraEpv00), the observer's
// place on it and the IAU 2006/2000A precession-nutation with the Earth rotation angle (eraApco),
// then per body its barycentric position corrected for light time, the Sun's light deflection and
// annual and diurnal aberration (eraAtciqz), and the horizon (eraAtioq, airless). The Moon is
// eraMoon98 (Meeus' ELP-2000/82 truncation, as in "Astronomical Algorithms", 2nd ed., ch. 47);
// the planets a truncated VSOP87D (Bretagnon & Francou 1988; VSOP87.swift, Data/vsop87.bin), with
// eraPlan94 (Simon et al. 1994) only if that file cannot be read; their magnitudes Mallama & Hilton (2018).

import CERFA
import Foundation

typealias Vector3 = SIMD3<Double>

@inline(__always) func vector(_ t: (Double, Double, Double)) -> Vector3 { Vector3(t.0, t.1, t.2) }
@inline(__always) func tuple(_ v: Vector3) -> (Double, Double, Double) { (v.x, v.y, v.z) }
@inline(__always) func length(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }
@inline(__always) func dot(_ a: Vector3, _ b: Vector3) -> Double { (a * b).sum() }
@inline(__always) func normalized(_ v: Vector3) -> Vector3 { v / length(v) }
@inline(__always) func cross(_ a: Vector3, _ b: Vector3) -> Vector3 {
    Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

public enum Planet: String, CaseIterable, Sendable {
    case mercury, venus, mars, jupiter, saturn

    /// eraPlan94's planet number.
    var erfaNumber: Int32 {
        switch self { case .mercury: return 1; case .venus: return 2; case .mars: return 4; case .jupiter: return 5; case .saturn: return 6 }
    }

    public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// B − V of the planet's reflected light (its colour when drawn as a point).
    public var colorIndex: Double {
        switch self { case .mercury: return 0.93; case .venus: return 0.82; case .mars: return 1.36; case .jupiter: return 0.83; case .saturn: return 1.04 }
    }
}

/// The Moon seen from the observer.
public struct MoonPlace: Sendable, Equatable {
    public var position: Horizontal
    /// Observer to the Moon's centre, km, and the Earth's centre to it.
    public var distanceKm: Double
    public var geocentricDistanceKm: Double
    /// Degrees, at the observer's distance.
    public var angularDiameter: Double
    public var illuminatedFraction: Double
    /// Sun–Moon–observer angle, degrees (0 at full Moon).
    public var phaseAngle: Double
    /// Position angle of the bright limb's midpoint, degrees from celestial north through east.
    public var brightLimbAngle: Double
    /// Position angle of the zenith seen at the Moon's place (the parallactic angle), degrees.
    public var parallacticAngle: Double
    /// Visual magnitude (Allen's phase law).
    public var magnitude: Double

    /// The Moon's mean radius, km.
    public static let radiusKm = 1737.4
}

public struct PlanetPlace: Sendable, Equatable {
    public var planet: Planet
    public var position: Horizontal
    public var magnitude: Double
    /// Observer to the planet, au.
    public var distance: Double
}

/// Everything a dated sky needs at one instant and place.
public struct Ephemeris: @unchecked Sendable {
    public let time: AstroTime
    public let observer: Observer
    var astrom: eraASTROM
    /// The Earth's barycentric and heliocentric position (au) and velocity (au/day), BCRS.
    let earthBarycentric: (p: Vector3, v: Vector3)
    let earthHeliocentric: (p: Vector3, v: Vector3)

    public static let auKm = 149_597_870.7
    /// The speed of light, au per day.
    static let lightAuPerDay = 173.144_632_674_240_3

    public init(time: AstroTime, observer: Observer) {
        self.time = time
        self.observer = observer
        var pvh = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        var pvb = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        _ = eraEpv00(time.tt.0, time.tt.1, &pvh, &pvb)
        earthBarycentric = (vector(pvb[0]), vector(pvb[1]))
        earthHeliocentric = (vector(pvh[0]), vector(pvh[1]))
        var rnpb = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        var x = 0.0, y = 0.0
        withUnsafeMutablePointer(to: &rnpb) { m in
            m.withMemoryRebound(to: (Double, Double, Double).self, capacity: 3) { rows in
                eraPnm06a(time.tt.0, time.tt.1, rows)
                eraBpn2xy(rows, &x, &y)
            }
        }
        let s = eraS06(time.tt.0, time.tt.1, x, y)
        let theta = eraEra00(time.ut1.0, time.ut1.1)
        let sp = eraSp00(time.tt.0, time.tt.1)
        var ehp = [pvh[0].0, pvh[0].1, pvh[0].2]
        var a = eraASTROM()
        eraApco(time.tt.0, time.tt.1, &pvb, &ehp, x, y, s, theta,
                observer.longitude * .pi / 180, observer.latitude * .pi / 180, observer.height,
                0, 0, sp, 0, 0, &a)
        astrom = a
        var g = eraASTROM()
        eraApci(time.tt.0, time.tt.1, &pvb, &ehp, x, y, s, &g)
        geocentric = g
    }

    /// The same for the Earth's centre (no diurnal motion): the stars' cached CIRS places.
    var geocentric: eraASTROM

    public init(unixSeconds: Double, observer: Observer) {
        self.init(time: AstroTime(unixSeconds: unixSeconds), observer: observer)
    }

    /// The observer's barycentric position, au.
    var observerBarycentric: Vector3 { vector(astrom.eb) }

    /// CIRS right ascension and declination (radians) of a direction given in BCRS axes
    /// (astrometric, light time already applied): light deflection, aberration, precession-nutation.
    func cirs(ofAstrometric p: Vector3) -> (ra: Double, dec: Double) {
        var c = [p.x, p.y, p.z]
        var rc = 0.0, dc = 0.0
        eraC2s(&c, &rc, &dc)
        var ri = 0.0, di = 0.0
        var a = astrom
        eraAtciqz(eraAnp(rc), dc, &a, &ri, &di)
        return (ri, di)
    }

    /// Airless topocentric horizon coordinates of a CIRS place.
    func horizontal(ra: Double, dec: Double) -> Horizontal {
        var a = astrom
        var aob = 0.0, zob = 0.0, hob = 0.0, dob = 0.0, rob = 0.0
        eraAtioq(ra, dec, &a, &aob, &zob, &hob, &dob, &rob)
        var az = aob * 180 / .pi
        if az < 0 { az += 360 }
        if az >= 360 { az -= 360 }
        return Horizontal(elevation: 90 - zob * 180 / .pi, azimuth: az)
    }

    /// The Sun's barycentric position and velocity.
    var sunBarycentric: (p: Vector3, v: Vector3) {
        (earthBarycentric.p - earthHeliocentric.p, earthBarycentric.v - earthHeliocentric.v)
    }

    /// Observer → body (au), corrected for the light time of a body moving at velocity v.
    func astrometric(_ p: Vector3, velocity v: Vector3) -> Vector3 {
        let geometric = p - observerBarycentric
        let lightTime = length(geometric) / Self.lightAuPerDay
        return p - v * lightTime - observerBarycentric
    }

    /// The Sun: CIRS place, horizon and the astrometric vector (au).
    public var sun: Horizontal { sunPlace.position }

    var sunPlace: (position: Horizontal, ra: Double, dec: Double, vector: Vector3) {
        let s = sunBarycentric
        let p = astrometric(s.p, velocity: s.v)
        let c = cirs(ofAstrometric: p)
        return (horizontal(ra: c.ra, dec: c.dec), c.ra, c.dec, p)
    }

    public var moon: MoonPlace {
        var pv = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        eraMoon98(time.tt.0, time.tt.1, &pv)
        let geocentric = vector(pv[0])
        let barycentric = earthBarycentric.p + geocentric
        let velocity = earthBarycentric.v + vector(pv[1])
        let p = astrometric(barycentric, velocity: velocity)
        let c = cirs(ofAstrometric: p)
        let position = horizontal(ra: c.ra, dec: c.dec)
        let distance = length(barycentric - observerBarycentric) * Self.auKm
        let sun = sunPlace
        // Phase: the angle at the Moon between the Sun and the observer (geometric vectors).
        let toObserver = -(barycentric - observerBarycentric)
        let toSun = sunBarycentric.p - barycentric
        let cosPhase = min(max(dot(toObserver, toSun) / (length(toObserver) * length(toSun)), -1), 1)
        let phase = acos(cosPhase) * 180 / .pi
        // The bright limb: the position angle of the Sun seen from the Moon's place (Meeus 48.5).
        let d = sun.ra - c.ra
        var chi = atan2(cos(sun.dec) * sin(d), sin(sun.dec) * cos(c.dec) - cos(sun.dec) * sin(c.dec) * cos(d)) * 180 / .pi
        if chi < 0 { chi += 360 }
        let hourAngle = astrom.eral - c.ra
        let q = eraHd2pa(hourAngle, c.dec, astrom.phi) * 180 / .pi
        let sunDistance = length(toSun)
        let magnitude = -12.73 + 0.026 * phase + 4e-9 * pow(phase, 4)
            + 5 * log10(distance / 384_400 * sunDistance)
        return MoonPlace(position: position, distanceKm: distance, geocentricDistanceKm: length(geocentric) * Self.auKm,
                         angularDiameter: 2 * asin(MoonPlace.radiusKm / distance) * 180 / .pi,
                         illuminatedFraction: (1 + cosPhase) / 2, phaseAngle: phase, brightLimbAngle: chi,
                         parallacticAngle: q, magnitude: magnitude)
    }

    /// A planet's heliocentric position (au, BCRS axes) at TT `tt`: the shipped truncated VSOP87D
    /// (VSOP87.swift; within about 0.5″ of JPL DE421 over 1950–2050 seen from the Earth), or
    /// eraPlan94 (tens of arcseconds) when vsop87.bin cannot be read.
    func heliocentric(_ planet: Planet, tt: (Double, Double)) -> Vector3 {
        if let series = VSOP87.shared { return series.heliocentric(planet, tt: tt) }
        var pv = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
        _ = eraPlan94(tt.0, tt.1, planet.erfaNumber, &pv)
        return vector(pv[0])
    }

    public func planet(_ planet: Planet) -> PlanetPlace {
        let sun = sunBarycentric
        // Light time: the planet where it was when the light left it (two iterations converge to
        // well under a millisecond of time).
        var helio = heliocentric(planet, tt: time.tt)
        var p = helio + sun.p - observerBarycentric
        for _ in 0..<2 {
            let tau = length(p) / Self.lightAuPerDay
            helio = heliocentric(planet, tt: (time.tt.0, time.tt.1 - tau))
            p = helio + sun.p - sun.v * tau - observerBarycentric
        }
        let c = cirs(ofAstrometric: p)
        let r = length(helio), delta = length(p)
        // Phase angle: Sun–planet–observer.
        let toObserver = -p, toSun = -helio
        let alpha = acos(min(max(dot(toObserver, toSun) / (delta * r), -1), 1)) * 180 / .pi
        let ringTilt = planet == .saturn ? Self.saturnRingTilt(sunToSaturn: helio, observerToSaturn: p) : 0
        let m = PlanetMagnitude.visual(planet, r: r, delta: delta, phaseAngle: alpha, ringTilt: ringTilt)
        return PlanetPlace(planet: planet, position: horizontal(ra: c.ra, dec: c.dec), magnitude: m, distance: delta)
    }

    public var planets: [PlanetPlace] { Planet.allCases.map { planet($0) } }

    /// Saturn's north pole (IAU WGCCRE 2015, ICRF: α 40.589°, δ 83.537°, their slow drift neglected).
    static let saturnPole: Vector3 = {
        let a = 40.589 * Double.pi / 180, d = 83.537 * Double.pi / 180
        return Vector3(cos(d) * cos(a), cos(d) * sin(a), sin(d))
    }()

    /// The ring tilt of Mallama & Hilton's Saturn (degrees, ≥ 0): the geometric mean of the Sun's
    /// and the observer's latitudes above the ring plane seen from Saturn, 0 when they are on
    /// opposite sides (the lit face is turned away).
    static func saturnRingTilt(sunToSaturn s: Vector3, observerToSaturn p: Vector3) -> Double {
        func latitude(_ v: Vector3) -> Double { asin(dot(-normalized(v), saturnPole)) * 180 / .pi }
        let a = latitude(s), b = latitude(p)
        return a * b > 0 ? (a * b).squareRoot() : 0
    }
}

/// Visual magnitudes of the planets: Mallama & Hilton (2018), "Computing apparent planetary
/// magnitudes for The Astronomical Almanac", Astronomy and Computing 25, 10–24.
public enum PlanetMagnitude {
    /// r: Sun distance, delta: observer distance (au); phase angle and ring tilt in degrees.
    public static func visual(_ planet: Planet, r: Double, delta: Double, phaseAngle a: Double, ringTilt: Double = 0) -> Double {
        let distance = 5 * log10(r * delta)
        switch planet {
        case .mercury:
            let a2 = a * a, a3 = a2 * a, a4 = a3 * a, a5 = a4 * a, a6 = a5 * a
            return distance - 0.613 + 6.3280e-02 * a - 1.6336e-03 * a2 + 3.3644e-05 * a3
                - 3.4265e-07 * a4 + 1.6893e-09 * a5 - 3.0334e-12 * a6
        case .venus:
            if a < 163.7 {
                return distance - 4.384 - 1.044e-03 * a + 3.687e-04 * a * a - 2.814e-06 * a * a * a + 8.938e-09 * a * a * a * a
            }
            return distance + 236.05828 - 2.81914 * a + 8.39034e-03 * a * a
        case .mars:
            if a <= 50 { return distance - 1.601 + 2.267e-02 * a - 1.302e-04 * a * a }
            return distance - 0.367 - 0.02573 * a + 0.0003445 * a * a
        case .jupiter:
            if a <= 12 { return distance - 9.395 - 3.7e-04 * a + 6.16e-04 * a * a }
            let x = a / 180
            return distance - 9.428 - 2.5 * log10(1 - 1.507 * x - 0.363 * x * x - 0.062 * x * x * x + 2.809 * x * x * x * x - 1.876 * x * x * x * x * x)
        case .saturn:
            let s = sin(abs(ringTilt) * .pi / 180)
            return distance - 8.914 - 1.825 * s + 2.6e-02 * a - 0.378 * s * exp(-2.25 * a)
        }
    }
}
