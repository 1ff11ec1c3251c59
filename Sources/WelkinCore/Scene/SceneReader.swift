// Typed access to JSON values that turns every mistake into a SceneError with a JSON path.

/// Where decoding puts the errors it finds: the first one stops decoding (render, view), or every
/// one is collected (`welkin validate`), up to `maximumErrors`.
public final class Diagnostics: @unchecked Sendable {
    /// Collect every error instead of stopping at the first.
    public let collecting: Bool
    public private(set) var errors: [SceneError] = []
    /// The most errors one file reports.
    public static let maximumErrors = 50

    /// Thrown when `maximumErrors` have been collected: decoding stops there.
    struct Full: Error {}

    /// Warnings met while decoding (a scene still valid), one per JSON path; the scene carries them.
    public private(set) var warnings: [SceneError] = []

    public init(collecting: Bool) { self.collecting = collecting }

    func warn(_ warning: SceneError) {
        if !warnings.contains(where: { $0.path == warning.path }) { warnings.append(warning) }
    }

    func record(_ error: SceneError) throws {
        errors.append(error)
        if errors.count >= Self.maximumErrors { throw Full() }
    }
}

/// A JSON value together with its path and file, for decoding with precise errors.
public struct Node {
    public let value: JSONValue
    public let path: String
    public let file: String
    /// Shared by every node of one decoding.
    public let diagnostics: Diagnostics?

    public init(_ value: JSONValue, path: String, file: String, diagnostics: Diagnostics? = nil) {
        self.value = value; self.path = path; self.file = file; self.diagnostics = diagnostics
    }

    /// Throws `error`, or records it and returns when every error is being collected.
    public func report(_ error: SceneError) throws {
        guard let d = diagnostics, d.collecting else { throw error }
        try d.record(error)
    }

    /// Runs `body`. When every error is being collected, an error it throws is recorded and the
    /// result is nil (the caller keeps its default and goes on); otherwise the error is thrown.
    public func recover<T>(_ body: () throws -> T) throws -> T? {
        do { return try body() } catch let e as SceneError {
            guard let d = diagnostics, d.collecting else { throw e }
            try d.record(e)
            return nil
        }
    }

    public func error(_ code: SceneError.Code, _ message: String) -> SceneError {
        SceneError(code, file: file, path: path, message, position: value.position)
    }

    func child(_ key: String, _ value: JSONValue) -> Node {
        Node(value, path: path == "$" ? key : "\(path).\(key)", file: file, diagnostics: diagnostics)
    }

    func element(_ index: Int, _ value: JSONValue) -> Node {
        Node(value, path: "\(path)[\(index)]", file: file, diagnostics: diagnostics)
    }

    func wrongType(_ expected: String) -> SceneError {
        error(.wrongType, "expected \(expected), got \(value.kindName)")
    }

    public func number() throws -> Double {
        guard case .number(let n) = value.kind else { throw wrongType("a number") }
        guard n.isFinite else { throw error(.nonFinite, "expected a finite number, got \(n)") }
        return n
    }

    /// A number in a closed range; `what` describes it in the message ("a number in 0…1"). When
    /// `unit` is an angle's ("°", "rad"), CSS's angle strings are accepted too (`"90deg"`,
    /// `"1.5rad"`, `"0.25turn"`, `"100grad"`), converted to that unit; a plain number of radians
    /// beyond a full turn is a warning (it was probably meant in degrees).
    public func number(in range: ClosedRange<Double>, _ what: String? = nil, unit: String? = nil) throws -> Double {
        let expected = what ?? "a number in \(format(range.lowerBound))…\(format(range.upperBound))"
        let angle = unit.flatMap(AngleUnit.init(symbol:))
        if let angle, case .string(let text) = value.kind {
            guard let radians = AngleUnit.radians(text) else {
                throw error(.invalidValue, "expected \(expected) or an angle like \"90deg\", \"1.5rad\" or \"0.25turn\", got \"\(text)\"")
            }
            let n = angle.fromRadians(radians)
            guard n.isFinite, range.contains(n) else {
                throw error(.outOfRange, "expected \(expected), got \"\(text)\" (\(format(n)) \(angle.symbol))")
            }
            return n
        }
        guard case .number(let n) = value.kind else {
            throw wrongType(angle == nil ? expected : "\(expected) or an angle like \"90deg\"")
        }
        guard n.isFinite else { throw error(.nonFinite, "expected a finite number, got \(n)") }
        guard range.contains(n) else { throw error(.outOfRange, "expected \(expected), got \(format(n))") }
        if angle == .radians, abs(n) > AngleUnit.fullTurnWarning {
            diagnostics?.warn(error(.outOfRange, "warning: \(format(n)) rad is more than a full turn (2π ≈ 6.283 rad); Core Animation's angles are radians: write \"\(format(n))deg\" if you meant degrees"))
        }
        return n
    }

