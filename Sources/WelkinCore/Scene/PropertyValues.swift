// The value of one property over time, read from a scene document: what `welkin values` prints and
// the viewer's `get` says of an animated property. A constant is the same at every time; keyframes
// and `{from, to, animation}` are evaluated as the scene draws them.

/// A property's value at one instant.
public enum PropertyValue: Sendable {
    case number(Double)
    /// Straight sRGB (extended: a wide colour may leave 0…1).
    case color(RGBA)
    /// [x, y] (an offset, a scale).
    case point(SIMD2<Double>)
    /// Anything else, as the file has it (or the table's default).
    case json(JSONValue)

    /// `{"time": t, "value": v}`'s v: numbers as numbers, colours as [r, g, b, a].
    /// (To 12 decimals: the curves' bisection leaves ~10⁻¹⁵ that would only be noise in print.)
    public var jsonText: String {
        func text(_ v: Double) -> String { JSONValue.numberText(abs(v) < 1e6 ? (v * 1e12).rounded() / 1e12 : v) }
        switch self {
        case .number(let v): return text(v)
        case .color(let c): return "[" + [c.r, c.g, c.b, c.a].map(text).joined(separator: ", ") + "]"
        case .point(let p): return "[\(text(p.x)), \(text(p.y))]"
        case .json(let v): return v.serialized()
        }
    }
}

/// One property of a scene document, ready to evaluate at any time.
public struct PropertyTrack: Sendable {
    enum Source: Sendable {
        case number(Animated<Double>), color(Animated<RGBA>), point(Animated<SIMD2<Double>>), constant(PropertyValue)
    }
    let source: Source
    /// The space an animated colour moves in: the nearest `colorSpace` above it (a gradient's own,
    /// else the scene's).
    var space: ColorSpace = .srgb
    /// Whether the value changes with time.
    public var isAnimated: Bool {
        switch source {
        case .number(let a): if case .constant = a { return false } else { return true }
        case .color(let a): if case .constant = a { return false } else { return true }
        case .point(let a): if case .constant = a { return false } else { return true }
        case .constant: return false
        }
    }

    /// The property at `path` in `document` (its value, or the table's default when the file leaves it
    /// out). Throws a SceneError naming `file` and the path when the path names nothing, or its value
    /// does not decode.
    public init(document: SceneDocument, path: JSONPath, file: String) throws {
        let value = try? document.value(at: path)
        let lookup = SceneFormat.lookup(path, in: document.root)
        let node = value.flatMap { $0 }.map { Node($0, path: path.description, file: file) }
        func numberRange(_ type: PropertyType) -> ClosedRange<Double>? {
            switch type {
            case .number(let r): return r
            case .oneOf(let types): return types.lazy.compactMap(numberRange).first
            default: return nil
            }
        }
        func pairRange(_ type: PropertyType) -> ClosedRange<Double>? {
            switch type {
            case .pair(let r), .unitPoint(let r): return r
            case .oneOf(let types): return types.lazy.compactMap(pairRange).first
            default: return nil
            }
        }
        func isColor(_ type: PropertyType) -> Bool {
            switch type {
            case .color: return true
            case .oneOf(let types): return types.contains { if case .color = $0 { return true } else { return false } }
            default: return false
            }
        }
        guard let node else {
            guard let property = lookup?.property else {
                throw SceneError(.missingKey, file: file, path: path.description, "no such key in the file, and the scene format has no key by that name there")
            }
            switch property.defaultValue {
            case .number(let v): source = .constant(.number(v))
            case .color(let c): source = .constant(.color(c))
            case .bool(let b): source = .constant(.json(.bool(b)))
            case .string(let s): source = .constant(.json(.string(s)))
            case .point(let p): source = .constant(.json(.array([.number(p.x), .number(p.y)])))
            default:
                throw SceneError(.missingKey, file: file, path: path.description, "not in the file, and its default (\(property.defaultValue.displayText)) is not a value")
            }
            return
        }
        for n in stride(from: path.components.count - 1, through: 0, by: -1) {
            let prefix = JSONPath(Array(path.components.prefix(n)))
            if case .string(let name)?? = (try? document.value(at: prefix)).map({ $0?["colorSpace"]?.kind }),
               let found = ColorSpace(rawValue: name) {
                space = found
                break
            }
        }
        // The property's own type (every form), not the form the value took.
        let declared = lookup?.property?.type ?? lookup?.declared
        if let type = declared, isColor(type) {
            source = .color(try node.animatedColor())
        } else if let type = declared, let range = pairRange(type) {
            // A UnitPoint name ("top") is a point too.
            if case .string = node.value.kind, let p = try? node.unitPoint() { source = .constant(.point(p)); return }
            source = .point(try node.animatedPoint(in: range, allowsNumber: numberRange(type) != nil))
        } else if let type = declared, let range = numberRange(type) {
            source = .number(try node.animatedNumber(in: range, PropertyType.number(range).expectedPhrase(unit: lookup?.property?.unit)))
        } else {
            source = .constant(.json(node.value))
        }
    }

    /// Seconds that show the animation whole: keyframes to the last (two periods when they repeat),
    /// an animation's delay and passes (a few when it repeats forever); 1 for a constant.
    public var span: Double {
        func span<V>(_ a: Animated<V>) -> Double {
            switch a {
            case .constant: return 1
            case .keyframes(let k): return max(k.times[k.times.count - 1] + (k.repeats ? k.times[k.times.count - 1] - k.times[0] : 0), 0.5)
            case .transition(let t):
                let passes: Double
                switch t.repetition {
                case .once: passes = t.autoreverses ? 2 : 1.5
                case .count(let n): passes = Double(min(n, 4))
                case .forever: passes = 4
                }
                return max((t.delay + t.timing.duration * passes) / t.speed, 0.25)
            }
        }
        switch source {
        case .number(let a): return span(a)
        case .color(let a): return span(a)
        case .point(let a): return span(a)
        case .constant: return 1
        }
    }

    public func value(at t: Double) -> PropertyValue {
        switch source {
        case .number(let a): return .number(a.value(at: t))
        case .color(let a): return .color(a.value(at: t, in: space))
        case .point(let a): return .point(a.value(at: t))
        case .constant(let v): return v
        }
    }
}
