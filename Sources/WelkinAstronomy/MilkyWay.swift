// The Milky Way's diffuse light: ESA/Gaia/DPAC's all-sky map from Gaia EDR3 (CC BY-SA 3.0 IGO),
// as the light above the galactic poles' integrated starlight, in galactic coordinates
// (Data/milkyway.bin, made by Scripts/make-milky-way.py; Data/README.md gives the source, the
// licence and the calibration), and the rotation from the observer's horizon to the galactic frame.

import CERFA
import Foundation

public enum MilkyWayError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(String)

    public var description: String {
        switch self {
        case .missing(let s): return "the Milky Way's map is missing: \(s)"
        case .malformed(let s): return "the Milky Way's map is malformed: \(s)"
        }
    }
}

public final class MilkyWayMap: Sendable {
    /// Texels across (galactic longitude) and down (latitude).
    public let width: Int
    public let height: Int
    /// RGB bytes, row-major: row 0 at b = +90° … row height − 1 at b = −90°, texel (i, j)'s centre at
    /// l = (i + ½)·360°/width, b = 90° − (j + ½)·180°/height. A channel's byte v is
    /// `scale` · (v/255)² times the poles' integrated starlight (`poleMagnitude`).
    public let texels: [UInt8]
    public let scale: Double
    /// The texels as GL reads an RGBA8 texture of them (v/255, alpha 1), RGBA: what both renderers
    /// filter (GL's bilinear filter, PhysicalSkyDraw.milkyWay on the CPU) and then square into light
    /// (× `scale` × the poles' light).
    public let encoded: [Float]
    /// The same bytes with an alpha of 255, to upload.
    public let rgba: [UInt8]

    /// The integrated starlight of the galactic poles, V mag/arcsec² (about 50 S10: Leinert et al.
    /// 1998, A&AS 127, 1, §10). The night's natural background (NightGlow) already holds it; the map
    /// adds what the band has above it.
    public static let poleMagnitude = 23.5

    public init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 24, Array(bytes[0..<8]) == Array("WKMILKY1".utf8) else { throw MilkyWayError.malformed("no WKMILKY1 header") }
        func u32(_ o: Int) -> UInt32 { UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24 }
        width = Int(u32(8)); height = Int(u32(12))
        scale = Double(bitPattern: UInt64(u32(16)) | UInt64(u32(20)) << 32)
        guard width > 1, height > 1, bytes.count == 24 + 3 * width * height, scale.isFinite, scale > 0 else {
            throw MilkyWayError.malformed("\(bytes.count) bytes for \(width) × \(height) texels, scale \(scale)")
        }
        texels = Array(bytes[24...])
        var rgba = [UInt8](repeating: 255, count: 4 * width * height)
        for i in 0..<(width * height) { for c in 0..<3 { rgba[4 * i + c] = texels[3 * i + c] } }
        self.rgba = rgba
        encoded = rgba.map { Float($0) / 255 }
    }

    /// The map shipped with Welkin (loaded once).
    public static let shipped: Result<MilkyWayMap, MilkyWayError> =
        loadShipped("milkyway.bin", parse: { try MilkyWayMap(data: $0) }, missing: { .missing($0) })

    /// The shipped map, or none when it cannot be read (the night then shows no band).
    public static var shared: MilkyWayMap? { try? shipped.get() }

    /// The galactic frame's axes in ICRS (rows: toward the centre, toward l = 90°, toward the north
    /// galactic pole): the Hipparcos catalogue's definition (ESA 1997, vol. 1, §1.5.3, eq. 1.5.11).
    public static let galacticAxes: [SIMD3<Double>] = [
        SIMD3(-0.0548755604162154, -0.8734370902348850, -0.4838350155487132),
        SIMD3(0.4941094278755837, -0.4448296299600112, 0.7469822444972189),
        SIMD3(-0.8676661490190047, -0.1980763734312015, 0.4559837761750669),
    ]

    /// The rows of the rotation taking a horizon direction (x east, y north, z up) to galactic
    /// (x toward the centre, y toward l = 90°, z the north galactic pole) at `time` from `observer`:
    /// each galactic axis carried as a star is (precession-nutation, aberration, the Earth's
    /// rotation; no refraction), then made orthonormal: within 0.01° of skyfield's (aberration, up to
    /// 20.5″, is not a rotation), far finer than a texel (0.55°).
    public static func horizonToGalactic(time: AstroTime, observer: Observer) -> [SIMD3<Double>] {
        horizonToGalactic(Ephemeris(time: time, observer: observer))
    }

    /// The same from an ephemeris already made for the instant and place (the night sky's own).
    public static func horizonToGalactic(_ e: Ephemeris) -> [SIMD3<Double>] {
        horizonRows(galacticAxes, e)
    }

    /// The rows taking a horizon direction to the frame whose axes in ICRS are `frameAxes` (a
    /// right-handed orthonormal frame), at an ephemeris's instant and place: each axis carried as
    /// a star is, then made orthonormal.
    public static func horizonRows(_ frameAxes: [SIMD3<Double>], _ e: Ephemeris) -> [SIMD3<Double>] {
        var a = e.geocentric
        let frame = HorizonFrame(e)
        var axes: [SIMD3<Double>] = []
        for g in frameAxes {
            let ra = atan2(g.y, g.x), dec = asin(min(max(g.z, -1), 1))
            var ri = 0.0, di = 0.0
            eraAtciq(ra, dec, 0, 0, 0, 0, &a, &ri, &di)
            let cirs = SIMD3(cos(di) * cos(ri), cos(di) * sin(ri), sin(di))
            let h = frame.apply(cirs)
            axes.append(h / (h * h).sum().squareRoot())
        }
        // Gram–Schmidt: x, then y without x, then z = x × y (right-handed as the frame is).
        let x = axes[0]
        var y = axes[1] - x * (x * axes[1]).sum()
        y /= (y * y).sum().squareRoot()
        let z = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        return [x, y, z]
    }
}
