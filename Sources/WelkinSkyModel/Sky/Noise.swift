// Integer hashing and value noise shared bit for bit with Shaders/noise.glsl.
//
// Every random choice a sky makes per pixel (stars, cloud cover) comes from these functions: a
// 32-bit integer hash (Wellons' "lowbias32") for stars and sprites, a cheaper lattice hash (one
// multiply per axis, one more per corner) for the cloud noise, both exact on both paths,
// and smoothly interpolated value noise in float, continuous everywhere, so a rounding difference of one ulp between GPU and CPU
// moves a value by about one ulp and never flips a cell. No sin-based hashing. Keep the names and
// constants in step with noise.glsl.

public enum Noise {
    /// lowbias32's two odd multipliers (HASH_MULTIPLIER_1/2 in the shaders' constants prelude).
    public static let hashMultiplier1: UInt32 = 0x7feb_352d
    public static let hashMultiplier2: UInt32 = 0x846c_a68b
    /// Mixed into a hash to draw the next one of a sequence (the golden ratio's bits).
    public static let sequenceStep: UInt32 = 0x9e37_79b9
    /// Added to an fBm key from one octave to the next.
    public static let octaveKeyStep: UInt32 = 0x68e3_1da4

    /// A 32-bit integer hash with good avalanche (lowbias32).
    @inlinable public static func hash32(_ value: UInt32) -> UInt32 {
        var x = value
        x ^= x >> 16
        x = x &* hashMultiplier1
        x ^= x >> 15
        x = x &* hashMultiplier2
        x ^= x >> 16
        return x
    }

    /// The hash of an integer lattice cell and a seed.
    @inlinable public static func hashCell(_ x: Int32, _ y: Int32, _ seed: UInt32) -> UInt32 {
        hash32(UInt32(bitPattern: x) ^ hash32(UInt32(bitPattern: y) ^ hash32(seed)))
    }

    /// The next hash in a sequence drawn from one cell (for a cell's second, third, … value).
    @inlinable public static func hashNext(_ h: UInt32) -> UInt32 {
        hash32(h ^ sequenceStep)
    }

    /// A hash as a float in [0, 1), from its top 24 bits (exact in float).
    @inlinable public static func unit(_ h: UInt32) -> Float {
        Float(h >> 8) * (1 / 16_777_216)
    }

    /// a + (b − a)·t, written out so both paths round the same way (GLSL's mix may differ).
    @inlinable public static func lerp(_ a: Float, _ b: Float, _ t: Float) -> Float {
        a + (b - a) * t
    }

    /// Lattice-noise constants: odd multipliers per axis (Knuth-style) for `latticeHash`.
    public static let latticeX: UInt32 = 0x1656_67b1
    public static let latticeY: UInt32 = 0x27d4_eb2d

    /// The mixing step of `latticeHash`: one multiply by lowbias32's first odd constant. The
    /// product's top bits, all that `unit` and `whole24` read, depend on every input bit; the
    /// input already mixes both axes (each through its own odd multiplier) and the key. Lattice
    /// values come out uncorrelated between neighbours (SkyTests checks) without lowbias32's
    /// xorshift before the multiply, which cost two of the six operations per cell corner.
    @inlinable public static func mixHash(_ value: UInt32) -> UInt32 {
        value &* hashMultiplier1
    }

    /// A hash's top 24 bits as a whole float in [0, 2²⁴) (exact): `unit` without its 2⁻²⁴.
    @inlinable public static func whole24(_ h: UInt32) -> Float {
        Float(h >> 8)
    }

    /// The hash of lattice point (x, y) for a key (a seed already through `hash32`): each axis
    /// scaled by an odd constant, combined with the key, one multiply. Neighbouring points
    /// share their axis products, so a noise cell costs six multiplies.
    @inlinable public static func latticeHash(_ x: Int32, _ y: Int32, key: UInt32) -> UInt32 {
        mixHash((UInt32(bitPattern: x) &* latticeX) ^ ((UInt32(bitPattern: y) &* latticeY) ^ key))
    }

    /// Value noise × 2²⁴, in [0, 2²⁴): lattice values from `latticeHash`, smoothstep-interpolated
    /// (C1). `key` is a hashed seed (see `valueNoise`). Scaling by a power of two commutes with
    /// every rounding here, so × 2⁻²⁴ is bit for bit the noise of `unit` lattice values; callers
    /// fold that factor into theirs.
    @inlinable public static func latticeNoise24(_ x: Float, _ y: Float, key: UInt32) -> Float {
        let ix = x.rounded(.down), iy = y.rounded(.down)
        let fx = x - ix, fy = y - iy
        let cx = Int32(ix), cy = Int32(iy)
        // latticeHash written out for the four corners: (c + 1)·k = c·k + k, so the products are shared.
        let h0 = (UInt32(bitPattern: cy) &* latticeY) ^ key, h1 = ((UInt32(bitPattern: cy) &* latticeY) &+ latticeY) ^ key
        let x0 = UInt32(bitPattern: cx) &* latticeX, x1 = x0 &+ latticeX
        let a = whole24(mixHash(x0 ^ h0))
        let b = whole24(mixHash(x1 ^ h0))
        let c = whole24(mixHash(x0 ^ h1))
        let d = whole24(mixHash(x1 ^ h1))
        let ux = fx * fx * (3 - 2 * fx)
        let uy = fy * fy * (3 - 2 * fy)
        return lerp(lerp(a, b, ux), lerp(c, d, ux), uy)
    }

    /// Value noise in [0, 1) for a plain seed: `latticeNoise24` keyed by `hash32(seed)`, × 2⁻²⁴.
    @inlinable public static func valueNoise(_ x: Float, _ y: Float, _ seed: UInt32) -> Float {
        latticeNoise24(x, y, key: hash32(seed)) * (1 / 16_777_216)
    }

    /// Octaves of fBm, and the largest allowed.
    public static let fbmOctaves = 5

    /// Fractal Brownian motion: `octaves` of value noise, each at twice the frequency and half the
    /// amplitude of the last, turned by a fixed rotation (0.8, 0.6) so lattice lines do not stack.
    /// Normalised to [0, 1). The seed is hashed once (`fbmKeyed` takes that hash); octave i is
    /// keyed by it + i·0x68e31da4.
    @inlinable public static func fbm(_ x: Float, _ y: Float, _ seed: UInt32, octaves: Int32) -> Float {
        fbmKeyed(x, y, key: hash32(seed), octaves: octaves)
    }

    /// `fbm` for a seed already through `hash32` (a layer hashes its seed once per frame).
    @inlinable public static func fbmKeyed(_ x: Float, _ y: Float, key: UInt32, octaves: Int32) -> Float {
        var px = x, py = y
        var sum: Float = 0, amplitude: Float = 0.5, total: Float = 0
        var s = key
        var i: Int32 = 0
        while i < octaves {
            sum += (amplitude * (1 / 16_777_216)) * latticeNoise24(px, py, key: s)
            total += amplitude
            let nx = 1.6 * px - 1.2 * py + 17.0
            let ny = 1.2 * px + 1.6 * py - 31.0
            px = nx; py = ny
            amplitude *= 0.5
            s = s &+ octaveKeyStep
            i += 1
        }
        return sum / total
    }
}
