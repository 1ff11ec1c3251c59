// The star catalogue (every Hipparcos star to V 6.5; Data/README.md) and the stars' apparent
// places for an instant.
//
// A star's place moves with the date (proper motion, precession-nutation, aberration) by under an
// arcsecond a day, and with the Earth's rotation by 15° an hour. So the slow part, catalogue →
// CIRS (eraAtciq: proper motion, parallax, light deflection, aberration, precession-nutation), is
// computed for an epoch on a grid of 1/8 day and cached; each frame only turns the CIRS vectors by
// the local Earth rotation angle into the horizon, with diurnal aberration, as eraAtioq does.
// Holding the epoch for up to three hours moves a star by at most 0.05″ (aberration changes by
// 0.34″ a day, precession by 0.14″).

import CERFA
import Foundation

public struct CatalogStar: Sendable, Equatable {
    public var hip: Int
    /// ICRS, J2000.0, radians.
    public var ra: Double
    public var dec: Double
    /// mas a year (μα·cos δ, μδ), and parallax in mas.
    public var pmRA: Float
    public var pmDec: Float
    public var parallax: Float
    public var magnitude: Float
    public var colorIndex: Float
}

public enum StarCatalogError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(String)
    public var description: String {
        switch self {
        case .missing(let s): return "the star catalogue is missing: \(s)"
        case .malformed(let s): return "the star catalogue is malformed: \(s)"
        }
    }
}

public final class StarCatalog: Sendable {
    /// Brightest first.
    public let stars: [CatalogStar]

    public init(stars: [CatalogStar]) { self.stars = stars }

    /// Parses the binary layout Data/README.md gives.
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 16, Array(bytes[0..<8]) == Array("WKSTARS1".utf8) else { throw StarCatalogError.malformed("no WKSTARS1 header") }
        func u32(_ o: Int) -> UInt32 { UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24 }
        func u64(_ o: Int) -> UInt64 { UInt64(u32(o)) | UInt64(u32(o + 4)) << 32 }
        let count = Int(u32(8))
        let record = 4 + 8 + 8 + 5 * 4
        guard bytes.count == 16 + count * record else { throw StarCatalogError.malformed("\(bytes.count) bytes for \(count) stars") }
        var stars: [CatalogStar] = []
        stars.reserveCapacity(count)
        for i in 0..<count {
            let o = 16 + i * record
            func f32(_ k: Int) -> Float { Float(bitPattern: u32(o + 20 + 4 * k)) }
            stars.append(CatalogStar(hip: Int(u32(o)), ra: Double(bitPattern: u64(o + 4)), dec: Double(bitPattern: u64(o + 12)),
                                     pmRA: f32(0), pmDec: f32(1), parallax: f32(2), magnitude: f32(3), colorIndex: f32(4)))
        }
        self.stars = stars
    }

    /// The catalogue shipped with Welkin (loaded once).
    public static let shipped: Result<StarCatalog, StarCatalogError> =
        loadShipped("stars.bin", parse: { try StarCatalog(data: $0) }, missing: { .missing($0) })

    /// The shipped catalogue, or none when it cannot be read (the sky then draws no catalogue stars).
    public static var shared: StarCatalog? { try? shipped.get() }
}

/// A star's place at an instant.
public struct StarPlace: Sendable, Equatable {
    /// Index into the catalogue.
    public var index: Int
    public var position: Horizontal
}

extension StarCatalog {
    /// The epoch grid, days.
    public static let epochStep = 0.125

    /// CIRS unit vectors of every star at `epoch` (UT1 Julian day on the grid), cached.
    func cirsVectors(epoch: Double) -> [SIMD3<Double>] {
        let key = CIRSKey(epoch: epoch)
        if let hit = cirsCache.value(for: key) { return hit }
        let e = Ephemeris(time: AstroTime(unixSeconds: (epoch - AstroTime.unixEpochJD) * 86400),
                          observer: Observer(latitude: 0, longitude: 0))
        var a = e.geocentric
        let masToRadians = Double.pi / (180 * 3600 * 1000)
        var vectors: [SIMD3<Double>] = []
        vectors.reserveCapacity(stars.count)
        for s in stars {
            var ri = 0.0, di = 0.0
            let pr = Double(s.pmRA) * masToRadians / cos(s.dec)
            eraAtciq(s.ra, s.dec, pr, Double(s.pmDec) * masToRadians, Double(s.parallax) / 1000, 0, &a, &ri, &di)
            vectors.append(SIMD3(cos(di) * cos(ri), cos(di) * sin(ri), sin(di)))
        }
        cirsCache.store(vectors, for: key)
        return vectors
    }

    /// Every star's airless topocentric place at `time` from `observer` (index order = catalogue
    /// order), those at or below `magnitudeLimit` only.
    public func places(time: AstroTime, observer: Observer, magnitudeLimit: Double = .infinity) -> [StarPlace] {
        let jd = time.ut1.0 + time.ut1.1
        let epoch = (jd / Self.epochStep).rounded() * Self.epochStep
        let cirs = cirsVectors(epoch: epoch)
        let frame = HorizonFrame(Ephemeris(time: time, observer: observer))
        var out: [StarPlace] = []
        out.reserveCapacity(stars.count)
        for i in 0..<stars.count where Double(stars[i].magnitude) <= magnitudeLimit {
            out.append(StarPlace(index: i, position: Horizontal(vector: frame.apply(cirs[i]))))
        }
        return out
    }
}

/// Geocentric CIRS → horizon (x east, y north, z up) at an instant: the local Earth rotation
/// angle, the latitude and the diurnal aberration of the observer's own rotation, as eraAtioq
/// does it (no polar motion, no refraction).
struct HorizonFrame {
    let rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    let diurnal: Double

    /// The Earth's rotation rate, rad/s, and the WGS84 ellipsoid.
    static let omega = 7.292_115_855_3e-5
    static let equatorialRadius = 6_378_137.0, flattening = 1 / 298.257_223_563

    init(_ e: Ephemeris) {
        let a = e.astrom
        let c = cos(a.eral), s = sin(a.eral)
        // −HA,Dec: (c x + s y, −s x + c y, z); then to (south, east, up) with the latitude.
        let hx = SIMD3(c, s, 0.0), hy = SIMD3(-s, c, 0.0), hz = SIMD3(0.0, 0.0, 1.0)
        let south = a.sphi * hx - a.cphi * hz
        let up = a.cphi * hx + a.sphi * hz
        rows = (hy, -south, up)
        // Distance from the Earth's axis → rotation speed → aberration (radians, in units of c).
        let f = Self.flattening, e2 = f * (2 - f)
        let n = Self.equatorialRadius / (1 - e2 * a.sphi * a.sphi).squareRoot()
        let axis = (n + e.observer.height) * a.cphi
        diurnal = Self.omega * axis / 299_792_458
    }

    func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(dot(rows.0, v) + diurnal, dot(rows.1, v), dot(rows.2, v))
    }
}

struct CIRSKey: Hashable { let epoch: Double }

/// A small cache of the last few epochs' vectors (a running clock touches two or three).
final class CIRSCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(CIRSKey, [SIMD3<Double>])] = []

    func value(for key: CIRSKey) -> [SIMD3<Double>]? {
        lock.lock(); defer { lock.unlock() }
        return entries.first(where: { $0.0 == key })?.1
    }

    func store(_ v: [SIMD3<Double>], for key: CIRSKey) {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll { $0.0 == key }
        entries.append((key, v))
        if entries.count > 4 { entries.removeFirst() }
    }
}

private let cirsCache = CIRSCache()
