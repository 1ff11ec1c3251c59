// ShaderProgram: a linked vertex + fragment program, with errors mapped back to files and lines.

import CEpoxy

/// A linked GL program. Delete it with `delete()`; a failed build leaves no GL objects behind.
public final class ShaderProgram {
    public private(set) var id: GLuint
    /// Every file that went into the program (for watching).
    public let files: [String]

    /// Compiles and links `vertex` and `fragment`. Throws `ShaderError` with `FILE:LINE: message`
    /// diagnostics on failure.
    public init(vertex: ShaderSource, fragment: ShaderSource) throws {
        let vs = try Self.compile(vertex, stage: GLenum(GL_VERTEX_SHADER))
        defer { epoxy_glDeleteShader(vs) }
        let fs = try Self.compile(fragment, stage: GLenum(GL_FRAGMENT_SHADER))
        defer { epoxy_glDeleteShader(fs) }
        let program = epoxy_glCreateProgram()
        epoxy_glAttachShader(program, vs)
        epoxy_glAttachShader(program, fs)
        epoxy_glLinkProgram(program)
        var ok: GLint = 0
        epoxy_glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        if ok == GL_FALSE {
            let log = GL.programInfoLog(program)
            epoxy_glDeleteProgram(program)
            // Link messages rarely carry positions; the fragment shader is the usual culprit.
            var diagnostics = fragment.diagnostics(fromInfoLog: log)
            if diagnostics.isEmpty { diagnostics = [ShaderDiagnostic(file: fragment.path, line: nil, message: "link failed")] }
            diagnostics = diagnostics.map {
                var d = $0
                if d.line == nil { d.message = "link error (with \(vertex.path)): " + d.message }
                return d
            }
            throw ShaderError(.linkFailed, diagnostics)
        }
        epoxy_glDetachShader(program, vs)
        epoxy_glDetachShader(program, fs)
        id = program
        files = vertex.files + fragment.files.filter { !vertex.files.contains($0) }
    }

    private static func compile(_ source: ShaderSource, stage: GLenum) throws -> GLuint {
        let shader = epoxy_glCreateShader(stage)
        GL.shaderSource(shader, source.text)
        epoxy_glCompileShader(shader)
        var ok: GLint = 0
        epoxy_glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == GL_FALSE {
            let log = GL.shaderInfoLog(shader)
            epoxy_glDeleteShader(shader)
            var diagnostics = source.diagnostics(fromInfoLog: log)
            if diagnostics.isEmpty { diagnostics = [ShaderDiagnostic(file: source.path, line: nil, message: "compile failed")] }
            throw ShaderError(.compileFailed, diagnostics)
        }
        return shader
    }

    /// The location of uniform `name`, −1 if the program does not use it.
    public func uniform(_ name: String) -> GLint {
        GL.uniformLocation(id, name)
    }

    public func delete() {
        if id != 0 { epoxy_glDeleteProgram(id); id = 0 }
    }

    deinit { delete() }
}
