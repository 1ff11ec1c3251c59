// Animated values: a property that is either a constant or keyframes over scene time.
//
// `"opacity": 0.5` or `"opacity": {"keyframes": [[0, 0.3], [1, 0.8], [2, 0.3]], "repeats": true,
// "easing": "easeInOut"}`: [time in seconds, value] pairs with increasing times. Before the first
// keyframe the first value holds, after the last the last one (or, when `repeats`, the keyframes
// play again from the first, the period being last time − first time). Between two keyframes the
// value moves linearly in time, or along Core Animation's ease-in-ease-out curve. Colours move
// component by component, straight alpha, in the scene's colour space (sRGB-encoded, linear-light
// sRGB or OKLab; a gradient's own `colorSpace` for its stops).

/// The named timing curves (Timing's Béziers), for keyframes' `easing`.
public enum Easing: String, Sendable, CaseIterable {
    case linear, easeIn, easeOut, easeInOut

    /// The curve over one second.
    public var timing: Timing {
        switch self {
        case .linear: return .linear(1)
        case .easeIn: return .easeIn(1)
        case .easeOut: return .easeOut(1)
        case .easeInOut: return .easeInOut(1)
        }
    }

    /// Progress 0…1 through a segment → eased progress.
    public func apply(_ f: Double) -> Double { timing.progress(f) }

    /// y at x on the timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2):
    /// the curve's parameter found by bisection (x is increasing), so every platform gets the same number.
    static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
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
}

/// Values at times: what an animated property holds when it is not a constant.
public struct Keyframes<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Seconds, increasing.
    public var times: [Double]
    public var values: [Value]
    public var repeats: Bool = false
    /// How the value moves between keyframes (a timing curve over each segment).
    public var easing: Timing = .linear(1)
    /// A segment's own curve, from the keyframe that starts it (nil: `easing`).
    public var segmentEasings: [Timing?] = []

    public init(times: [Double], values: [Value], repeats: Bool = false, easing: Timing = .linear(1), segmentEasings: [Timing?] = []) {
        precondition(!times.isEmpty && times.count == values.count)
        self.times = times; self.values = values; self.repeats = repeats; self.easing = easing; self.segmentEasings = segmentEasings
    }

    /// The value at scene time `t`, mixing neighbours with `mix(a, b, f)`.
    public func value(at t: Double, mix: (Value, Value, Double) -> Value) -> Value {
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
        return mix(values[i], values[i + 1], curve.progress(f * curve.duration))
    }

    /// The most keyframes one property may have.
    public static var maximumCount: Int { 256 }
    /// The latest keyframe time, seconds.
    public static var maximumTime: Double { 1e6 }
}

/// A property that is a constant, keyframes, or an animation from one value to another.
public enum Animated<Value: Sendable & Equatable>: Sendable, Equatable {
    case constant(Value)
    case keyframes(Keyframes<Value>)
    case transition(Transition<Value>)

    public func value(at t: Double, mix: (Value, Value, Double) -> Value) -> Value {
        switch self {
        case .constant(let v): return v
        case .keyframes(let k): return k.value(at: t, mix: mix)
        case .transition(let a): return a.value(at: t, mix: mix)
        }
    }

    /// Every value the property names (a constant, the keyframes', an animation's ends).
    public var namedValues: [Value] {
        switch self {
        case .constant(let v): return [v]
        case .keyframes(let k): return k.values
        case .transition(let a): return [a.from, a.to]
        }
    }
}

extension Animated where Value == Double {
    public func value(at t: Double) -> Double { value(at: t) { a, b, f in a + (b - a) * f } }
}

extension Animated where Value == SIMD2<Double> {
    public func value(at t: Double) -> SIMD2<Double> { value(at: t) { a, b, f in a + (b - a) * f } }
}

extension Animated where Value == RGBA {
    /// The colour at `t`, moving in `space`: sRGB-encoded components (the default), linear-light
    /// sRGB, or OKLab (each colour's straight components converted, mixed with its alpha, converted back).
    public func value(at t: Double, in space: ColorSpace = .srgb) -> RGBA {
        value(at: t) { a, b, f in RGBA.mix(a, b, f, in: space) }
    }
}

