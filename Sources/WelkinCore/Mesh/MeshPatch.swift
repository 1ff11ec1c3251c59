// Mesh geometry: automatic handles, Coons patches and their evaluation (normative: docs/mesh-gradients.md).

/// One cell of a mesh as a bicubic Bézier patch: 16 control points, `points[k * 4 + l]` with k along
/// u (the row direction, left → right) and l along v (the column direction, top → bottom).
public struct MeshPatch: Sendable, Equatable {
    public var points: [SIMD2<Double>]

    public init(points: [SIMD2<Double>]) {
        precondition(points.count == 16)
        self.points = points
    }

    /// The Coons patch bounded by four cubic edges, each given as 4 control points:
    /// `top` (v = 0) and `bottom` (v = 1) run left → right, `left` (u = 0) and `right` (u = 1) top → bottom.
    /// Interior points follow PDF 32000 §8.7.4.5.7: P_kl = Lc + Ld − B, degree-elevated.
    public init(top: [SIMD2<Double>], bottom: [SIMD2<Double>], left: [SIMD2<Double>], right: [SIMD2<Double>]) {
        var p = [SIMD2<Double>](repeating: .zero, count: 16)
        for k in 0..<4 { p[k * 4 + 0] = top[k]; p[k * 4 + 3] = bottom[k] }
        for l in 0..<4 { p[0 * 4 + l] = left[l]; p[3 * 4 + l] = right[l] }
        for k in 1...2 {
            for l in 1...2 {
                let s = Double(k) / 3, t = Double(l) / 3
                let rows = (1 - t) * p[k * 4 + 0] + t * p[k * 4 + 3]
                let columns = (1 - s) * p[0 * 4 + l] + s * p[3 * 4 + l]
                let corners = (1 - s) * (1 - t) * p[0] + s * (1 - t) * p[12] + (1 - s) * t * p[3] + s * t * p[15]
                p[k * 4 + l] = rows + columns - corners
            }
        }
        points = p
    }

    /// Cubic Bernstein weights at t.
    @inlinable static func bernstein(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t
        return SIMD4(s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t)
    }

    /// The point at (u, v), both in 0…1.
    public func evaluate(u: Double, v: Double) -> SIMD2<Double> {
        let bu = Self.bernstein(u), bv = Self.bernstein(v)
        var out = SIMD2<Double>.zero
        for k in 0..<4 {
            var column = SIMD2<Double>.zero
            for l in 0..<4 { column += bv[l] * points[k * 4 + l] }
            out += bu[k] * column
        }
        return out
    }

    /// Upper bounds on |∂²S/∂u²|, |∂²S/∂u∂v| and |∂²S/∂v²| over the patch, from its control net
    /// (a Bézier derivative lies in the convex hull of its difference points).
    public var secondDerivativeBounds: (uu: Double, uv: Double, vv: Double) {
        func length(_ d: SIMD2<Double>) -> Double { (d * d).sum().squareRoot() }
        var uu = 0.0, uv = 0.0, vv = 0.0
        for l in 0..<4 {
            for k in 0..<2 {
                uu = max(uu, length(points[(k + 2) * 4 + l] - 2 * points[(k + 1) * 4 + l] + points[k * 4 + l]))
                vv = max(vv, length(points[l * 4 + k + 2] - 2 * points[l * 4 + k + 1] + points[l * 4 + k]))
            }
        }
        for k in 0..<3 {
            for l in 0..<3 {
                uv = max(uv, length(points[(k + 1) * 4 + l + 1] - points[(k + 1) * 4 + l] - points[k * 4 + l + 1] + points[k * 4 + l]))
            }
        }
        return (6 * uu, 9 * uv, 6 * vv)
    }
}

