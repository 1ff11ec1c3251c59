// Tone curves: scene-linear radiance (after exposure) to display-linear sRGB in 0…1.
//
// Mirrored by Shaders/tonemap.glsl with the same names, constants and order of operations.
// AgX: Troy Sobotka's AgX base (Blender 4's default view) in its common polynomial form: a
// Rec.709 → AgX inset matrix, log2 encoding over [−12.47, +4.03] EV, a sixth-order fit of the
// base contrast sigmoid, the outset matrix and a 2.2 power. ACES: Krzysztof Narkowicz's 2015 fit of
// the ACES RRT + ODT (input × 0.6, as that fit expects). Neutral: Khronos PBR Neutral (2024).

import Foundation

public enum ToneMapping {
    /// `code` is ToneMap.code; `c` is linear radiance × 2^exposure (≥ 0).
    @inlinable public static func applyToneMap(_ code: Int32, _ c: SIMD3<Float>) -> SIMD3<Float> {
        if code == 0 { return agx(c) }
        if code == 1 { return aces(c) }
        if code == 2 { return neutral(c) }
        return c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    }

    public static let agxMinimumEV: Float = -12.47393
    public static let agxMaximumEV: Float = 4.026069
    /// Khronos PBR Neutral's constants (0.8 − 0.04, and 0.04): prelude constants, since GLSL may
    /// not spell a value another prelude constant has (FLAKE_ARM_WIDTH is 0.04).
    public static let neutralStartCompression: Float = 0.76
    public static let neutralOffset: Float = 0.04
    public static let agxLookPower: Float = 1.35
    public static let agxLookSaturation: Float = 1.4

    @inlinable public static func agx(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let x = max(c.x, 1e-10), y = max(c.y, 1e-10), z = max(c.z, 1e-10)
        // Inset (Rec.709 → AgX log space), columns as in the GLSL mat3.
        var v = SIMD3<Float>(0.842479062253094, 0.0423282422610123, 0.0423756549057051) * x
        v = v + SIMD3<Float>(0.0784335999999992, 0.878468636469772, 0.0784336) * y
        v = v + SIMD3<Float>(0.0792237451477643, 0.0791661274605434, 0.879142973793104) * z
        let lo = agxMinimumEV, hi = agxMaximumEV
        var e = agxClampLog2(v)
        e = (e - lo) * (1 / (hi - lo))
        var s = SIMD3<Float>(agxContrast(e.x), agxContrast(e.y), agxContrast(e.z))
        // Blender's "Punchy" look (ASC CDL power 1.35, saturation 1.4): the base alone greys a
        // blue sky noticeably; with it the noon sky keeps its blue and sunsets their colour.
        s = s.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        s = SIMD3<Float>(agxLook(s.x), agxLook(s.y), agxLook(s.z))
        let luma = 0.2126 * s.x + 0.7152 * s.y + 0.0722 * s.z
        s = SIMD3(repeating: luma) + (s - luma) * agxLookSaturation
        // Outset, then the curve's 2.2 display power back to linear.
        var o = SIMD3<Float>(1.19687900512017, -0.0528968517574562, -0.0529716355144438) * s.x
        o = o + SIMD3<Float>(-0.0980208811401368, 1.15190312990417, -0.0980434501171241) * s.y
        o = o + SIMD3<Float>(-0.0990297440797205, -0.0989611768448433, 1.15107367264116) * s.z
        o = o.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        return SIMD3(agxDisplayPower(o.x), agxDisplayPower(o.y), agxDisplayPower(o.z))
    }

    // The curve's two powers without `powf` (two square roots and a short polynomial each, as
    // encodeSRGBUnit does): on llvmpipe the six powers a pixel were 2.3 ms of a 15 ms physical-day
    // frame. tonemap.glsl evaluates the same constants in the same order.

    /// s^1.35 (agxLookPower) for s in [0, 1]: s · t^1.4 with t = s^(1/4), t^1.4 a degree-5
    /// polynomial fitted minimax to it weighted by s. Within 8e-7 of the power everywhere in [0, 1].
    @inlinable public static func agxLook(_ s: Float) -> Float {
        let t = s.squareRoot().squareRoot()
        var v: Float = -0.054_275_155
        v = v * t + 0.255_553_57
        v = v * t - 0.548_435_93
        v = v * t + 0.932_961_76
        v = v * t + 0.428_464_98
        v = v * t - 0.014_269_762
        return s * v
    }

    /// o^2.2 for o in [0, 1]: o² · t^0.8 with t = o^(1/4), t^0.8 a degree-4 polynomial fitted
    /// minimax to it weighted by o². Within 4e-7 of the power everywhere in [0, 1].
    @inlinable public static func agxDisplayPower(_ o: Float) -> Float {
        let t = o.squareRoot().squareRoot()
        var v: Float = -0.037_162_203
        v = v * t + 0.173_454_12
        v = v * t - 0.378_293_16
        v = v * t + 1.184_838_3
        v = v * t + 0.057_162_751
        return o * o * v
    }

    /// log2 per channel, clamped to AgX's range of stops.
    @inlinable public static func agxClampLog2(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let e = SIMD3<Float>(log2(max(v.x, 1e-10)), log2(max(v.y, 1e-10)), log2(max(v.z, 1e-10)))
        return e.clamped(lowerBound: SIMD3(repeating: agxMinimumEV), upperBound: SIMD3(repeating: agxMaximumEV))
    }

    /// The AgX base contrast sigmoid, fitted by a sixth-order polynomial on 0…1.
    @inlinable public static func agxContrast(_ x: Float) -> Float {
        let x2 = x * x, x4 = x2 * x2
        return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232
    }

    @inlinable public static func aces(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let x = c * 0.6
        let n = x * (x * 2.51 + 0.03)
        let d = x * (x * 2.43 + 0.59) + 0.14
        return (n / d).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    }

    @inlinable public static func neutral(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let startCompression = neutralStartCompression
        let desaturation: Float = 0.15
        var color = c
        let x = min(color.x, min(color.y, color.z))
        let offset: Float = x < 0.08 ? x - 6.25 * x * x : neutralOffset
        color = color - offset
        let peak = max(color.x, max(color.y, color.z))
        if peak < startCompression { return color.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) }
        let d = 1 - startCompression
        let newPeak = 1 - d * d / (peak + d - startCompression)
        color = color * (newPeak / peak)
        let g = 1 - 1 / (desaturation * (peak - newPeak) + 1)
        color = color + (SIMD3(repeating: newPeak) - color) * g
        return color.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    }
}
