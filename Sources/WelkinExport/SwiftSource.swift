// Writing Swift source: indented lines, literals exactly as Swift prints them, names from scene text.

import Foundation

/// Swift source built line by line, with four-space indentation.
struct SwiftSource {
    private(set) var text = ""
    private var depth = 0

    /// One line at the current indentation (an empty line stays empty).
    mutating func line(_ s: String = "") {
        text += s.isEmpty ? "\n" : String(repeating: "    ", count: depth) + s + "\n"
    }

    /// `opener`, the body one level deeper, then `closer`.
    mutating func block(_ opener: String, _ closer: String = "}", _ body: (inout SwiftSource) -> Void) {
        line(opener)
        depth += 1
        body(&self)
        depth -= 1
        line(closer)
    }

    /// Several lines of ready-made source (a runtime helper), each at the current indentation.
    mutating func lines(_ snippet: String) {
        var body = Substring(snippet)
        while body.hasSuffix("\n") { body = body.dropLast() }
        for l in body.split(separator: "\n", omittingEmptySubsequences: false) { line(String(l)) }
    }

    /// `//` comment lines, wrapped at about 100 columns.
    mutating func comment(_ words: String, prefix: String = "// ") {
        for l in SwiftLiteral.wrap(words, width: 100 - depth * 4 - prefix.count) { line(prefix + l) }
    }
}

/// Literals and names as they appear in generated code.
enum SwiftLiteral {
    /// A number exactly as Swift prints it: the shortest text that reads back as the same Double.
    static func number(_ v: Double) -> String { v.description }

    /// `a + b` where `b` may be negative (`a + -b` is valid Swift but reads badly).
    static func sum(_ a: Double, _ b: String) -> String { "\(number(a)) + \(b)" }

    /// A point literal `SIMD2<Float>(x, y)` is long; meshes use `[x, y]` in a typed array.
    static func pair(_ p: SIMD2<Double>) -> String { "[\(number(p.x)), \(number(p.y))]" }

    /// A Swift string literal.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += "\\u{\(String(u.value, radix: 16))}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// Text safe inside a `//` comment: one line, no control characters.
    static func commentText(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// The words of `s` in lines of at most `width` characters (a longer word gets its own line).
    static func wrap(_ s: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in commentText(s).split(separator: " ") {
            if current.isEmpty { current = String(word) }
            else if current.count + 1 + word.count <= max(width, 20) { current += " " + word }
            else { lines.append(current); current = String(word) }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// ASCII letters and digits of `s` as words, accents dropped ("Bézier" → "Bezier").
    static func words(_ s: String) -> [String] {
        let folded = s.folding(options: [.diacriticInsensitive], locale: nil)
        return folded.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }).map(String.init)
    }

    /// A type name from a scene name: "Sunset with clouds" → "SunsetWithClouds" + suffix.
    static func typeName(_ name: String, suffix: String) -> String {
        var base = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if base.isEmpty { base = "Welkin" }
        if base.first!.isNumber { base = "Scene" + base }
        if base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return base + suffix
    }

    /// A lowerCamelCase identifier from a layer name, or nil when the name has no letters.
    static func identifier(_ name: String?) -> String? {
        guard let name else { return nil }
        let w = words(name)
        guard let first = w.first, first.first!.isLetter else { return nil }
        return first.lowercased() + w.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