    public func nonNegative() throws -> Double {
        try number(in: 0...Double.greatestFiniteMagnitude, "a number ≥ 0")
    }

    public func integer(in range: ClosedRange<Int>, _ what: String? = nil) throws -> Int {
        let expected = what ?? "a whole number in \(range.lowerBound)…\(range.upperBound)"
        guard case .number(let n) = value.kind else { throw wrongType(expected) }
        guard n.isFinite else { throw error(.nonFinite, "expected a finite number, got \(n)") }
        guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw error(.outOfRange, "expected \(expected), got \(format(n))")
        }
        return Int(n)
    }

    public func bool() throws -> Bool {
        guard case .bool(let b) = value.kind else { throw wrongType("true or false") }
        return b
    }

    public func string() throws -> String {
        guard case .string(let s) = value.kind else { throw wrongType("a string") }
        return s
    }

    public func array() throws -> [Node] {
        guard case .array(let items) = value.kind else { throw wrongType("an array") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// An array whose length is checked against `count` before any element is looked at;
    /// `what` names the elements ("stops").
    public func array(count: ClosedRange<Int>, _ what: String) throws -> [Node] {
        guard case .array(let items) = value.kind else { throw wrongType("an array") }
        if items.count > count.upperBound {
            throw error(.outOfRange, "\(items.count) \(what), at most \(count.upperBound)")
        }
        if items.count < count.lowerBound {
            throw error(.outOfRange, "\(items.count) \(what), at least \(count.lowerBound)")
        }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// Decodes each element with `body`; when collecting errors, a failing element is recorded and
    /// left out, and the others are still decoded.
    public func elements<T>(count: ClosedRange<Int>, _ what: String, _ body: (Node) throws -> T) throws -> [T] {
        try array(count: count, what).compactMap { item in try item.recover { try body(item) } }
    }

    /// One of a fixed set of strings, with a suggestion when it is near one.
    public func oneOf(_ choices: [String], _ what: String) throws -> String {
        let s = try string()
        guard choices.contains(s) else {
            var message = "unknown \(what) '\(s)'"
            if let near = nearest(s, in: choices) { message += "; did you mean '\(near)'?" }
            else { message += " (expected one of: \(choices.joined(separator: ", ")))" }
            throw error(.invalidValue, message)
        }
        return s
    }

    /// The object's members, read through `table`.
    public func object(_ table: PropertyTable) throws -> ObjectReader {
        guard case .object(let members) = value.kind else { throw wrongType("an object") }
        return ObjectReader(node: self, members: members, table: table)
    }

    /// `[x, y]` of finite numbers.
    public func pair() throws -> SIMD2<Double> {
        let items = try array()
        guard items.count == 2 else { throw error(.wrongType, "expected [x, y], got an array of \(items.count)") }
        return SIMD2(try items[0].number(), try items[1].number())
    }

    /// `[x, y]` with both in `range`.
    public func pair(in range: ClosedRange<Double>, _ what: String) throws -> SIMD2<Double> {
        let p = try pair()
        guard range.contains(p.x), range.contains(p.y) else {
            throw error(.outOfRange, "expected \(what), got [\(format(p.x)), \(format(p.y))]")
        }
        return p
    }

    /// `[low, high]` with low ≤ high, each in `range`.
    public func interval(in range: ClosedRange<Double>, _ what: String) throws -> ClosedRange<Double> {
        let items = try array()
        guard items.count == 2 else { throw error(.wrongType, "expected [low, high], got an array of \(items.count)") }
        let low = try items[0].number(in: range, what), high = try items[1].number(in: range, what)
        guard low <= high else { throw error(.outOfRange, "expected [low, high] with low ≤ high, got [\(format(low)), \(format(high))]") }
        return low...high
    }

    /// A unit point: `[x, y]` or one of SwiftUI's UnitPoint names.
    public func unitPoint() throws -> UnitPoint {
        if case .string = value.kind {
            let name = try oneOf(Node.unitPointNames.map(\.0), "unit point")
            return Node.unitPointNames.first(where: { $0.0 == name })!.1
        }
        guard case .array = value.kind else { throw wrongType("a unit point [x, y] or a name like \"top\"") }
        return try pair()
    }

    static let unitPointNames: [(String, UnitPoint)] = [
        ("zero", [0, 0]), ("center", [0.5, 0.5]), ("leading", [0, 0.5]), ("trailing", [1, 0.5]),
        ("top", [0.5, 0]), ("bottom", [0.5, 1]), ("topLeading", [0, 0]), ("topTrailing", [1, 0]),
        ("bottomLeading", [0, 1]), ("bottomTrailing", [1, 1]),
    ]

    /// A colour: a SwiftUI name, `"#RGB"`, `"#RRGGBB"`, `"#RRGGBBAA"`, `[r, g, b]`, `[r, g, b, a]`
    /// (0…1), or CSS's `rgb()`/`rgba()`/`hsl()`/`hsla()`/`color()` (display-p3, srgb, srgb-linear).
    public func color() throws -> RGBA {
        switch value.kind {
        case .string(let s):
            if s.hasPrefix("#") {
                guard let c = RGBA.parseHex(s) else {
                    throw error(.invalidColor, "expected a colour \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\" (hex digits), got \"\(s)\"")
                }
                return c
            }
            if let parsed = RGBA.parseCSS(s) {
                switch parsed {
                case .success(let c): return c
                case .failure(let e): throw error(.invalidColor, e.message)
                }
            }
            if let c = RGBA.named(s) { return c }
            var message = "unknown colour name '\(s)'"
            if let near = nearest(s, in: RGBA.named.map(\.name)) { message += "; did you mean '\(near)'?" }
            else { message += "; a colour is \(RGBA.acceptedForms)" }
            throw error(.invalidColor, message)
        case .array(let items):
            guard items.count == 3 || items.count == 4 else {
                throw error(.invalidColor, "expected a colour [r, g, b] or [r, g, b, a], got an array of \(items.count)")
            }
            var c = [Double]()
            for (i, item) in items.enumerated() {
                c.append(try element(i, item).number(in: 0...1))
            }
            return RGBA(c[0], c[1], c[2], c.count == 4 ? c[3] : 1)
        default:
            throw error(.invalidColor, "expected a colour: \(RGBA.acceptedForms); got \(value.kindName)")
        }
    }
}

/// Reads an object's members through its property table: unknown keys are reported against the
/// table, and each typed read takes its range and its error sentence from the key's `Property`.
public struct ObjectReader {
    public let node: Node
    public let table: PropertyTable
    let members: [String: JSONValue]
    let order: [(key: String, value: JSONValue)]

    init(node: Node, members: [(key: String, value: JSONValue)], table: PropertyTable) {
        self.node = node; self.table = table; self.order = members
        self.members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// Reports keys the table does not know, suggesting the key a synonym stands for or else the
    /// nearest known key (every one of them when collecting errors, else the first).
    public func checkKeys() throws {
        for (key, value) in order where table[key] == nil {
            let known = table.keys
            var message = "unknown key '\(key)'"
            if let near = KeySynonyms.suggestion(for: key, in: table) ?? nearest(key, in: known) {
                message += "; did you mean '\(near)'?"
            }
            else { message += " (known keys: \(known.joined(separator: ", ")))" }
            try node.report(node.child(key, value).error(.unknownKey, message))
        }
    }

    /// The declared property `key` (a key missing from the table is a programming error).
    public func property(_ key: String) -> Property {
        guard let p = table[key] else { preconditionFailure("\(table.name) reads undeclared key '\(key)'") }
        return p
    }

    public subscript(key: String) -> Node? {
        _ = property(key)
        return members[key].map { node.child(key, $0) }
    }

    public func required(_ key: String) throws -> Node {
        guard let n = self[key] else {
            throw node.error(.missingKey, "missing key '\(key)'")
        }
        return n
    }

    /// Decodes `key` with `body` if present. A missing required key is an error; when collecting
    /// errors, a failing value is recorded and nil returned (the caller keeps its default).
    public func decode<T>(_ key: String, _ body: (Node, Property) throws -> T) throws -> T? {
        let p = property(key)
        guard let n = self[key] else {
            if p.required { throw node.error(.missingKey, "missing key '\(key)'") }
            return nil
        }
        return try n.recover { try body(n, p) }
    }

    public func decode<T>(_ key: String, _ body: (Node) throws -> T) throws -> T? {
        try decode(key) { n, _ in try body(n) }
    }

    public func number(_ key: String) throws -> Double? {
        try decode(key) { n, p in
            guard case .number(let range) = p.type else { preconditionFailure("\(key) is not a number") }
            return try n.number(in: range, p.expectedPhrase, unit: p.unit)
        }
    }

    public func integer(_ key: String) throws -> Int? {
        try decode(key) { n, p in
            guard case .integer(let range) = p.type else { preconditionFailure("\(key) is not an integer") }
            return try n.integer(in: range, p.expectedPhrase)
        }
    }

    public func bool(_ key: String) throws -> Bool? {
        try decode(key) { n, _ in try n.bool() }
    }

    public func string(_ key: String) throws -> String? {
        try decode(key) { n, p in
            guard case .string(let limit) = p.type else { preconditionFailure("\(key) is not a string") }
            let s = try n.string()
            guard s.count <= limit else { throw n.error(.outOfRange, "expected at most \(limit) characters, got \(s.count)") }
            return s
        }
    }

    /// One of the table's choices, as the enum whose raw values they are.
    public func choice<E: RawRepresentable>(_ key: String, as: E.Type) throws -> E? where E.RawValue == String {
        try decode(key) { n, p in
            guard case .choice(let choices) = p.type else { preconditionFailure("\(key) is not a choice") }
            guard let e = E(rawValue: try n.oneOf(choices, p.expected ?? key)) else {
                preconditionFailure("\(key): a choice without a case")
            }
            return e
        }
    }

    public func color(_ key: String) throws -> RGBA? {
        try decode(key) { n, _ in try n.color() }
    }

    public func unitPoint(_ key: String) throws -> UnitPoint? {
        try decode(key) { n, p in
            guard case .unitPoint(let range) = p.type else { preconditionFailure("\(key) is not a unit point") }
            let point = try n.unitPoint()
            guard range.contains(point.x), range.contains(point.y) else {
                throw n.error(.outOfRange, "expected unit coordinates in \(format(range.lowerBound))…\(format(range.upperBound)), got [\(format(point.x)), \(format(point.y))]")
            }
            return point
        }
    }

    public func pair(_ key: String) throws -> SIMD2<Double>? {
        try decode(key) { n, p in
            guard case .pair(let range) = p.type else { preconditionFailure("\(key) is not a pair") }
            return try n.pair(in: range, p.expectedPhrase)
        }
    }

    public func interval(_ key: String) throws -> ClosedRange<Double>? {
        try decode(key) { n, p in
            guard case .interval(let range) = p.type else { preconditionFailure("\(key) is not an interval") }
            return try n.interval(in: range, p.expectedPhrase)
        }
    }
}

func format(_ n: Double) -> String {
    if n == n.rounded() && abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
}

/// The units an angle property is kept in, and CSS's angle strings that any of them accepts.
public enum AngleUnit: Sendable, Equatable {
    case degrees, radians

    /// "°" or "rad", a property table's unit; nil for any other unit.
    public init?(symbol: String) {
        switch symbol {
        case "°": self = .degrees
        case "rad": self = .radians
        default: return nil
        }
    }

    public var symbol: String { self == .degrees ? "°" : "rad" }

    func fromRadians(_ r: Double) -> Double { self == .degrees ? r * 180 / .pi : r }

    /// A plain radians value beyond this (a full turn, and a rounding's worth) draws a warning.
    static let fullTurnWarning = 2 * Double.pi + 1e-9

    /// CSS's angle units, as radians per unit; "grad" before "rad", which it ends with.
    public static let cssUnits: [(String, Double)] = [("deg", .pi / 180), ("grad", .pi / 200), ("rad", 1), ("turn", 2 * .pi)]

    /// The JSON Schema pattern of an angle string.
    public static let pattern = "^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?(deg|grad|rad|turn)$"

    /// `"90deg"`, `"-1.5rad"`, `"0.25turn"`, `"100grad"` in radians; nil for anything else (no
    /// spaces, no other unit, a finite number).
    public static func radians(_ text: String) -> Double? {
        guard text.utf8.count <= 64, let (suffix, perUnit) = cssUnits.first(where: { text.hasSuffix($0.0) }) else { return nil }
        let number = text.dropLast(suffix.count)
        guard !number.isEmpty, number.allSatisfy({ "0123456789.+-eE".contains($0) }), let n = Double(number), n.isFinite else { return nil }
        return n * perUnit
    }
}
