// One shader-variant policy (issue #35): a choice that is constant over a draw is a compile-time
// define in the program's key, never a uniform that picks a code path — llvmpipe (Mesa's CPU
// rasteriser) runs both sides of a uniform `if` on every pixel, which is how the Display P3 output
// branch once cost every sRGB frame six `pow`s a pixel.
//
// This reads every file in Shaders/ (comments left out) and fails on
// - an `if` whose condition reads only uniforms (and constants): a uniform picking a code path;
// - a call that passes a uniform to a function parameter that picks a code path (an int or bool
//   parameter tested by an `if` in the function: applyToneMap(code, …), fromInterpolationSpace(…, space)).
// Per-draw values the vertex shader hands on as flat structs (`physical`, `sky`, `cover`) count as
// uniforms. The few uniform branches that remain are listed below with the reason each is kept.

import Foundation
import XCTest
import WelkinTestSupport

final class ShaderVariantPolicyTests: XCTestCase {
    /// Kept on purpose: file, a piece of the offending line, why.
    static let allowed: [(file: String, line: String, why: String)] = [
        // Programs built with specializesPrograms off (FramePlan.Options, `welkin bench`'s A/B switch)
        // keep these as uniforms; every draw the renderer makes by default has them as defines.
        ("gradient.glsl", "u_kind == GRADIENT_", "the unspecialised gradient program (specializesPrograms off)"),
        ("gradient.glsl", "fromInterpolationSpace(interpolate(t), u_colorSpace)", "the unspecialised gradient program"),
        ("sky.glsl", "u_spriteCount", "the unspecialised sprite loop (more sprites than flat varyings hold)"),
        ("sky.glsl", "u_coverOctaves", "the unspecialised cover octave loop"),
        // Early-outs that skip work when a value is zero: the other side is empty, so nothing is
        // run twice (a define cannot say it: the value changes from frame to frame).
        ("night.glsl", "u_night.moonVisible == 0", "skips the Moon when it is below the horizon this frame"),
        ("atmosphere.glsl", "physical.moonSkyScale > 0.0", "skips the moonlight lookup when the Moon gives none this frame"),
        ("sky.glsl", "sky.stars.x > 0.0", "skips the star field when it cannot show this frame"),
        // Specialised by a define (a `const` of the same name under #ifdef); the uniform is the
        // fallback of the program built with specializesPrograms off.
        ("gradient-band.frag", "fromInterpolationSpace(v_color, u_colorSpace)", "WELKIN_COLOR_SPACE's const; the uniform is the unspecialised fallback"),
        ("mesh.glsl", "fromInterpolationSpace(q, u_colorSpace)", "WELKIN_COLOR_SPACE's const (mesh.glsl has no uniform of that name)"),
        ("sprite.frag", "u_sprite", "WELKIN_SPRITE_KIND's const; the uniform is ParticlePass's generic program"),
        ("sprite.vert", "u_sprite", "WELKIN_SPRITE_KIND's const; the uniform is ParticlePass's generic program"),
    ]

