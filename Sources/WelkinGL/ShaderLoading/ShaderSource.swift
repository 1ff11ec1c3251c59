// ShaderSource: a shader file with its #includes resolved, ready for glShaderSource.
//
// Each file gets a source-string number S (0 for the top file, then in order of first inclusion) and
// the text carries `#line N S` directives; the table `files` turns S back into a file name (GLSL 3.30
// `#line` takes only integers). Mesa loses S on many messages (it reports 0 for expressions inside
// an included file), so the line numbers carry the file too: file S's line N is numbered
// S × lineStride + N. The mapping reads the file from the line number and needs no S at all.

import Foundation
import WelkinCore

/// A preprocessed shader: the text to compile and the table that maps compiler positions to files.
public struct ShaderSource: Sendable {
    /// The top file, as given.
    public var path: String
    /// The full text, `#version` first, includes inlined, `#line` directives inserted.
    public var text: String
    /// Source-string number → file path (index 0 is `path`). Every file that went in, for reloading.
    public var files: [String]

    /// Reads `path` and resolves `#include "name"` lines (relative to the including file, then in
    /// `includeDirectories`; recursively; a missing one names every directory searched). A file included a second time is skipped (each file goes in once), so two
    /// files may share a helper. Throws `ShaderError` naming FILE:LINE for a missing include or a cycle.
    /// `defines` become `#define NAME VALUE` lines right after `#version` (program variants), after
    /// the constants Swift shares with every shader (`ShaderConstants.defines`).
    /// `includeDirectories` are searched, in order, for an include not found beside the including
    /// file (a user's shader can `#include "colorspace.glsl"` from Welkin's library).
    public init(path: String, defines: [(name: String, value: String)] = [], includeDirectories: [String] = []) throws {
        try self.init(text: Self.read(path), path: path, defines: defines, includeDirectories: includeDirectories)
    }

    /// Builds from text already in memory (tests, or a caller that read the file itself).
    /// Includes resolve relative to `path`'s directory. `wrapping` surrounds the text with Welkin's
    /// own files (a Shadertoy `mainImage` file, which is not a complete shader by itself).
    /// `constants`: where Welkin's constants prelude (ShaderConstants.defines: PI, codes, limits)
    /// goes. Welkin's own programs get it first; a user's shader only where it includes a file from
    /// `library` (Welkin's shader directory), just before that file, so a shader that includes none of
    /// Welkin's files sees only its own names (a `const float PI` of its own compiles).
    public init(text: String, path: String, defines: [(name: String, value: String)] = [], includeDirectories: [String] = [],
                wrapping: Wrapping? = nil, constants: Constants = .first) throws {
        self.path = path
        var builder = Builder(defines: defines, includeDirectories: includeDirectories, wrapping: wrapping)
        switch constants {
        case .first: builder.defines = ShaderConstants.defines + defines
        case .beforeLibrary(let directory): builder.library = Builder.standardized(directory); builder.pendingConstants = true
        }
        try builder.append(text: text, path: path, stack: [])
        self.text = builder.output
        files = builder.files
    }

    /// Where the constants prelude goes (see `init(text:…)`).
    public enum Constants: Sendable {
        /// Right after `#version` and the defines: Welkin's own programs.
        case first
        /// Just before the first included file from this directory (Welkin's library), if any.
        case beforeLibrary(String)
    }

    /// Files put around a top file: `version` first when the file has no `#version` of its own,
    /// then the defines, then each `prelude` file, the file itself, and each `epilogue`
    /// file (absolute paths). Each goes in once and is numbered like an include, so a compile
    /// error still names the user's file and line, or Welkin's file when the fault is there.
    /// A prelude file may come with its text already read (and rewritten: a Shadertoy Common file).
    public struct Wrapping: Sendable {
        public var version: String
        public var prelude: [String]
        public var epilogue: [String]
        /// Texts to use instead of reading the file, by path (prelude files only).
        public var texts: [String: String] = [:]

        public init(version: String, prelude: [String], epilogue: [String], texts: [String: String] = [:]) {
            self.version = version; self.prelude = prelude; self.epilogue = epilogue; self.texts = texts
        }
    }

    /// The largest shader file (or included file) Welkin reads, in bytes.
    public static let maximumFileSize = 1 << 20

