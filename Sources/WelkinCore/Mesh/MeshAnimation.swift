// Mesh animation: a seeded random walk of vertex targets, followed through a damped spring.
//
// Position at time t depends only on the scene seed and t: targets change at fixed ticks
// (k × interval), signs come from an integer hash of (seed, vertex, tick, axis), and the displayed
// position solves the spring's equation exactly between ticks (no time step, no wall clock).

import Foundation

/// SwiftUI's `spring(duration:bounce:)` as a damped harmonic oscillator of unit mass:
/// x'' = −ω₀² (x − target) − 2ζω₀ x', with ω₀ = 2π / duration and ζ = 1 − bounce for bounce ≥ 0,
/// ζ = 1 / (1 + bounce) for bounce < 0. `.bouncy` is duration 0.5, bounce 0.3 (ζ = 0.7).
public struct MeshSpring: Sendable, Equatable {
    /// Perceptual duration in seconds, > 0.
    public var duration: Double
    /// −1 < bounce < 1: 0 is critically damped, positive overshoots.
    public var bounce: Double

    public init(duration: Double, bounce: Double) { self.duration = duration; self.bounce = bounce }

    /// SwiftUI's `.bouncy`.
    public static let bouncy = MeshSpring(duration: 0.5, bounce: 0.3)
    /// SwiftUI's `.smooth` (and the default animation): no overshoot.
    public static let smooth = MeshSpring(duration: 0.5, bounce: 0)

    /// Undamped angular frequency ω₀ (rad/s).
    public var angularFrequency: Double { 2 * .pi / duration }
    /// Damping ratio ζ.
    public var dampingRatio: Double { bounce >= 0 ? 1 - bounce : 1 / (1 + bounce) }

    /// Position and velocity `dt` seconds later, moving toward a fixed `target`. Exact solution.
    public func advance(position x: Double, velocity v: Double, target: Double, by dt: Double) -> (position: Double, velocity: Double) {
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
            // y = A e^{r1 t} + B e^{r2 t}, A + B = y0, r1 A + r2 B = v.
            let a = (v - r2 * y0) / (r1 - r2), b = y0 - a
            let e1 = exp(r1 * dt), e2 = exp(r2 * dt)
            return (target + a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
        }
    }
}

/// Every `interval` seconds each listed vertex's target moves by ±`step` in x and in y (signs from
/// the scene seed), clamped to its range; the displayed vertex follows its target through `spring`.
public struct MeshRandomWalk: Sendable, Equatable {
    /// Which vertex moves, and where it may go. A nil axis does not move.
    public struct Range: Sendable, Equatable {
        /// Row-major vertex index.
        public var index: Int
        public var x: ClosedRange<Double>?
        public var y: ClosedRange<Double>?
        public init(index: Int, x: ClosedRange<Double>?, y: ClosedRange<Double>?) { self.index = index; self.x = x; self.y = y }
    }
    /// Seconds between target moves, > 0.
    public var interval: Double
    /// Unit distance per move, ≥ 0.
    public var step: Double
    public var ranges: [Range]
    public var spring: MeshSpring = .smooth

    public init(interval: Double, step: Double, ranges: [Range], spring: MeshSpring = .smooth) {
        self.interval = interval; self.step = step; self.ranges = ranges; self.spring = spring
    }

    /// The most ticks simulated: about 93 days at 1/9 s; later times hold the last tick's targets.
    public static let maximumTicks = 1 << 26
    /// The most spring steps (ticks × moving axes) a frame runs, over all its animated meshes, so a
    /// frame's work is bounded whatever the time, interval and number of layers (about 0.2 s here):
    /// a walk of many vertices, or a very short interval, holds its targets after
    /// `springSteps / axes` ticks instead (`tickLimit`).
    public static let maximumSpringSteps = 1 << 22

    /// The ticks simulated at most: `maximumTicks`, or fewer when many axes move. `springSteps` is
    /// this walk's share of `maximumSpringSteps` (the frame divides it among its animated meshes).
    public func tickLimit(vertexCount: Int, springSteps: Int = maximumSpringSteps) -> Int {
        let axes = ranges.reduce(0) { $0 + ($1.index < vertexCount ? ($1.x != nil ? 1 : 0) + ($1.y != nil ? 1 : 0) : 0) }
        return min(Self.maximumTicks, max(springSteps, 1) / max(axes, 1))
    }

    /// +1 or −1 for one move, from an integer hash (SplitMix64's finaliser) of its coordinates.
    public static func sign(seed: UInt64, vertex: Int, tick: Int, axis: Int) -> Double {
        var z = seed &* 0x9E37_79B9_7F4A_7C15
        z ^= UInt64(truncatingIfNeeded: vertex) &* 0xBF58_476D_1CE4_E5B9
        z ^= UInt64(truncatingIfNeeded: tick) &* 0x94D0_49BB_1331_11EB
        z ^= UInt64(truncatingIfNeeded: axis) &+ 0x2545_F491_4F6C_DD1D
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z >> 63 == 0 ? 1 : -1
    }

    /// Displayed positions of every vertex at time `t` (vertices without a range stay at `start`).
    public func positions(start: [UnitPoint], seed: UInt64, at t: Double, springSteps: Int = maximumSpringSteps) -> [UnitPoint] {
        var out = start
        let time = t.isFinite ? max(0, t) : 0
        let limit = tickLimit(vertexCount: start.count, springSteps: springSteps)
        let ticks = Int(min((time / interval).rounded(.down), Double(limit)))
        for range in ranges where range.index < start.count {
            var p = start[range.index]
            for (axis, limits) in [range.x, range.y].enumerated() {
                guard let limits else { continue }
                p[axis] = follow(start: start[range.index][axis], limits: limits, seed: seed, vertex: range.index,
                                 axis: axis, ticks: ticks, time: time)
            }
            out[range.index] = p
        }
        return out
    }

    /// One coordinate: targets move at ticks 1…ticks; the spring runs from rest at `start`.
    func follow(start: Double, limits: ClosedRange<Double>, seed: UInt64, vertex: Int, axis: Int,
                ticks: Int, time: Double) -> Double {
        var x = start, v = 0.0, target = start, last = 0.0
        for k in stride(from: 1, through: ticks, by: 1) {
            let at = Double(k) * interval
            (x, v) = spring.advance(position: x, velocity: v, target: target, by: at - last)
            last = at
            target = min(max(target + Self.sign(seed: seed, vertex: vertex, tick: k, axis: axis) * step,
                             limits.lowerBound), limits.upperBound)
        }
        return spring.advance(position: x, velocity: v, target: target, by: time - last).position
    }
}
