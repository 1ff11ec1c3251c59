// Deterministic per-particle randomness: every sampled value is a hash of who and what it is.
//
// A particle's values depend only on (scene seed, emitter seed, layer, cell, birth number, which
// value), never on the order of simulation steps or the thread count: that is what makes a
// prewarmed emitter equal one run from empty, and every run of a scene equal the last.

/// Integer hashing to uniform numbers (SplitMix64's finaliser).
public enum ParticleRandom {
    @inline(__always) public static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The stream of one particle: a key from which `uniform(_:_:)` draws its values.
    @inline(__always) public static func key(seed: UInt64, layer: Int, cell: Int, birth: UInt64) -> UInt64 {
        var h = mix(seed)
        h = mix(h ^ UInt64(truncatingIfNeeded: layer))
        h = mix(h ^ UInt64(truncatingIfNeeded: cell))
        return mix(h ^ birth)
    }

    /// A uniform number in [0, 1) for value number `index` of the particle with `key`.
    @inline(__always) public static func uniform(_ key: UInt64, _ index: UInt64) -> Double {
        Double(mix(key &+ index &* 0xD1B5_4A32_D192_ED03) >> 11) * 0x1p-53
    }
}

/// Which random value of a particle is which (the index passed to `ParticleRandom.uniform`).
enum RandomSlot: UInt64 {
    case shapeA = 1, shapeB, lifetime, velocity, angle, scale, spin, red, green, blue, alpha, phase
    case endScale, rotation, endRotation, endRed, endGreen, endBlue, endAlpha
    case radialAcceleration, tangentialAcceleration, startRadius, endRadius, orbitSpeed
}
