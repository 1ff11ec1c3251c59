// Typed access to JSON values that turns every mistake into a SceneError with a JSON path.

/// A JSON value together with its path and file, for decoding with precise errors.
public struct Node {
    public let value: JSONValue
    public let path: String
    public let file: String

    public init(_ value: JSONValue, path: String, file: String) {
        self.value = value; self.path = path; self.file = file
    }

    public func error(_ code: SceneError.Code, _ message: String) -> SceneError {
        SceneError(code, file: file, path: path, message)
    }

    func child(_ key: String, _ value: JSONValue) -> Node {
        Node(value, path: path == "$" ? key : "\(path).\(key)", file: file)
    }

    func element(_ index: Int, _ value: JSONValue) -> Node {
        Node(value, path: "\(path)[\(index)]", file: file)
    }

    func wrongType(_ expected: String) -> SceneError {
        error(.wrongType, "expected \(expected), got \(value.kindName)")
    }

    public func number() throws -> Double {
        guard case .number(let n) = value.kind else { throw wrongType("a number") }
        guard n.isFinite else { throw error(.nonFinite, "expected a finite number, got \(n)") }
        return n
    }

    /// A number in a closed range; `what` describes it in the message ("a number in 0…1").
    public func number(in range: ClosedRange<Double>, _ what: String? = nil) throws -> Double {
        let expected = what ?? "a number in \(format(range.lowerBound))…\(format(range.upperBound))"
        guard case .number(let n) = value.kind else { throw wrongType(expected) }
        guard n.isFinite else { throw error(.nonFinite, "expected a finite number, got \(n)") }
        guard range.contains(n) else { throw error(.outOfRange, "expected \(expected), got \(format(n))") }
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

    public func object(_ known: [String]) throws -> ObjectReader {
        guard case .object(let members) = value.kind else { throw wrongType("an object") }
        return ObjectReader(node: self, members: members, known: known)
    }

    /// `[x, y]` of finite numbers.
    public func pair() throws -> SIMD2<Double> {
        let items = try array()
        guard items.count == 2 else { throw error(.wrongType, "expected [x, y], got an array of \(items.count)") }
        return SIMD2(try items[0].number(), try items[1].number())
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

    /// A colour: `"#RRGGBB"`, `"#RRGGBBAA"`, `[r, g, b]`, `[r, g, b, a]` (0…1) or a SwiftUI name.
    public func color() throws -> RGBA {
        switch value.kind {
        case .string(let s):
            if s.hasPrefix("#") {
                guard let c = RGBA.parseHex(s) else {
                    throw error(.invalidColor, "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", got \"\(s)\"")
                }
                return c
            }
            if let c = RGBA.named(s) { return c }
            var message = "unknown colour name '\(s)'"
            if let near = nearest(s, in: RGBA.named.map(\.name)) { message += "; did you mean '\(near)'?" }
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
            throw error(.invalidColor, "expected a colour (\"#RRGGBB\", [r, g, b], or a name like \"blue\"), got \(value.kindName)")
        }
    }
}

/// Reads an object's members, remembering which were used so unknown keys can be reported.
public struct ObjectReader {
    public let node: Node
    let members: [(key: String, value: JSONValue)]
    let known: [String]

    /// Fails on the first key that is not known, suggesting the nearest known key.
    public func checkKeys() throws {
        for (key, value) in members where !known.contains(key) {
            var message = "unknown key '\(key)'"
            if let near = nearest(key, in: known) { message += "; did you mean '\(near)'?" }
            else { message += " (known keys: \(known.joined(separator: ", ")))" }
            throw node.child(key, value).error(.unknownKey, message)
        }
    }

    public subscript(key: String) -> Node? {
        precondition(known.contains(key), "reading undeclared key \(key)")
        guard let v = members.first(where: { $0.key == key })?.value else { return nil }
        return node.child(key, v)
    }

    public func required(_ key: String) throws -> Node {
        guard let n = self[key] else {
            throw node.error(.missingKey, "missing key '\(key)'")
        }
        return n
    }
}

func format(_ n: Double) -> String {
    if n == n.rounded() && abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
}
