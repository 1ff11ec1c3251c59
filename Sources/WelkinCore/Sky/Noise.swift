// Integer hashing and value noise shared bit for bit with Shaders/noise.glsl.
//
// Every random choice a sky makes per pixel (stars, cloud cover) comes from these functions: a
// 32-bit integer hash (Wellons' "lowbias32"), exact on both paths, and smoothly interpolated value
// noise in float, continuous everywhere, so a rounding difference of one ulp between GPU and CPU
// moves a value by about one ulp and never flips a cell. No sin-based hashing. Keep the names and
// constants in step with noise.glsl.

public enum Noise {
    /// A 32-bit integer hash with good avalanche (lowbias32).
    @inlinable public static func hash32(_ value: UInt32) -> UInt32 {
        var x = value
        x ^= x >> 16
        x = x &* 0x7feb_352d
        x ^= x >> 15
        x = x &* 0x846c_a68b
        x ^= x >> 16
        return x
    }

    /// The hash of an integer lattice cell and a seed.
    @inlinable public static func hashCell(_ x: Int32, _ y: Int32, _ seed: UInt32) -> UInt32 {
        hash32(UInt32(bitPattern: x) ^ hash32(UInt32(bitPattern: y) ^ hash32(seed)))
    }

    /// The next hash in a sequence drawn from one cell (for a cell's second, third, … value).
    @inlinable public static func hashNext(_ h: UInt32) -> UInt32 {
        hash32(h ^ 0x9e37_79b9)
    }

    /// A hash as a float in [0, 1), from its top 24 bits (exact in float).
    @inlinable public static func unit(_ h: UInt32) -> Float {
        Float(h >> 8) * (1 / 16_777_216)
    }

    /// a + (b − a)·t, written out so both paths round the same way (GLSL's mix may differ).
    @inlinable public static func lerp(_ a: Float, _ b: Float, _ t: Float) -> Float {
        a + (b - a) * t
    }

    /// Value noise in [0, 1): lattice values from `hashCell`, smoothstep-interpolated (C1).
    @inlinable public static func valueNoise(_ x: Float, _ y: Float, _ seed: UInt32) -> Float {
        let ix = x.rounded(.down), iy = y.rounded(.down)
        let fx = x - ix, fy = y - iy
        let cx = Int32(ix), cy = Int32(iy)
        // hashCell's inner hashes, shared by the four corners (the same values, fewer hashes).
        let hs = hash32(seed)
        let h0 = hash32(UInt32(bitPattern: cy) ^ hs), h1 = hash32(UInt32(bitPattern: cy &+ 1) ^ hs)
        let x0 = UInt32(bitPattern: cx), x1 = UInt32(bitPattern: cx &+ 1)
        let a = unit(hash32(x0 ^ h0))
        let b = unit(hash32(x1 ^ h0))
        let c = unit(hash32(x0 ^ h1))
        let d = unit(hash32(x1 ^ h1))
        let ux = fx * fx * (3 - 2 * fx)
        let uy = fy * fy * (3 - 2 * fy)
        return lerp(lerp(a, b, ux), lerp(c, d, ux), uy)
    }

    /// Octaves of fBm, and the largest allowed.
    public static let fbmOctaves = 5

    /// Fractal Brownian motion: `octaves` of value noise, each at twice the frequency and half the
    /// amplitude of the last, turned by a fixed rotation (0.8, 0.6) so lattice lines do not stack.
    /// Normalised to [0, 1).
    @inlinable public static func fbm(_ x: Float, _ y: Float, _ seed: UInt32, octaves: Int32) -> Float {
        var px = x, py = y
        var sum: Float = 0, amplitude: Float = 0.5, total: Float = 0
        var s = seed
        var i: Int32 = 0
        while i < octaves {
            sum += amplitude * valueNoise(px, py, s)
            total += amplitude
            let nx = 1.6 * px - 1.2 * py + 17.0
            let ny = 1.2 * px + 1.6 * py - 31.0
            px = nx; py = ny
            amplitude *= 0.5
            s = s &+ 0x68e3_1da4
            i += 1
        }
        return sum / total
    }
}
