// Timing: SwiftUI's and Core Animation's animation curves with their published maths.
//
// - Timing curves are the cubic Béziers from (0, 0) to (1, 1) Core Animation names
//   (kCAMediaTimingFunctionEaseIn = (0.42, 0, 1, 1), EaseOut = (0, 0, 0.58, 1), EaseInEaseOut =
//   (0.42, 0, 0.58, 1), linear), or any control points (`timingCurve`). SwiftUI's `.linear`,
//   `.easeIn`, `.easeOut` and `.easeInOut` default to 0.35 s.
// - Springs are the damped harmonic oscillator x″ + 2ζω₀x′ + ω₀²x = 0 on the distance still to go,
//   x(0) = 1, x′(0) = −v₀; progress = 1 − x. SwiftUI's parameters map to it as its documentation
//   says: `Spring(duration:bounce:)` has ω₀ = 2π / duration and ζ = 1 − bounce for bounce ≥ 0
//   (0: critically damped, 1: undamped, "the maximum"); for an overdamped bounce < 0 (minimum −1)
//   Welkin takes ζ = 1 / (1 + bounce), continuous at 0. `spring(response:dampingFraction:)` has
//   ω₀ = 2π / response and ζ = dampingFraction; CASpringAnimation's mass m, stiffness k, damping c
//   and initialVelocity v₀ give ω₀ = √(k/m), ζ = c / (2√(km)). `.smooth`, `.snappy` and `.bouncy`
//   are springs of 0.5 s with bounce 0, 0.15 and 0.3, plus their `extraBounce`; `.spring` is
//   `Spring(duration: 0.5, bounce: 0)`. A bounce beyond Apple's documented range −1…1 (seed 001's
//   `.snappy(duration: 0.66, extraBounce: 15)` asks for 15.15) is Welkin's choice: clamped to it,
//   with a warning; at 1 the spring oscillates undamped with the duration as its period.

import Foundation

/// A timing curve or a spring: progress 0…1 (a spring overshoots) at a time into one pass.
public enum Timing: Sendable, Equatable {
    /// A cubic Bézier timing function with control points (x1, y1), (x2, y2) over `duration` seconds.
    case curve(x1: Double, y1: Double, x2: Double, y2: Double, duration: Double)
    /// A spring: natural angular frequency ω₀ (rad/s), damping ratio ζ, initial velocity v₀ (progress
    /// per second), and the time one pass lasts when the animation repeats or reverses.
    case spring(omega: Double, zeta: Double, velocity: Double, duration: Double)

    /// SwiftUI's default duration of a timing curve.
    public static let defaultDuration = 0.35

    public static func linear(_ duration: Double = defaultDuration) -> Timing { .curve(x1: 0, y1: 0, x2: 1, y2: 1, duration: duration) }
    public static func easeIn(_ duration: Double = defaultDuration) -> Timing { .curve(x1: 0.42, y1: 0, x2: 1, y2: 1, duration: duration) }
    public static func easeOut(_ duration: Double = defaultDuration) -> Timing { .curve(x1: 0, y1: 0, x2: 0.58, y2: 1, duration: duration) }
    public static func easeInOut(_ duration: Double = defaultDuration) -> Timing { .curve(x1: 0.42, y1: 0, x2: 0.58, y2: 1, duration: duration) }

    /// The documented range of SwiftUI's `bounce`.
    public static let bounceRange = -1.0...1.0
    /// Overdamping stops short of −1, where the damping ratio would be infinite.
    static let lowestBounce = -0.95

    /// `Spring(duration:bounce:)`.
    public static func spring(duration: Double, bounce: Double, velocity: Double = 0) -> Timing {
        let b = min(max(bounce, lowestBounce), bounceRange.upperBound)
        let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
        return .spring(omega: 2 * .pi / duration, zeta: zeta, velocity: velocity, duration: duration)
    }

    /// `spring(response:dampingFraction:)`.
    public static func spring(response: Double, dampingFraction: Double, velocity: Double = 0) -> Timing {
        .spring(omega: 2 * .pi / response, zeta: dampingFraction, velocity: velocity, duration: response)
    }

