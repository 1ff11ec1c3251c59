// The final quantisation to 8 bits (or 16), shared bit for bit with Shaders/dither.glsl and
// Shaders/composite.glsl; the output transform (OutputColorSpace.swift) comes just before it.

/// Integer-only ordered dithering and quantisation.
public enum Dither {
    /// The 8×8 Bayer threshold (0…63) at an integer pixel coordinate (0…7 each), by bit interleaving:
    /// bits 5, 3, 1 hold bits 0, 1, 2 of x ^ y and bits 4, 2, 0 bits 0, 1, 2 of y. Multiplying a
    /// 3-bit number by 73 (0b1001001) copies it to bits 0, 3 and 6, so one shift and one mask pick
    /// each set of interleaved bits (6 integer operations where the spelled-out form takes 16;
    /// Shaders/dither.glsl runs it for every pixel of the GPU's last pass).
    @inlinable public static func bayer8(_ x: Int, _ y: Int) -> Int {
        ((((x ^ y) * 73) >> 1) & 42) | (((y * 73) >> 2) & 21)
    }

    /// The 8-bit offset added before rounding down: bayer/64 ∈ [0, 63/64], i.e. round to nearest
    /// with an offset in [−0.5, 0.5) (or exactly 0.5, plain rounding, when dithering is off).
    @inlinable public static func bias(x: Int, y: Int, enabled: Bool) -> Float {
        enabled ? Float(bayer8(x & 7, y & 7)) * (1 / 64) : 0.5
    }

    /// One channel value in 0…1 → 0…255.
    @inlinable @inline(__always) public static func quantize(_ v: Float, bias: Float) -> UInt8 {
        // Clamped to 0…255 first, truncation is floor (and needs no libm call). The comparison is
        // written so NaN (a degenerate colour) quantises to 0 instead of trapping in Int32(_:).
        let s = v * 255 + bias
        let q = s > 0 ? min(s, 255) : 0
        return UInt8(truncatingIfNeeded: Int32(q))
    }

    /// One channel value in 0…1 → 0…65535, rounded to nearest: no dither (a 16-bit step is 1/257
    /// of an 8-bit one, below anything a dither would hide). NaN quantises to 0.
    @inlinable @inline(__always) public static func quantize16(_ v: Float) -> UInt16 {
        let s = v * 65535 + 0.5
        let q = s > 0 ? min(s, 65535) : 0
        return UInt16(truncatingIfNeeded: Int32(q))
    }

    /// A premultiplied colour → straight alpha, alpha clamped to 0…1 (dither.glsl's straight).
    @inlinable public static func straight(_ p: SIMD4<Float>) -> SIMD4<Float> {
        let a = min(max(p.w, 0), 1)
        guard a < 1 else { return SIMD4(p.x, p.y, p.z, a) }
        let inverse: Float = a > 0 ? 1 / a : 0
        return SIMD4(p.x * inverse, p.y * inverse, p.z * inverse, a)
    }

    /// A premultiplied colour → straight-alpha RGBA8 in `space`: un-premultiplied, through the
    /// output transform, quantised (composite.glsl's writeLayer).
    @inlinable public static func resolve(_ p: SIMD4<Float>, bias: Float, space: OutputColorSpace) -> SIMD4<UInt8> {
        let s = straight(p)
        let c = ColorMath.outputTransform(SIMD3(s.x, s.y, s.z), space)
        return SIMD4(quantize(c.x, bias: bias), quantize(c.y, bias: bias), quantize(c.z, bias: bias), quantize(s.w, bias: bias))
    }

    /// A premultiplied colour → straight-alpha RGBA16 in `space` (`--depth 16`).
    @inlinable public static func resolve16(_ p: SIMD4<Float>, space: OutputColorSpace) -> SIMD4<UInt16> {
        let s = straight(p)
        let c = ColorMath.outputTransform(SIMD3(s.x, s.y, s.z), space)
        return SIMD4(quantize16(c.x), quantize16(c.y), quantize16(c.z), quantize16(s.w))
    }

    /// A premultiplied colour → straight-alpha RGBA8.
    @inlinable public static func resolve(_ p: SIMD4<Float>, bias: Float) -> SIMD4<UInt8> {
        let a = min(max(p.w, 0), 1)
        var r = p.x, g = p.y, b = p.z
        if a < 1 {
            // Un-premultiply; a fully transparent pixel is transparent black.
            let inverse: Float = a > 0 ? 1 / a : 0
            r *= inverse; g *= inverse; b *= inverse
        }
        return SIMD4(quantize(r, bias: bias), quantize(g, bias: bias), quantize(b, bias: bias), quantize(a, bias: bias))
    }
}
