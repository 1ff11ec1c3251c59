// The final quantisation to 8 bits, shared bit for bit with Shaders/resolve.frag.

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
