// The Swift that exported files carry with them: self-contained copies of Welkin's maths.
//
// An exported file must not depend on Welkin, so the few functions it needs at run time (colour
// spaces, the mesh's random walk and spring, the sprites' coverage, the sun and the sky palette)
// are written out into it. Each snippet is the twin of the WelkinCore function it names, with the
// same formulas, constants and order of operations, and RuntimeTwinTests runs the snippets
// against WelkinCore to hold them to the same numbers. The snippets marked "pure" use only
// Foundation; the others need CoreGraphics, SwiftUI or Core Animation.

/// One snippet of runtime support, emitted at most once per file.
struct RuntimeSnippet: Hashable, Comparable {
    let name: String
    /// Emission order (dependencies first).
    let order: Int
    /// Snippets this one uses.
    let requires: [String]
    /// Only Foundation: the twin tests compile and run these on Linux.
    let pure: Bool
    let source: String

    static func < (a: RuntimeSnippet, b: RuntimeSnippet) -> Bool { a.order < b.order }
    static func == (a: RuntimeSnippet, b: RuntimeSnippet) -> Bool { a.name == b.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

enum RuntimeSupport {
    static let all: [RuntimeSnippet] = [rgba, colorMath, gradientStops, swiftUIColor, cgColor, caGradient, platformY,
                                        spring, randomWalk, meshColors, sprite, spriteImage, emitterView, sun, skyPalette,
                                        weatherTint, sky]

    static func snippet(_ name: String) -> RuntimeSnippet {
        guard let s = all.first(where: { $0.name == name }) else { preconditionFailure("no runtime snippet \(name)") }
        return s
    }

    /// `names` and everything they require, in emission order.
    static func closure(_ names: Set<String>) -> [RuntimeSnippet] {
        var seen = Set<String>()
        var stack = Array(names)
        while let n = stack.popLast() {
            guard seen.insert(n).inserted else { continue }
            stack += snippet(n).requires
        }
        return seen.map(snippet).sorted()
    }

    // MARK: colour

    static let rgba = RuntimeSnippet(name: "rgba", order: 0, requires: [], pure: true, source: #"""
    /// An sRGB colour with straight alpha (Welkin's RGBA): components 0…1, or beyond them for a
    /// colour the scene wrote in Display P3 (extended sRGB, as SwiftUI's Color(.sRGB, …) takes it).
    private struct WelkinRGBA: Sendable, Equatable {
        var r: Double, g: Double, b: Double, a: Double
        init(_ r: Double, _ g: Double, _ b: Double, _ a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }
    }
    """#)

    static let colorMath = RuntimeSnippet(name: "colorMath", order: 1, requires: ["rgba"], pure: true, source: #"""
    /// Where colours are interpolated (Welkin's ColorSpace).
    private enum WelkinColorSpace: Sendable { case srgb, linearSRGB, oklab }

    /// Twin of Welkin's ColorMath (Sources/WelkinCore/Color/ColorSpace.swift): the same formulas and
    /// constants, in Float as there.
    private enum WelkinColorMath {
        static func srgbToLinear(_ c: Float) -> Float {
            let a = abs(c)
            let v = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
            return c < 0 ? -v : v
        }

        static func linearToSRGB(_ c: Float) -> Float {
            let a = abs(c)
            let v = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
            return c < 0 ? -v : v
        }

        static func srgbToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z)) }
        static func linearToSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3(linearToSRGB(c.x), linearToSRGB(c.y), linearToSRGB(c.z)) }

        /// Linear sRGB → OKLab (Björn Ottosson).
        static func linearToOklab(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let l = 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z
            let m = 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z
            let s = 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z
            let l_ = cbrtf(l), m_ = cbrtf(m), s_ = cbrtf(s)
            return SIMD3(0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                         1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                         0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)
        }

