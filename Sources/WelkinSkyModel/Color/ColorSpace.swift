// Colour spaces for interpolation, and the conversions between them.
//
// The same formulas, with the same constants, live in Shaders/colorspace.glsl.

import Foundation

/// Where gradient colours are interpolated.
public enum ColorSpace: String, CaseIterable, Sendable {
    /// Interpolate sRGB-encoded values, as CAGradientLayer, cairo and skia do (the default).
    case srgb
    /// Interpolate linear-light sRGB.
    case linearSRGB
    /// Interpolate in Björn Ottosson's OKLab.
    case oklab

    /// The GPU's integer code for this space (uniform `u_colorSpace`).
    public var code: Int32 {
        switch self { case .srgb: return 0; case .linearSRGB: return 1; case .oklab: return 2 }
    }
}

public enum ColorMath {
    /// sRGB electro-optical transfer: encoded → linear.
    @inlinable public static func srgbToLinear(_ c: Float) -> Float {
        let a = abs(c)
        let v = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
        return c < 0 ? -v : v
    }

    /// Inverse transfer: linear → encoded.
    @inlinable public static func linearToSRGB(_ c: Float) -> Float {
        let a = abs(c)
        let v = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
        return c < 0 ? -v : v
    }

    /// Linear → encoded for c in [0, 1], without `powf`: above the linear toe, a degree-5
    /// polynomial in c^(1/4) (two square roots), fitted minimax to 1.055·c^(1/2.4) − 0.055. Within
    /// 7e-6 of `linearToSRGB` everywhere in [0, 1], increasing but for a 7e-6 step down at the toe.
    /// The sky's shaders (colorspace.glsl's encodeSRGBUnit) evaluate the same constants in the
    /// same order.
    @inlinable public static func encodeSRGBUnit(_ c: Float) -> Float {
        let t = c.squareRoot().squareRoot()
        var v: Float = -0.068_148_486
        v = v * t + 0.289_537_43
        v = v * t - 0.577_489_55
        v = v * t + 1.255_409_6
        v = v * t + 0.162_024_42
        v = v * t - 0.061_339_982
        return c <= 0.0031308 ? c * 12.92 : v
    }

    @inlinable public static func encodeSRGBUnit(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(encodeSRGBUnit(c.x), encodeSRGBUnit(c.y), encodeSRGBUnit(c.z))
    }

    /// A premultiplied sRGB-encoded colour as premultiplied linear light (scene-linear output).
    @inlinable public static func linearizePremultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> {
        guard c.w > 0 else { return .zero }
        let straight = SIMD3(c.x, c.y, c.z) / c.w
        let l = srgbToLinear(straight) * c.w
        return SIMD4(l, c.w)
    }

    @inlinable public static func srgbToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z))
    }

    @inlinable public static func linearToSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(linearToSRGB(c.x), linearToSRGB(c.y), linearToSRGB(c.z))
    }

    /// Linear sRGB → OKLab.
    @inlinable public static func linearToOklab(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z
        let m = 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z
        let s = 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z
        let l_ = cbrtf(l), m_ = cbrtf(m), s_ = cbrtf(s)
        return SIMD3(0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                     1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                     0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)
    }

    /// OKLab → linear sRGB.
    @inlinable public static func oklabToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l_ = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z
        let m_ = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z
        let s_ = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        return SIMD3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                     -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                     -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }

    /// A straight-alpha sRGB colour → premultiplied components in `space` (what gradients interpolate).
    public static func toInterpolationSpace(_ c: RGBA, _ space: ColorSpace) -> SIMD4<Float> {
        let rgb = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
        let a = Float(c.a)
        let v: SIMD3<Float>
        switch space {
        case .srgb: v = rgb
        case .linearSRGB: v = srgbToLinear(rgb)
        case .oklab: v = linearToOklab(srgbToLinear(rgb))
        }
        return SIMD4(v * a, a)
    }

    /// Premultiplied components in `space` → premultiplied sRGB-encoded (what compositing uses).
    /// Not clamped: the working space is extended sRGB, and only the output transform clips.
    @inlinable public static func fromInterpolationSpace(_ p: SIMD4<Float>, _ space: ColorSpace) -> SIMD4<Float> {
        if space == .srgb { return p }
        let a = p.w
        if a <= 0 { return .zero }
        let v = SIMD3(p.x, p.y, p.z) / a
        let rgb: SIMD3<Float>
        switch space {
        case .srgb: rgb = v
        case .linearSRGB: rgb = linearToSRGB(v)
        case .oklab: rgb = linearToSRGB(oklabToLinear(v))
        }
        return SIMD4(rgb * a, a)
    }
}
