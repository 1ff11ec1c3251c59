// Wide colour: the working space, Display P3, and the one output transform before quantisation.
//
// The working space is extended sRGB, as UIKit and Core Graphics composite on wide-colour devices:
// sRGB-encoded values (the sign-symmetric sRGB transfer, ColorMath.srgbToLinear) that may lie
// below 0 or above 1. A `color(display-p3 …)` or `color(srgb-linear …)` is converted to it when it
// is decoded; nothing between decoding and the final quantisation clamps a colour. Then the output
// transform (Shaders/output.glsl's outputTransform, the same constants through the prelude) maps
// the straight-alpha colour of each pixel into the output space:
//   srgb:       clip each channel in linear light to 0…1 (the same as clipping the encoded value);
//   display-p3: decode to linear light, linear sRGB → linear Display P3 (the 3×3 matrix below),
//               clip each channel to 0…1, encode with the sRGB transfer (Display P3's own).

import Foundation

/// The colour space a rendered picture is in (`outputColorSpace`, `--color-space`).
public enum OutputColorSpace: String, CaseIterable, Sendable {
    /// sRGB (IEC 61966-2-1): out-of-gamut colours clipped per channel in linear light.
    case srgb
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB transfer.
    case displayP3 = "display-p3"

    /// The GPU's integer code (uniform `u_outputSpace`; OUTPUT_SPACE_* in the prelude).
    public var code: Int32 { self == .srgb ? 0 : 1 }

    /// The PNG `cICP` chunk's values: colour primaries (ITU-T H.273: 1 BT.709, 12 SMPTE EG 432-1),
    /// transfer (13: IEC 61966-2-1, the sRGB curve), matrix (0: RGB), full range (1).
    public var cicp: (primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: UInt8) {
        self == .srgb ? (1, 13, 0, 1) : (12, 13, 0, 1)
    }

    /// The name users read ("sRGB", "Display P3"): in ICC profile descriptions and messages.
    public var displayName: String { self == .srgb ? "sRGB" : "Display P3" }

    /// ffmpeg's `-color_primaries` value for video (`-color_trc` is iec61966-2-1 for both).
    public var ffmpegPrimaries: String { self == .srgb ? "bt709" : "smpte432" }
}

/// A colour space's red, green and blue primaries and white point as CIE xy chromaticities.
public struct Primaries: Sendable {
    public var red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>

    /// D65 as sRGB and Display P3 specify it (x 0.3127, y 0.3290).
    public static let d65 = SIMD2<Double>(0.3127, 0.3290)
    /// IEC 61966-2-1 (the BT.709 primaries).
    public static let srgb = Primaries(red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], white: d65)
    /// SMPTE EG 432-1 (DCI-P3 primaries) with the D65 white: Apple's Display P3.
    public static let displayP3 = Primaries(red: [0.680, 0.320], green: [0.265, 0.690], blue: [0.150, 0.060], white: d65)

    /// Linear RGB → CIE XYZ (Y of white = 1), the columns being the primaries' XYZ scaled so that
    /// RGB (1, 1, 1) is the white point.
    public var toXYZ: Matrix3 {
        func xyz(_ c: SIMD2<Double>) -> SIMD3<Double> { SIMD3(c.x / c.y, 1, (1 - c.x - c.y) / c.y) }
        let m = Matrix3(columns: (xyz(red), xyz(green), xyz(blue)))
        let s = m.inverse * xyz(white)
        return Matrix3(columns: (m.columns.0 * s.x, m.columns.1 * s.y, m.columns.2 * s.z))
    }
}

/// A 3×3 matrix of Doubles, by columns (as GLSL's mat3).
public struct Matrix3: Sendable {
    public var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    public init(columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) { self.columns = columns }

    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: (a * b.columns.0, a * b.columns.1, a * b.columns.2))
    }

    /// Rows, for printing and for tests.
    public var rows: [[Double]] {
        let c = [columns.0, columns.1, columns.2]
        return (0..<3).map { r in c.map { $0[r] } }
    }

    public var inverse: Matrix3 {
        let (a, b, c) = columns
        // The inverse's rows are the cross products of the columns over the determinant.
        func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        let r0 = cross(b, c), r1 = cross(c, a), r2 = cross(a, b)
        let det = (a * r0).sum()
        let rows = [r0 / det, r1 / det, r2 / det]
        return Matrix3(columns: (SIMD3(rows[0].x, rows[1].x, rows[2].x), SIMD3(rows[0].y, rows[1].y, rows[2].y),
                                 SIMD3(rows[0].z, rows[1].z, rows[2].z)))
    }

    /// The columns as Floats, in the order GLSL's mat3 constructor takes them.
    public var floatColumns: [SIMD3<Float>] {
        [SIMD3<Float>(columns.0), SIMD3<Float>(columns.1), SIMD3<Float>(columns.2)]
    }
}

