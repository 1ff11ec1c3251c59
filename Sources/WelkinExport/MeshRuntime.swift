// The runtime exported mesh gradients carry (MeshExport.swift writes the code that calls it): the
// random walk, its spring and the colour keyframes. Twins of WelkinCore's Mesh/ maths, held to it by
// RuntimeTwinTests (RuntimeSupport.swift says how).

extension RuntimeSupport {
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
}
