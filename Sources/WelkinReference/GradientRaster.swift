// Gradient rows for the reference renderer: GradientDraw's maths, specialised per kind.

import WelkinCore

enum GradientRaster {
    static func draw(_ g: GradientDraw, y: Int, width: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let py = Float(y) + 0.5
        switch g.kind {
        case .linear where g.vector.x == 0:
            // t is constant along the row: one colour, the same one every pixel would compute.
            let c = g.color(at: SIMD2(0.5, py))
            for x in 0..<width { row[x] = sourceOver(c, row[x]) }
        case .linear:
            let ty = (py - g.origin.y) * g.vector.y
            let ox = g.origin.x, vx = g.vector.x
            let stops = g.stops, opacity = g.opacity
            if stops.space == .srgb && opacity == 1 {
                stops.locations.withUnsafeBufferPointer { loc in
                    stops.colors.withUnsafeBufferPointer { col in
                        for x in 0..<width {
                            let t = min(max((Float(x) + 0.5 - ox) * vx + ty, 0), 1)
                            row[x] = sourceOver(interpolate(t, loc, col), row[x])
                        }
                    }
                }
            } else {
                for x in 0..<width {
                    let t = min(max((Float(x) + 0.5 - ox) * vx + ty, 0), 1)
                    row[x] = sourceOver(stops.evaluate(t) * opacity, row[x])
                }
            }
        case .radial, .angular:
            for x in 0..<width {
                row[x] = sourceOver(g.color(at: SIMD2(Float(x) + 0.5, py)), row[x])
            }
        }
    }

    /// ResolvedStops.interpolate over raw buffers (no array bounds checks in the hot loop).
    @inline(__always)
    static func interpolate(_ t: Float, _ loc: UnsafeBufferPointer<Float>, _ col: UnsafeBufferPointer<SIMD4<Float>>) -> SIMD4<Float> {
        let n = loc.count
        if !(t > loc[0]) { return col[0] }
        if t >= loc[n - 1] { return col[n - 1] }
        var i = 0
        while !(t < loc[i + 1]) { i += 1 }
        let f = (t - loc[i]) / (loc[i + 1] - loc[i])
        return col[i] + (col[i + 1] - col[i]) * f
    }
}