extension ColorMath {
    /// Linear sRGB → linear Display P3 (both D65): Display P3's XYZ → RGB after sRGB's RGB → XYZ.
    public static let linearSRGBToDisplayP3: Matrix3 = Primaries.displayP3.toXYZ.inverse * Primaries.srgb.toXYZ
    /// Linear Display P3 → linear sRGB (what a `color(display-p3 …)` goes through when decoded).
    public static let linearDisplayP3ToSRGB: Matrix3 = Primaries.srgb.toXYZ.inverse * Primaries.displayP3.toXYZ

    /// `linearSRGBToDisplayP3` as Floats, columns (the prelude's OUTPUT_SRGB_TO_DISPLAY_P3).
    public static let srgbToDisplayP3Columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = {
        let c = linearSRGBToDisplayP3.floatColumns
        return (c[0], c[1], c[2])
    }()

    /// The output transform of one straight-alpha colour in the working space (extended sRGB,
    /// encoded) into `space`'s encoded values, before quantisation. For sRGB the quantiser's own
    /// clamp is the linear-light clip (the transfer is monotonic and keeps 0 and 1), so the colour
    /// passes unchanged. Shaders/output.glsl's outputTransform: the same steps in the same order.
    @inlinable public static func outputTransform(_ c: SIMD3<Float>, _ space: OutputColorSpace) -> SIMD3<Float> {
        guard space == .displayP3 else { return c }
        return displayP3Output(c)
    }

    /// Linear values this close to 1 are 1: float rounding in the decode's and the output's
    /// matrices (measured: a few 1e-7) must not turn a colour on the gamut's face, such as
    /// `color(display-p3 1 0 0)`, into 254.99…, which the dither makes 254 on 1/64 of the pixels.
    /// 2⁻¹⁸ of linear light is a tenth of a 16-bit step.
    public static let outputSnap: Float = 0x1p-18

    /// Extended sRGB (encoded) → Display P3 (encoded), clipped to 0…1 in linear light.
    @inlinable public static func displayP3Output(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = srgbToLinear(c)
        let m = srgbToDisplayP3Columns
        let p = m.0 * l.x + m.1 * l.y + m.2 * l.z
        return SIMD3(encodeOutput(p.x), encodeOutput(p.y), encodeOutput(p.z))
    }

    /// One linear channel clipped to 0…1 (snapped to 1 within `outputSnap`) and sRGB-encoded
    /// with the exact transfer (the 16-bit output resolves what encodeSRGBUnit's 7e-6 would not).
    @inlinable public static func encodeOutput(_ v: Float) -> Float {
        if v >= 1 - outputSnap { return 1 }
        // max before min: NaN (a degenerate colour) becomes 0 here, as the quantiser would make it.
        return linearToSRGB(min(max(v, 0), 1))
    }

    /// Display P3 (encoded) → extended sRGB (encoded): how `color(display-p3 r g b)` is decoded.
    public static func displayP3ToExtendedSRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
        func decode(_ v: Double) -> Double {
            let a = abs(v)
            let l = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
            return v < 0 ? -l : l
        }
        let linear = linearDisplayP3ToSRGB * SIMD3(decode(c.x), decode(c.y), decode(c.z))
        return SIMD3(encodeExtended(linear.x), encodeExtended(linear.y), encodeExtended(linear.z))
    }

    /// Linear sRGB → extended sRGB (encoded), the sign-symmetric transfer in Double.
    public static func encodeExtended(_ l: Double) -> Double {
        let a = abs(l)
        let v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055
        return l < 0 ? -v : v
    }
}
