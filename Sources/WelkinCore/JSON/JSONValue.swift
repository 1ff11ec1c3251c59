// JSON values that remember where they came from.
//
// Foundation's JSONSerialization loses positions and key order; scene errors must name the line and
// column of bad syntax and keep keys in file order, so Welkin parses JSON itself.

/// A position in a source text, 1-based.
public struct SourcePosition: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON value with the position of its first character and the bytes it spans.
public struct JSONValue: Sendable {
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in file order.
        case object([(key: String, value: JSONValue)])
    }
    public var kind: Kind
    public var position: SourcePosition
    /// The byte offsets of the value in the parsed text: from its first byte (a quote, a bracket, a
    /// digit) to just after its last. Empty for a value made in code. Editors replace exactly these
    /// bytes, so everything around a value keeps its spelling (SceneDocument).
    public var byteRange: Range<Int> = 0..<0
    /// For an object, where each member's key starts (its opening quote), in member order.
    public var keyOffsets: [Int] = []

    /// A short name for the kind, for error messages ("a string", "an array", …).
    public var kindName: String {
        switch kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = kind { return members.first(where: { $0.key == key })?.value }
        return nil
    }
}

/// A syntax error in JSON text.
public struct JSONSyntaxError: Error, Sendable {
    public var position: SourcePosition
    public var message: String
    /// Valid JSON, but past one of the parser's limits (values, nesting).
    public var isLimit = false
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes, with positions and duplicate-key detection.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maxDepth = 256
    /// The most values (numbers, strings, arrays, … each counting one) a text may hold: parsing
    /// stops there, so the work and memory of a load are bounded (1,000,000 values parse in about
    /// 0.25 s on one core).
    public static let maximumValues = 1_000_000
    private var values = 0
    /// The last position handed out, so the next one on the same line counts columns from there:
    /// positions are asked for in increasing order, which keeps a one-line (minified) file linear.
    private var columnMark = (index: 0, column: 1)

    public static func parse(_ text: String) throws -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        // Skip a UTF-8 byte order mark, which some editors write.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var position: SourcePosition { column(from: (lineStart, 1)) }

    /// The position of `index`, counting columns from `mark` (on the current line, at or before `index`).
    /// Columns count characters, not bytes: UTF-8 continuation bytes are skipped.
    private func column(from mark: (index: Int, column: Int)) -> SourcePosition {
        var column = mark.column
        var i = mark.index
        while i < index && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourcePosition(line: line, column: column)
    }

    /// `position`, in time proportional to the distance from the previous call.
    private mutating func markPosition() -> SourcePosition {
        let mark = columnMark.index >= lineStart && columnMark.index <= index ? columnMark : (lineStart, 1)
        let p = column(from: mark)
        columnMark = (index, p.column)
        return p
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        values += 1
        if values > Self.maximumValues {
            var e = error("more than \(Self.maximumValues) values; a scene holds at most \(Self.maximumValues)")
            e.isLimit = true
            throw e
        }
        let start = markPosition()
        let startIndex = index
        var keyOffsets: [Int] = []
        let kind: JSONValue.Kind
        switch bytes[index] {
        case UInt8(ascii: "{"): kind = try parseObject(keyOffsets: &keyOffsets)
        case UInt8(ascii: "["): kind = try parseArray()
        case UInt8(ascii: "\""): kind = .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); kind = .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); kind = .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try parseNumber())
        default:
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        return JSONValue(kind: kind, position: start, byteRange: startIndex..<index, keyOffsets: keyOffsets)
    }

    private mutating func expectWord(_ word: String) throws {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        index += w.count
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maxDepth {
            var e = error("nesting deeper than \(Self.maxDepth) levels")
            e.isLimit = true
            throw e
        }
    }

    private mutating func parseObject(keyOffsets: inout [Int]) throws -> JSONValue.Kind {
        try enter(); defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let keyPosition = markPosition()
            keyOffsets.append(index)
            let key = try parseString()
            if !seen.insert(key).inserted {
                throw JSONSyntaxError(position: keyPosition, message: "duplicate key '\(key)'")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after key '\(key)'")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws -> JSONValue.Kind {
        try enter(); defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseString() throws -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; break }
            if b < 0x20 { throw error("control character in string (escape it)") }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else { throw error("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'")
                }
                continue
            }
            out.append(b)
            index += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return s
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let s = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - s
        }
        guard index < bytes.count else { throw error("unexpected end of file in number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("leading zeros are not allowed in numbers")
            }
        } else if digits() == 0 {
            throw error("unexpected \(describeCurrent()), expected a digit")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw error("expected a digit after the decimal point") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            if digits() == 0 { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number '\(text)'") }
        return value
    }
}

// MARK: Building and writing JSON

extension JSONValue {
    /// A value made in code (its position is 0:0).
    public init(_ kind: Kind) { self.init(kind: kind, position: SourcePosition(line: 0, column: 0)) }

    public static func object(_ members: [(String, JSONValue)]) -> JSONValue { JSONValue(.object(members.map { (key: $0.0, value: $0.1) })) }
    public static func array(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items)) }
    public static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    public static func number(_ n: Double) -> JSONValue { JSONValue(.number(n)) }
    public static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    public static var null: JSONValue { JSONValue(.null) }

    /// JSON text: compact on one line (`[0.5, 0]`) without `indent`, else one member per line.
    public func serialized(indent: Int? = nil) -> String {
        var out = ""
        write(to: &out, indent: indent, level: 0)
        return out
    }

    private func write(to out: inout String, indent: Int?, level: Int) {
        func newline(_ level: Int) {
            if let indent { out += "\n" + String(repeating: " ", count: indent * level) }
        }
        switch kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.numberText(n)
        case .string(let s): out += JSONValue.quoted(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            let scalars = items.allSatisfy { if case .array = $0.kind { return false }; if case .object = $0.kind { return false }; return true }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += scalars || indent == nil ? ", " : "," }
                if !scalars { newline(level + 1) }
                item.write(to: &out, indent: indent, level: level + 1)
            }
            if !scalars { newline(level) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += indent == nil ? ", " : "," }
                newline(level + 1)
                out += JSONValue.quoted(member.key) + ": "
                member.value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "}"
        }
    }

    /// A number as JSON text: whole numbers without a fraction, others in Swift's shortest form.
    public static func numberText(_ n: Double) -> String {
        if n == n.rounded() && abs(n) <= 9_007_199_254_740_992 { return String(Int64(n)) }
        return "\(n)"
    }

    /// A JSON string literal.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
