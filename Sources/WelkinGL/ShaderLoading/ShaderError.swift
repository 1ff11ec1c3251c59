// Shader errors: every message names a file and, where known, a line, as `FILE:LINE: message`.

import WelkinCore

/// One message about a shader file, placed at a line when the compiler or loader gave one.
public struct ShaderDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; nil when the message is about the file (or program) as a whole.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file; self.line = line; self.message = message
    }

    /// `FILE:LINE: message`, or `FILE: message` without a line.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// A shader that could not be found, preprocessed, compiled or linked.
public struct ShaderError: UserFacingError, Sendable {
    /// A stable identifier tests and tools can match on.
    public enum Kind: String, Sendable {
        case noShaderDirectory, unreadableFile, missingInclude, includeCycle, malformedInclude,
             misplacedVersion, compileFailed, linkFailed,
             /// A Shadertoy feature Welkin cannot feed: sound, cube maps, VR (ShadertoyWrapping).
             unsupportedShadertoyFeature
    }

    public var kind: Kind
    /// At least one message.
    public var diagnostics: [ShaderDiagnostic]

    public init(_ kind: Kind, _ diagnostics: [ShaderDiagnostic]) {
        self.kind = kind; self.diagnostics = diagnostics
    }

    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
        self.init(kind, [ShaderDiagnostic(file: file, line: line, message: message)])
    }

    /// The same error with `prefix` before each message that has no line.
    func prefixingUnplaced(_ prefix: String) -> ShaderError {
        var e = self
        for i in e.diagnostics.indices where e.diagnostics[i].line == nil { e.diagnostics[i].message = prefix + e.diagnostics[i].message }
        return e
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    public var message: String { diagnostics.first?.message ?? "" }
    public var filePath: String? { diagnostics.first?.file }
}
