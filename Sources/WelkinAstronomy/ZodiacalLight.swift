// The zodiacal light: sunlight scattered by the interplanetary dust, brightest toward the Sun and
// along the ecliptic (the cone in the west after dusk and in the east before dawn at a dark site,
// the faint band across the sky and the gegenschein opposite the Sun), from Leinert et al. 1998,
// "The 1997 reference of diffuse night sky brightness" (A&AS 127, 1), Table 17, and the rotation
// from the observer's horizon to the ecliptic frame.

import Foundation

public enum ZodiacalLight {
    /// Table 17's helioecliptic longitudes λ − λ☉ (degrees, rows) and ecliptic latitudes |β| (columns).
    public static let longitudes: [Double] = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60, 75, 90, 105, 120, 135, 150, 165, 180]
    public static let latitudes: [Double] = [0, 5, 10, 15, 20, 25, 30, 45, 60, 75, 90]

    /// Table 17: the zodiacal light seen from the Earth (outside the air) at 500 nm, in
    /// 10⁻⁸ W m⁻² sr⁻¹ μm⁻¹, row by row (λ − λ☉ = 0°, 5°, … 180°), each row |β| = 0°, 5°, … 90°.
    /// The table leaves out the directions within about 15° of the Sun (0 here); `values` fills
    /// them in.
    public static let measured: [Double] = [
        0, 0, 0, 3140, 1610, 985, 640, 275, 150, 100, 77,
        0, 0, 0, 2940, 1540, 945, 625, 271, 150, 100, 77,
        0, 0, 4740, 2470, 1370, 865, 590, 264, 148, 100, 77,
        11500, 6780, 3440, 1860, 1110, 755, 525, 251, 146, 100, 77,
        6400, 4480, 2410, 1410, 910, 635, 454, 237, 141, 99, 77,
        3840, 2830, 1730, 1100, 749, 545, 410, 223, 136, 97, 77,
        2480, 1870, 1220, 845, 615, 467, 365, 207, 131, 95, 77,
        1650, 1270, 910, 680, 510, 397, 320, 193, 125, 93, 77,
        1180, 940, 700, 530, 416, 338, 282, 179, 120, 92, 77,
        910, 730, 555, 442, 356, 292, 250, 166, 116, 90, 77,
        505, 442, 352, 292, 243, 209, 183, 134, 104, 86, 77,
        338, 317, 269, 227, 196, 172, 151, 116, 93, 82, 77,
        259, 251, 225, 193, 166, 147, 132, 104, 86, 79, 77,
        212, 210, 197, 170, 150, 133, 119, 96, 82, 77, 77,
        188, 186, 177, 154, 138, 125, 113, 90, 77, 74, 77,
        179, 178, 166, 147, 134, 122, 110, 90, 77, 73, 77,
        179, 178, 165, 148, 137, 127, 116, 96, 79, 72, 77,
        196, 192, 179, 165, 151, 141, 131, 104, 82, 72, 77,
        230, 212, 195, 178, 163, 148, 134, 105, 83, 72, 77,
    ]

    /// The table with the directions it leaves out (within ~15° of the Sun, where the sky is never
    /// dark: the Sun is then at least 3° below the horizon and those directions lower still)
    /// extended along their row, log-linearly from the two nearest measured latitudes, so the
    /// interpolation beside them stays finite and rising toward the Sun.
    public static let values: [Float] = {
        var v = measured
        let n = latitudes.count
        for row in 0..<longitudes.count {
            guard let first = (0..<n).first(where: { v[row * n + $0] > 0 }), first > 0, first + 1 < n else { continue }
            let a = v[row * n + first], b = v[row * n + first + 1]
            let perDegree = log(a / b) / (latitudes[first + 1] - latitudes[first])
            for j in (0..<first).reversed() { v[row * n + j] = a * exp(perDegree * (latitudes[first] - latitudes[j])) }
        }
        return v.map { Float($0) }
    }()

    /// Table 17's unit as a surface brightness: 1.28 × 10⁻⁸ W m⁻² sr⁻¹ μm⁻¹ at 500 nm is one S10
    /// (a tenth-magnitude solar-type star per square degree: Leinert et al.'s conversion; a V = 10
    /// star's 3.6 × 10⁻¹² W m⁻² μm⁻¹ over 3.05 × 10⁻⁴ sr gives 1.2 × 10⁻⁸), and one S10 is 27.78 V
    /// mag/arcsec² (10 + 2.5 log₁₀ 3600²): a table value of 1 is 27.78 + 2.5 log₁₀ 1.28. The
    /// ecliptic pole's 77 is then 60 S10, 23.3 mag/arcsec².
    public static let unitMagnitude = 27.78 + 2.5 * log10(1.28)

    /// Its colour, B − V: sunlight reddened a little by the dust (Leinert et al.: slightly redder
    /// than the Sun's 0.65).
    public static let colorIndex = 0.75

    /// The J2000 mean ecliptic's axes in ICRS (rows: toward the equinox, toward λ = 90°, toward the
    /// ecliptic's north pole), for the IAU 2006 obliquity ε₀ = 84 381.406″.
    public static let eclipticAxes: [SIMD3<Double>] = {
        let e = 84381.406 / 3600 * Double.pi / 180
        return [SIMD3(1, 0, 0), SIMD3(0, cos(e), sin(e)), SIMD3(0, -sin(e), cos(e))]
    }()

    /// The rows of the rotation taking a horizon direction (x east, y north, z up) to ecliptic (x
    /// toward the equinox, y toward λ = 90°, z the north ecliptic pole) from an ephemeris's instant
    /// and place: the axes carried as stars are (MilkyWayMap.horizonRows). The ecliptic of J2000
    /// carried to the date is within 0.02° of the date's own over this century, far finer than
    /// the table's 5° steps.
    public static func horizonToEcliptic(_ e: Ephemeris) -> [SIMD3<Double>] {
        MilkyWayMap.horizonRows(eclipticAxes, e)
    }
}
