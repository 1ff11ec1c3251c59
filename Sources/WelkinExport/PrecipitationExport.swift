// Precipitation: the weather's rain and snow as CAEmitterLayers, in front of the last sky layer as
// Welkin draws them. The emitter is WelkinCore's own (PrecipitationKind.emitter(in:): every depth's
// numbers come from there) written by EmitterExport, with what Core Animation lacks turned into the
// nearest thing it has: the weather's wind a fixed tilt of each depth's fall, the wrap around the
// frame's sides a birth line widened upwind, no sway. Each depth is its own layer, far to near, so
// the depths are drawn in Welkin's order. A schedule's cross-fades become a keyframe animation of
// each layer's birthRate: Welkin thins births by the intensity at their time, which is what a
// birth-rate multiplier does. In a package whose sky the device computes, every kind a preset brings
// is written and each layer's birthRate follows the live sky's weather frame by frame (the view's
// `weather` input included): LiveSky.precipitation.

import Foundation
import WelkinCore

enum PrecipitationExport {
    /// Whether the view's weather is live: a package whose physical sky the device computes, whose
    /// `weather` input may bring any preset (SwiftUI).
    static func live(_ c: ExportContext) -> Bool { c.target == .swiftUI && c.metal.contains { $0.liveSky != nil } }

    /// Writes every kind of precipitation that can fall in the context's scene; with a live sky,
    /// every kind any weather preset brings, its birth rate following the live sky's weather.
    static func export(_ c: ExportContext) {
        let live = live(c)
        var scene = c.scene
        if live {
            // Every preset the view's weather can bring, in order after the scene's own (their times
            // do not matter: they decide which kinds fall, the strongest wind and the fall's tilt).
            var all = scene.weather ?? Weather()
            let last = all.schedule.last?.at ?? 0
            all.schedule += WeatherPreset.allCases.enumerated().map { (last + 1 + Double($0.offset), $0.element) }
            scene.weather = all
        }
        guard let weather = scene.weather else { return }
        for kind in PrecipitationKind.allCases {
            guard let welkin = kind.emitter(in: scene) else { continue }
            let what = kind == .rain ? "rain" : "snow"
            let fade = live ? nil : intensityKeyframes(kind, weather, seed: c.scene.seed)
            // Without a change the intensity is a constant factor of the birth rate (0: nothing falls);
            // a live sky's weather gives it each frame.
            let steadyIntensity = fade == nil && !live ? kind.intensity(WeatherState(weather, time: 0, seed: c.scene.seed).parameters) : 1
            guard steadyIntensity > 0 else { continue }
            let wind = fallWind(kind, weather)
            var adapted = coreAnimationEmitter(welkin, pushes: kind.windPushes, wind: wind, frameSize: c.scene.size)
            adapted.emitter.birthRate *= steadyIntensity
            func note(_ message: String) { c.warn(nil, what, message) }

            if wind != .zero {
                let changes = !weather.schedule.isEmpty || live
                let pushes = kind.depthWindPushes.map { c.n(($0 * 1000).rounded() / 1000) }.joined(separator: ", ")
                note("approximated: the weather's wind \(SwiftLiteral.pair(wind)) pt/s\(changes ? " (of its first \(what) preset)" : "") × \(pushes) (far to near) is a fixed tilt of each depth's fall, with the speed range along it (Welkin spreads the speeds straight down and adds the wind)" + (changes ? "; Core Animation's particles keep the velocity they were born with, Welkin's follow the wind as the schedule changes it" : ""))
            }
            if adapted.widening > 0 {
                note("approximated: Core Animation does not wrap a particle the wind carries past one side round to the other, as Welkin does: the birth line reaches \(c.n((adapted.widening * 10).rounded() / 10)) pt further upwind (the farthest a particle drifts in its life) and the birth rates are × \(c.n((adapted.rateFactor * 1000).rounded() / 1000)), so the frame stays as full")
            }
            // Per depth (its shapes' cells sway alike).
            let depthOf = kind.cellDepths
            let sways = welkin.cells.indices.filter { $0 == 0 || depthOf[$0] != depthOf[$0 - 1] }.map { welkin.cells[$0] }
                .filter { $0.sway.amplitude != 0 }
            if !sways.isEmpty {
                let amplitudes = sways.map { c.n($0.sway.amplitude) }.joined(separator: ", ")
                let frequencies = sways.map { c.n($0.sway.frequency) }.joined(separator: ", ")
                note("approximated: the flakes fall without swaying (Welkin sways them \(amplitudes) pt at \(frequencies) Hz, far to near): Core Animation has no per-particle oscillation")
            }

            // One CAEmitterLayer per cell (a depth, or a shape of one), far to near: Core Animation
            // orders all of a layer's particles together, Welkin draws each cell's by age, in order.
            for (d, cell) in adapted.emitter.cells.enumerated() {
                var depth = adapted.emitter
                depth.cells = [cell]
                // Core Animation draws its own random numbers: a seed per depth keeps the depths'
                // particles from sharing their places.
                depth.seed ^= UInt64(d)
                let name = SwiftLiteral.identifier(cell.name) ?? "depth\(d)"
                let base = c.uniqueName("weather" + what.prefix(1).uppercased() + what.dropFirst() + name.prefix(1).uppercased() + name.dropFirst(),
                                        index: c.scene.layers.count + 3 * kind.rawValue + d)
                let origin = EmitterExport.Origin(
                    index: nil, kind: what,
                    label: "the weather's \(what), cells[\(d)] \(SwiftLiteral.string(SwiftLiteral.commentText(cell.name))) (cell \(d + 1) of \(adapted.emitter.cells.count), far to near; laid out for \(c.scene.size.x) × \(c.scene.size.y) points)",
                    base: base, opacity: 1, firstCell: d)
                // A live sky's weather: the layer's birth rate is the amount × the intensity the
                // package's sky model gives for the frame drawn.
                let liveRate = live ? "sky.precipitation(\"\(what)\") * \(c.n(welkin.birthRate))" : nil
                EmitterExport.export(depth, origin: origin, context: c, liveBirthRate: liveRate) { s in
                    guard let fade else { return }
                    writeFade(fade, kind: what, amount: welkin.birthRate, c, into: &s)
                }
            }
        }
    }

