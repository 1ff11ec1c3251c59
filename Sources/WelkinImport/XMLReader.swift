// A small XML reader: enough for Particle Designer's property lists and Starling's .pex files
// (elements, attributes, text, comments, the XML declaration and a DOCTYPE; the five named
// entities and numeric character references). No namespaces, no DTD processing.

/// One element: its name, attributes in file order, children and text.
public struct XMLElement: Sendable, Equatable {
    public var name: String
    public var attributes: [(name: String, value: String)]
    public var children: [XMLElement]
    /// The element's own text (character data directly inside it), entities resolved.
    public var text: String
    /// 1-based line of the start tag.
    public var line: Int

    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    public static func == (a: XMLElement, b: XMLElement) -> Bool {
        a.name == b.name && a.attributes.map(\.name) == b.attributes.map(\.name)
            && a.attributes.map(\.value) == b.attributes.map(\.value) && a.children == b.children && a.text == b.text
    }
}

/// A malformed document: the line and what is wrong.
public struct XMLError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

public enum XMLReader {
    /// The document's root element.
    public static func parse(_ text: String) throws -> XMLElement {
        var p = Parser(Array(text.utf8))
        return try p.document()
    }

    struct Parser {
        let b: [UInt8]
        var i = 0
        var line = 1
        init(_ bytes: [UInt8]) {
            b = bytes
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        func fail(_ message: String) -> XMLError { XMLError(line: line, message: message) }

        mutating func advance(_ n: Int = 1) {
            for _ in 0..<n where i < b.count {
                if b[i] == UInt8(ascii: "\n") { line += 1 }
                i += 1
            }
        }

        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= b.count && Array(b[i..<(i + u.count)]) == u
        }

        mutating func skip(until end: String, what: String) throws {
            while i < b.count && !starts(end) { advance() }
            guard i < b.count else { throw fail("unterminated \(what)") }
            advance(end.utf8.count)
        }

        mutating func skipSpace() {
            while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { advance() }
        }

        /// Declarations, comments and whitespace before or after the root.
        mutating func skipMisc() throws {
            while true {
                skipSpace()
                if starts("<?") { try skip(until: "?>", what: "declaration") }
                else if starts("<!--") { try skip(until: "-->", what: "comment") }
                else if starts("<!DOCTYPE") || starts("<!doctype") { try skipDoctype() }
                else { return }
            }
        }

        mutating func skipDoctype() throws {
            var depth = 0
            while i < b.count {
                if b[i] == UInt8(ascii: "[") { depth += 1 }
                if b[i] == UInt8(ascii: "]") { depth -= 1 }
                if b[i] == UInt8(ascii: ">") && depth <= 0 { advance(); return }
                advance()
            }
            throw fail("unterminated DOCTYPE")
        }

        mutating func document() throws -> XMLElement {
            try skipMisc()
            guard i < b.count, b[i] == UInt8(ascii: "<") else { throw fail("expected an XML element") }
            let root = try element()
            try skipMisc()
            guard i == b.count else { throw fail("unexpected content after the root element </\(root.name)>") }
            return root
        }

        static func isNameByte(_ c: UInt8) -> Bool {
            c >= 0x80 || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
        }

        mutating func name() throws -> String {
            let start = i
            while i < b.count, Self.isNameByte(b[i]) { advance() }
            guard i > start else { throw fail("expected a name") }
            return String(decoding: b[start..<i], as: UTF8.self)
        }

        mutating func element() throws -> XMLElement {
            let startLine = line
            advance()  // <
            let tag = try name()
            var attributes: [(name: String, value: String)] = []
            while true {
                skipSpace()
                guard i < b.count else { throw fail("unterminated start tag <\(tag)") }
                if starts("/>") { advance(2); return XMLElement(name: tag, attributes: attributes, children: [], text: "", line: startLine) }
                if b[i] == UInt8(ascii: ">") { advance(); break }
                let attribute = try name()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "=") else { throw fail("expected '=' after attribute \(attribute) of <\(tag)>") }
                advance(); skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                    throw fail("expected a quoted value for attribute \(attribute) of <\(tag)>")
                }
                let quote = b[i]
                advance()
                let start = i
                while i < b.count && b[i] != quote { advance() }
                guard i < b.count else { throw fail("unterminated value of attribute \(attribute) of <\(tag)>") }
                let raw = String(decoding: b[start..<i], as: UTF8.self)
                advance()
                attributes.append((attribute, try unescape(raw)))
            }
            var children: [XMLElement] = []
            var text = ""
            while true {
                guard i < b.count else { throw fail("<\(tag)> (line \(startLine)) is never closed") }
                if starts("</") {
                    advance(2)
                    let closing = try name()
                    guard closing == tag else { throw fail("</\(closing)> closes <\(tag)> (line \(startLine))") }
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail("expected '>' after </\(closing)") }
                    advance()
                    return XMLElement(name: tag, attributes: attributes, children: children, text: text, line: startLine)
                }
                if starts("<!--") { try skip(until: "-->", what: "comment"); continue }
                if starts("<![CDATA[") {
                    advance(9)
                    let start = i
                    while i < b.count && !starts("]]>") { advance() }
                    guard i < b.count else { throw fail("unterminated CDATA section") }
                    text += String(decoding: b[start..<i], as: UTF8.self)
                    advance(3)
                    continue
                }
                if starts("<?") { try skip(until: "?>", what: "processing instruction"); continue }
                if b[i] == UInt8(ascii: "<") { children.append(try element()); continue }
                let start = i
                while i < b.count && b[i] != UInt8(ascii: "<") { advance() }
                text += try unescape(String(decoding: b[start..<i], as: UTF8.self))
            }
        }

        func unescape(_ s: String) throws -> String {
            guard s.contains("&") else { return s }
            var out = ""
            var rest = Substring(s)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].firstIndex(of: ";") else { throw fail("unterminated entity in '\(s.prefix(40))'") }
                let entity = rest[rest.index(after: amp)..<semi]
                switch entity {
                case "amp": out += "&"
                case "lt": out += "<"
                case "gt": out += ">"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    var value: UInt32?
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") { value = UInt32(entity.dropFirst(2), radix: 16) }
                    else if entity.hasPrefix("#") { value = UInt32(entity.dropFirst()) }
                    guard let v = value, let scalar = Unicode.Scalar(v) else { throw fail("unknown entity &\(entity);") }
                    out.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }
    }
}