extension RGBA {
    /// `a` → `b` by `f` in `space`, straight alpha.
    public static func mix(_ a: RGBA, _ b: RGBA, _ f: Double, in space: ColorSpace) -> RGBA {
        let alpha = a.a + (b.a - a.a) * f
        func to(_ c: RGBA) -> SIMD3<Double> {
            let rgb = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
            switch space {
            case .srgb: return SIMD3(c.r, c.g, c.b)
            case .linearSRGB: return SIMD3<Double>(ColorMath.srgbToLinear(rgb))
            case .oklab: return SIMD3<Double>(ColorMath.linearToOklab(ColorMath.srgbToLinear(rgb)))
            }
        }
        let v = to(a) + (to(b) - to(a)) * f
        switch space {
        case .srgb: return RGBA(v.x, v.y, v.z, alpha)
        case .linearSRGB:
            let e = SIMD3<Double>(ColorMath.linearToSRGB(SIMD3<Float>(v)))
            return RGBA(e.x, e.y, e.z, alpha)
        case .oklab:
            let e = SIMD3<Double>(ColorMath.linearToSRGB(ColorMath.oklabToLinear(SIMD3<Float>(v))))
            return RGBA(e.x, e.y, e.z, alpha)
        }
    }
}

// MARK: Tables and decoding

public enum KeyframeTables {
    /// `easing`: a named curve or `{"timingCurve": {"controlPoints": [x1, y1, x2, y2]}}`.
    static let easingType = PropertyType.oneOf([.choice(Easing.allCases.map(\.rawValue)), .object(AnimationTables.timingCurveOnly)])

    static func table(_ name: String, _ title: String, value: PropertyType, _ example: String) -> PropertyTable {
        PropertyTable(name, title: title,
            "Keyframes for an animated \(title.replacingOccurrences(of: " keyframes", with: "")): \(example). Before the first keyframe the first value holds, after the last the last (or the keyframes play again when `repeats`).", [
            Property("keyframes", .array(.array(.oneOf([value, easingType]), count: 2...3), count: 1...Keyframes<Double>.maximumCount), required: true, live: false,
                     "[time, value] pairs, times in seconds (0…\(format(Keyframes<Double>.maximumTime))) increasing; a third item is the easing of the segment the keyframe starts."),
            Property("repeats", .bool, default: .bool(false),
                     "Play the keyframes again and again, the period being the last time minus the first."),
            Property("easing", easingType, default: .string(Easing.linear.rawValue),
                     expected: "easing", "How the value moves between keyframes: `linear`, `easeIn`, `easeOut`, `easeInOut` (Core Animation's Béziers) or `{\"timingCurve\": {\"controlPoints\": [x1, y1, x2, y2]}}`."),
        ])
    }

    /// Keyframes of a number.
    public static let number = table("numberKeyframes", "number keyframes", value: .number(-1e6...1e6),
                                     "`{\"keyframes\": [[0, 0.3], [1, 0.8], [2, 0.3]], \"repeats\": true}`")
    /// Keyframes of a colour.
    public static let color = table("colorKeyframes", "colour keyframes", value: .oneOf([.number(0...1e6), .color]),
                                    "`{\"keyframes\": [[0, \"black\"], [0.5, \"green\"], [1, \"black\"]], \"repeats\": true, \"easing\": \"easeInOut\"}`")
    /// An animation of a number / a colour.
    public static let numberAnimation = AnimationTables.transition("numberAnimation", "number animation", value: .number(-1e6...1e6),
                                                                   "`{\"from\": 1, \"to\": 1.1, \"animation\": {\"snappy\": {\"duration\": 0.66}}, \"repeat\": \"forever\", \"autoreverses\": true}`")
    public static let colorAnimation = AnimationTables.transition("colorAnimation", "colour animation", value: .color,
                                                                  "`{\"from\": \"black\", \"to\": \"green\", \"animation\": {\"easeInOut\": {\"duration\": 0.5}}, \"repeat\": \"forever\", \"autoreverses\": true}`")