        /// OKLab → linear sRGB.
        static func oklabToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let l_ = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z
            let m_ = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z
            let s_ = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z
            let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
            return SIMD3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                         -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                         -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
        }

        /// A straight-alpha sRGB colour → premultiplied components in `space`.
        static func toInterpolationSpace(_ c: WelkinRGBA, _ space: WelkinColorSpace) -> SIMD4<Float> {
            let rgb = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
            let a = Float(c.a)
            let v: SIMD3<Float>
            switch space {
            case .srgb: v = rgb
            case .linearSRGB: v = srgbToLinear(rgb)
            case .oklab: v = linearToOklab(srgbToLinear(rgb))
            }
            return SIMD4(v * a, a)
        }

        /// Premultiplied components in `space` → premultiplied sRGB.
        static func fromInterpolationSpace(_ p: SIMD4<Float>, _ space: WelkinColorSpace) -> SIMD4<Float> {
            if space == .srgb { return p }
            let a = p.w
            if a <= 0 { return .zero }
            let v = SIMD3(p.x, p.y, p.z) / a
            let rgb: SIMD3<Float>
            switch space {
            case .srgb: rgb = v
            case .linearSRGB: rgb = linearToSRGB(v)
            case .oklab: rgb = linearToSRGB(oklabToLinear(v))
            }
            // Not clamped: extended sRGB, as Welkin's working space (SwiftUI and Core Graphics clip on screen).
            return SIMD4(rgb * a, a)
        }

        /// Premultiplied sRGB → a straight-alpha colour; a transparent one takes `fallback`'s hue.
        static func straight(_ p: SIMD4<Float>, fallback: WelkinRGBA) -> WelkinRGBA {
            guard p.w > 0 else { return WelkinRGBA(fallback.r, fallback.g, fallback.b, 0) }
            let c = SIMD3(p.x, p.y, p.z) / p.w
            return WelkinRGBA(Double(c.x), Double(c.y), Double(c.z), Double(min(p.w, 1)))
        }
    }
    """#)

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

    static let swiftUIColor = RuntimeSnippet(name: "swiftUIColor", order: 3, requires: ["rgba"], pure: false, source: #"""
    extension WelkinRGBA {
        var color: Color { Color(.sRGB, red: r, green: g, blue: b, opacity: a) }
    }

    private func welkinStops(_ stops: [(location: Double, color: WelkinRGBA)]) -> [Gradient.Stop] {
        stops.map { Gradient.Stop(color: $0.color.color, location: CGFloat($0.location)) }
    }
    """#)

    static let cgColor = RuntimeSnippet(name: "cgColor", order: 4, requires: ["rgba"], pure: false, source: #"""
    extension WelkinRGBA {
        var cgColor: CGColor { CGColor(srgbRed: CGFloat(r), green: CGFloat(g), blue: CGFloat(b), alpha: CGFloat(a)) }
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

    static let platformY = RuntimeSnippet(name: "platformY", order: 6, requires: [], pure: false, source: #"""
    #if canImport(UIKit)
    /// UIKit's layers put y down, as Welkin does.
    private let welkinYDown: CGFloat = 1
    #else
    /// AppKit's layers put y up: positions, angles, vertical accelerations and spins are mirrored.
    private let welkinYDown: CGFloat = -1
    #endif

    /// A point of Welkin's unit space (y down) in this platform's unit layer space.
    private func welkinUnitPoint(_ x: Double, _ y: Double) -> CGPoint {
        CGPoint(x: CGFloat(x), y: welkinYDown > 0 ? CGFloat(y) : 1 - CGFloat(y))
    }

    /// A point of Welkin's unit space in `bounds`, in points.
    private func welkinPoint(_ x: Double, _ y: Double, in bounds: CGRect) -> CGPoint {
        let p = welkinUnitPoint(x, y)
        return CGPoint(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height)
    }
    """#)

    // MARK: mesh

    static let spring = RuntimeSnippet(name: "spring", order: 10, requires: [], pure: true, source: #"""
    /// Twin of Welkin's MeshSpring (Sources/WelkinCore/Mesh/MeshAnimation.swift): SwiftUI's
    /// `spring(duration:bounce:)` as a damped harmonic oscillator of unit mass, solved exactly.
    private struct WelkinSpring: Sendable {
        var duration: Double
        var bounce: Double

        var angularFrequency: Double { 2 * .pi / duration }
        var dampingRatio: Double { bounce >= 0 ? 1 - bounce : 1 / (1 + bounce) }

        /// Position and velocity `dt` seconds later, moving toward a fixed `target`.
        func advance(position x: Double, velocity v: Double, target: Double, by dt: Double) -> (position: Double, velocity: Double) {
            guard dt > 0 else { return (x, v) }
            let w0 = angularFrequency, zeta = dampingRatio
            let y0 = x - target
            if zeta < 1 {
                let wd = w0 * (1 - zeta * zeta).squareRoot()
                let decay = exp(-zeta * w0 * dt)
                let c = cos(wd * dt), s = sin(wd * dt)
                let b = (v + zeta * w0 * y0) / wd
                let y = decay * (y0 * c + b * s)
                let dy = decay * ((b * wd - zeta * w0 * y0) * c - (y0 * wd + zeta * w0 * b) * s)
                return (target + y, dy)
            } else if zeta == 1 {
                let decay = exp(-w0 * dt)
                let b = v + w0 * y0
                return (target + decay * (y0 + b * dt), decay * (b - w0 * (y0 + b * dt)))
            } else {
                let root = (zeta * zeta - 1).squareRoot()
                let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
                let a = (v - r2 * y0) / (r1 - r2), b = y0 - a
                let e1 = exp(r1 * dt), e2 = exp(r2 * dt)
                return (target + a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
            }
        }
    }
    """#)

    static let randomWalk = RuntimeSnippet(name: "randomWalk", order: 11, requires: ["spring"], pure: true, source: #"""
    /// Twin of Welkin's MeshRandomWalk: every `interval` seconds each listed vertex's target moves by
    /// ±`step` in x and in y (signs from the scene seed), clamped to its range, and the vertex follows
    /// its target through `spring`. Played forward incrementally: the same numbers as Welkin's
    /// `positions(start:seed:at:)`, without replaying every tick since time 0 on each frame.
    private final class WelkinRandomWalk {
        struct Range: Sendable {
            var index: Int
            var x: ClosedRange<Double>?
            var y: ClosedRange<Double>?
        }
        /// One moving coordinate: its spring's state after the last tick played.
        private struct Axis {
            var vertex: Int, axis: Int, limits: ClosedRange<Double>
            var position: Double, velocity: Double, target: Double, last: Double
        }

        let interval: Double, step: Double, spring: WelkinSpring, seed: UInt64, start: [SIMD2<Double>]
        private let ranges: [Range]
        private var axes: [Axis] = []
        private var ticks = 0

        /// About 93 days at 1/9 s; later times hold the last tick's targets.
        static let maximumTicks = 1 << 26

        init(interval: Double, step: Double, ranges: [Range], spring: WelkinSpring, seed: UInt64, start: [SIMD2<Double>]) {
            self.interval = interval; self.step = step; self.ranges = ranges; self.spring = spring
            self.seed = seed; self.start = start
            rewind()
        }

        /// +1 or −1 for one move, from an integer hash (SplitMix64's finaliser) of its coordinates.
        static func sign(seed: UInt64, vertex: Int, tick: Int, axis: Int) -> Double {
            var z = seed &* 0x9E37_79B9_7F4A_7C15
            z ^= UInt64(truncatingIfNeeded: vertex) &* 0xBF58_476D_1CE4_E5B9
            z ^= UInt64(truncatingIfNeeded: tick) &* 0x94D0_49BB_1331_11EB
            z ^= UInt64(truncatingIfNeeded: axis) &+ 0x2545_F491_4F6C_DD1D
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return z >> 63 == 0 ? 1 : -1
        }

        private func rewind() {
            ticks = 0
            axes = []
            for range in ranges where range.index < start.count {
                for (axis, limits) in [range.x, range.y].enumerated() {
                    guard let limits else { continue }
                    let p = start[range.index][axis]
                    axes.append(Axis(vertex: range.index, axis: axis, limits: limits, position: p, velocity: 0, target: p, last: 0))
                }
            }
        }

        /// Displayed positions of every vertex at time `t` (vertices without a range stay put).
        func positions(at t: Double) -> [SIMD2<Double>] {
            let time = t.isFinite ? max(0, t) : 0
            let target = min(Self.maximumTicks, Int((time / interval).rounded(.down)))
            if target < ticks { rewind() }
            while ticks < target {
                ticks += 1
                let at = Double(ticks) * interval
                for i in axes.indices {
                    var a = axes[i]
                    (a.position, a.velocity) = spring.advance(position: a.position, velocity: a.velocity, target: a.target, by: at - a.last)
                    a.last = at
                    a.target = min(max(a.target + Self.sign(seed: seed, vertex: a.vertex, tick: ticks, axis: a.axis) * step,
                                       a.limits.lowerBound), a.limits.upperBound)
                    axes[i] = a
                }
            }
            var out = start
            for a in axes {
                out[a.vertex][a.axis] = spring.advance(position: a.position, velocity: a.velocity, target: a.target, by: time - a.last).position
            }
            return out
        }
    }
    """#)

    static let meshColors = RuntimeSnippet(name: "meshColors", order: 12, requires: ["colorMath"], pure: true, source: #"""
    /// Twin of Welkin's MeshDraw.colors: vertex colours linear between keyframes, premultiplied in
    /// the layer's colour space, held after the last keyframe. `colors` is the keyframe at time 0.
    private struct WelkinMeshColors: Sendable {
        struct Keyframe: Sendable { var time: Double; var colors: [WelkinRGBA] }
        var colors: [WelkinRGBA]
        var keyframes: [Keyframe]
        var space: WelkinColorSpace

        func at(_ time: Double) -> [WelkinRGBA] {
            func convert(_ c: [WelkinRGBA]) -> [SIMD4<Double>] { c.map { SIMD4<Double>(WelkinColorMath.toInterpolationSpace($0, space)) } }
            func back(_ p: [SIMD4<Double>], _ hues: [WelkinRGBA]) -> [WelkinRGBA] {
                zip(p, hues).map { WelkinColorMath.straight(WelkinColorMath.fromInterpolationSpace(SIMD4<Float>($0), space), fallback: $1) }
            }
            var before = (time: 0.0, colors: colors)
            for key in keyframes {
                if time < key.time {
                    let f = max(0, (time - before.time) / (key.time - before.time))
                    return back(zip(convert(before.colors), convert(key.colors)).map { $0 + ($1 - $0) * f }, key.colors)
                }
                before = (key.time, key.colors)
            }
            return back(convert(before.colors), before.colors)
        }
    }
    """#)

    // MARK: sprites

    static let sprite = RuntimeSnippet(name: "sprite", order: 20, requires: [], pure: true, source: #"""
    /// Welkin's procedural sprites.
    private enum WelkinSpriteKind: Sendable { case dot, softDot, flake, streak, cloud }

    /// Twin of Welkin's SpriteShape (Sources/WelkinCore/Particles/SpriteShape.swift): coverage 0…1
    /// of a sprite at local point q (pixels from its centre, x along its axis), `size` its full
    /// extents and `blur` its blur in pixels.
    private enum WelkinSpriteShape {
        static let flakeArmWidth: Float = 0.04
        static let cloudPuffs: [SIMD3<Float>] = [[-0.45, 0.15, 0.5], [0.0, -0.15, 0.6], [0.45, 0.15, 0.5]]
        static let blurReach: Float = 3

        static func support(_ kind: WelkinSpriteKind, size: SIMD2<Float>, blur: Float) -> SIMD2<Float> {
            let r = size.x * 0.5
            switch kind {
            case .dot: return SIMD2(repeating: r + 0.5)
            case .softDot: return SIMD2(repeating: r + blurReach * blur + 0.5)
            case .flake: return SIMD2(repeating: r + max(0.5, size.x * flakeArmWidth) + 0.5)
            case .streak: return size * 0.5 + 0.5
            case .cloud: return SIMD2(repeating: r + max(1, blur) + 0.5)
            }
        }

        static func erfcApprox(_ x: Float) -> Float {
            let z = abs(x)
            let t = 1 / (1 + 0.3275911 * z)
            let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
            let e = poly * expf(-z * z)
            return x >= 0 ? e : 2 - e
        }

        static func coverage(_ kind: WelkinSpriteKind, _ q: SIMD2<Float>, size: SIMD2<Float>, blur: Float) -> Float {
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
            }
        }

        /// The sprite as white premultiplied RGBA8 pixels (row 0 at the top), `width` × `height`:
        /// `size` and `blur` in points, `pixelsPerPoint` the image's scale, turned by `angle`
        /// radians (clockwise on screen, y down).
        static func pixels(_ kind: WelkinSpriteKind, size: SIMD2<Double>, blur: Double, angle: Double,
                           pixelsPerPoint: Double) -> (width: Int, height: Int, bytes: [UInt8]) {
            let s = SIMD2<Float>(size * pixelsPerPoint), b = Float(blur * pixelsPerPoint)
            let h = support(kind, size: s, blur: b)
            let c = Float(cos(angle)), sn = Float(sin(angle))
            let extent = SIMD2(abs(c) * h.x + abs(sn) * h.y, abs(sn) * h.x + abs(c) * h.y)
            let width = max(1, Int((extent.x * 2).rounded(.up))), height = max(1, Int((extent.y * 2).rounded(.up)))
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for j in 0..<height {
                for i in 0..<width {
                    let d = SIMD2(Float(i) + 0.5 - Float(width) / 2, Float(j) + 0.5 - Float(height) / 2)
                    let q = SIMD2(d.x * c + d.y * sn, -d.x * sn + d.y * c)
                    let v = UInt8((coverage(kind, q, size: s, blur: b) * 255).rounded())
                    let o = (j * width + i) * 4
                    bytes[o] = v; bytes[o + 1] = v; bytes[o + 2] = v; bytes[o + 3] = v
                }
            }
            return (width, height, bytes)
        }
    }
    """#)

    static let spriteImage = RuntimeSnippet(name: "spriteImage", order: 21, requires: ["sprite"], pure: false, source: #"""
    /// Sprite images are drawn at this many pixels per point (cells set `contentsScale` to match).
    private let welkinSpriteScale: CGFloat = 3

    /// A procedural sprite as a CGImage for `CAEmitterCell.contents`: white, Welkin's coverage as alpha.
    private func welkinSpriteImage(_ kind: WelkinSpriteKind, size: SIMD2<Double>, blur: Double, angle: Double = 0) -> CGImage? {
        var (width, height, bytes) = WelkinSpriteShape.pixels(kind, size: size, blur: blur, angle: angle,
                                                               pixelsPerPoint: Double(welkinSpriteScale))
        guard let space = CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        return bytes.withUnsafeMutableBytes { buffer in
            CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                      space: space, bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)?.makeImage()
        }
    }
    """#)

    static let emitterView = RuntimeSnippet(name: "emitterView", order: 22, requires: [], pure: false, source: #"""
    #if canImport(UIKit)
    private typealias WelkinPlatformView = UIView
    #else
    private typealias WelkinPlatformView = NSView
    #endif

    /// Hosts a CAEmitterLayer: the layer fills the view and is laid out with it.
    private final class WelkinEmitterHostView: WelkinPlatformView {
        let emitter: CAEmitterLayer
        let place: (CAEmitterLayer, CGRect) -> Void

        init(emitter: CAEmitterLayer, layout: @escaping (CAEmitterLayer, CGRect) -> Void) {
            self.emitter = emitter
            self.place = layout
            super.init(frame: .zero)
            #if canImport(UIKit)
            isUserInteractionEnabled = false
            layer.addSublayer(emitter)
            #else
            wantsLayer = true
            layer?.addSublayer(emitter)
            #endif
        }

        required init?(coder: NSCoder) { fatalError("WelkinEmitterHostView is created in code") }

        #if canImport(UIKit)
        override func layoutSubviews() {
            super.layoutSubviews()
            place(emitter, bounds)
        }
        #else
        override func layout() {
            super.layout()
            place(emitter, bounds)
        }
        #endif
    }

    /// A CAEmitterLayer in SwiftUI, set up by `configure` and placed by `layout`.
    private struct WelkinEmitterView {
        let configure: (CAEmitterLayer) -> Void
        let layout: (CAEmitterLayer, CGRect) -> Void

        @MainActor func makeHost() -> WelkinEmitterHostView {
            let emitter = CAEmitterLayer()
            configure(emitter)
            return WelkinEmitterHostView(emitter: emitter, layout: layout)
        }
    }

    #if canImport(UIKit)
    extension WelkinEmitterView: UIViewRepresentable {
        func makeUIView(context: Context) -> WelkinEmitterHostView { makeHost() }
        func updateUIView(_ view: WelkinEmitterHostView, context: Context) {}
    }
    #else
    extension WelkinEmitterView: NSViewRepresentable {
        func makeNSView(context: Context) -> WelkinEmitterHostView { makeHost() }
        func updateNSView(_ view: WelkinEmitterHostView, context: Context) {}
    }
    #endif
    """#)

    // MARK: sky

    static let sun = RuntimeSnippet(name: "sun", order: 30, requires: [], pure: true, source: #"""
    /// Twin of Welkin's SunPosition (Sources/WelkinCore/Sky/SunPosition.swift): NOAA's solar
    /// calculator after Meeus; apparent elevation (refraction included) and azimuth clockwise from
    /// north, in degrees, for an instant in seconds since 1970 UTC.
    private enum WelkinSun {
        static func position(unixSeconds: Double, latitude: Double, longitude: Double) -> (elevation: Double, azimuth: Double) {
            let julianDay = unixSeconds / 86400 + 2440587.5
            let (declination, equationOfTime) = solarTerms(julianDay: julianDay)
            let utcMinutes = mod(unixSeconds / 60, 1440)
            let trueSolarTime = mod(utcMinutes + equationOfTime + 4 * longitude, 1440)
            var hourAngle = trueSolarTime / 4 - 180
            if hourAngle < -180 { hourAngle += 360 }
            let phi = latitude * .pi / 180, delta = declination * .pi / 180, h = hourAngle * .pi / 180
            let cosZenith = max(-1, min(1, sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(h)))
            let zenith = acos(cosZenith)
            let geometric = 90 - zenith * 180 / .pi
            let elevation = geometric + refraction(elevation: geometric)
            let denominator = cos(phi) * sin(zenith)
            var azimuth: Double
            if abs(denominator) < 1e-12 {
                azimuth = latitude > 0 ? 180 : 0
            } else {
                let cosAz = max(-1, min(1, (sin(phi) * cos(zenith) - sin(delta)) / denominator))
                let a = acos(cosAz) * 180 / .pi
                azimuth = hourAngle > 0 ? mod(a + 180, 360) : mod(540 - a, 360)
            }
            return (elevation, azimuth)
        }

        /// NOAA's atmospheric refraction (degrees) for a geometric elevation (degrees).
        static func refraction(elevation e: Double) -> Double {
            if e > 85 { return 0 }
            let t = tan(e * .pi / 180)
            let arcseconds: Double
            if e > 5 {
                arcseconds = 58.1 / t - 0.07 / (t * t * t) + 0.000086 / pow(t, 5)
            } else if e > -0.575 {
                arcseconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
            } else {
                arcseconds = -20.772 / t
            }
            return arcseconds / 3600
        }

        static func mod(_ x: Double, _ m: Double) -> Double {
            let r = x.truncatingRemainder(dividingBy: m)
            return r < 0 ? r + m : r
        }

        /// The sun's declination (degrees) and the equation of time (minutes): NOAA's series.
        static func solarTerms(julianDay: Double) -> (declination: Double, equationOfTime: Double) {
            let t = (julianDay - 2451545) / 36525
            let rad = Double.pi / 180
            let l0 = mod(280.46646 + t * (36000.76983 + t * 0.0003032), 360)
            let m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
            let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
            let c = sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
                + sin(2 * m * rad) * (0.019993 - 0.000101 * t) + sin(3 * m * rad) * 0.000289
            let trueLongitude = l0 + c
            let omega = 125.04 - 1934.136 * t
            let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega * rad)
            let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
            let obliquity = meanObliquity + 0.00256 * cos(omega * rad)
            let declination = asin(sin(obliquity * rad) * sin(apparentLongitude * rad)) / rad
            let y = pow(tan(obliquity * rad / 2), 2)
            let l = l0 * rad, mr = m * rad
            let equationOfTime = 4 / rad * (y * sin(2 * l) - 2 * e * sin(mr) + 4 * e * y * sin(mr) * cos(2 * l)
                                            - 0.5 * y * y * sin(4 * l) - 1.25 * e * e * sin(2 * mr))
            return (declination, equationOfTime)
        }
    }
    """#)

    static let skyPalette = RuntimeSnippet(name: "skyPalette", order: 31, requires: ["colorMath"], pure: true, source: #"""
    /// Twin of Welkin's OklabColor (Sources/WelkinCore/Sky/SkyState.swift): straight OKLab and alpha.
    private struct WelkinOklab: Sendable {
        var lab: SIMD3<Double>
        var alpha: Double

        init(_ c: WelkinRGBA) {
            let linear = SIMD3<Float>(WelkinColorMath.srgbToLinear(Float(c.r)), WelkinColorMath.srgbToLinear(Float(c.g)),
                                      WelkinColorMath.srgbToLinear(Float(c.b)))
            lab = SIMD3<Double>(WelkinColorMath.linearToOklab(linear))
            alpha = c.a
        }

        init(lab: SIMD3<Double>, alpha: Double) { self.lab = lab; self.alpha = alpha }

        static func mix(_ a: WelkinOklab, _ b: WelkinOklab, _ t: Double) -> WelkinOklab {
            WelkinOklab(lab: a.lab + (b.lab - a.lab) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
        }
    }

    /// One palette keyframe: the sky's colours when the sun is at `elevation` degrees.
    private struct WelkinSkyKeyframe: Sendable {
        var elevation: Double
        var zenith: WelkinRGBA
        var horizon: WelkinRGBA
        /// The glow around the sun (alpha: its strength); the export draws no glow, kept for yours.
        var sunGlow: WelkinRGBA
    }

    /// Twin of Welkin's SkyColors(palette:elevation:): keyframes blended in OKLab with a smoothstep
    /// weight, so colours and their rate of change are continuous.
    private func welkinSkyColors(_ palette: [WelkinSkyKeyframe], elevation: Double) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
        func colors(_ k: WelkinSkyKeyframe) -> (WelkinOklab, WelkinOklab) { (WelkinOklab(k.zenith), WelkinOklab(k.horizon)) }
        var (z, h) = colors(palette[0])
        if elevation >= palette[palette.count - 1].elevation {
            (z, h) = colors(palette[palette.count - 1])
        } else if elevation > palette[0].elevation {
            var i = 0
            while elevation >= palette[i + 1].elevation { i += 1 }
            let a = palette[i], b = palette[i + 1]
            let span = b.elevation - a.elevation
            let f = span > 0 ? (elevation - a.elevation) / span : 1
            let w = f * f * (3 - 2 * f)
            let (za, ha) = colors(a), (zb, hb) = colors(b)
            z = .mix(za, zb, w); h = .mix(ha, hb, w)
        }
        return (z, h)
    }
    """#)

    static let weatherTint = RuntimeSnippet(name: "weatherTint", order: 32, requires: ["skyPalette"], pure: true, source: #"""
    /// Twin of Welkin's weather tint (WeatherState and SkyState.tinted in Sources/WelkinCore/Sky):
    /// presets cross-faded with a smoothstep over `transition` seconds, each moving the palette
    /// toward its colours while keeping the time of day's lightness (a cloudy night stays night).
    private struct WelkinWeather: Sendable {
        struct Tint: Sendable {
            var tint: Double, zenith: WelkinRGBA, horizon: WelkinRGBA
            static func lerp(_ a: Tint, _ b: Tint, _ f: Double) -> Tint {
                func m(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
                func c(_ x: WelkinRGBA, _ y: WelkinRGBA) -> WelkinRGBA { WelkinRGBA(m(x.r, y.r), m(x.g, y.g), m(x.b, y.b), m(x.a, y.a)) }
                return Tint(tint: m(a.tint, b.tint), zenith: c(a.zenith, b.zenith), horizon: c(a.horizon, b.horizon))
            }
        }
        /// The preset from each scene time on; the first entry's `at` is −∞.
        var segments: [(at: Double, tint: Tint)]
        var transition: Double

        func tint(at time: Double) -> Tint {
            let transition = max(self.transition, 0)
            var start = segments[0].tint
            for (index, segment) in segments.enumerated() {
                let end = index + 1 < segments.count ? segments[index + 1].at : Double.infinity
                let from = start, target = segment.tint
                func at(_ t: Double) -> Tint {
                    guard transition > 0, segment.at.isFinite else { return target }
                    let u = min(max((t - segment.at) / transition, 0), 1)
                    if u >= 1 { return target }
                    return .lerp(from, target, u * u * (3 - 2 * u))
                }
                if time < end { return at(time) }
                start = at(end)
            }
            return start
        }

        /// The palette's colours moved toward the weather's.
        static func tinted(_ c: (zenith: WelkinOklab, horizon: WelkinOklab), by w: Tint,
                           day: (zenith: WelkinOklab, horizon: WelkinOklab)) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
            guard w.tint > 0 else { return c }
            func tint(_ own: WelkinOklab, _ weatherColor: WelkinRGBA, _ dayColor: WelkinOklab) -> WelkinOklab {
                var target = WelkinOklab(weatherColor)
                let lightness = day.zenith.lab.x > 0 ? min(1.25, own.lab.x / max(dayColor.lab.x, 1e-6)) : 1
                let l = target.lab.x * lightness
                target.lab = SIMD3(l, target.lab.y * lightness, target.lab.z * lightness)
                return .mix(own, target, w.tint)
            }
            return (tint(c.zenith, w.zenith, day.zenith), tint(c.horizon, w.horizon, day.horizon))
        }
    }
    """#)

    static let sky = RuntimeSnippet(name: "skyModel", order: 33, requires: ["sun", "skyPalette", "weatherTint", "colorMath"], pure: true, source: #"""
    /// Welkin's `sky` layer as a gradient: the sun's elevation at scene time t picks the palette's
    /// colours, and the zenith → horizon blend (OKLab, weight t² down to the horizon, as Welkin's
    /// SkyGradientDraw) is sampled into stops. The sun's disc and glow and the stars are not drawn.
    private struct WelkinSky: Sendable {
        enum Sun: Sendable {
            /// The real sun: `unixSeconds` at scene time 0, advanced `timeScale` sky seconds per second.
            case computed(unixSeconds: Double, latitude: Double, longitude: Double, timeScale: Double)
            case fixed(elevation: Double, azimuth: Double)
        }
        var sun: Sun
        var palette: [WelkinSkyKeyframe]
        /// Unit y of the horizon line; below it Welkin darkens the horizon colour (lightness × 0.55).
        var horizon: Double
        var weather: WelkinWeather? = nil

        /// Stops along the sky's height (a fixed count, so Core Animation can animate them): 48
        /// samples keep the blend within half an 8-bit step of Welkin's.
        static let samples = 48

        /// The sun at scene time `t`, degrees.
        func sunPosition(at t: Double) -> (elevation: Double, azimuth: Double) {
            switch sun {
            case .fixed(let e, let a):
                return (e, a)
            case .computed(let start, let latitude, let longitude, let timeScale):
                let seconds = t * timeScale
                return WelkinSun.position(unixSeconds: start + (seconds.isFinite ? seconds : 0), latitude: latitude, longitude: longitude)
            }
        }

        /// Zenith and horizon colours (OKLab) at scene time `t`, the weather's tint included.
        func colors(at t: Double) -> (zenith: WelkinOklab, horizon: WelkinOklab) {
            let base = welkinSkyColors(palette, elevation: sunPosition(at: t).elevation)
            guard let weather else { return base }
            return WelkinWeather.tinted(base, by: weather.tint(at: t), day: welkinSkyColors(palette, elevation: 90))
        }

        /// Gradient stops from the top of the frame (location 0) to `max(horizon, 1)` (location 1).
        func stops(at t: Double) -> [(location: Double, color: WelkinRGBA)] {
            let (z, h) = colors(at: t)
            let zenith = SIMD3<Float>(z.lab), horizonLab = SIMD3<Float>(h.lab)
            func encode(_ lab: SIMD3<Float>) -> WelkinRGBA {
                let rgb = WelkinColorMath.linearToSRGB(WelkinColorMath.oklabToLinear(lab).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
                return WelkinRGBA(Double(rgb.x), Double(rgb.y), Double(rgb.z), 1)
            }
            let span = max(horizon, 1)
            var out: [(location: Double, color: WelkinRGBA)] = []
            for i in 0...Self.samples {
                let f = Float(i) / Float(Self.samples)
                let k = f * f
                out.append((horizon * Double(f) / span, encode(zenith + (horizonLab - zenith) * k)))
            }
            if horizon < 1 {
                var ground = horizonLab
                ground.x = ground.x * 0.55
                out.append((horizon / span, encode(ground)))
                out.append((1, encode(ground)))
            }
            return out
        }
    }
    """#)
}
