// The runtime exported animations carry (AnimationExport.swift and TextExport.swift write the code
// that calls it): keyframes evaluated at scene time, and a text layer's clock. Twins of WelkinCore's
// Keyframes (Sources/WelkinCore/Scene/Keyframes.swift) and TextTemplate.render / Scene.clock
// (Sources/WelkinCore/Text/TextLayer.swift), held to them by RuntimeTwinTests.

extension RuntimeSupport {
    static let keyframes = RuntimeSnippet(name: "keyframes", order: 7, requires: ["rgba"], pure: true, source: #"""
    /// Twin of Welkin's Keyframes (Sources/WelkinCore/Scene/Keyframes.swift): values at times, held
    /// before the first and after the last (or played again when `repeats`), eased between.
    private struct WelkinKeyframes<Value: Sendable>: Sendable {
        /// A segment's timing curve: Core Animation's cubic Bézier from (0, 0) to (1, 1).
        struct Curve: Sendable {
            var x1: Double, y1: Double, x2: Double, y2: Double
            init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }

            /// Twin of Welkin's Timing.progress over one second.
            func progress(_ t: Double) -> Double {
                guard t > 0 else { return 0 }
                // Control points on the diagonal make y(s) = x(s): the identity, exactly.
                if x1 == y1 && x2 == y2 { return min(t, 1) }
                return welkinBezier(min(t, 1), x1, y1, x2, y2)
            }
        }

        var times: [Double]
        var values: [Value]
        var repeats = false
        var easing = Curve(0, 0, 1, 1)
        /// A segment's own curve, from the keyframe that starts it (nil: `easing`).
        var segmentEasings: [Curve?] = []

        func value(at t: Double, mix: (Value, Value, Double) -> Value) -> Value {
            let first = times[0], last = times[times.count - 1]
            var time = t.isFinite ? t : first
            if repeats && last > first {
                let period = last - first
                time = first + (time - first - period * ((time - first) / period).rounded(.down))
            }
            if time <= first { return values[0] }
            if time >= last { return values[values.count - 1] }
            var i = 0
            while time >= times[i + 1] { i += 1 }
            let f = (time - times[i]) / (times[i + 1] - times[i])
            let curve = (i < segmentEasings.count ? segmentEasings[i] : nil) ?? easing
            return mix(values[i], values[i + 1], curve.progress(f))
        }
    }

