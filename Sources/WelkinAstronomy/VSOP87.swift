// The planets' heliocentric positions: VSOP87D (Bretagnon & Francou 1988, A&A 202, 309),
// truncated to the terms that matter over 1950–2050 (Data/vsop87.bin; Data/README.md gives the
// source, the truncation and the layout; Scripts/make-vsop87.py writes it).
//
// VSOP87D gives heliocentric spherical coordinates L, B (radians) and R (au) referred to the
// dynamical ecliptic and equinox of date, each Σ_a τ^a Σ A cos(B + C τ) with τ in Julian
// millennia TDB from J2000. They are turned into ICRS-aligned axes by the IAU 2006 chain ERFA
// uses: rectangular in the ecliptic of date, then eraEcm06's matrix transposed (eraEcm06 is
// R1(ε_A)·(bias-precession): eraObl06's mean obliquity of date times eraPmat06's matrix).
//
// One correction is applied to L before that, measured against JPL DE421 (skyfield + jplephem,
// heliocentric positions every 5 days of 1950–2050, the full series):
//   ΔL = −0.09033″ − 0.3004″ T   (T in Julian centuries from J2000)
// The constant is Meeus' VSOP-to-FK5 correction ("Astronomical Algorithms", 2nd ed., eq. 32.3);
// the rate is a drift of about +0.3″ a century in every planet's longitude, the difference
// between the IAU 1976 general precession in longitude (5029.0966″/cy, to which VSOP87's
// of-date series appear to be referred) and IAU 2006's (5028.796195″/cy). With it the full series
// agree with DE421 to 0.02″ (Mercury), 0.08″ (Venus), 0.11″ (Mars), 0.37″ (Jupiter) and 0.29″
// (Saturn) in the geocentric direction, against 0.20″–0.66″ without it. Meeus' ΔB and his tan B
// term are left out: in this chain they made the latitudes worse (the IAU 2006 ecliptic already is
// the dynamical one). The truncation adds at most about 0.45″ (Data/README.md).

import CERFA
import Foundation
import WelkinResources

public enum VSOP87Error: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case malformed(String)
    public var description: String {
        switch self {
        case .missing(let s): return "the VSOP87 series are missing: \(s)"
        case .malformed(let s): return "the VSOP87 series are malformed: \(s)"
        }
    }
}

/// The truncated VSOP87D series of Mercury, Venus, Mars, Jupiter and Saturn.
public final class VSOP87: Sendable {
    /// The file's planet order, and the powers of τ per coordinate.
    static let planets: [Planet] = [.mercury, .venus, .mars, .jupiter, .saturn]
    static let powers = 6
    static let magic = Array("WKVSOP87".utf8)

    /// Every term's (A, B, C), series after series in file order.
    let terms: [SIMD3<Double>]
    /// (first term, count) of the series for planet p, coordinate c (L, B, R), power a at
    /// index (p · 3 + c) · powers + a.
    let ranges: [(start: Int, count: Int)]

    /// Parses the binary layout Data/README.md gives; throws on anything else.
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        let planetCount = Self.planets.count, powers = Self.powers
        guard bytes.count >= 16, Array(bytes[0..<8]) == Self.magic else { throw VSOP87Error.malformed("no WKVSOP87 header") }
        func u32(_ o: Int) -> UInt32 { UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24 }
        func f64(_ o: Int) -> Double { Double(bitPattern: UInt64(u32(o)) | UInt64(u32(o + 4)) << 32) }
        guard u32(8) == planetCount, u32(12) == powers else {
            throw VSOP87Error.malformed("\(u32(8)) planets × \(u32(12)) powers, expected \(planetCount) × \(powers)")
        }
        var offset = 16
        var terms: [SIMD3<Double>] = []
        var ranges: [(start: Int, count: Int)] = []
        for _ in 0..<(planetCount * 3 * powers) {
            guard offset + 4 <= bytes.count else { throw VSOP87Error.malformed("ends inside the series counts (\(bytes.count) bytes)") }
            let count = Int(u32(offset))
            offset += 4
            // Checked against what is left before multiplying: a garbled count cannot overflow.
            guard count <= (bytes.count - offset) / 24 else {
                throw VSOP87Error.malformed("a series of \(count) terms at byte \(offset - 4) runs past the end (\(bytes.count) bytes)")
            }
            ranges.append((terms.count, count))
            for k in 0..<count {
                let o = offset + 24 * k
                let t = SIMD3(f64(o), f64(o + 8), f64(o + 16))
                guard t.x.isFinite, t.y.isFinite, t.z.isFinite else { throw VSOP87Error.malformed("a term that is not finite at byte \(o)") }
                terms.append(t)
            }
            offset += 24 * count
        }
        guard offset == bytes.count else { throw VSOP87Error.malformed("\(bytes.count - offset) bytes after the last series") }
        self.terms = terms
        self.ranges = ranges
    }

    /// The series shipped with Welkin (loaded once).
    public static let shipped: Result<VSOP87, VSOP87Error> =
        loadShipped("vsop87.bin", parse: { try VSOP87(data: $0) }, missing: { .missing($0) })

    /// The shipped series, or none when they cannot be read.
    public static var shared: VSOP87? { try? shipped.get() }

    /// Heliocentric L, B (radians) and R (au), ecliptic and equinox of date, uncorrected, at τ
    /// Julian millennia TDB from J2000.
    func spherical(_ planet: Planet, tau: Double) -> (l: Double, b: Double, r: Double) {
        let p = Self.planets.firstIndex(of: planet)!
        func coordinate(_ c: Int) -> Double {
            var total = 0.0
            // Horner in τ, from the highest power down.
            for a in stride(from: Self.powers - 1, through: 0, by: -1) {
                let range = ranges[(p * 3 + c) * Self.powers + a]
                var sum = 0.0
                for k in range.start..<(range.start + range.count) {
                    let t = terms[k]
                    sum += t.x * cos(t.y + t.z * tau)
                }
                total = total * tau + sum
            }
            return total
        }
        return (coordinate(0), coordinate(1), coordinate(2))
    }

    /// The planet's heliocentric position at TT `tt` (two-part Julian date, taken as TDB): au, in
    /// ICRS-aligned (BCRS) axes.
    public func heliocentric(_ planet: Planet, tt: (Double, Double)) -> SIMD3<Double> {
        let days = (tt.0 - 2_451_545.0) + tt.1
        let s = spherical(planet, tau: days / 365_250)
        // The FK5/precession-rate correction in longitude (the header).
        let arcsecond = Double.pi / (180 * 3600)
        let l = s.l - (0.090_33 + 0.3004 * days / 36_525) * arcsecond
        let ecliptic = SIMD3(s.r * cos(s.b) * cos(l), s.r * cos(s.b) * sin(l), s.r * sin(s.b))
        // ICRS → ecliptic of date; its transpose takes the position back.
        var rm = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        withUnsafeMutablePointer(to: &rm) { m in
            m.withMemoryRebound(to: (Double, Double, Double).self, capacity: 3) { rows in
                eraEcm06(tt.0, tt.1, rows)
            }
        }
        let r0 = SIMD3(rm.0.0, rm.0.1, rm.0.2), r1 = SIMD3(rm.1.0, rm.1.1, rm.1.2), r2 = SIMD3(rm.2.0, rm.2.1, rm.2.2)
        return ecliptic.x * r0 + ecliptic.y * r1 + ecliptic.z * r2
    }
}
