// SpriteShape: the procedural sprites, evaluated per pixel.
//
// Mirrored line for line in Shaders/sprite.glsl: same names, same constants, same order of
// operations. A sprite is evaluated in its local frame: q = (along the instance's axis, across
// it), in pixels from its centre. Every function is exactly 0 outside `support`, and the GPU's
// quad is the support grown by one pixel, so both renderers touch the same pixels.

import Foundation

/// One sprite to draw: the per-instance attributes of the GPU's instanced draw (same names in
/// Shaders/sprite.vert). Pixels, y down.
///
/// 32 bytes, uploaded as they are: the colour is kept in half precision (relative rounding
/// ≤ 2⁻¹², under a tenth of an 8-bit level at full brightness), which both renderers read alike;
/// with a `SIMD4<Float>` the 16-byte alignment made an instance 48 bytes, and a million sprites
/// 16 MB more (`memory.particles.1m.peak`, docs/benchmarks.md).
public struct SpriteInstance: Sendable, Equatable {
    public var center: SIMD2<Float>
    /// Full extents of the sprite's body: x along `axis`, y across it.
    public var size: SIMD2<Float>
    /// (cos, sin) of the sprite's rotation.
    public var axis: SIMD2<Float>
    /// Premultiplied sRGB, layer opacity applied, as stored: half precision.
    public var packedColor: SIMD4<Float16>

    /// Premultiplied sRGB, layer opacity applied: the stored half-precision colour (setting it
    /// rounds to the nearest half).
    @inlinable public var color: SIMD4<Float> {
        get { SIMD4<Float>(packedColor) }
        set { packedColor = SIMD4<Float16>(newValue) }
    }

    public init(color: SIMD4<Float>, center: SIMD2<Float>, size: SIMD2<Float>, axis: SIMD2<Float>) {
        self.center = center; self.size = size; self.axis = axis
        packedColor = SIMD4<Float16>(color)
    }

    /// Every attribute is a finite number (ParticleDraw drops any other instance; a colour beyond
    /// half precision's range is not finite once stored).
    public var isFinite: Bool {
        // The halves' own test (no conversion: this machine's Swift converts halves in software).
        let c = packedColor
        return c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite && center.x.isFinite
            && center.y.isFinite && size.x.isFinite && size.y.isFinite && axis.x.isFinite && axis.y.isFinite
    }
}

public enum SpriteShape {
    /// Half the width of a flake's arm, as a fraction of the sprite's size (at least half a pixel).
    public static let flakeArmWidth: Float = 0.04
    /// Cloud puffs: (x, y, radius) as fractions of the sprite's radius.
    public static let cloudPuffs: [SIMD3<Float>] = [[-0.45, 0.15, 0.5], [0.0, -0.15, 0.6], [0.45, 0.15, 0.5]]
    /// How many standard deviations a soft dot's blur reaches before it is cut to 0.
    public static let blurReach: Float = 3

    /// The local coordinates of pixel-space point p.
    @inline(__always) public static func local(_ p: SIMD2<Float>, _ s: SpriteInstance) -> SIMD2<Float> {
        let d = p - s.center
        return SIMD2(d.x * s.axis.x + d.y * s.axis.y, -d.x * s.axis.y + d.y * s.axis.x)
    }

    /// Half extents, in the local frame, outside which the sprite is 0. `blur` is the blur in
    /// pixels (softDot's standard deviation, cloud's edge width).
    @inline(__always) public static func support(_ kind: SpriteKind, size: SIMD2<Float>, blur: Float) -> SIMD2<Float> {
        let r = size.x * 0.5
        switch kind {
        case .dot: return SIMD2(repeating: r + 0.5)
        case .softDot: return SIMD2(repeating: r + blurReach * blur + 0.5)
        case .flake: return SIMD2(repeating: r + max(0.5, size.x * flakeArmWidth) + 0.5)
        case .streak: return size * 0.5 + 0.5
        case .cloud: return SIMD2(repeating: r + max(1, blur) + 0.5)
        case .image: return size * 0.5
        }
    }

    /// Abramowitz and Stegun 7.1.26: erfc(x) for x ≥ 0 to 1.5e-7; erfc(−x) = 2 − erfc(x).
    @inline(__always) public static func erfcApprox(_ x: Float) -> Float {
        let z = abs(x)
        let t = 1 / (1 + 0.3275911 * z)
        let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
        let e = poly * expf(-z * z)
        return x >= 0 ? e : 2 - e
    }

    /// Coverage 0…1 of a procedural sprite at local point q.
    @inline(__always) public static func coverage(_ kind: SpriteKind, _ q: SIMD2<Float>, size: SIMD2<Float>, blur: Float) -> Float {
        let h = support(kind, size: size, blur: blur)
        if abs(q.x) >= h.x || abs(q.y) >= h.y { return 0 }
        let r = size.x * 0.5
        let d = (q.x * q.x + q.y * q.y).squareRoot()
        switch kind {
        case .dot:
            return min(max(r - d + 0.5, 0), 1)
        case .softDot:
            if blur <= 0 { return min(max(r - d + 0.5, 0), 1) }
            if d >= r + blurReach * blur { return 0 }
            return 0.5 * erfcApprox((d - r) / (blur * 1.41421356))
        case .flake:
            // Fold the angle into one 60° sector around +x; distance to the arm from 0 to r.
            let w = max(0.5, size.x * flakeArmWidth)
            let sector: Float = 1.04719755
            let angle = atan2f(q.y, q.x)
            let folded = angle - sector * (angle / sector + 0.5).rounded(.down)
            let x = d * cosf(folded), y = d * sinf(folded)
            let along = min(max(x, 0), r)
            let dist = ((x - along) * (x - along) + y * y).squareRoot()
            return min(max(w - dist + 0.5, 0), 1)
        case .streak:
            let halfLength = size.x * 0.5, radius = size.y * 0.5
            let reach = max(halfLength - radius, 0)
            let along = min(max(q.x, -reach), reach)
            let dist = ((q.x - along) * (q.x - along) + q.y * q.y).squareRoot()
            let edge = min(max(radius - dist + 0.5, 0), 1)
            let fade = min(max((q.x + halfLength) / size.x, 0), 1)
            return edge * fade
        case .cloud:
            let e = max(1, blur)
            var c: Float = 0
            for puff in cloudPuffs {
                let dx = q.x - puff.x * r, dy = q.y - puff.y * r
                let dist = (dx * dx + dy * dy).squareRoot()
                c = max(c, min(max((puff.z * r - dist) / e + 0.5, 0), 1))
            }
            return c
        case .image:
            return 0
        }
    }
}
