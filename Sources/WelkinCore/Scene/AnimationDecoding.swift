// Reading animations from a scene: `"animation"` as a name with SwiftUI's defaults or an object
// with one key naming it, and the `{"from", "to", "animation", "repeat", "autoreverses", "delay",
// "speed"}` form of an animated property (Timing.swift has the maths).

public enum AnimationTables {
    static let durationProperty = Property("duration", .number(0.001...3600), default: .number(Timing.defaultDuration), unit: "s",
                                           "Seconds one pass takes.")
    static let springDuration = Property("duration", .number(0.001...3600), default: .number(0.5), unit: "s",
                                         "The perceptual duration (ω₀ = 2π / duration); for a very bouncy spring, its period.")
    static let extraBounce = Property("extraBounce", .number(-100...100), default: .number(0),
                                      "Added to the preset's bounce (smooth 0, snappy 0.15, bouncy 0.3); the sum is clamped to −1…1.")

    static func makeCurve(_ name: String) -> PropertyTable {
        PropertyTable("\(name)Animation", title: "\(name) animation", "SwiftUI's `.\(name)(duration:)`.", [durationProperty])
    }
    static let curves: [String: PropertyTable] = Dictionary(uniqueKeysWithValues: Easing.allCases.map { ($0.rawValue, makeCurve($0.rawValue)) })
    static func curve(_ name: String) -> PropertyTable { curves[name]! }

    /// `{"timingCurve": {"controlPoints": [x1, y1, x2, y2], "duration": d}}`.
    static let timingCurve = PropertyTable("timingCurveAnimation", title: "timingCurve animation",
        "A cubic Bézier timing curve from (0, 0) to (1, 1) (SwiftUI's `.timingCurve(_:_:_:_:duration:)`, CAMediaTimingFunction's control points).", [
        Property("controlPoints", .array(.number(-1e3...1e3), count: 4...4), required: true,
                 "[x1, y1, x2, y2]; x1 and x2 in 0…1."),
        durationProperty,
    ])

    /// `{"timingCurve": …}` alone (a keyframe segment's easing).
    static let timingCurveOnly = PropertyTable("easingCurve", title: "easing curve", "A custom timing curve for keyframes.", [
        Property("timingCurve", .object(timingCurve), required: true, "The curve's control points (its duration is the segment's)."),
    ])

    static let spring = PropertyTable("springAnimation", title: "spring animation",
        "A spring, in one of three sets of parameters: SwiftUI's `duration` + `bounce`, its older `response` + `dampingFraction`, or Core Animation's `mass`, `stiffness`, `damping` and `initialVelocity` (CASpringAnimation).", [
        springDuration,
        Property("bounce", .number(-100...100), default: .number(0),
                 "0: critically damped, up to 1: undamped, below 0: overdamped (clamped to −1…1)."),
        Property("response", .number(0.001...3600), unit: "s", "SwiftUI's spring(response:dampingFraction:): ω₀ = 2π / response."),
        Property("dampingFraction", .number(0...100), "The damping ratio ζ."),
        Property("mass", .number(0.001...1e6), default: .number(1), "CASpringAnimation.mass."),
        Property("stiffness", .number(0.001...1e6), default: .number(100), "CASpringAnimation.stiffness."),
        Property("damping", .number(0...1e6), default: .number(10), "CASpringAnimation.damping."),
        Property("initialVelocity", .number(-1e6...1e6), default: .number(0),
                 "Progress per second at the start (CASpringAnimation.initialVelocity)."),
    ])

    static func makePreset(_ name: String, bounce: Double) -> PropertyTable {
        PropertyTable("\(name)Animation", title: "\(name) animation", "SwiftUI's `.\(name)(duration:extraBounce:)`: a spring with bounce \(format(bounce)).",
                      [springDuration, extraBounce])
    }
    /// smooth, snappy and bouncy: their base bounce and table.
    static let presets: [String: (bounce: Double, table: PropertyTable)] = [
        "smooth": (0, makePreset("smooth", bounce: 0)), "snappy": (0.15, makePreset("snappy", bounce: 0.15)),
        "bouncy": (0.3, makePreset("bouncy", bounce: 0.3)),
    ]
    static func preset(_ name: String) -> PropertyTable { presets[name]!.table }

    /// Every table an animation uses, for SceneFormat.supportingTables.
    public static var tables: [PropertyTable] {
        [animation, timingCurve, timingCurveOnly, spring] + Easing.allCases.map { curve($0.rawValue) } + ["smooth", "snappy", "bouncy"].map(preset)
    }

