// The runtime exported gradients carry (GradientExport.swift writes the code that calls it): the
// stop list resampled in Welkin's colour spaces, and a CAGradientLayer's stops from it. Twins of
// WelkinCore's gradient maths, held to it by RuntimeTwinTests (RuntimeSupport.swift says how).

extension RuntimeSupport {
    static let gradientStops = RuntimeSnippet(name: "gradientStops", order: 2, requires: ["colorMath"], pure: true, source: #"""
    /// Twin of Welkin's ResolvedStops.interpolate (Sources/WelkinCore/Gradient/GradientDraw.swift).
    /// Welkin interpolates premultiplied in the layer's colour space; SwiftUI and Core Animation
    /// interpolate in the output space, so each span between two stops is cut in halves until
    /// straight interpolation between the pieces' ends stays within `tolerance` of Welkin's colour.
    private enum WelkinGradient {
        /// A quarter of an 8-bit step: the pieces stay within half a step of Welkin's colours.
        static let tolerance: Float = 0.25 / 255
        /// At most 2⁸ pieces per span.
        static let maximumDepth = 8

        static func stops(_ stops: [(location: Double, color: WelkinRGBA)], in space: WelkinColorSpace) -> [(location: Double, color: WelkinRGBA)] {
            var out: [(location: Double, color: WelkinRGBA)] = []
            for i in stops.indices {
                out.append(stops[i])
                guard i + 1 < stops.count, stops[i + 1].location > stops[i].location else { continue }
                let (l0, c0) = stops[i], (l1, c1) = stops[i + 1]
                let p0 = WelkinColorMath.toInterpolationSpace(c0, space)
                let p1 = WelkinColorMath.toInterpolationSpace(c1, space)
                /// Welkin's colour at f of the span, premultiplied sRGB.
                func welkin(_ f: Float) -> SIMD4<Float> { WelkinColorMath.fromInterpolationSpace(p0 + (p1 - p0) * f, space) }
                func straight(_ p: SIMD4<Float>, _ f: Float) -> WelkinRGBA { WelkinColorMath.straight(p, fallback: f < 0.5 ? c1 : c0) }
                var cuts: [Float] = []
                func cut(_ a: Float, _ b: Float, _ pa: SIMD4<Float>, _ pb: SIMD4<Float>, depth: Int) {
                    // The span's ends are the stops as given (a transparent one keeps its own hue).
                    let sa = a == 0 ? c0 : straight(pa, a), sb = b == 1 ? c1 : straight(pb, b)
                    var worst: Float = 0
                    for q: Float in [0.25, 0.5, 0.75] {
                        let w = welkin(a + (b - a) * q)
                        let alpha = Float(sa.a + (sb.a - sa.a) * Double(q))
                        let rgb = SIMD3<Float>(Float(sa.r + (sb.r - sa.r) * Double(q)), Float(sa.g + (sb.g - sa.g) * Double(q)),
                                               Float(sa.b + (sb.b - sa.b) * Double(q))) * alpha
                        let d = SIMD4(rgb, alpha) - w
                        worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
                    }
                    guard worst > tolerance, depth < maximumDepth else { return }
                    let m = (a + b) / 2, pm = welkin(m)
                    cut(a, m, pa, pm, depth: depth + 1)
                    cuts.append(m)
                    cut(m, b, pm, pb, depth: depth + 1)
                }
                cut(0, 1, welkin(0), welkin(1), depth: 0)
                for f in cuts { out.append((l0 + (l1 - l0) * Double(f), straight(welkin(f), f))) }
            }
            return out
        }
    }
    """#)

    static let caGradient = RuntimeSnippet(name: "caGradient", order: 5, requires: ["rgba"], pure: true, source: #"""
    /// The colour at `t` between stops, straight-alpha sRGB linear in between, padded at the ends
    /// (at a hard edge t takes the later colour, as in Welkin).
    private func welkinColor(_ stops: [(location: Double, color: WelkinRGBA)], at t: Double) -> WelkinRGBA {
        guard t > stops[0].location else { return stops[0].color }
        guard t < stops[stops.count - 1].location else { return stops[stops.count - 1].color }
        var i = 0
        while !(t < stops[i + 1].location) { i += 1 }
        let (l0, a) = stops[i], (l1, b) = stops[i + 1]
        let f = (t - l0) / (l1 - l0)
        return WelkinRGBA(a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, a.a + (b.a - a.a) * f)
    }

    /// Welkin's radial gradient runs from `r0` to `r1` (points, or fractions of the frame for an
    /// elliptical one); a radial CAGradientLayer runs from its centre (location 0) to the ellipse
    /// through its endPoint (location 1), placed at the larger radius. Each stop moves to where its
    /// radius falls on that scale; the end colours pad inside and outside, as in Welkin.
    private func welkinRadialStops(_ stops: [(location: Double, color: WelkinRGBA)], from r0: Double,
                                   to r1: Double) -> [(location: Double, color: WelkinRGBA)] {
        let first = stops[0].color, last = stops[stops.count - 1].color
        let outer = max(r0, r1)
        guard outer > 0 else { return [(0, last), (1, last)] }
        guard r1 != r0 else { return [(0, first), (1, first), (1, last)] }
        let moved = stops.map { (location: min(max((r0 + $0.location * (r1 - r0)) / outer, 0), 1), color: $0.color) }
        return r1 > r0 ? moved : moved.reversed()
    }

    /// Welkin's angular gradient (SwiftUI's AngularGradient semantics: a span of a turn or more shows
    /// its last complete turn; a shorter one fills the missing wedge with the end colours, switching
    /// halfway) as a conic CAGradientLayer, which sweeps one full turn from a direction. Returns that
    /// direction (degrees, clockwise on screen from +x) and the stops along the layer's sweep.
    private func welkinConicStops(_ stops: [(location: Double, color: WelkinRGBA)], startAngle: Double, endAngle: Double,
                                  sweepsClockwise: Bool) -> (angle: Double, stops: [(location: Double, color: WelkinRGBA)]) {
        let span = endAngle - startAngle, s = abs(span)
        let first = stops[0].color, last = stops[stops.count - 1].color
        var offset = 0.0
        var along: [(location: Double, color: WelkinRGBA)]
        if s >= 360 {
            offset = s.truncatingRemainder(dividingBy: 360)
            let t0 = (s - 360) / s
            along = [(0, welkinColor(stops, at: t0))]
            for stop in stops where stop.location > t0 {
                let location: Double = 1 - (1 - stop.location) * s / 360
                along.append((min(max(location, 0), 1), stop.color))
            }
            if along.count == 1 { along.append((1, along[0].color)) }
        } else {
            along = stops.map { ($0.location * s / 360, $0.color) }
            let middle = (s + (360 - s) / 2) / 360
            along += [(middle, last), (middle, first), (1, first)]
        }
        let angle = startAngle + (span >= 0 ? offset : -offset)
        if (span >= 0) == sweepsClockwise { return (angle, along) }
        return (angle, along.reversed().map { (1 - $0.location, $0.color) })
    }
    """#)
}