    struct Violation: CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    static let keywords: Set<String> = ["if", "else", "for", "while", "return", "true", "false", "int", "float", "bool", "uint",
                                        "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "defined", "const", "in", "out", "inout"]

    func testNoUniformPicksACodePath() throws {
        let directory = Repository.root.appendingPathComponent("Shaders").path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".glsl") || $0.hasSuffix(".frag") || $0.hasSuffix(".vert") }.sorted()
        XCTAssertGreaterThan(names.count, 20)
        var files: [(name: String, lines: [String])] = []
        var uniforms: Set<String> = ["physical", "sky", "cover"]
        for name in names {
            let text = Self.strippingComments(try String(contentsOfFile: directory + "/" + name, encoding: .utf8))
            let lines = text.components(separatedBy: "\n")
            files.append((name, lines))
            for line in lines {
                let words = Self.words(line)
                if words.first == "uniform", words.count >= 3 { uniforms.insert(words[2]) }
            }
        }
        // Functions whose int or bool parameter picks a path: name → parameter positions.
        var selectors: [String: [Int]] = [:]
        let whole = files.map { $0.lines.joined(separator: "\n") }.joined(separator: "\n")
        let definition = try NSRegularExpression(pattern: #"\b(?:vec[234]|float|int|bool|void|uint)\s+(\w+)\s*\(([^)]*)\)\s*\{"#)
        for m in definition.matches(in: whole, range: NSRange(whole.startIndex..., in: whole)) {
            let name = String(whole[Range(m.range(at: 1), in: whole)!])
            let parameters = whole[Range(m.range(at: 2), in: whole)!].split(separator: ",").map { Self.words(String($0)) }
            let bodyStart = Range(m.range, in: whole)!.upperBound
            let body = Self.balanced(whole[bodyStart...], open: "{", close: "}")
            for (i, p) in parameters.enumerated() {
                guard let type = p.dropLast().last, ["int", "bool", "uint"].contains(type), let parameter = p.last else { continue }
                if Self.conditions(in: body).contains(where: { Self.words($0).contains(parameter) }) {
                    selectors[name, default: []].append(i)
                }
            }
        }
        XCTAssertNotNil(selectors["applyToneMap"], "the selector search finds applyToneMap(code, …)")
        var violations: [Violation] = []
        let local = try NSRegularExpression(pattern: #"\b(?:float|int|uint|bool|vec[234])\s+(\w+)\s*[=;,]"#)
        for (name, lines) in files {
            // A name the file declares as a local or a parameter is the file's own (`float cover`).
            let text = lines.joined(separator: "\n")
            let own = Set(local.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) })
            let uniforms = uniforms.subtracting(own)
            for (n, line) in lines.enumerated() {
                for condition in Self.conditions(in: Substring(line)) where Self.readsOnlyUniforms(condition, uniforms) {
                    violations.append(Violation(file: name, line: n + 1, text: "if (\(condition)) picks a path by a uniform"))
                }
                for (function, positions) in selectors {
                    for call in Self.calls(of: function, in: line) {
                        for i in positions where i < call.count {
                            if Self.readsOnlyUniforms(call[i], uniforms) {
                                violations.append(Violation(file: name, line: n + 1, text: "\(function)(…) gets the uniform \(call[i].trimmingCharacters(in: .whitespaces)) as the parameter that picks its path"))
                            }
                        }
                    }
                }
            }
        }
        let offending = violations.filter { v in
            !Self.allowed.contains { v.file == $0.file && files.first { $0.name == v.file }!.lines[v.line - 1].contains($0.line) }
        }
        XCTAssertEqual(offending.map(\.description), [],
                       "make it a define in the program's variant (ResolveVariant, SkyPass.Variant, …), or list it in `allowed` with the reason")
        // Every allowance still matches a line (a stale one is removed).
        for a in Self.allowed {
            XCTAssertTrue(files.contains { $0.name == a.file && $0.lines.contains { $0.contains(a.line) } }, "stale allowance: \(a.file): \(a.line)")
        }
    }

    /// The rule catches what it is for (a planted uniform branch and a uniform passed to a selector).
    func testThePolicyCatchesAPlantedBranch() {
        let uniforms: Set<String> = ["u_mode", "physical"]
        XCTAssertTrue(Self.readsOnlyUniforms("u_mode == 2", uniforms))
        XCTAssertTrue(Self.readsOnlyUniforms("physical.linearOutput != 0", uniforms))
        XCTAssertFalse(Self.readsOnlyUniforms("u_mode == 2 && x > 0.0", uniforms), "a per-pixel value in it")
        XCTAssertFalse(Self.readsOnlyUniforms("WELKIN_DITHER != 0", uniforms), "a define")
        XCTAssertEqual(Self.calls(of: "applyToneMap", in: "vec3 c = applyToneMap(physical.toneMap, f(x, y));").first, ["physical.toneMap", " f(x, y)"])
    }

    // MARK: - Reading GLSL

    static func strippingComments(_ text: String) -> String {
        var out = "", i = text.startIndex
        while i < text.endIndex {
            let rest = text[i...]
            if rest.hasPrefix("//") {
                while i < text.endIndex, text[i] != "\n" { i = text.index(after: i) }
            } else if rest.hasPrefix("/*") {
                i = text.index(i, offsetBy: 2)
                while i < text.endIndex, !text[i...].hasPrefix("*/") {
                    if text[i] == "\n" { out.append("\n") }
                    i = text.index(after: i)
                }
                if i < text.endIndex { i = text.index(i, offsetBy: 2) }
            } else {
                out.append(text[i])
                i = text.index(after: i)
            }
        }
        return out
    }

    static func words(_ s: String) -> [String] {
        s.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
    }

    static func isVariable(_ w: String) -> Bool {
        guard let f = w.first, f.isLetter || f == "_" else { return false }
        if keywords.contains(w) { return false }
        // Macros and defines are constants.
        return !(w.uppercased() == w && w.contains { $0.isLetter })
    }

    /// The text of a balanced run starting at `open` in `s` (without the outer brackets).
    static func balanced(_ s: Substring, open: Character, close: Character) -> Substring {
        var depth = 1, i = s.startIndex
        while i < s.endIndex {
            if s[i] == open { depth += 1 }
            if s[i] == close { depth -= 1; if depth == 0 { return s[s.startIndex..<i] } }
            i = s.index(after: i)
        }
        return s
    }

    /// The conditions of the `if`s in `s` (not `#if`).
    static func conditions(in s: Substring) -> [String] {
        var out: [String] = []
        var i = s.startIndex
        while let r = s[i...].range(of: "if") {
            let before = r.lowerBound == s.startIndex ? " " : s[s.index(before: r.lowerBound)]
            var j = r.upperBound
            while j < s.endIndex, s[j] == " " { j = s.index(after: j) }
            if !(before.isLetter || before.isNumber || before == "_" || before == "#"), j < s.endIndex, s[j] == "(" {
                out.append(String(balanced(s[s.index(after: j)...], open: "(", close: ")")))
            }
            i = r.upperBound
        }
        return out
    }

    /// Whether `condition` reads uniforms and nothing else that varies (constants and calls aside).
    static func readsOnlyUniforms(_ condition: String, _ uniforms: Set<String>) -> Bool {
        // Roots of member accesses only: `physical.linearOutput` reads `physical`.
        var roots: [String] = []
        var previousDot = false
        var token = ""
        func flush(_ next: Character?) {
            if !token.isEmpty {
                if !previousDot && next != "(" { roots.append(token) }
                previousDot = false
            }
            token = ""
        }
        for c in condition {
            if c.isLetter || c.isNumber || c == "_" { token.append(c); continue }
            flush(c)
            previousDot = c == "."
        }
        flush(nil)
        let variables = roots.filter(isVariable)
        return !variables.isEmpty && variables.allSatisfy(uniforms.contains)
    }

    /// The argument lists of each call of `function` in `line`.
    static func calls(of function: String, in line: String) -> [[String]] {
        var out: [[String]] = []
        var i = line.startIndex
        while let r = line[i...].range(of: function + "(") {
            let before = r.lowerBound == line.startIndex ? " " : line[line.index(before: r.lowerBound)]
            if !(before.isLetter || before.isNumber || before == "_") {
                let inside = balanced(line[r.upperBound...], open: "(", close: ")")
                var args: [String] = [], depth = 0, current = ""
                for c in inside {
                    if c == "(" { depth += 1 }
                    if c == ")" { depth -= 1 }
                    if c == "," && depth == 0 { args.append(current); current = ""; continue }
                    current.append(c)
                }
                args.append(current)
                // A definition is not a call.
                if !(Self.words(String(line[..<r.lowerBound])).last.map { ["vec3", "vec4", "float", "int", "bool", "void"].contains($0) } ?? false) {
                    out.append(args)
                }
            }
            i = r.upperBound
        }
        return out
    }
}