    /// The animation object: one key naming it.
    public static let animation = PropertyTable("animation", title: "animation",
        "An animation: a name with SwiftUI's defaults (`\"easeInOut\"`), or an object with one key naming it and its parameters (`{\"easeInOut\": {\"duration\": 1}}`). The curves and springs are docs/animation.md's.", [
        Property("linear", .object(curve("linear")), "Constant speed."),
        Property("easeIn", .object(curve("easeIn")), "Bézier (0.42, 0, 1, 1)."),
        Property("easeOut", .object(curve("easeOut")), "Bézier (0, 0, 0.58, 1)."),
        Property("easeInOut", .object(curve("easeInOut")), "Bézier (0.42, 0, 0.58, 1)."),
        Property("timingCurve", .object(timingCurve), "Any cubic Bézier."),
        Property("spring", .object(spring), "A spring."),
        Property("smooth", .object(preset("smooth")), "A spring without bounce."),
        Property("snappy", .object(preset("snappy")), "A spring with a little bounce."),
        Property("bouncy", .object(preset("bouncy")), "A bouncier spring."),
    ])

    public static let names = ["linear", "easeIn", "easeOut", "easeInOut", "smooth", "snappy", "bouncy", "spring"]
    public static let animationType = PropertyType.oneOf([.choice(names), .object(animation)])

    /// The `{from, to, animation, …}` table for values of `value`.
    static func transition(_ name: String, _ title: String, value: PropertyType, _ example: String) -> PropertyTable {
        PropertyTable(name, title: title,
            "An animation from one value to another, starting at scene time 0 (`delay` later), as SwiftUI's `withAnimation` runs it: \(example).", [
            Property("from", value, required: true, "The value at the start."),
            Property("to", value, required: true, "The value it animates to."),
            Property("animation", animationType, default: .string("easeInOut"), expected: "animation",
                     "How it moves: `linear`, `easeIn`, `easeOut`, `easeInOut`, `smooth`, `snappy`, `bouncy`, `spring`, or an object naming one with its parameters."),
            Property("repeat", .oneOf([.choice(["forever"]), .integer(1...1_000_000)]), default: .number(1),
                     expected: "\"forever\" or a number of passes", "How many passes (an autoreversed leg counts as one), or \"forever\"."),
            Property("autoreverses", .bool, default: .bool(false), "Every other pass plays backwards (Core Animation's autoreverse)."),
            Property("delay", .number(0...1e6), default: .number(0), unit: "s", "Seconds before it starts."),
            Property("speed", .number(0.001...1000), default: .number(1), "Plays this many times faster."),
        ])
    }
}

extension Node {
    /// A keyframe easing: a curve name or `{"timingCurve": {"controlPoints": […]}}`, over one second.
    func easing() throws -> Timing {
        if case .string = value.kind {
            return Easing(rawValue: try oneOf(Easing.allCases.map(\.rawValue), "easing"))!.timing
        }
        let o = try object(AnimationTables.timingCurveOnly)
        try o.checkKeys()
        guard case .curve(let x1, let y1, let x2, let y2, _) = try o.required("timingCurve").timing(named: "timingCurve") else {
            preconditionFailure("a timing curve reads as a curve")
        }
        return .curve(x1: x1, y1: y1, x2: x2, y2: y2, duration: 1)
    }

    /// An `animation`: a name, or an object with one key naming it.
    public func animation(warnings: inout [String]) throws -> Timing {
        if case .string = value.kind {
            let name = try oneOf(AnimationTables.names, "animation")
            return try Node(.object([]), path: path, file: file).timing(named: name, warnings: &warnings)
        }
        let o = try object(AnimationTables.animation)
        try o.checkKeys()
        let present = AnimationTables.names.filter { o[$0] != nil } + (o["timingCurve"] != nil ? ["timingCurve"] : [])
        // Each named one is read (its own mistakes first), then there must be one.
        let timings = try present.map { try o.required($0).timing(named: $0, warnings: &warnings) }
        guard timings.count == 1 else {
            throw error(.invalidValue, present.isEmpty ? "expected one key naming the animation (\(AnimationTables.names.joined(separator: ", ")) or timingCurve)"
                                                      : "expected one animation, got \(present.joined(separator: " and "))")
        }
        return timings[0]
    }

    func timing(named name: String) throws -> Timing {
        var ignored: [String] = []
        return try timing(named: name, warnings: &ignored)
    }