/// A rigorous, tight bound on how far a uniform triangulation of one patch strays from the patch
/// (MeshDraw's tessellation error): the patch's second derivatives sampled on a grid, plus a bound on
/// how much they can change between samples (from the control net's third differences).
///
/// For a triangle with corners x_i and a point x = Σ λ_i x_i, Taylor's theorem with the integral
/// remainder gives e(x) = Σ λ_i S(x_i) − S(x) = ½ Σ_{i<j} λ_i λ_j Q_ij(s) + r, where Q_ij is the
/// second derivative along edge i j at any point s (for a grid quad: S_uu h_u², S_vv h_v² and, on the
/// diagonal, S_uu h_u² − 2 S_uv h_u h_v + S_vv h_v², whose terms may cancel), and
/// |r| ≤ (δ_uu h_u² + 2 δ_uv h_u h_v + δ_vv h_v²)/8 with δ how much |S_uu|, |S_uv|, |S_vv| can
/// change between s and any point of the triangle (r = Σ λ_i ∫(1 − t) d_iᵀ δH d_i dt with d_i = x_i − x,
/// and Σ λ_i d_{u,i}² ≤ h_u²/4, the variance of a distribution on an interval of length h_u). The maximum of ½ Σ λ_i λ_j |Q_ij| over the
/// triangle is found exactly (a quadratic form on the simplex).
public struct MeshErrorBound: Sendable {
    /// Samples per side of the (u, v) grid.
    public static let samples = 17
    /// S_uu, S_uv, S_vv at each sample (pixels).
    var uu: [SIMD2<Double>] = [], uv: [SIMD2<Double>] = [], vv: [SIMD2<Double>] = []
    /// Bounds on the third derivatives: |S_uuu|, |S_uuv|, |S_uvv|, |S_vvv|.
    var uuu = 0.0, uuv = 0.0, uvv = 0.0, vvv = 0.0

    public init(_ patch: MeshPatch) {
        let p = patch.points
        func length(_ d: SIMD2<Double>) -> Double { (d * d).sum().squareRoot() }
        // Difference nets: second differences along u (2 × 4), along v (4 × 2), mixed (3 × 3).
        var duu = [SIMD2<Double>](repeating: .zero, count: 8), dvv = duu, duv = [SIMD2<Double>](repeating: .zero, count: 9)
        for k in 0..<2 { for l in 0..<4 { duu[k * 4 + l] = 6 * (p[(k + 2) * 4 + l] - 2 * p[(k + 1) * 4 + l] + p[k * 4 + l]) } }
        for k in 0..<4 { for l in 0..<2 { dvv[k * 2 + l] = 6 * (p[k * 4 + l + 2] - 2 * p[k * 4 + l + 1] + p[k * 4 + l]) } }
        for k in 0..<3 { for l in 0..<3 { duv[k * 3 + l] = 9 * (p[(k + 1) * 4 + l + 1] - p[(k + 1) * 4 + l] - p[k * 4 + l + 1] + p[k * 4 + l]) } }
        // Third derivatives lie in the convex hull of their difference nets.
        for l in 0..<4 { uuu = max(uuu, length(duu[4 + l] - duu[l])) }                      // ×1: degree 1 in u
        for k in 0..<2 { for l in 0..<3 { uuv = max(uuv, 3 * length(duu[k * 4 + l + 1] - duu[k * 4 + l])) } }
        for k in 0..<3 { for l in 0..<2 { uvv = max(uvv, 3 * length(dvv[(k + 1) * 2 + l] - dvv[k * 2 + l])) } }
        for k in 0..<4 { vvv = max(vvv, length(dvv[k * 2 + 1] - dvv[k * 2])) }
        let n = Self.samples
        uu.reserveCapacity(n * n); uv.reserveCapacity(n * n); vv.reserveCapacity(n * n)
        func bernstein(_ degree: Int, _ t: Double) -> [Double] {
            let s = 1 - t
            switch degree {
            case 1: return [s, t]
            case 2: return [s * s, 2 * s * t, t * t]
            default: return [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t]
            }
        }
        for j in 0..<n {
            let v = Double(j) / Double(n - 1)
            let b1v = bernstein(1, v), b2v = bernstein(2, v), b3v = bernstein(3, v)
            for i in 0..<n {
                let u = Double(i) / Double(n - 1)
                let b1u = bernstein(1, u), b2u = bernstein(2, u), b3u = bernstein(3, u)
                var a = SIMD2<Double>.zero, b = SIMD2<Double>.zero, c = SIMD2<Double>.zero
                for k in 0..<2 { for l in 0..<4 { a += b1u[k] * b3v[l] * duu[k * 4 + l] } }
                for k in 0..<4 { for l in 0..<2 { c += b3u[k] * b1v[l] * dvv[k * 2 + l] } }
                for k in 0..<3 { for l in 0..<3 { b += b2u[k] * b2v[l] * duv[k * 3 + l] } }
                uu.append(a); uv.append(b); vv.append(c)
            }
        }
    }