    /// Keyframes and an animation of a point [x, y] (`offset`), and of a scale (a number or [sx, sy]).
    public static let point = table("pointKeyframes", "point keyframes", value: .pair(-1e6...1e6),
                                    "`{\"keyframes\": [[0, [0, 0]], [1, [40, -10]]], \"easing\": \"easeInOut\"}`")
    public static let pointAnimation = AnimationTables.transition("pointAnimation", "point animation", value: .pair(-1e6...1e6),
                                                                  "`{\"from\": [0, 0], \"to\": [40, 0], \"animation\": \"bouncy\"}`")
    public static let scale = table("scaleKeyframes", "scale keyframes", value: .oneOf([.number(-1e6...1e6), .pair(-1e6...1e6)]),
                                    "`{\"keyframes\": [[0, 1], [0.5, [1.2, 0.9]], [1, 1]], \"repeats\": true}`")
    public static let scaleAnimation = AnimationTables.transition("scaleAnimation", "scale animation", value: .oneOf([.number(-1e6...1e6), .pair(-1e6...1e6)]),
                                                                  "`{\"from\": 1, \"to\": 1.1, \"animation\": {\"snappy\": {\"duration\": 0.66, \"extraBounce\": 15}}, \"repeat\": \"forever\", \"autoreverses\": true}`")

    /// A unit point that may animate (a constant may be a UnitPoint name).
    public static func unitPointType(_ range: ClosedRange<Double>) -> PropertyType { .oneOf([.unitPoint(range), .object(point), .object(pointAnimation)]) }
    /// A point property that may animate.
    public static func pointType(_ range: ClosedRange<Double>) -> PropertyType { .oneOf([.pair(range), .object(point), .object(pointAnimation)]) }
    /// A scale that may animate: a number n ([n, n]) or [sx, sy].
    public static func scaleType(_ range: ClosedRange<Double>) -> PropertyType {
        .oneOf([.number(range), .pair(range), .object(scale), .object(scaleAnimation)])
    }

    /// A number property that may animate.
    public static func numberType(_ range: ClosedRange<Double>) -> PropertyType { .oneOf([.number(range), .object(number), .object(numberAnimation)]) }
    /// A colour property that may animate.
    public static let colorType = PropertyType.oneOf([.color, .object(color), .object(colorAnimation)])
}

extension Node {
    /// Keyframes `{keyframes, repeats, easing}`, each value read with `value`.
    func keyframes<V>(_ table: PropertyTable, _ value: (Node) throws -> V) throws -> Keyframes<V> {
        let o = try object(table)
        try o.checkKeys()
        var times: [Double] = [], values: [V] = [], segments: [Timing?] = []
        let pairs = try o.required("keyframes").array(count: 1...Keyframes<Double>.maximumCount, "keyframes")
        for pair in pairs {
            let items = try pair.array()
            guard items.count == 2 || items.count == 3 else {
                throw pair.error(.wrongType, "expected a keyframe [time, value] or [time, value, easing], got an array of \(items.count)")
            }
            let time = try items[0].number(in: 0...Keyframes<Double>.maximumTime, "a time in 0…\(format(Keyframes<Double>.maximumTime)) seconds")
            if let previous = times.last, time <= previous {
                throw items[0].error(.outOfRange, "keyframe times must increase: \(format(time)) s comes after \(format(previous)) s")
            }
            times.append(time)
            values.append(try value(items[1]))
            segments.append(items.count == 3 ? try items[2].easing() : nil)
        }
        let repeats = try o.bool("repeats") ?? false
        let easing = try o.decode("easing") { try $0.easing() } ?? .linear(1)
        return Keyframes(times: times, values: values, repeats: repeats, easing: easing,
                         segmentEasings: segments.contains { $0 != nil } ? segments : [])
    }

