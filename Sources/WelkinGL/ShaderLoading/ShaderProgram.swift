// ShaderProgram: a linked vertex + fragment program, with errors mapped back to files and lines.

@preconcurrency import CEpoxy

/// A linked GL program. Delete it with `delete()`; a failed build leaves no GL objects behind.
public final class ShaderProgram {
    public private(set) var id: GLuint
    /// Every file that went into the program (for watching).
    public let files: [String]
    /// The preprocessed texts it was built from (what `welkin export-code --package` compiles to SPIR-V).
    public let vertexSource: ShaderSource
    public let fragmentSource: ShaderSource

    /// A substitute for the text handed to the driver (nil: the text itself). The round-trip tests
    /// set it to draw a program's SPIR-V, turned back into GLSL, in place of the program; nothing else does.
    nonisolated(unsafe) public static var sourceFilter: ((_ source: ShaderSource, _ stage: Stage) throws -> String)?

    /// The program of each GL name built since, for GLCapture and PassTiming (which see only the
    /// bound name), by context: two contexts (two renderers in one process) reuse the same names.
    nonisolated(unsafe) private static var byKey: [Key: Unmanaged<ShaderProgram>] = [:]
    private struct Key: Hashable { var context: UInt; var id: GLuint }
    /// The context the program was built in.
    private var context: UInt = 0

    /// The program bound as `id` in the current context, if ShaderProgram built it.
    static func built(_ id: GLuint) -> ShaderProgram? {
        byKey[Key(context: GL.currentContextKey, id: id)]?.takeUnretainedValue()
    }

    public enum Stage: String, Sendable { case vertex, fragment }

    /// Compiles and links `vertex` and `fragment`. Throws `ShaderError` with `FILE:LINE: message`
    /// diagnostics on failure.
    public init(vertex: ShaderSource, fragment: ShaderSource) throws {
        vertexSource = vertex
        fragmentSource = fragment
        let vs = try Self.compile(vertex, stage: GLenum(GL_VERTEX_SHADER), .vertex)
        defer { epoxy_glDeleteShader(vs) }
        let fs = try Self.compile(fragment, stage: GLenum(GL_FRAGMENT_SHADER), .fragment)
        defer { epoxy_glDeleteShader(fs) }
        let program = epoxy_glCreateProgram()
        epoxy_glAttachShader(program, vs)
        epoxy_glAttachShader(program, fs)
        epoxy_glLinkProgram(program)
        var ok: GLint = 0
        epoxy_glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        if ok == GL_FALSE {
            let log = GL.infoLog(program, epoxy_glGetProgramiv, epoxy_glGetProgramInfoLog)
            epoxy_glDeleteProgram(program)
            // Link messages rarely carry positions; the fragment shader is the usual culprit.
            throw Self.failure(.linkFailed, fragment, log, "link failed").prefixingUnplaced("link error (with \(vertex.path)): ")
        }
        epoxy_glDetachShader(program, vs)
        epoxy_glDetachShader(program, fs)
        id = program
        files = vertex.files + fragment.files.filter { !vertex.files.contains($0) }
        context = GL.currentContextKey
        Self.byKey[Key(context: context, id: program)] = Unmanaged.passUnretained(self)
    }

    private static func compile(_ source: ShaderSource, stage: GLenum, _ named: Stage) throws -> GLuint {
        let shader = epoxy_glCreateShader(stage)
        GL.shaderSource(shader, try sourceFilter.map { try $0(source, named) } ?? source.text)
        epoxy_glCompileShader(shader)
        var ok: GLint = 0
        epoxy_glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == GL_FALSE {
            let log = GL.infoLog(shader, epoxy_glGetShaderiv, epoxy_glGetShaderInfoLog)
            epoxy_glDeleteShader(shader)
            throw failure(.compileFailed, source, log, "compile failed")
        }
        return shader
    }

    /// The driver's log as `FILE:LINE: message` diagnostics (a bare `fallback` when the log is empty).
    private static func failure(_ kind: ShaderError.Kind, _ source: ShaderSource, _ log: String, _ fallback: String) -> ShaderError {
        let diagnostics = source.diagnostics(fromInfoLog: log)
        return ShaderError(kind, diagnostics.isEmpty ? [ShaderDiagnostic(file: source.path, line: nil, message: fallback)] : diagnostics)
    }

    /// The location of uniform `name`, −1 if the program does not use it.
    public func uniform(_ name: String) -> GLint {
        GL.uniformLocation(id, name)
    }

    /// The location of vertex attribute `name`, −1 if the program does not use it.
    public func attribute(_ name: String) -> GLint {
        name.withCString { epoxy_glGetAttribLocation(id, $0) }
    }

    public func delete() {
        if id != 0, Self.byKey[Key(context: context, id: id)]?.takeUnretainedValue() === self { Self.byKey[Key(context: context, id: id)] = nil }
        if id != 0 && GL.hasCurrentContext { epoxy_glDeleteProgram(id) }
        id = 0
    }

    deinit { delete() }
}
