// A scene file as text that can be edited one value at a time (the viewer's console and panel).
//
// An edit replaces the bytes of one value in the text, or inserts one member into an object, and
// leaves every other byte alone: key order, comments-free formatting, untouched keys and the
// spelling of their numbers stay exactly as written. Whether the edited text is a valid scene is
// the loader's business: the caller decodes the new bytes and refuses the edit when that fails.

/// A JSON path as scene errors print it: `layers[1].stops[0].color`, `weather.transition`; `$` is
/// the whole document.
public struct JSONPath: Equatable, Sendable, CustomStringConvertible {
    public enum Component: Equatable, Sendable {
        case key(String)
        case index(Int)
    }
    public var components: [Component]

    public init(_ components: [Component]) { self.components = components }

    /// Parses `layers[1].stops[0].color`. Keys are runs of characters other than `.`, `[` and `]`.
    public init(parsing text: String) throws {
        var components: [Component] = []
        var rest = Substring(text)
        if rest == "$" { self.components = []; return }
        if rest.hasPrefix("$.") || rest.hasPrefix("$[") { rest = rest.dropFirst(rest.hasPrefix("$.") ? 2 : 1) }
        guard !rest.isEmpty else { throw SceneDocument.EditError("expected a JSON path like layers[1].opacity, got nothing") }
        var expectKey = true
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let n = Int(rest[rest.index(after: rest.startIndex)..<close]), n >= 0 else {
                    throw SceneDocument.EditError("'\(text)' is not a JSON path: expected [INDEX] with a whole number ≥ 0")
                }
                components.append(.index(n))
                rest = rest[rest.index(after: close)...]
                expectKey = false
            } else if rest.first == "." && !expectKey {
                rest = rest.dropFirst()
                expectKey = true
                if rest.isEmpty { throw SceneDocument.EditError("'\(text)' is not a JSON path: it ends with '.'") }
            } else if expectKey {
                let end = rest.firstIndex { $0 == "." || $0 == "[" || $0 == "]" } ?? rest.endIndex
                guard end > rest.startIndex else { throw SceneDocument.EditError("'\(text)' is not a JSON path: expected a key at '\(rest)'") }
                components.append(.key(String(rest[..<end])))
                rest = rest[end...]
                expectKey = false
            } else {
                throw SceneDocument.EditError("'\(text)' is not a JSON path: unexpected '\(rest)'")
            }
        }
        self.components = components
    }

    public var description: String {
        var out = ""
        for c in components {
            switch c {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out.isEmpty ? "$" : out
    }

    public func appending(_ component: Component) -> JSONPath { JSONPath(components + [component]) }
    public func appending(_ key: String) -> JSONPath { appending(.key(key)) }
    public func appending(_ index: Int) -> JSONPath { appending(.index(index)) }

    /// The path without its last component (the root's parent is the root).
    public var parent: JSONPath { JSONPath(Array(components.dropLast())) }
}

/// A scene file's text and its parse, editable one value at a time.
public struct SceneDocument: Sendable {
    /// Why an edit or a look-up could not be made (the document is unchanged).
    public struct EditError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    public let bytes: [UInt8]
    public let root: JSONValue

    /// Parses `bytes` (throws JSONSyntaxError).
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        root = try JSONParser.parse(bytes)
    }

    public init(text: String) throws { try self.init(bytes: Array(text.utf8)) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The value at `path`; nil when only its last key is missing (so a `set` would add it).
    /// Throws when the path leads through something that is not there or not a container.
    public func value(at path: JSONPath) throws -> JSONValue? {
        var current = root
        var walked = JSONPath([])
        for (i, component) in path.components.enumerated() {
            let isLast = i == path.components.count - 1
            switch (component, current.kind) {
            case (.key(let key), .object):
                guard let next = current[key] else {
                    if isLast { return nil }
                    throw EditError("\(walked.appending(key)): no such key (add it first)")
                }
                current = next
            case (.index(let n), .array(let items)):
                guard n < items.count else {
                    throw EditError("\(walked.appending(n)): out of range (\(walked) has \(items.count) \(items.count == 1 ? "element" : "elements"))")
                }
                current = items[n]
            case (.key(let key), _):
                throw EditError("\(walked.appending(key)): \(walked) is \(current.kindDescription), not an object")
            case (.index(let n), _):
                throw EditError("\(walked.appending(n)): \(walked) is \(current.kindDescription), not an array")
            }
            walked = walked.appending(component)
        }
        return current
    }

    /// The text of `value` exactly as the file spells it.
    public func sourceText(of value: JSONValue) -> String {
        String(decoding: bytes[value.byteRange], as: UTF8.self)
    }

    /// A value's text as the file spells it, on one line: line breaks and their
    /// indentation folded into single spaces (none just inside brackets).
    public func oneLineText(of value: JSONValue) -> String {
        let bytes = bytes[value.byteRange]
        guard bytes.contains(UInt8(ascii: "\n")) else { return sourceText(of: value) }
        return SceneDocument.foldedToOneLine(bytes)
    }

    /// JSON text on one line: line breaks and their indentation folded into single spaces (none
    /// just inside brackets); strings untouched.
    static func foldedToOneLine<C: Collection<UInt8>>(_ bytes: C) -> String where C.Index == Int {
        var out: [UInt8] = []
        var inString = false, escaped = false
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if inString {
                out.append(b)
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n") {
                while out.last == UInt8(ascii: " ") || out.last == UInt8(ascii: "\t") { out.removeLast() }
                i += 1
                while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
                let next = i < bytes.endIndex ? bytes[i] : 0
                if out.last != UInt8(ascii: "[") && out.last != UInt8(ascii: "{") && next != UInt8(ascii: "]") && next != UInt8(ascii: "}") {
                    out.append(UInt8(ascii: " "))
                }
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The leading spaces or tabs of the line holding byte `offset`.
    func indentation(ofLineAt offset: Int) -> String {
        let lineStart = (bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        let lead = bytes[lineStart...].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return String(decoding: lead, as: UTF8.self)
    }

    /// One step of the file's indentation: its first indented line's lead (two spaces when none is).
    var indentStep: String {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")), newline + 1 < bytes.count else { return "  " }
        let lead = indentation(ofLineAt: newline + 1)
        return lead.isEmpty ? "  " : lead
    }

    /// `text` (one JSON value) laid out for where an edit puts it, as small as it can be: on one line
    /// inside an object or array written on one line; otherwise on one line when it was, else its
    /// elements (or members) one per line, each on one line, at `indent` + one step of the file.
    func laidOut(_ text: String, oneLine: Bool, indent: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "\n")) else { return text }
        if oneLine { return SceneDocument.foldedToOneLine(utf8) }
        guard let value = try? JSONParser.parse(utf8) else { return text }
        let inner = indent + indentStep
        func fold(_ v: JSONValue) -> String { SceneDocument.foldedToOneLine(utf8[v.byteRange]) }
        switch value.kind {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + fold($0) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { inner + JSONValue.quoted($0.key) + ": " + fold($0.value) }.joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return SceneDocument.foldedToOneLine(utf8)
        }
    }

    /// Whether a value is written on one line of the file.
    func isOnOneLine(_ value: JSONValue) -> Bool { !bytes[value.byteRange].contains(UInt8(ascii: "\n")) }

    /// The text with the value at `path` replaced by `valueText` (which must be one JSON value), or
    /// with a new member added when only the last key is missing. Nothing else changes.
    public func replacing(_ path: JSONPath, with valueText: String) throws -> [UInt8] {
        let trimmed = valueText.trimmingWhitespace
        do { _ = try JSONParser.parse(trimmed) } catch let e as JSONSyntaxError {
            throw EditError("'\(trimmed)' is not a JSON value: \(e.message) (at column \(e.position.column))")
        }
        guard !path.components.isEmpty else {
            var out = Array(trimmed.utf8)
            if bytes.last == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
            return out
        }
        if let existing = try value(at: path) {
            let parent = try value(at: path.parent)
            let text = laidOut(trimmed, oneLine: parent.map(isOnOneLine) ?? false, indent: indentation(ofLineAt: existing.byteRange.lowerBound))
            return Array(bytes[..<existing.byteRange.lowerBound]) + Array(text.utf8) + Array(bytes[existing.byteRange.upperBound...])
        }
        guard case .key(let key) = path.components.last!, let parent = try value(at: path.parent),
              case .object(let members) = parent.kind else {
            preconditionFailure("value(at:) returns nil only for a missing key of an object")
        }
        let member = JSONValue.quoted(key) + ": "
        guard let lastValue = members.last?.value, let lastKey = parent.keyOffsets.last else {
            // An empty object: the member goes between its braces, on the same line.
            let inside = parent.byteRange.lowerBound + 1
            let value = laidOut(trimmed, oneLine: isOnOneLine(parent), indent: indentation(ofLineAt: inside))
            return Array(bytes[..<inside]) + Array((member + value).utf8) + Array(bytes[(parent.byteRange.upperBound - 1)...])
        }
        // After the last member: on a line of its own, indented as that member's key, when the
        // last key starts its line; else on the same line, and on one line in an object written on one.
        let lineStart = (bytes[..<lastKey].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        let lead = bytes[lineStart..<lastKey]
        let ownLine = lead.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let indent = ownLine ? String(decoding: lead, as: UTF8.self) : indentation(ofLineAt: lastKey)
        let value = laidOut(trimmed, oneLine: !ownLine && isOnOneLine(parent), indent: indent)
        let insertion = "," + (ownLine ? "\n" + indent : " ") + member + value
        let at = lastValue.byteRange.upperBound
        return Array(bytes[..<at]) + Array(insertion.utf8) + Array(bytes[at...])
    }
}

extension JSONValue {
    /// A copy with the value at `path` (which must exist, but for a last key of an object) replaced
    /// by `value`: for editing a value made in code, such as a default.
    public func replacing(_ path: ArraySlice<JSONPath.Component>, with value: JSONValue) -> JSONValue {
        guard let first = path.first else { return value }
        var copy = self
        switch (first, kind) {
        case (.key(let key), .object(var members)):
            if let i = members.firstIndex(where: { $0.key == key }) {
                members[i].value = members[i].value.replacing(path.dropFirst(), with: value)
            } else if path.count == 1 {
                members.append((key, value))
            }
            copy.kind = .object(members)
        case (.index(let n), .array(var items)) where n < items.count:
            items[n] = items[n].replacing(path.dropFirst(), with: value)
            copy.kind = .array(items)
        default:
            break
        }
        return copy
    }

    /// "a string", "a number", … for edit errors.
    var kindDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Which property a path names

/// What a path in a scene document names, looked up in the property tables.
public struct PropertyLookup: Sendable {
    /// The property the last key names (nil for an array element: its type is `type`).
    public var property: Property?
    /// The type of the value at the path.
    public var type: PropertyType
    /// The type the table declares there, every form (`type` is the form the value takes).
    public var declared: PropertyType
}

extension SceneFormat {
    /// The property and type at `path` in a scene document (`layers[i]` takes its table from that
    /// layer's `type`); nil when the tables do not describe it.
    public static func lookup(_ path: JSONPath, in root: JSONValue) -> PropertyLookup? {
        var type = PropertyType.object(Scene.properties)
        var property: Property? = nil
        var value: JSONValue? = root
        for component in path.components {
            type = resolved(type, value)
            switch (component, type) {
            case (.key(let key), .object(let table)):
                guard let p = table[key] else { return nil }
                property = p
                type = p.type
                value = value?[key]
            case (.key, .map(let element, _)):
                property = nil
                type = element
                if case .key(let key) = component { value = value?[key] }
            case (.index(let n), .array(let element, _)):
                property = nil
                type = element
                if case .array(let items) = value?.kind, n < items.count { value = items[n] } else { value = nil }
            default:
                return nil
            }
        }
        return PropertyLookup(property: property, type: resolved(type, value), declared: type)
    }

    /// A `.layer` as its kind's table (from the value's `type`), a `.oneOf` as the form the value
    /// has (with no value, the first form).
    public static func resolved(_ type: PropertyType, _ value: JSONValue?) -> PropertyType {
        switch type {
        case .layer:
            if case .string(let name)? = value?["type"]?.kind, let kind = LayerKinds.kind(name) { return .object(kind.properties) }
            return type
        case .oneOf(let forms):
            guard let value else { return forms.first.map { resolved($0, nil) } ?? type }
            return forms.first { $0.accepts(shapeOf: value) }.map { resolved($0, value) } ?? type
        default:
            return type
        }
    }
}

extension PropertyType {
    /// Whether a value of this type can have the JSON shape of `value` (not whether it is valid):
    /// enough to tell the forms of a `.oneOf` apart.
    public func accepts(shapeOf value: JSONValue) -> Bool {
        switch (self, value.kind) {
        case (.any, _): return true
        case (.oneOf(let forms), _): return forms.contains { $0.accepts(shapeOf: value) }
        case (.number, .number), (.integer, .number), (.bool, .bool): return true
        case (.string, .string), (.choice, .string), (.color, .string), (.date, .string), (.path, .string), (.unitPoint, .string):
            return true
        case (.color, .array), (.unitPoint, .array), (.pair, .array), (.interval, .array): return true
        case (.array(let element, _), .array(let items)): return items.first.map { element.accepts(shapeOf: $0) } ?? true
        case (.object, .object), (.map, .object), (.layer, .object): return true
        default: return false
        }
    }
}

extension PropertyDefault {
    /// The default as JSON text when it is a value ("the scene's colorSpace" when it is described).
    public var jsonText: String? {
        switch self {
        case .none: return nil
        case .number(let n): return JSONValue.numberText(n)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return JSONValue.quoted(s)
        case .color(let c): return "[\([c.r, c.g, c.b, c.a].map(JSONValue.numberText).joined(separator: ", "))]"
        case .point(let p): return "[\(JSONValue.numberText(p.x)), \(JSONValue.numberText(p.y))]"
        case .interval(let r): return "[\(JSONValue.numberText(r.lowerBound)), \(JSONValue.numberText(r.upperBound))]"
        case .emptyArray: return "[]"
        case .described: return nil
        }
    }

    /// The default in words, for showing: JSON text or the description.
    public var displayText: String {
        if case .described(let words) = self { return words }
        return jsonText ?? "none"
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