    /// The wind the exported fall is tilted by: the weather's while steady, else that of the first
    /// of its presets in which this kind falls.
    static func fallWind(_ kind: PrecipitationKind, _ weather: Weather) -> SIMD2<Double> {
        let presets = [weather.preset] + weather.schedule.map(\.preset)
        return (presets.first { kind.intensity($0.parameters) > 0 } ?? weather.preset).parameters.wind
    }

    /// Welkin's emitter as Core Animation draws it.
    struct Adapted {
        var emitter: EmitterLayer
        /// Points the birth line reaches further upwind.
        var widening: Double
        /// What the birth rates are multiplied by for the wider line.
        var rateFactor: Double
    }

    /// Each cell's velocity becomes its fall plus the wind × its push (one direction, one speed);
    /// the sway goes (said by the caller); the birth line widens upwind by the farthest drift.
    static func coreAnimationEmitter(_ welkin: EmitterLayer, pushes: [Double], wind: SIMD2<Double>,
                                     frameSize: SIMD2<Int>) -> Adapted {
        var e = welkin
        var drift = 0.0
        for i in e.cells.indices {
            let push = i < pushes.count ? pushes[i] : 0
            let cell = e.cells[i]
            let fall = SIMD2(cos(cell.emissionLongitude), sin(cell.emissionLongitude)) * cell.velocity + wind * push
            e.cells[i].velocity = (fall * fall).sum().squareRoot()
            e.cells[i].emissionLongitude = atan2(fall.y, fall.x)
            e.cells[i].sway = Sway()
            drift = max(drift, abs(wind.x * push) * cell.lifetime * e.lifetime)
        }
        let width = Double(max(frameSize.x, 1))
        let line = e.size.x * width
        guard drift > 0, line > 0 else { return Adapted(emitter: e, widening: 0, rateFactor: 1) }
        let factor = (line + drift) / line
        e.size.x = (line + drift) / width
        e.position.x -= (wind.x > 0 ? 1 : -1) * drift / 2 / width
        for i in e.cells.indices { e.cells[i].birthRate *= factor }
        e.maxParticles = Int((Double(e.maxParticles) * factor).rounded(.up))
        return Adapted(emitter: e, widening: drift, rateFactor: factor)
    }

    /// The intensity of a kind over scene time, from 0: keyframes and, per segment between them, a
    /// cubic Bézier timing function (nil: linear).
    struct Keyframes: Equatable {
        var times: [Double]
        var values: [Double]
        var curves: [[Double]?]
    }

    /// smoothstep, the weather's cross-fade (WeatherState), and its derivative.
    static func smoothstep(_ u: Double) -> Double { u * u * (3 - 2 * u) }
    static func smoothstepSlope(_ u: Double) -> Double { 6 * u * (1 - u) }