    /// Why the file at `path` cannot be read as shader text (nil: its text).
    static func text(_ path: String) -> Result<String, RegularFile.Problem> {
        do {
            let bytes = try RegularFile.read(path, limit: maximumFileSize)
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.unreadable("it is not UTF-8 text")) }
            return .success(text)
        } catch {
            return .failure(error)
        }
    }

    /// The text of the shader file at `path`; a `ShaderError` (`unreadableFile`) naming it otherwise.
    /// A FIFO or device is refused without a blocking read.
    public static func read(_ path: String) throws -> String {
        switch text(path) {
        case .success(let text): return text
        case .failure(.missing): throw ShaderError(.unreadableFile, file: path, "no such file")
        case .failure(let problem): throw ShaderError(.unreadableFile, file: path, "the file \(problem)")
        }
    }

    /// Lines of file S are numbered from S × lineStride + 1 in the compiled text.
    public static let lineStride = 100_000

    /// The file and line for a line number as the compiler reports it, or nil if out of range.
    public func location(forCompiledLine line: Int) -> (file: String, line: Int)? {
        let index = line / Self.lineStride
        guard files.indices.contains(index) else { return nil }
        return (files[index], line % Self.lineStride)
    }

    /// Rewrites a compiler info log so each positioned message reads `FILE:LINE: message`.
    /// Lines in no known format are kept, attributed to the top file without a line.
    public func diagnostics(fromInfoLog log: String) -> [ShaderDiagnostic] {
        var out: [ShaderDiagnostic] = []
        for raw in log.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if let entry = InfoLogLine(parsing: line), let place = location(forCompiledLine: entry.line) {
                out.append(ShaderDiagnostic(file: place.file, line: place.line, message: entry.message))
            } else {
                out.append(ShaderDiagnostic(file: path, line: nil, message: line))
            }
        }
        return out
    }

    // MARK: - Preprocessing

    private struct Builder {
        var output = ""
        var files: [String] = []
        /// Standardised paths already inlined.
        var seen: Set<String> = []
        var defines: [(name: String, value: String)]
        var includeDirectories: [String] = []
        var wrapping: Wrapping? = nil
        /// With `.beforeLibrary`: the library directory (standardised), and whether the constants
        /// are still to be written.
        var library: String? = nil
        var pendingConstants = false

        init(defines: [(name: String, value: String)], includeDirectories: [String], wrapping: Wrapping?) {
            self.defines = defines; self.includeDirectories = includeDirectories; self.wrapping = wrapping
        }

        mutating func append(path: String, includedAt site: ShaderDiagnostic?, stack: [String]) throws {
            guard let site else { return try append(text: ShaderSource.read(path), path: path, stack: stack) }
            switch ShaderSource.text(path) {
            case .success(let text): try append(text: text, path: path, stack: stack)
            case .failure(.missing):
                throw ShaderError(.missingInclude, file: site.file, line: site.line, "included file '\(path)' not found")
            case .failure(let problem):
                throw ShaderError(.missingInclude, file: site.file, line: site.line, "included file '\(path)' \(problem)")
            }
        }

        mutating func append(text: String, path: String, stack: [String]) throws {
            let key = Self.standardized(path)
            seen.insert(key)
            let index = files.count
            files.append(path)
            let isTop = stack.isEmpty
            let stack = stack + [key]
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasSuffix("\r") ? $0.dropLast() : $0
            }
            if lines.count > 1 && lines.last == "" { lines.removeLast() }   // the final newline ends a line, not starts one
            // Anything before #version (comments, blank lines) stays where it is; #version stays
            // the first directive, and the #line that follows it restores the numbering.
            var first = 0
            let wrapping = isTop ? self.wrapping : nil
            if isTop, let v = lines.firstIndex(where: { $0.drop(while: \.isWhitespace).hasPrefix("#version") }) {
                for i in 0...v { output += lines[i] + "\n" }
                first = v + 1
            } else if let wrapping {
                output += wrapping.version + "\n"
            }
            if isTop {
                for d in defines { output += "#define \(d.name) \(d.value)\n" }
            }
            for file in wrapping?.prelude ?? [] where !seen.contains(Self.standardized(file)) {
                if let text = wrapping?.texts[file] { try append(text: text, path: file, stack: stack) }
                else { try append(path: file, includedAt: nil, stack: stack) }
            }
            let base = index * ShaderSource.lineStride
            if index != 0 || first > 0 || (isTop && !defines.isEmpty) || wrapping != nil {
                output += "#line \(base + first + 1) \(index)\n"
            }
            // Directives are read with comments blanked: an #include inside /* */ is no include.
            let code = ShadertoyWrapping.strippingComments(text).split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasSuffix("\r") ? $0.dropLast() : $0
            }
            for i in first..<lines.count {
                let line = lines[i]
                let trimmed = (i < code.count ? code[i] : line).drop(while: \.isWhitespace)
                if trimmed.hasPrefix("#version") {
                    throw ShaderError(.misplacedVersion, file: path, line: i + 1,
                                      "#version must be the first directive of the top file (included files have none)")
                }
                guard let name = try Self.includeName(trimmed, file: path, line: i + 1) else {
                    output += line + "\n"
                    continue
                }
                let site = ShaderDiagnostic(file: path, line: i + 1, message: "")
                // Beside the including file first, then each include directory, in order.
                let searched = name.hasPrefix("/") ? [] : Self.unique([Self.directory(of: path)] + includeDirectories)
                guard let target = name.hasPrefix("/") ? name
                        : searched.lazy.map({ Self.join($0, name) }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                    let places = searched.map { Self.join($0, ".") }.joined(separator: ", ")
                    throw ShaderError(.missingInclude, file: path, line: i + 1, "included file '\(name)' not found (looked in \(places))")
                }
                let targetKey = Self.standardized(target)
                if stack.contains(targetKey) {
                    let chain = (stack + [targetKey]).map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")
                    throw ShaderError(.includeCycle, file: path, line: i + 1, "#include cycle: \(chain)")
                }
                if seen.contains(targetKey) {
                    output += "// (already included: \(name))\n"
                    continue
                }
                if pendingConstants, let library, targetKey.hasPrefix(library + "/") {
                    // Welkin's own file needs Welkin's constants: they reach the user's shader from here on.
                    pendingConstants = false
                    for d in ShaderConstants.defines { output += "#define \(d.name) \(d.value)\n" }
                }
                try append(path: target, includedAt: site, stack: stack)
                output += "#line \(base + i + 2) \(index)\n"
            }
            for file in wrapping?.epilogue ?? [] where !seen.contains(Self.standardized(file)) {
                try append(path: file, includedAt: nil, stack: stack)
            }
        }

        /// The quoted name of an `#include "name"` line, nil for any other line.
        static func includeName(_ line: Substring, file: String, line number: Int) throws -> String? {
            guard line.hasPrefix("#") else { return nil }
            let directive = line.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            guard directive.hasPrefix("include") else { return nil }
            let rest = directive.dropFirst("include".count).drop(while: { $0 == " " || $0 == "\t" })
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw ShaderError(.malformedInclude, file: file, line: number, "expected #include \"file.glsl\"")
            }
            let name = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, after.isEmpty || after.hasPrefix("//") else {
                throw ShaderError(.malformedInclude, file: file, line: number, "expected #include \"file.glsl\"")
            }
            return name
        }

        /// `paths` without repeats (the same directory spelled the same way), first ones kept.
        static func unique(_ paths: [String]) -> [String] {
            var seen: Set<String> = []
            return paths.filter { seen.insert(standardized($0)).inserted }
        }

        static func directory(of path: String) -> String {
            let d = (path as NSString).deletingLastPathComponent
            return d.isEmpty ? "." : d
        }

        /// `dir/name`, tidied lexically (no ./ or dir/../) but not made absolute, for messages.
        static func join(_ directory: String, _ name: String) -> String {
            if name.hasPrefix("/") { return name }
            var parts = directory == "." ? [] : directory.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            for part in name.split(separator: "/") {
                if part == "." { continue }
                if part == "..", let last = parts.last, last != "..", last != "", last != "." { parts.removeLast(); continue }
                parts.append(String(part))
            }
            return parts.isEmpty ? name : parts.joined(separator: "/")
        }

        /// An absolute, symlink-free path: one key per file whatever the spelling.
        static func standardized(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
    }
}

