// GradientBands: a linear gradient cut into convex polygons, one per stop segment and pad.
//
// t = dot(p − origin, vector) is affine in the pixel position p, and between two stops the
// interpolated (premultiplied) colour is affine in t, so over each band the colour is affine in
// p: the rasteriser can interpolate it from the band's corners. Each band is widened by two
// pixels on both sides and owns a half-open range of t; the fragment shader drops fragments
// outside it, so the pixel a band keeps is decided by the same t as ResolvedStops.interpolate,
// never by rasterisation rules (which matters at hard stops).

import WelkinCore

struct GradientBands {
    /// One vertex: position in pixels (y down), colour, and the band's t range [lo, hi).
    struct Vertex {
        var x, y: Float
        var r, g, b, a: Float
        var lo, hi: Float
    }

    /// Triangles, three vertices each.
    var vertices: [Vertex] = []
    /// True when more than one band reaches the frame, so fragments must test their t.
    var needsTest = false

    /// A band: the t it owns (for the fragment test) and the colour as an affine function of t.
    private struct Band {
        var lo, hi: Float          // accepted clamped t: lo ≤ t < hi
        var from, to: Double       // geometric extent in unclamped t (±infinity for pads)
        var color: (Double) -> SIMD4<Float>
    }

    /// `g` must be linear. Colours are premultiplied in the gradient's interpolation space, times
    /// the opacity when `premultipliesOpacity` (sRGB, where the shader only passes them through).
    init(_ g: GradientDraw, pixelSize: SIMD2<Int>, premultipliesOpacity: Bool) {
        let stops = g.stops
        let n = stops.locations.count
        let loc = stops.locations, colors = stops.colors
        let scale: Float = premultipliesOpacity ? g.opacity : 1
        var bands: [Band] = []
        // "t ≤ x" as "t < above(x)" and "t > x" as "t ≥ above(x)". GPUs flush denormals to zero,
        // so the bound must be a normal float (0's successor is not); t itself is never that small.
        func above(_ x: Float) -> Float { max(x.nextUp, .leastNormalMagnitude) }
        // The same case split as ResolvedStops.interpolate on the clamped t.
        bands.append(Band(lo: -1, hi: above(loc[0]), from: -.infinity, to: Double(loc[0]),
                          color: { _ in colors[0] * scale }))
        if n > 1 {
            for i in 0..<(n - 1) where loc[i] < loc[i + 1] {
                let l0 = loc[i], l1 = loc[i + 1], c0 = colors[i], c1 = colors[i + 1]
                let lo = i == 0 ? above(l0) : l0
                guard lo < l1 else { continue }
                bands.append(Band(lo: lo, hi: l1, from: Double(l0), to: Double(l1), color: { t in
                    // Interpolated in Double from the vertex's exact t; the float path differs by rounding only.
                    let f = (t - Double(l0)) / (Double(l1) - Double(l0))
                    let c = SIMD4<Double>(c0) + (SIMD4<Double>(c1) - SIMD4<Double>(c0)) * f
                    return SIMD4<Float>(c) * scale
                }))
            }
        }
        bands.append(Band(lo: loc[n - 1], hi: 2, from: Double(loc[n - 1]), to: .infinity,
                          color: { _ in colors[n - 1] * scale }))

        // t over the frame's pixel centres lies between its values at the corner centres.
        let w = Double(pixelSize.x), h = Double(pixelSize.y)
        let origin = SIMD2<Double>(g.origin), vector = SIMD2<Double>(g.vector)
        func t(_ p: SIMD2<Double>) -> Double { ((p - origin) * vector).sum() }
        let corners = [SIMD2(0.5, 0.5), SIMD2(w - 0.5, 0.5), SIMD2(0.5, h - 0.5), SIMD2(w - 0.5, h - 0.5)].map(t)
        let margin = 1e-4
        let tMin = min(max(corners.min()! - margin, 0), 1), tMax = min(max(corners.max()! + margin, 0), 1)
        let reaching = bands.filter { Double($0.hi) > tMin && Double($0.lo) <= tMax }
        needsTest = reaching.count > 1

        let rectangle = [SIMD2(-1.0, -1.0), SIMD2(w + 1, -1), SIMD2(w + 1, h + 1), SIMD2(-1, h + 1)]
        // Two pixels of overlap, in t units: t changes by |vector| per pixel.
        let widen = 2 * (vector * vector).sum().squareRoot()
        for band in reaching {
            var polygon = rectangle
            if needsTest {
                if band.from.isFinite { polygon = Self.clip(polygon) { t($0) - (band.from - widen) } }
                if band.to.isFinite { polygon = Self.clip(polygon) { (band.to + widen) - t($0) } }
            }
            guard polygon.count >= 3 else { continue }
            let corners = polygon.map { p -> Vertex in
                let c = band.color(t(p))
                return Vertex(x: Float(p.x), y: Float(p.y), r: c.x, g: c.y, b: c.z, a: c.w, lo: band.lo, hi: band.hi)
            }
            for i in 1..<(corners.count - 1) {
                vertices += [corners[0], corners[i], corners[i + 1]]
            }
        }
    }

    /// Sutherland–Hodgman: the part of convex `polygon` where `inside(p) ≥ 0`.
    static func clip(_ polygon: [SIMD2<Double>], _ inside: (SIMD2<Double>) -> Double) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = []
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let da = inside(a), db = inside(b)
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) {
                out.append(a + (b - a) * (da / (da - db)))
            }
        }
        return out
    }
}