    /// A number in `range`, or keyframes of such numbers.
    public func animatedNumber(in range: ClosedRange<Double>, _ what: String, unit: String? = nil) throws -> Animated<Double> {
        if case .object = value.kind {
            if value["keyframes"] == nil && (value["from"] != nil || value["to"] != nil || value["animation"] != nil) {
                return .transition(try transition(KeyframeTables.numberAnimation) { try $0.number(in: range, what, unit: unit) })
            }
            return .keyframes(try keyframes(KeyframeTables.number) { try $0.number(in: range, what, unit: unit) })
        }
        return .constant(try number(in: range, what, unit: unit))
    }

    /// A point [x, y] in `range` (or, when `allowsNumber`, a number n meaning [n, n]: a scale), or
    /// keyframes or an animation of such points.
    public func animatedPoint(in range: ClosedRange<Double>, allowsNumber: Bool) throws -> Animated<SIMD2<Double>> {
        let what = "[x, y] with each in \(format(range.lowerBound))…\(format(range.upperBound))"
        func point(_ n: Node) throws -> SIMD2<Double> {
            if allowsNumber, case .number = n.value.kind {
                let v = try n.number(in: range, "a number in \(format(range.lowerBound))…\(format(range.upperBound)) or \(what)")
                return SIMD2(v, v)
            }
            guard case .array = n.value.kind else { throw n.wrongType(allowsNumber ? "a number or \(what)" : what) }
            return try n.pair(in: range, what)
        }
        if case .object = value.kind {
            if value["keyframes"] == nil && (value["from"] != nil || value["to"] != nil || value["animation"] != nil) {
                return .transition(try transition(allowsNumber ? KeyframeTables.scaleAnimation : KeyframeTables.pointAnimation, point))
            }
            return .keyframes(try keyframes(allowsNumber ? KeyframeTables.scale : KeyframeTables.point, point))
        }
        return .constant(try point(self))
    }

    /// A colour, or keyframes of colours.
    public func animatedColor() throws -> Animated<RGBA> {
        if case .object = value.kind {
            if value["keyframes"] == nil && (value["from"] != nil || value["to"] != nil || value["animation"] != nil) {
                return .transition(try transition(KeyframeTables.colorAnimation) { try $0.color() })
            }
            return .keyframes(try keyframes(KeyframeTables.color) { try $0.color() })
        }
        return .constant(try color())
    }
}

extension ObjectReader {
    /// An animated unit point property (its table type `KeyframeTables.unitPointType(range)`): a
    /// constant [x, y] or UnitPoint name, keyframes or an animation of [x, y].
    public func animatedUnitPoint(_ key: String) throws -> Animated<SIMD2<Double>>? {
        try decode(key) { n, p in
            guard case .oneOf(let types) = p.type, case .unitPoint(let range)? = types.first else {
                preconditionFailure("\(key) is not an animated unit point")
            }
            if case .object = n.value.kind { return try n.animatedPoint(in: range, allowsNumber: false) }
            let point = try n.unitPoint()
            guard range.contains(point.x), range.contains(point.y) else {
                throw n.error(.outOfRange, "expected unit coordinates in \(format(range.lowerBound))…\(format(range.upperBound)), got [\(format(point.x)), \(format(point.y))]")
            }
            return .constant(point)
        }
    }

    /// An animated number property (its table type `KeyframeTables.numberType(range)`).
    public func animatedNumber(_ key: String) throws -> Animated<Double>? {
        try decode(key) { n, p in
            guard case .oneOf(let types) = p.type, case .number(let range)? = types.first else {
                preconditionFailure("\(key) is not an animated number")
            }
            return try n.animatedNumber(in: range, PropertyType.number(range).expectedPhrase(unit: p.unit), unit: p.unit)
        }
    }

    /// An animated colour property (its table type `KeyframeTables.colorType`).
    public func animatedColor(_ key: String) throws -> Animated<RGBA>? {
        try decode(key) { n, _ in try n.animatedColor() }
    }
}
