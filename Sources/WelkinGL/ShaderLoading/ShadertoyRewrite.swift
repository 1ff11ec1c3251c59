// ShadertoyRewrite: what a Shadertoy file needs to mean on desktop GLSL 3.30 what it means in
// WebGL2, made by rewriting its text (line breaks kept, so the compiler's lines are the file's).
//
// - `GL_ES`: Shadertoy compiles as GLSL ES 3.00, where GL_ES is defined and shaders test it (for
//   precision statements, or a cheaper path). Desktop GLSL reserves every `GL_` macro name, so it
//   cannot be defined; each GL_ES token becomes WELKIN_GL_ES, which Shaders/shadertoy.glsl defines.
// - Zero-initialised variables: WebGL zero-fills a variable declared without an initialiser (ANGLE's
//   rewrite, which browsers run on every shader); desktop drivers leave it undefined, and Mesa's
//   llvmpipe gives garbage. Each local and global declared without one gets ` = T(0)` (false for
//   bools; a constructor for arrays and for structs declared in the file or the Common file). Arrays
//   whose size is not a whole number the file states (a literal, `#define N 4`, `const int N = 4;`)
//   and out parameters are left as they are.
//
// The text is read with comments blanked (ShadertoyWrapping.strippingComments keeps every
// character's position), so nothing inside a comment is changed.

import Foundation

enum ShadertoyRewrite {
    /// A field of a struct: its type and, for an array, its element count.
    struct Field: Equatable {
        var type: String
        var count: Int?
    }

    /// What one file tells the rewrite of another: the structs and integer constants of a Common file.
    struct Context {
        var structs: [String: [Field]] = [:]
        var integers: [String: Int] = [:]
    }