    /// Twin of Welkin's Easing.bezier: y at x on the timing curve from (0, 0) to (1, 1), the curve's
    /// parameter found by bisection (48 steps), so every platform gets the same number.
    private func welkinBezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<48 {
            let mid = (low + high) / 2
            if coordinate(mid, x1, x2) < x { low = mid } else { high = mid }
        }
        return coordinate((low + high) / 2, y1, y2)
    }

    /// Welkin's mixes: numbers and points linearly, colours component by component in straight sRGB.
    private func welkinMix(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
    private func welkinMix(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ f: Double) -> SIMD2<Double> { a + (b - a) * f }
    private func welkinMix(_ a: WelkinRGBA, _ b: WelkinRGBA, _ f: Double) -> WelkinRGBA {
        WelkinRGBA(a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, a.a + (b.a - a.a) * f)
    }
    """#)

    static let colorMix = RuntimeSnippet(name: "colorMix", order: 10, requires: ["colorMath"], pure: true, source: #"""
    /// Twin of Welkin's RGBA.mix(_:_:_:in:) (Sources/WelkinCore/Scene/Keyframes.swift): an animated
    /// colour moves in a colour space (straight sRGB components, linear light or OKLab), alpha linearly.
    private func welkinMix(_ a: WelkinRGBA, _ b: WelkinRGBA, _ f: Double, in space: WelkinColorSpace) -> WelkinRGBA {
        let alpha = a.a + (b.a - a.a) * f
        func to(_ c: WelkinRGBA) -> SIMD3<Double> {
            let rgb = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
            switch space {
            case .srgb: return SIMD3(c.r, c.g, c.b)
            case .linearSRGB: return SIMD3<Double>(WelkinColorMath.srgbToLinear(rgb))
            case .oklab: return SIMD3<Double>(WelkinColorMath.linearToOklab(WelkinColorMath.srgbToLinear(rgb)))
            }
        }
        let v = to(a) + (to(b) - to(a)) * f
        switch space {
        case .srgb: return WelkinRGBA(v.x, v.y, v.z, alpha)
        case .linearSRGB:
            let e = SIMD3<Double>(WelkinColorMath.linearToSRGB(SIMD3<Float>(v)))
            return WelkinRGBA(e.x, e.y, e.z, alpha)
        case .oklab:
            let e = SIMD3<Double>(WelkinColorMath.linearToSRGB(WelkinColorMath.oklabToLinear(SIMD3<Float>(v))))
            return WelkinRGBA(e.x, e.y, e.z, alpha)
        }
    }
    """#)

    static let transition = RuntimeSnippet(name: "transition", order: 8, requires: ["keyframes"], pure: true, source: #"""
    /// Twin of Welkin's Timing (Sources/WelkinCore/Scene/Timing.swift): a Bézier timing curve, or the
    /// damped harmonic oscillator x″ + 2ζω₀x′ + ω₀²x = 0 on the distance still to go.
    private enum WelkinTiming: Sendable {
        case curve(x1: Double, y1: Double, x2: Double, y2: Double, duration: Double)
        case spring(omega: Double, zeta: Double, velocity: Double, duration: Double)

        var duration: Double {
            switch self {
            case .curve(_, _, _, _, let d): return d
            case .spring(_, _, _, let d): return d
            }
        }

        func progress(_ t: Double) -> Double {
            guard t > 0 else { return 0 }
            switch self {
            case .curve(let x1, let y1, let x2, let y2, let d):
                guard d > 0 else { return 1 }
                if x1 == y1 && x2 == y2 { return min(t / d, 1) }
                return welkinBezier(min(t / d, 1), x1, y1, x2, y2)
            case .spring(let w, let z, let v, _):
                return 1 - Self.displacement(t, omega: w, zeta: z, velocity: v)
            }
        }

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
            let c2 = (-v - r1) / (r2 - r1), c1 = 1 - c2
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// Twin of Welkin's Transition: SwiftUI's withAnimation from one value to another at scene time 0.
    private struct WelkinTransition<Value: Sendable>: Sendable {
        enum Repetition: Sendable { case once, count(Int), forever }
        var from: Value, to: Value
        var timing: WelkinTiming
        var repetition = Repetition.once
        var autoreverses = false
        var delay = 0.0, speed = 1.0

        func progress(at t: Double) -> Double {
            let local = ((t.isFinite ? t : 0) - delay) * speed
            guard local > 0 else { return 0 }
            let d = timing.duration
            var once = false
            if case .once = repetition { once = true }
            if once && !autoreverses || !(d > 0) { return timing.progress(local) }
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
    }

    /// Twin of Welkin's Animated: a constant, keyframes or a transition, at a scene time.
    private enum WelkinAnimated<Value: Sendable>: Sendable {
        case constant(Value)
        case keyframes(WelkinKeyframes<Value>)
        case transition(WelkinTransition<Value>)

        func value(at t: Double, mix: (Value, Value, Double) -> Value) -> Value {
            switch self {
            case .constant(let v): return v
            case .keyframes(let k): return k.value(at: t, mix: mix)
            case .transition(let a): return mix(a.from, a.to, a.progress(at: t))
            }
        }
    }

    /// Twin of Welkin's Gradient.at: the stops at a scene time, locations clamped to 0…1 and sorted
    /// again (stably: animated locations may pass each other).
    private func welkinStops(_ stops: [(color: WelkinAnimated<WelkinRGBA>, location: WelkinAnimated<Double>)], at t: Double) -> [(location: Double, color: WelkinRGBA)] {
        let now = stops.map { (location: min(max($0.location.value(at: t, mix: welkinMix), 0), 1), color: $0.color.value(at: t, mix: welkinMix)) }
        return now.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
    }
    """#)

    static let clock = RuntimeSnippet(name: "clock", order: 9, requires: [], pure: true, source: #"""
    /// Twin of Welkin's TextTemplate.render and Scene.clock (Sources/WelkinCore/Text/TextLayer.swift):
    /// a label's `{time:FORMAT}` placeholders at a scene time.
    private struct WelkinClock: Sendable {
        enum Field: Sendable { case text(String), year4, year2, month2, month1, day2, day1, hour2, hour1, hour12x2, hour12x1, minute2, second2, amPM }
        enum Part: Sendable { case text(String), time([Field]) }
        var parts: [Part]
        /// The clock at scene time 0 (Unix seconds), its seconds per scene second and the seconds
        /// added on top (the sky's date, timeScale and clock offset; 0, 1, 0 without a dated sky).
        var start: Double, rate: Double, offset: Double
        /// The date's UTC offset, seconds.
        var utcOffset: Int

        func string(at time: Double) -> String {
            let seconds = (time.isFinite ? time : 0) * rate + offset
            let clock = start + (seconds.isFinite ? seconds : 0)
            let local = (clock + Double(utcOffset)).rounded(.down)
            let bounded = min(max(local, -1e14), 1e14)
            let days = Int((bounded / 86400).rounded(.down))
            let second = Int(bounded - Double(days) * 86400)
            let (y, m, d) = Self.civilFromDays(days)
            let hour = second / 3600
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            var out = ""
            for part in parts {
                switch part {
                case .text(let t): out += t
                case .time(let fields):
                    for f in fields {
                        switch f {
                        case .text(let t): out += t
                        case .year4: out += y >= 0 && y < 10000 ? String(repeating: "0", count: 4 - String(y).count) + String(y) : String(y)
                        case .year2: out += two(((y % 100) + 100) % 100)
                        case .month2: out += two(m)
                        case .month1: out += String(m)
                        case .day2: out += two(d)
                        case .day1: out += String(d)
                        case .hour2: out += two(hour)
                        case .hour1: out += String(hour)
                        case .hour12x2: out += two(hour % 12 == 0 ? 12 : hour % 12)
                        case .hour12x1: out += String(hour % 12 == 0 ? 12 : hour % 12)
                        case .minute2: out += two(second / 60 % 60)
                        case .second2: out += two(second % 60)
                        case .amPM: out += hour < 12 ? "AM" : "PM"
                        }
                    }
                }
            }
            return out
        }

        /// Howard Hinnant's days-from-civil inverse (Welkin's Timestamp.civilFromDays).
        static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
            let z = z0 + 719468
            let era = (z >= 0 ? z : z - 146096) / 146097
            let doe = z - era * 146097
            let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp + (mp < 10 ? 3 : -9)
            return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
        }
    }
    """#)
}