    /// The weather's intensity of `kind` from scene time 0, as keyframes at every start and end of
    /// a cross-fade (values WeatherState's at those times); nil when it never changes. Within a fade
    /// the intensity is from + (to − from) × smoothstep(u), u linear in time: a cubic in time, so a
    /// Bézier timing function with x controls 1/3 and 2/3 (x = s) and y controls from its slopes
    /// gives it exactly — (1/3, 0, 2/3, 1) for a whole fade, a piece of it when the next change
    /// interrupts the fade or the fade began before 0.
    static func intensityKeyframes(_ kind: PrecipitationKind, _ weather: Weather, seed: UInt64) -> Keyframes? {
        func intensity(_ t: Double) -> Double { kind.intensity(WeatherState(weather, time: t, seed: seed).parameters) }
        let transition = max(weather.transition, 0)
        // Each scheduled change fades over [at, fadeEnd]: cut short by the next change.
        let fades: [(at: Double, end: Double)] = weather.schedule.indices.map { i in
            let at = weather.schedule[i].at
            let next = i + 1 < weather.schedule.count ? weather.schedule[i + 1].at : .infinity
            return (at, min(at + transition, next))
        }
        var times: [Double] = [0]
        var values: [Double] = [intensity(0)]
        var curves: [[Double]?] = []
        func add(_ t: Double, _ v: Double, _ curve: [Double]?) {
            times.append(t); values.append(v); curves.append(curve)
        }
        let edges = Set(fades.flatMap { [$0.at, $0.end] }.filter { $0 > 0 && $0.isFinite }).sorted()
        for t in edges {
            let last = times[times.count - 1]
            if transition == 0 {
                // A change without a fade: the value before it, then the new one at the same time.
                add(t, intensity(t.nextDown), nil)
                add(t, intensity(t), nil)
                continue
            }
            let v = intensity(t)
            let fade = fades.first { $0.at <= last && t <= $0.end && $0.at < $0.end }
            let from = values[values.count - 1]
            guard let fade, v != from else { add(t, v, nil); continue }
            let u0 = (last - fade.at) / transition, u1 = (t - fade.at) / transition
            let rise = smoothstep(u1) - smoothstep(u0)
            let start = smoothstepSlope(u0) * (u1 - u0) / rise, end = smoothstepSlope(u1) * (u1 - u0) / rise
            add(t, v, [1.0 / 3, start / 3, 2.0 / 3, 1 - end / 3])
        }
        // Drop keyframes inside a stretch that does not change.
        var k = 1
        while k < times.count - 1 {
            if values[k - 1] == values[k], values[k] == values[k + 1], times[k - 1] < times[k] {
                times.remove(at: k); values.remove(at: k); curves.remove(at: k)
            } else {
                k += 1
            }
        }
        while times.count > 1, values[values.count - 1] == values[values.count - 2] {
            times.removeLast(); values.removeLast(); curves.removeLast()
        }
        guard times.count > 1 else { return nil }
        return Keyframes(times: times, values: values, curves: curves)
    }

    /// The lines that animate `emitter.birthRate` (amount × intensity) through `fade`.
    static func writeFade(_ fade: Keyframes, kind: String, amount: Double, _ c: ExportContext, into s: inout SwiftSource) {
        let duration = fade.times[fade.times.count - 1]
        let name = "\(kind)Intensity"
        s.line()
        s.comment("The weather's \(kind) over scene time (s): its intensity × the amount \(c.n(amount)) multiplies every cell's birth rate, as Welkin thins births by the intensity at their time. Each cross-fade is smoothstep: a Bézier timing function (x = s, so y is smoothstep itself; a cut piece of it where the next change interrupts a fade).")
        s.line("let \(name) = CAKeyframeAnimation(keyPath: \"birthRate\")")
        s.line("\(name).values = [\(fade.values.map { c.n($0 * amount) }.joined(separator: ", "))]")
        s.line("\(name).keyTimes = [\(fade.times.map(c.n).joined(separator: ", "))].map { NSNumber(value: $0 / \(c.n(duration))) }")
        let curves = fade.curves.map { curve in
            curve.map { "CAMediaTimingFunction(controlPoints: \($0.map { Float($0).description }.joined(separator: ", ")))" }
                ?? "CAMediaTimingFunction(name: .linear)"
        }
        s.line("\(name).timingFunctions = [")
        for curve in curves { s.line("    \(curve),") }
        s.line("]")
        s.line("\(name).calculationMode = .linear")
        s.line("\(name).duration = \(c.n(duration))")
        s.comment("Scene time 0 is the emitter's local time timeOffset (its beginTime is when it is set up); before it the first value holds, as the weather's first preset does, and after the last change the last.")
        s.line("\(name).beginTime = emitter.timeOffset")
        s.line("\(name).fillMode = .both")
        s.line("\(name).isRemovedOnCompletion = false")
        s.line("emitter.add(\(name), forKey: \"birthRate\")")
    }
}