/// One positioned line of a GLSL compiler log.
struct InfoLogLine: Equatable {
    var sourceString: Int
    var line: Int
    var message: String

    init(sourceString: Int, line: Int, message: String) {
        self.sourceString = sourceString; self.line = line; self.message = message
    }

    /// Understands Mesa (`0:12(5): error: …`), NVIDIA (`0(12) : error C1008: …`) and
    /// AMD/Apple/Intel (`ERROR: 0:12: …`).
    init?(parsing text: String) {
        var s = Substring(text)
        var severity: String? = nil
        for prefix in ["ERROR:", "WARNING:"] where s.hasPrefix(prefix) {
            severity = prefix.dropLast().lowercased()
            s = s.dropFirst(prefix.count).drop(while: { $0 == " " })
        }
        guard let string = Self.integer(&s) else { return nil }
        let number: Int
        if s.first == ":" {                     // Mesa / AMD: S:L
            s = s.dropFirst()
            guard let l = Self.integer(&s) else { return nil }
            number = l
            if s.first == "(" {                 // Mesa's column
                s = s.dropFirst()
                guard Self.integer(&s) != nil, s.first == ")" else { return nil }
                s = s.dropFirst()
            }
        } else if s.first == "(" {              // NVIDIA: S(L)
            s = s.dropFirst()
            guard let l = Self.integer(&s), s.first == ")" else { return nil }
            number = l
            s = s.dropFirst()
        } else {
            return nil
        }
        s = s.drop(while: { $0 == " " })
        guard s.first == ":" else { return nil }
        let message = s.dropFirst().trimmingCharacters(in: .whitespaces)
        sourceString = string
        line = number
        self.message = severity.map { "\($0): \(message)" } ?? message
    }

    private static func integer(_ s: inout Substring) -> Int? {
        let digits = s.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, let v = Int(digits) else { return nil }
        s = s.dropFirst(digits.count)
        return v
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