    /// `text` rewritten (see above); `context` adds what another file (the Common file) declares.
    static func rewrite(_ text: String, context: Context = Context()) -> String {
        let original = Array(text.unicodeScalars)
        let tokens = Lexer.tokens(ShadertoyWrapping.strippingComments(text))
        var known = context
        collect(tokens, into: &known)
        var insertions: [(offset: Int, text: String)] = []
        var replacements: [(range: Range<Int>, text: String)] = []
        for t in tokens where t.text == "GL_ES" {
            replacements.append((t.offset..<(t.offset + t.length), "WELKIN_GL_ES"))
        }
        insertions = zeroInitialisers(tokens.filter { !$0.directive }, known)
        var edits = replacements.map { (start: $0.range.lowerBound, end: $0.range.upperBound, text: $0.text) }
            + insertions.map { (start: $0.offset, end: $0.offset, text: $0.text) }
        edits.sort { $0.start > $1.start }
        var out = original
        for e in edits { out.replaceSubrange(e.start..<e.end, with: Array(e.text.unicodeScalars)) }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: out)
        return String(s)
    }

    /// The structs and integer constants `text` declares (for the files that come after it).
    static func context(of text: String, adding base: Context = Context()) -> Context {
        var c = base
        collect(Lexer.tokens(ShadertoyWrapping.strippingComments(text)), into: &c)
        return c
    }

    // MARK: - Tokens

    /// A word of GLSL (an identifier, keyword or number) or one punctuation character.
    struct Token: Equatable {
        var text: String
        var offset: Int          // unicode-scalar offset in the text
        var length: Int
        var directive: Bool      // on a preprocessor line
        var line: Int            // 1-based
    }

    enum Lexer {
        static func tokens(_ text: String) -> [Token] {
            let scalars = Array(text.unicodeScalars)
            var tokens: [Token] = []
            var i = 0
            var lineStart = true, directive = false
            var line = 1
            func isWord(_ c: Unicode.Scalar) -> Bool {
                c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
            }
            while i < scalars.count {
                let c = scalars[i]
                if c == "\n" {
                    // A backslash before the line break continues a directive.
                    let continued = directive && i > 0 && scalars[i - 1] == "\\"
                    if !continued { directive = false }
                    lineStart = true
                    line += 1
                    i += 1
                    continue
                }
                if c == " " || c == "\t" || c == "\r" || c == "\\" { i += 1; continue }
                if lineStart && c == "#" { directive = true }
                lineStart = false
                if isWord(c) {
                    var j = i
                    // A number: digits, a point, an exponent with its sign.
                    if ("0"..."9").contains(c) || (c == "." && i + 1 < scalars.count && ("0"..."9").contains(scalars[i + 1])) {
                        while j < scalars.count, isWord(scalars[j]) || scalars[j] == "."
                                || ((scalars[j] == "+" || scalars[j] == "-") && (scalars[j - 1] == "e" || scalars[j - 1] == "E")) { j += 1 }
                    } else {
                        while j < scalars.count, isWord(scalars[j]) { j += 1 }
                    }
                    var s = String.UnicodeScalarView(); s.append(contentsOf: scalars[i..<j])
                    tokens.append(Token(text: String(s), offset: i, length: j - i, directive: directive, line: line))
                    i = j
                } else {
                    tokens.append(Token(text: String(c), offset: i, length: 1, directive: directive, line: line))
                    i += 1
                }
            }
            return tokens
        }
    }

    // MARK: - Declarations

    static let vectorTypes: Set<String> = {
        var s: Set<String> = ["float", "int", "uint", "bool", "double"]
        for n in 2...4 {
            for p in ["vec", "ivec", "uvec", "bvec", "dvec"] { s.insert("\(p)\(n)") }
            s.insert("mat\(n)"); s.insert("dmat\(n)")
            for m in 2...4 { s.insert("mat\(n)x\(m)"); s.insert("dmat\(n)x\(m)") }
        }
        return s
    }()

    /// Words that start a declaration that must not be touched (or is not a variable at all).
    static let storage: Set<String> = ["uniform", "in", "out", "inout", "attribute", "varying", "const", "layout", "buffer",
                                       "shared", "flat", "smooth", "noperspective", "centroid", "sample", "patch",
                                       "struct", "precision", "subroutine", "return", "else", "case", "default"]
    static let precisions: Set<String> = ["highp", "mediump", "lowp", "precise", "invariant"]

    static func isIdentifier(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first else { return false }
        return f == "_" || ("a"..."z").contains(f) || ("A"..."Z").contains(f)
    }

    /// Struct definitions and integer constants among `tokens`.
    static func collect(_ tokens: [Token], into c: inout Context) {
        // #define NAME 123 (a directive line: its tokens in a row on one line).
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            if t.directive, t.text == "#", i + 3 < tokens.count, tokens[i + 1].text == "define", tokens[i + 2].directive,
               tokens[i + 3].directive, isIdentifier(tokens[i + 2].text), let v = Int(tokens[i + 3].text),
               i + 4 >= tokens.count || !tokens[i + 4].directive || tokens[i + 4].text == "#" {
                c.integers[tokens[i + 2].text] = v
            }
            i += 1
        }
        let code = tokens.filter { !$0.directive }
        i = 0
        while i < code.count {
            // const int NAME = 123;
            if code[i].text == "const", i + 5 < code.count, code[i + 1].text == "int", isIdentifier(code[i + 2].text),
               code[i + 3].text == "=", let v = Int(code[i + 4].text), code[i + 5].text == ";" {
                c.integers[code[i + 2].text] = v
            }
            // struct NAME { fields };
            if code[i].text == "struct", i + 2 < code.count, isIdentifier(code[i + 1].text), code[i + 2].text == "{" {
                var fields: [Field] = []
                var j = i + 3
                var ok = true
                while j < code.count, code[j].text != "}" {
                    while j < code.count, precisions.contains(code[j].text) { j += 1 }
                    guard j < code.count else { ok = false; break }
                    let type = code[j].text
                    j += 1
                    while j < code.count, code[j].text != ";" && code[j].text != "}" {
                        guard isIdentifier(code[j].text) else { j += 1; continue }
                        var count: Int? = nil
                        if j + 3 < code.count, code[j + 1].text == "[", code[j + 3].text == "]" {
                            count = Int(code[j + 2].text) ?? c.integers[code[j + 2].text]
                            if count == nil { ok = false }
                            j += 3
                        }
                        fields.append(Field(type: type, count: count))
                        j += 1
                        if j < code.count, code[j].text == "," { j += 1 }
                    }
                    if j < code.count, code[j].text == ";" { j += 1 }
                }
                if ok && !fields.isEmpty { c.structs[code[i + 1].text] = fields }
                i = j
            }
            i += 1
        }
    }

    /// A zero value of `type` (an array of `count` when given), nil when it cannot be written.
    static func zero(_ type: String, count: Int?, _ c: Context, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        if let count {
            guard count >= 1, count <= 256, let one = zero(type, count: nil, c, depth: depth + 1) else { return nil }
            return "\(type)[\(count)](" + Array(repeating: one, count: count).joined(separator: ", ") + ")"
        }
        if type == "bool" { return "false" }
        if type.hasPrefix("bvec") { return "\(type)(false)" }
        if vectorTypes.contains(type) { return "\(type)(0)" }
        guard let fields = c.structs[type] else { return nil }
        var parts: [String] = []
        for f in fields {
            guard let z = zero(f.type, count: f.count, c, depth: depth + 1) else { return nil }
            parts.append(z)
        }
        return "\(type)(" + parts.joined(separator: ", ") + ")"
    }

    /// Where ` = zero` goes for each variable declared without an initialiser.
    static func zeroInitialisers(_ code: [Token], _ c: Context) -> [(offset: Int, text: String)] {
        var out: [(offset: Int, text: String)] = []
        var braces: [Bool] = []   // true: a struct body
        var parens = 0
        var i = 0
        var previous: String? = nil
        while i < code.count {
            let t = code[i].text
            let atStatement = parens == 0 && braces.last != true
                && (previous == nil || previous == ";" || previous == "{" || previous == "}" || previous == ":")
            if atStatement, let end = declaration(code, at: i, c, into: &out) {
                previous = ";"
                i = end + 1
                continue
            }
            switch t {
            case "(": parens += 1
            case ")": parens = max(parens - 1, 0)
            case "{":
                let isStruct = (i >= 1 && code[i - 1].text == "struct") || (i >= 2 && code[i - 2].text == "struct")
                braces.append(isStruct)
                parens = 0
            case "}": _ = braces.popLast()
            default: break
            }
            previous = t
            i += 1
        }
        return out
    }

    /// Parses a declaration statement starting at `start`; returns the index of its `;` (and adds
    /// its insertions), or nil when the statement is not a plain variable declaration.
    static func declaration(_ code: [Token], at start: Int, _ c: Context, into out: inout [(offset: Int, text: String)]) -> Int? {
        var i = start
        while i < code.count, precisions.contains(code[i].text) { i += 1 }
        guard i < code.count, !storage.contains(code[i].text) else { return nil }
        let type = code[i].text
        guard vectorTypes.contains(type) || c.structs[type] != nil else { return nil }
        i += 1
        var typeCount: Int? = nil
        var typeIsArray = false
        if i + 2 < code.count, code[i].text == "[" {
            guard code[i + 2].text == "]" else { return nil }
            typeCount = Int(code[i + 1].text) ?? c.integers[code[i + 1].text]
            typeIsArray = true
            i += 3
        }
        var pending: [(offset: Int, text: String)] = []
        while true {
            guard i < code.count, isIdentifier(code[i].text), !vectorTypes.contains(code[i].text) else { return nil }
            var end = code[i].offset + code[i].length
            i += 1
            guard i < code.count else { return nil }
            if code[i].text == "(" { return nil }   // a function
            var count = typeCount, isArray = typeIsArray
            if code[i].text == "[" {
                guard i + 2 < code.count, code[i + 2].text == "]", !isArray else { return nil }
                count = Int(code[i + 1].text) ?? c.integers[code[i + 1].text]
                isArray = true
                end = code[i + 2].offset + 1
                i += 3
                guard i < code.count else { return nil }
            }
            if code[i].text == "=" {
                // Skip the initialiser to the next top-level , or ;.
                var depth = 0
                i += 1
                while i < code.count {
                    let t = code[i].text
                    if t == "(" || t == "[" || t == "{" { depth += 1 }
                    if t == ")" || t == "]" || t == "}" { depth -= 1; if depth < 0 { return nil } }
                    if depth == 0 && (t == "," || t == ";") { break }
                    i += 1
                }
                guard i < code.count else { return nil }
            } else {
                guard code[i].text == "," || code[i].text == ";" else { return nil }
                if !isArray || count != nil, let z = zero(type, count: isArray ? count : nil, c) {
                    pending.append((end, " = " + z))
                }
            }
            if code[i].text == ";" { out += pending; return i }
            i += 1   // past the comma
        }
    }
}