    /// An upper bound on the distance between the patch and its n_u × n_v grid of triangles (each
    /// quad split along the (k + 1, l)–(k, l + 1) diagonal), in pixels.
    public func error(_ nu: Int, _ nv: Int) -> Double {
        let hu = 1 / Double(nu), hv = 1 / Double(nv)
        let margin = self.margin(hu: hu, hv: hv)
        return uu.indices.reduce(0) { max($0, taylor(at: $1, hu: hu, huLow: hu, hv: hv, hvLow: hv) + margin) }
    }

    /// The same bound for a graded grid: quad (k, l) spans u[k]…u[k + 1] × v[l]…v[l + 1]. Each sample
    /// stands for the quads that reach within half a sample spacing of it, with the smallest and
    /// largest of their steps.
    public func error(u: [Double], v: [Double]) -> Double {
        let n = Self.samples, g = 1 / Double(n - 1)
        // The smallest and largest step among intervals that overlap [t − g/2, t + g/2], per sample t.
        func steps(_ knots: [Double]) -> [(low: Double, high: Double)] {
            (0..<n).map { i in
                let t = Double(i) * g, lo = t - g / 2, hi = t + g / 2
                var low = Double.infinity, high = 0.0
                for k in 0..<(knots.count - 1) where knots[k + 1] >= lo && knots[k] <= hi {
                    let w = knots[k + 1] - knots[k]
                    low = min(low, w); high = max(high, w)
                }
                return (low, high)
            }
        }
        let hus = steps(u), hvs = steps(v)
        var worst = 0.0
        for j in 0..<n {
            for i in 0..<n {
                let (huLow, hu) = hus[i], (hvLow, hv) = hvs[j]
                worst = max(worst, taylor(at: j * n + i, hu: hu, huLow: huLow, hv: hv, hvLow: hvLow) + margin(hu: hu, hv: hv))
            }
        }
        return worst
    }

    /// The Taylor term of the bound for sample s, in pixels, for quads whose steps lie in
    /// huLow…hu and hvLow…hv: max over a triangle of ½ Σ λ_i λ_j |Q_ij|. The sides' terms grow with
    /// the steps; the diagonal |S_uu a² − 2 S_uv a b + S_vv b²| = a² |q(b/a)| is at most the largest
    /// a² times the largest Bernstein coefficient of the quadratic q over the range of b/a (a
    /// polynomial lies in the convex hull of its Bernstein coefficients; for one step each, that is
    /// the diagonal term itself).
    func taylor(at s: Int, hu: Double, huLow: Double, hv: Double, hvLow: Double) -> Double {
        func length(_ d: SIMD2<Double>) -> Double { (d * d).sum().squareRoot() }
        let r0 = hvLow / hu, r1 = hv / huLow
        let q0 = uu[s] - 2 * r0 * uv[s] + r0 * r0 * vv[s]
        var diagonal = length(q0)
        if r1 != r0 {
            let q1 = uu[s] - 2 * r1 * uv[s] + r1 * r1 * vv[s]
            let middle = q0 + (r1 - r0) / 2 * (2 * r0 * vv[s] - 2 * uv[s])
            diagonal = max(diagonal, length(middle), length(q1))
        }
        diagonal *= hu * hu
        return Self.simplexMaximum(length(uu[s]) * hu * hu, length(vv[s]) * hv * hv, diagonal) / 2
    }

    /// The remainder term: how much the second derivatives can change between a sample and the
    /// points of a triangle within half a sample spacing plus one step of it, along each axis.
    func margin(hu: Double, hv: Double) -> Double {
        let g = 0.5 / Double(Self.samples - 1)
        let du = g + hu, dv = g + hv
        let duu = du * uuu + dv * uuv, dvv = du * uvv + dv * vvv
        let duv = du * uuv + dv * uvv   // |S_uvu| = |S_uuv|, |S_uvv| as is
        return (duu * hu * hu + 2 * duv * hu * hv + dvv * hv * hv) / 8
    }

    /// The Taylor term sample by sample for a uniform n_u × n_v grid: where the error is made.
    public func errorField(_ nu: Int, _ nv: Int) -> [Double] {
        let hu = 1 / Double(nu), hv = 1 / Double(nv)
        return uu.indices.map { taylor(at: $0, hu: hu, huLow: hu, hv: hv, hvLow: hv) }
    }

