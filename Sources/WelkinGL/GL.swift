// WelkinGL: OpenGL through libepoxy's function pointers (Swift cannot import epoxy's macros).
//
// This file holds the few wrappers where the C API wants pointers, out-parameters or C strings;
// everything else calls `epoxy_glX` directly. No loader of our own: epoxy resolves every entry point.

@preconcurrency import CEpoxy
import CGLFW
import WelkinCore

/// An OpenGL call that reported an error through glGetError.
public struct GLError: UserFacingError, Sendable {
    public var message: String
    public var description: String { message }
    public var userFacingDescription: String { "welkin: \(message)" }
    public init(_ message: String) { self.message = message }
}

/// Helpers over epoxy's `epoxy_gl*` function pointers.
enum GL {
    /// Whether any GL context is current on this thread. GL objects outlived by their context
    /// (released after it during teardown) were freed with it and must not be deleted again:
    /// calling GL with no current context aborts inside libepoxy.
    /// The current context's identity (its GLFW or EGL handle; 0 for none): GL names are per context.
    static var currentContextKey: UInt {
        if let c = glfwGetCurrentContext() { return UInt(bitPattern: c) }
        if epoxy_has_egl(), let c = epoxy_eglGetCurrentContext() { return UInt(bitPattern: c) }
        return 0
    }

    /// The 2D texture bound on the active unit read bilinearly (`linear`) or nearest, clamped to its
    /// edges: the filtered reads of Welkin's own programs (the sky-view table, the clouds' grid and
    /// box means) and the texel reads of an export's.
    static func filterBoundTexture2D(linear: Bool) {
        let filter = linear ? GL_LINEAR : GL_NEAREST
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    static var hasCurrentContext: Bool {
        if glfwGetCurrentContext() != nil { return true }
        return epoxy_has_egl() && epoxy_eglGetCurrentContext() != nil
    }

    /// glGetString as a Swift string ("" when the driver returns nothing).
    static func string(_ name: Int32) -> String {
        guard let p = epoxy_glGetString(GLenum(name)) else { return "" }
        return String(cString: p)
    }

    /// glGetIntegerv for one value.
    static func integer(_ name: Int32) -> Int {
        var v: GLint = 0
        epoxy_glGetIntegerv(GLenum(name), &v)
        return Int(v)
    }

    /// Throws if GL recorded an error since the last call; `what` names the operation.
    static func check(_ what: @autoclosure () -> String) throws {
        var codes: [String] = []
        while true {
            let e = epoxy_glGetError()
            if e == GLenum(GL_NO_ERROR) || codes.count > 8 { break }
            codes.append(errorName(e))
        }
        if !codes.isEmpty { throw GLError("\(what()) failed with \(codes.joined(separator: ", "))") }
    }

    static func errorName(_ e: GLenum) -> String {
        switch Int32(e) {
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
        default: return "GL error 0x" + String(e, radix: 16)
        }
    }

    /// Uniform location, or −1 when the program does not use the uniform (setting −1 is a no-op).
    static func uniformLocation(_ program: GLuint, _ name: String) -> GLint {
        name.withCString { epoxy_glGetUniformLocation(program, $0) }
    }

    /// A shader's or program's info log: pass glGetShaderiv and glGetShaderInfoLog, or the Program pair.
    static func infoLog(_ object: GLuint,
                        _ getParameter: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                        _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var length: GLint = 0
        getParameter(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 1 else { return "" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        getLog(object, length, nil, &buffer)
        return String(cString: buffer)
    }

    /// glShaderSource with one string.
    static func shaderSource(_ shader: GLuint, _ text: String) {
        text.withCString { p in
            var pointer: UnsafePointer<GLchar>? = p
            var length = GLint(text.utf8.count)
            epoxy_glShaderSource(shader, 1, &pointer, &length)
        }
    }
}
