// Code export of animated properties: a constant as its literal, a `{from, to, animation}`
// transition as SwiftUI state changed in `withAnimation` (or a Core Animation CABasicAnimation /
// CASpringAnimation), keyframes as Welkin's own keyframes evaluated in a TimelineView (or a
// CAKeyframeAnimation). Every call carries the scene's numbers: read back with Welkin's mapping
// (Timing.swift) each gives the scene's Timing exactly (CodeExportTests checks that).

import Foundation
import WelkinCore

enum AnimationExport {
    // MARK: SwiftUI's animations

    /// The SwiftUI `Animation` of a timing: the call SwiftUI documents for it, with numbers that
    /// Welkin's mapping reads back as exactly this timing.
    static func swiftUI(_ timing: Timing) -> String {
        let n = SwiftLiteral.number
        switch timing {
        case .curve(let x1, let y1, let x2, let y2, let d):
            if let name = curveName(x1, y1, x2, y2) { return ".\(name)(duration: \(n(d)))" }
            return ".timingCurve(\(n(x1)), \(n(y1)), \(n(x2)), \(n(y2)), duration: \(n(d)))"
        case .spring(let omega, let zeta, let v, let d):
            if let bounce = bounce(of: timing) {
                return v == 0 ? ".spring(duration: \(n(d)), bounce: \(n(bounce)))"
                              : ".interpolatingSpring(duration: \(n(d)), bounce: \(n(bounce)), initialVelocity: \(n(v)))"
            }
            if v == 0, Timing.spring(response: d, dampingFraction: zeta) == timing {
                return ".spring(response: \(n(d)), dampingFraction: \(n(zeta)))"
            }
            let (k, c) = massSpring(omega: omega, zeta: zeta, velocity: v)
            return ".interpolatingSpring(mass: 1.0, stiffness: \(n(k)), damping: \(n(c)), initialVelocity: \(n(v)))"
        }
    }