    /// The parameters object of the animation `name`.
    func timing(named name: String, warnings: inout [String]) throws -> Timing {
        func curveDuration(_ o: ObjectReader) throws -> Double { try o.number("duration") ?? Timing.defaultDuration }
        switch name {
        case "linear", "easeIn", "easeOut", "easeInOut":
            let o = try object(AnimationTables.curve(name))
            try o.checkKeys()
            let d = try curveDuration(o)
            return ["linear": Timing.linear(d), "easeIn": .easeIn(d), "easeOut": .easeOut(d), "easeInOut": .easeInOut(d)][name]!
        case "timingCurve":
            let o = try object(AnimationTables.timingCurve)
            try o.checkKeys()
            let points = try o.required("controlPoints").elements(count: 4...4, "control points") { try $0.number(in: -1e3...1e3) }
            for (i, x) in [(0, points[0]), (2, points[2])] where !(0...1).contains(x) {
                throw error(.outOfRange, "controlPoints[\(i)] is an x coordinate and must be in 0…1, got \(format(x))")
            }
            return .curve(x1: points[0], y1: points[1], x2: points[2], y2: points[3], duration: try curveDuration(o))
        case "smooth", "snappy", "bouncy":
            let o = try object(AnimationTables.preset(name))
            try o.checkKeys()
            let base = AnimationTables.presets[name]!.bounce
            let bounce = base + (try o.number("extraBounce") ?? 0)
            if !Timing.bounceRange.contains(bounce) {
                warnings.append("\(name)'s bounce \(format(base)) + extraBounce \(format(bounce - base)) = \(format(bounce)) is beyond SwiftUI's documented −1…1; Welkin clamps it to \(format(min(max(bounce, -1), 1)))")
            }
            return .spring(duration: try o.number("duration") ?? 0.5, bounce: bounce)
        default:
            let o = try object(AnimationTables.spring)
            try o.checkKeys()
            let velocity = try o.number("initialVelocity") ?? 0
            let swiftUI = ["duration", "bounce"].filter { o[$0] != nil }, older = ["response", "dampingFraction"].filter { o[$0] != nil }
            let ca = ["mass", "stiffness", "damping"].filter { o[$0] != nil }
            let sets = [swiftUI, older, ca].filter { !$0.isEmpty }
            guard sets.count <= 1 else {
                throw error(.invalidValue, "a spring takes one set of parameters: duration + bounce, response + dampingFraction, or mass + stiffness + damping")
            }
            if !older.isEmpty {
                return .spring(response: try o.number("response") ?? 0.5, dampingFraction: try o.number("dampingFraction") ?? 0.825, velocity: velocity)
            }
            if !ca.isEmpty {
                return .spring(mass: try o.number("mass") ?? 1, stiffness: try o.number("stiffness") ?? 100,
                               damping: try o.number("damping") ?? 10, initialVelocity: velocity)
            }
            let bounce = try o.number("bounce") ?? 0
            if !Timing.bounceRange.contains(bounce) {
                warnings.append("a spring's bounce \(format(bounce)) is beyond SwiftUI's documented −1…1; Welkin clamps it to \(format(min(max(bounce, -1), 1)))")
            }
            return .spring(duration: try o.number("duration") ?? 0.5, bounce: bounce, velocity: velocity)
        }
    }

    /// `{from, to, animation, repeat, autoreverses, delay, speed}`, each end read with `value`.
    func transition<V>(_ table: PropertyTable, _ value: (Node) throws -> V) throws -> Transition<V> {
        let o = try object(table)
        try o.checkKeys()
        let from = try value(try o.required("from")), to = try value(try o.required("to"))
        var warnings: [String] = []
        let timing = try o.decode("animation") { try $0.animation(warnings: &warnings) } ?? .easeInOut()
        let where_ = path.isEmpty ? "animation" : path + ".animation"
        for warning in warnings { diagnostics?.warn(SceneError(.invalidValue, file: file, path: where_, "warning: " + warning)) }
        var repetition = Repetition.once
        if let n = o["repeat"] {
            if case .string = n.value.kind {
                _ = try n.oneOf(["forever"], "\"forever\" or a number of passes")
                repetition = .forever
            } else {
                let count = try n.integer(in: 1...1_000_000, "\"forever\" or a number of passes")
                repetition = count == 1 ? .once : .count(count)
            }
        }
        return Transition(from: from, to: to, timing: timing, repetition: repetition, autoreverses: try o.bool("autoreverses") ?? false,
                          delay: try o.number("delay") ?? 0, speed: try o.number("speed") ?? 1)
    }
}