    /// max of λ₁λ₂ a + λ₁λ₃ b + λ₂λ₃ c over λ ≥ 0, Σλ = 1 (a, b, c ≥ 0): on an edge (a/4, b/4, c/4)
    /// or at the interior stationary point.
    static func simplexMaximum(_ a: Double, _ b: Double, _ c: Double) -> Double {
        var best = max(a, b, c) / 4
        // Stationary point of the Lagrangian: (M λ)_i equal for all i, with M = [[0,a,b],[a,0,c],[b,c,0]].
        // λ ∝ (c(a + b − c), b(a + c − b), a(b + c − a)) (solving M λ = μ 1).
        let l1 = c * (a + b - c), l2 = b * (a + c - b), l3 = a * (b + c - a)
        let sum = l1 + l2 + l3
        if l1 >= 0, l2 >= 0, l3 >= 0, sum > 0 {
            let x = l1 / sum, y = l2 / sum, z = l3 / sum
            best = max(best, x * y * a + x * z * b + y * z * c)
        }
        return best
    }
}

public enum MeshGeometry {
    /// Explicit handles for position-only vertices: Catmull-Rom tangents along each grid direction,
    /// handle = P ± (next − previous)/6, one-sided (neighbour − P)/3 at the border.
    public static func automaticHandles(_ p: [UnitPoint], width: Int, height: Int) -> [MeshBezierPoint] {
        var out: [MeshBezierPoint] = []
        out.reserveCapacity(p.count)
        for j in 0..<height {
            for i in 0..<width {
                let here = p[j * width + i]
                func handles(previous: UnitPoint?, next: UnitPoint?) -> (back: UnitPoint, forward: UnitPoint) {
                    switch (previous, next) {
                    case let (a?, b?): let d = (b - a) / 6; return (here - d, here + d)
                    case let (nil, b?): let d = (b - here) / 3; return (here - d, here + d)
                    case let (a?, nil): let d = (here - a) / 3; return (here - d, here + d)
                    case (nil, nil): return (here, here)
                    }
                }
                let row = handles(previous: i > 0 ? p[j * width + i - 1] : nil, next: i < width - 1 ? p[j * width + i + 1] : nil)
                let column = handles(previous: j > 0 ? p[(j - 1) * width + i] : nil, next: j < height - 1 ? p[(j + 1) * width + i] : nil)
                out.append(MeshBezierPoint(position: here, leading: row.back, top: column.back,
                                           trailing: row.forward, bottom: column.forward))
            }
        }
        return out
    }

    /// The patches of a grid of Bézier vertices, row-major ((width − 1) × (height − 1)), with every
    /// point mapped by `transform` (unit space → pixels).
    public static func patches(_ v: [MeshBezierPoint], width: Int, height: Int,
                               transform: (UnitPoint) -> SIMD2<Double> = { $0 }) -> [MeshPatch] {
        var out: [MeshPatch] = []
        out.reserveCapacity((width - 1) * (height - 1))
        for j in 0..<(height - 1) {
            for i in 0..<(width - 1) {
                let a = v[j * width + i], b = v[j * width + i + 1]
                let c = v[(j + 1) * width + i], d = v[(j + 1) * width + i + 1]
                out.append(MeshPatch(top: [a.position, a.trailing, b.leading, b.position].map(transform),
                                     bottom: [c.position, c.trailing, d.leading, d.position].map(transform),
                                     left: [a.position, a.bottom, c.top, c.position].map(transform),
                                     right: [b.position, b.bottom, d.top, d.position].map(transform)))
            }
        }
        return out
    }

    /// True when the mesh's outer edges run along the frame's edges (every border control point on
    /// its frame edge, corners at the frame's corners): the mesh then covers the whole frame.
    public static func coversFrame(_ v: [MeshBezierPoint], width: Int, height: Int) -> Bool {
        let w = width, h = height
        guard v[0].position == [0, 0], v[w - 1].position == [1, 0],
              v[(h - 1) * w].position == [0, 1], v[h * w - 1].position == [1, 1] else { return false }
        for i in 0..<w {
            let top = v[i], bottom = v[(h - 1) * w + i]
            if top.position.y != 0 || (i > 0 && top.leading.y != 0) || (i < w - 1 && top.trailing.y != 0) { return false }
            if bottom.position.y != 1 || (i > 0 && bottom.leading.y != 1) || (i < w - 1 && bottom.trailing.y != 1) { return false }
        }
        for j in 0..<h {
            let left = v[j * w], right = v[j * w + w - 1]
            if left.position.x != 0 || (j > 0 && left.top.x != 0) || (j < h - 1 && left.bottom.x != 0) { return false }
            if right.position.x != 1 || (j > 0 && right.top.x != 1) || (j < h - 1 && right.bottom.x != 1) { return false }
        }
        return true
    }
}