    /// CASpringAnimation's mass, stiffness, damping and initialVelocity; one pass lasts its
    /// settling duration.
    public static func spring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) -> Timing {
        let omega = (stiffness / mass).squareRoot(), zeta = damping / (2 * (stiffness * mass).squareRoot())
        let probe = Timing.spring(omega: omega, zeta: zeta, velocity: initialVelocity, duration: 1)
        return .spring(omega: omega, zeta: zeta, velocity: initialVelocity, duration: probe.settlingDuration)
    }

    /// How long one pass lasts (a repeat or an autoreversed leg).
    public var duration: Double {
        switch self {
        case .curve(_, _, _, _, let d): return d
        case .spring(_, _, _, let d): return d
        }
    }

    /// Progress at `t` seconds into a pass (t < 0: 0). A curve holds 1 after its duration; a spring
    /// keeps settling.
    public func progress(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        switch self {
        case .curve(let x1, let y1, let x2, let y2, let d):
            guard d > 0 else { return 1 }
            // Control points on the diagonal make y(s) = x(s): the identity, exactly.
            if x1 == y1 && x2 == y2 { return min(t / d, 1) }
            return Easing.bezier(min(t / d, 1), x1, y1, x2, y2)
        case .spring(let w, let z, let v, _):
            return 1 - Self.displacement(t, omega: w, zeta: z, velocity: v)
        }
    }

    /// The oscillator's distance still to go at t (1 at t = 0).
    static func displacement(_ t: Double, omega w: Double, zeta z: Double, velocity v: Double) -> Double {
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            return exp(-z * w * t) * (cos(wd * t) + (z * w - v) / wd * sin(wd * t))
        }
        if z == 1 {
            return exp(-w * t) * (1 + (w - v) * t)
        }
        let s = (z * z - 1).squareRoot()
        let r1 = -w * (z - s), r2 = -w * (z + s)
        // x = c1·e^(r1 t) + c2·e^(r2 t) with c1 + c2 = 1 and r1·c1 + r2·c2 = −v.
        let c2 = (-v - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// When a spring comes to rest: from then on it stays within 10⁻³ of the target (sampled every
    /// millisecond of a bound on its envelope, at most 60 s). A curve's is its duration.
    public var settlingDuration: Double {
        guard case .spring(let w, let z, let v, _) = self else { return duration }
        if z <= 0 { return 2 * .pi / w }
        let step = 0.001
        var t = 60.0
        // Walk back from the latest time until the oscillator is outside the tolerance.
        while t > 0 && abs(Self.displacement(t, omega: w, zeta: z, velocity: v)) < 1e-3 { t -= max(step, t * 0.001) }
        return max(t, step)
    }
}

/// How an animation repeats.
public enum Repetition: Sendable, Equatable {
    case once
    /// Passes in all (each autoreversed leg counts, as SwiftUI's repeatCount does).
    case count(Int)
    case forever
}

/// `{"from": A, "to": B, "animation": …, "repeat": …, "autoreverses": …, "delay": …, "speed": …}`:
/// SwiftUI's `withAnimation(animation.delay(d).speed(k).repeatForever(autoreverses:))` from A to B
/// at scene time 0.
public struct Transition<Value: Sendable & Equatable>: Sendable, Equatable {
    public var from: Value
    public var to: Value
    public var timing: Timing
    public var repetition: Repetition = .once
    public var autoreverses = false
    public var delay = 0.0
    public var speed = 1.0

    public init(from: Value, to: Value, timing: Timing, repetition: Repetition = .once, autoreverses: Bool = false,
                delay: Double = 0, speed: Double = 1) {
        self.from = from; self.to = to; self.timing = timing; self.repetition = repetition
        self.autoreverses = autoreverses; self.delay = delay; self.speed = speed
    }

    /// Progress from `from` (0) to `to` (1) at scene time `t`. A repeated pass lasts the timing's
    /// duration; an autoreversed pass plays the one before it backwards in time (Core Animation's
    /// autoreverse), so the value is continuous and is back at `from` after two passes.
    public func progress(at t: Double) -> Double {
        let local = ((t.isFinite ? t : 0) - delay) * speed
        guard local > 0 else { return 0 }
        let d = timing.duration
        if repetition == .once && !autoreverses || !(d > 0) { return timing.progress(local) }
        let passes: Double
        switch repetition {
        case .once: passes = autoreverses ? 2 : 1
        case .count(let n): passes = Double(max(n, 1))
        case .forever: passes = .infinity
        }
        let index = min((local / d).rounded(.down), passes - 1)
        let within = min(local - index * d, d)
        let backward = autoreverses && Int(index.truncatingRemainder(dividingBy: 2)) == 1
        return timing.progress(backward ? d - within : within)
    }

    public func value(at t: Double, mix: (Value, Value, Double) -> Value) -> Value {
        mix(from, to, progress(at: t))
    }
}