    /// `linear`, `easeIn`, `easeOut`, `easeInOut` for Core Animation's named control points.
    static func curveName(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String? {
        for easing in Easing.allCases {
            if case .curve(x1, y1, x2, y2, _) = easing.timing { return easing.rawValue }
        }
        return nil
    }

    /// The shortest decimal near `x` that `accepts` (Swift's shortest text of a Double that the
    /// scene's own number produces again), or nil.
    static func shortest(_ x: Double, accepts: (Double) -> Bool) -> Double? {
        for digits in 1...17 {
            if let candidate = Double(String(format: "%.\(digits)g", x)), accepts(candidate) { return candidate }
        }
        return nil
    }

    /// SwiftUI's `bounce` of a `Spring(duration:bounce:)`-shaped timing (ω₀ = 2π / duration), the
    /// one Welkin's mapping turns back into exactly this timing; nil for other springs.
    static func bounce(of timing: Timing) -> Double? {
        guard case .spring(_, let zeta, let v, let d) = timing else { return nil }
        let guess = zeta <= 1 ? 1 - zeta : 1 / zeta - 1
        return shortest(guess) { Timing.spring(duration: d, bounce: $0, velocity: v) == timing }
    }

    /// A spring as mass 1, stiffness ω₀², damping 2ζω₀ (CASpringAnimation's and
    /// `interpolatingSpring`'s parameters), in the shortest decimals that give the same ω₀ and ζ.
    static func massSpring(omega: Double, zeta: Double, velocity v: Double) -> (stiffness: Double, damping: Double) {
        func same(_ k: Double, _ c: Double) -> Bool {
            guard case .spring(let w, let z, _, _) = Timing.spring(mass: 1, stiffness: k, damping: c, initialVelocity: v) else { return false }
            return w == omega && z == zeta
        }
        let k = shortest(omega * omega) { k in
            guard case .spring(let w, _, _, _) = Timing.spring(mass: 1, stiffness: k, damping: 1, initialVelocity: v) else { return false }
            return w == omega
        } ?? omega * omega
        // The quotient c / (2√k) is rounded: when no decimal gives ζ back, the neighbouring Doubles may.
        var c = shortest(2 * zeta * omega) { same(k, $0) } ?? 2 * zeta * omega
        if !same(k, c) {
            var up = c, down = c
            for _ in 0..<8 {
                up = up.nextUp; down = down.nextDown
                if same(k, up) { c = up; break }
                if same(k, down) { c = down; break }
            }
        }
        return (k, c)
    }

    /// `ANIMATION.speed(k).repeatForever(autoreverses:)…delay(d)`: the delay last, so that it is
    /// waited once (Welkin's `delay`) rather than before every pass.
    static func swiftUI<V>(_ t: Transition<V>) -> String {
        var s = swiftUI(t.timing)
        if t.speed != 1 { s += ".speed(\(SwiftLiteral.number(t.speed)))" }
        switch t.repetition {
        case .forever: s += ".repeatForever(autoreverses: \(t.autoreverses))"
        case .count(let passes): s += ".repeatCount(\(passes), autoreverses: \(t.autoreverses))"
        case .once: if t.autoreverses { s += ".repeatCount(2, autoreverses: true)" }
        }
        if t.delay != 0 { s += ".delay(\(SwiftLiteral.number(t.delay)))" }
        return s
    }

    /// What SwiftUI does differently from Welkin for this transition, if anything.
    static func swiftUIDifferences<V>(_ t: Transition<V>) -> [String] {
        var out: [String] = []
        let passes: Int
        switch t.repetition {
        case .once: passes = t.autoreverses ? 2 : 1
        case .count(let n): passes = n
        case .forever: passes = 0
        }
        if t.autoreverses && passes > 0 && passes % 2 == 0 {
            out.append("SwiftUI ends an autoreversed animation of \(passes) passes at its target value, where Welkin holds the start value")
        }
        if case .spring = t.timing, t.repetition != .once || t.autoreverses {
            out.append("Welkin starts each pass of a repeated spring after its duration \(SwiftLiteral.number(t.timing.duration)) s; SwiftUI does not document when a repeated spring's next pass starts")
        }
        return out
    }

    // MARK: Animated properties in SwiftUI

    /// How an animated property reads in the SwiftUI view.
    struct Expression {
        var code: String
        /// It reads the scene time `t` (the view is drawn in a TimelineView).
        var readsTime = false
    }

    /// A kind of value an animated property holds, and how it is written.
    struct ValueKind<V> {
        /// The SwiftUI state's type.
        var stateType: String
        /// The runtime keyframes' value type.
        var runtimeType: String
        var literal: (V) -> String
        var runtimeLiteral: (V) -> String
        /// What turns a runtime value into the SwiftUI value (`.color`), appended to it.
        var runtimeSuffix = ""
        var isColor = false
    }

    static func number(_ c: ExportContext) -> ValueKind<Double> {
        ValueKind(stateType: "Double", runtimeType: "Double", literal: { c.n($0) }, runtimeLiteral: { c.n($0) })
    }

    static func point(_ c: ExportContext) -> ValueKind<SIMD2<Double>> {
        ValueKind(stateType: "SIMD2<Double>", runtimeType: "SIMD2<Double>", literal: { "SIMD2(\(c.n($0.x)), \(c.n($0.y)))" },
                  runtimeLiteral: { SwiftLiteral.pair($0) })
    }

    static func color(_ c: ExportContext) -> ValueKind<RGBA> {
        ValueKind(stateType: "Color", runtimeType: "WelkinRGBA", literal: { c.color($0) }, runtimeLiteral: { c.rgba($0) },
                  runtimeSuffix: ".color", isColor: true)
    }

    /// The code that reads `value`: a literal, a `@State` member set by `withAnimation` when the view
    /// appears, or Welkin's keyframes at the scene time `t`.
    static func swiftUI<V>(_ value: Animated<V>, _ kind: ValueKind<V>, name: String, what: String, index: Int, layerKind: String,
                           _ c: ExportContext) -> Expression {
        switch value {
        case .constant(let v):
            return Expression(code: kind.literal(v))
        case .transition(let t):
            c.members.comment("\(what): from \(kind.literal(t.from)) to \(kind.literal(t.to)) when the view appears.", prefix: "/// ")
            c.members.line("@State private var \(name): \(kind.stateType) = \(kind.literal(t.from))")
            let animation = swiftUI(t)
            // Spring(duration:bounce:)'s animations are iOS 17 / macOS 14's.
            if animation.contains("bounce:") { c.require(iOS: 17, macOS: 14) }
            c.appear.append("withAnimation(\(animation)) { \(name) = \(kind.literal(t.to)) }")
            for difference in swiftUIDifferences(t) { c.warn(index, layerKind, "approximated: \(what): \(difference)") }
            if kind.isColor {
                c.warn(index, layerKind, "approximated: \(what): SwiftUI interpolates the colours in a space it does not document; Welkin mixes \(Self.spaceWords(c.scene.colorSpace))")
            }
            return Expression(code: name)
        case .keyframes(let k):
            c.runtime.insert("keyframes")
            if kind.isColor { c.runtime.insert("swiftUIColor") }
            // A colour moves in the scene's colour space, as Welkin's (welkinMix(_:_:_:in:), a twin of RGBA.mix).
            let mix = kind.isColor && c.scene.colorSpace != .srgb ? " { welkinMix($0, $1, $2, in: .\(GradientExport.spaceName(c.scene.colorSpace))) }" : ", mix: welkinMix)"
            if kind.isColor && c.scene.colorSpace != .srgb { c.runtime.insert("colorMix") }
            c.animates = true
            c.require(iOS: 15, macOS: 12)
            c.members.comment("\(what): Welkin's keyframes, read at the scene time.", prefix: "/// ")
            c.members.block("private static let \(name) = WelkinKeyframes<\(kind.runtimeType)>(", ")") { s in
                keyframeArguments(k, literal: kind.runtimeLiteral, into: &s)
            }
            let read = mix.hasPrefix(" {") ? "Self.\(name).value(at: t)\(mix)" : "Self.\(name).value(at: t\(mix)"
            return Expression(code: read + kind.runtimeSuffix, readsTime: true)
        }
    }

    /// How Welkin mixes an animated colour in `space` (Animated<RGBA>.value(at:in:)), in words.
    static func spaceWords(_ space: ColorSpace) -> String {
        switch space {
        case .srgb: return "straight sRGB components"
        case .linearSRGB: return "straight linear-light sRGB components"
        case .oklab: return "straight OKLab components"
        }
    }

    /// The arguments of `WelkinKeyframes(…)` for `k`.
    static func keyframeArguments<V>(_ k: Keyframes<V>, literal: (V) -> String, into s: inout SwiftSource) {
        s.line("times: [\(k.times.map(SwiftLiteral.number).joined(separator: ", "))],")
        s.line("values: [\(k.values.map(literal).joined(separator: ", "))],")
        s.line("repeats: \(k.repeats),")
        s.line("easing: \(curveLiteral(k.easing)),")
        s.line("segmentEasings: [\(k.segmentEasings.map { $0.map(curveLiteral) ?? "nil" }.joined(separator: ", "))]")
    }

    /// `.init(x1, y1, x2, y2)` of a keyframe easing (keyframes take curves only).
    static func curveLiteral(_ timing: Timing) -> String {
        guard case .curve(let x1, let y1, let x2, let y2, _) = timing else { return ".init(0, 0, 1, 1)" }
        return ".init(\([x1, y1, x2, y2].map(SwiftLiteral.number).joined(separator: ", ")))"
    }

    /// `WelkinAnimated` literal of `value` (the runtime evaluates it at the scene time, exactly as
    /// Welkin does: for what SwiftUI does not animate through state, such as a gradient's stops).
    static func runtimeLiteral<V>(_ value: Animated<V>, _ literal: (V) -> String) -> String {
        let n = SwiftLiteral.number
        switch value {
        case .constant(let v):
            return ".constant(\(literal(v)))"
        case .keyframes(let k):
            var s = SwiftSource()
            keyframeArguments(k, literal: literal, into: &s)
            return ".keyframes(WelkinKeyframes(" + s.text.split(separator: "\n").joined(separator: " ") + "))"
        case .transition(let t):
            let timing: String
            switch t.timing {
            case .curve(let x1, let y1, let x2, let y2, let d): timing = ".curve(x1: \(n(x1)), y1: \(n(y1)), x2: \(n(x2)), y2: \(n(y2)), duration: \(n(d)))"
            case .spring(let w, let z, let v, let d): timing = ".spring(omega: \(n(w)), zeta: \(n(z)), velocity: \(n(v)), duration: \(n(d)))"
            }
            let repetition: String
            switch t.repetition {
            case .once: repetition = ".once"
            case .count(let c): repetition = ".count(\(c))"
            case .forever: repetition = ".forever"
            }
            return ".transition(WelkinTransition(from: \(literal(t.from)), to: \(literal(t.to)), timing: \(timing), repetition: \(repetition), autoreverses: \(t.autoreverses), delay: \(n(t.delay)), speed: \(n(t.speed))))"
        }
    }

    // MARK: Core Animation

    /// Lines that add `value`'s animation to `layer` for `keyPath` (nothing for a constant):
    /// CABasicAnimation (a curve), CASpringAnimation (a spring) or CAKeyframeAnimation (keyframes),
    /// timed from when the layer is set up. `literal` writes a value as the key path takes it.
    static func coreAnimation<V>(_ value: Animated<V>, layer: String, keyPath: String, literal: (V) -> String,
                                 _ c: ExportContext) -> [String] {
        let n = SwiftLiteral.number
        let name = layer + keyPath.split(separator: ".").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Animation"
        var s: [String] = []
        switch value {
        case .constant:
            return []
        case .transition(let t):
            switch t.timing {
            case .curve(let x1, let y1, let x2, let y2, let d):
                s.append("let \(name) = CABasicAnimation(keyPath: \"\(keyPath)\")")
                s.append("\(name).timingFunction = CAMediaTimingFunction(controlPoints: \(n(x1)), \(n(y1)), \(n(x2)), \(n(y2)))")
                s.append("\(name).duration = \(n(d))")
            case .spring(let omega, let zeta, let v, _):
                let (k, damping) = massSpring(omega: omega, zeta: zeta, velocity: v)
                s.append("// Welkin's spring as Core Animation's: ω₀ = √stiffness, ζ = damping / (2√stiffness) with mass 1" +
                         (bounce(of: t.timing).map { " (SwiftUI's Spring(duration: \(n(t.timing.duration)), bounce: \(n($0))))" } ?? "") + ".")
                s.append("let \(name) = CASpringAnimation(keyPath: \"\(keyPath)\")")
                s.append("\(name).mass = 1.0")
                s.append("\(name).stiffness = \(n(k))")
                s.append("\(name).damping = \(n(damping))")
                s.append("\(name).initialVelocity = \(n(v))")
                // A single spring keeps settling; a repeated one's pass lasts its duration.
                let once = t.repetition == .once && !t.autoreverses
                s.append("\(name).duration = \(n(once ? t.timing.settlingDuration : t.timing.duration))")
            }
            s.append("\(name).fromValue = \(literal(t.from))")
            s.append("\(name).toValue = \(literal(t.to))")
            s.append("\(name).autoreverses = \(t.autoreverses)")
            // Core Animation counts an autoreversed round trip as one repeat; Welkin counts passes.
            switch t.repetition {
            case .forever: s.append("\(name).repeatCount = .infinity")
            case .count(let passes): s.append("\(name).repeatCount = \(t.autoreverses ? "\(passes) / 2" : "\(passes)")")
            case .once: break
            }
            if t.speed != 1 { s.append("\(name).speed = \(n(t.speed))") }
            s.append("\(name).beginTime = CACurrentMediaTime() + \(n(t.delay))")
        case .keyframes(let k):
            let first = k.times[0], last = k.times[k.times.count - 1]
            let span = last - first
            s.append("let \(name) = CAKeyframeAnimation(keyPath: \"\(keyPath)\")")
            s.append("\(name).values = [\(k.values.map(literal).joined(separator: ", "))]")
            s.append("\(name).keyTimes = [\(k.times.map { span > 0 ? "(\(n($0)) - \(n(first))) / \(n(span))" : "0.0" }.joined(separator: ", "))].map { NSNumber(value: $0) }")
            let curves = (0..<max(k.times.count - 1, 0)).map { i -> String in
                let curve = (i < k.segmentEasings.count ? k.segmentEasings[i] : nil) ?? k.easing
                guard case .curve(let x1, let y1, let x2, let y2, _) = curve else { return "CAMediaTimingFunction(name: .linear)" }
                return "CAMediaTimingFunction(controlPoints: \(n(x1)), \(n(y1)), \(n(x2)), \(n(y2)))"
            }
            if !curves.isEmpty { s.append("\(name).timingFunctions = [\(curves.joined(separator: ", "))]") }
            s.append("\(name).calculationMode = .linear")
            s.append("\(name).duration = \(n(max(span, 1e-6)))")
            if k.repeats && span > 0 { s.append("\(name).repeatCount = .infinity") }
            s.append("\(name).beginTime = CACurrentMediaTime() + \(n(first))")
        }
        // Hold the first value before the start and the last after the end, as Welkin does.
        s.append("\(name).fillMode = .both")
        s.append("\(name).isRemovedOnCompletion = false")
        s.append("\(layer).add(\(name), forKey: \"\(keyPath)\")")
        return s
    }
}
