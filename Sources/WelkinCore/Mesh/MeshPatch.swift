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
