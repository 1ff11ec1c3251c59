// GLContext: an OpenGL 3.3 core context, made headless through EGL when possible.
//
// Order of attempts for headless work: first a GPU through EGL_EXT_platform_device (one that is
// not Mesa's software device: on a GPU server with Mesa installed too, the surfaceless platform
// would give llvmpipe), then EGL_MESA_platform_surfaceless (Mesa, CI), then EGL_EXT_platform_device
// whatever the device (NVIDIA servers without Mesa), then a hidden GLFW window (needs a display).

@preconcurrency import CEpoxy
import CGLFW
import WelkinCore

/// Why no OpenGL context could be made: one line per way that was tried.
public struct GLContextError: UserFacingError, Sendable {
    /// Each backend tried, with the reason it failed.
    public var attempts: [(backend: GLContext.Backend, reason: String)]

    public var description: String {
        "could not create an OpenGL 3.3 core context: "
            + attempts.map { "\($0.backend.rawValue): \($0.reason)" }.joined(separator: "; ")
    }
    public var message: String { description }
    /// A window that cannot open says so, and how to render without one.
    public var userFacingDescription: String {
        guard !attempts.isEmpty, attempts.allSatisfy({ $0.backend == .glfwWindow }) else { return "welkin: \(description)" }
        return "welkin: cannot open a window: \(description)\n(no display? 'welkin render SCENE -o OUT.png' renders without one)"
    }
}

/// An OpenGL 3.3 (or later) core-profile context, current on the thread that made it.
public final class GLContext {
    /// How a context was made.
    public enum Backend: String, CaseIterable, Sendable {
        case eglSurfaceless = "EGL surfaceless"
        case eglDevice = "EGL device"
        case glfwHiddenWindow = "hidden GLFW window"
        case glfwWindow = "GLFW window"
    }

    /// The order `headless()` tries.
    public static let headlessOrder: [Backend] = [.eglSurfaceless, .eglDevice, .glfwHiddenWindow]

    public let backend: Backend
    /// GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public let renderer: String
    /// GL_VERSION, e.g. "4.5 (Core Profile) Mesa 22.3.6".
    public let version: String
    /// major × 10 + minor, e.g. 45; at least 33.
    public let versionNumber: Int
    /// Whether GL_CONTEXT_PROFILE_MASK says core profile.
    public let isCoreProfile: Bool

    private var display: EGLDisplay?
    private var context: EGLContext?
    private var surface: EGLSurface?
    private var window: OpaquePointer?

    private init(backend: Backend, display: EGLDisplay? = nil, context: EGLContext? = nil,
                 surface: EGLSurface? = nil, window: OpaquePointer? = nil) {
        self.backend = backend
        self.display = display; self.context = context; self.surface = surface; self.window = window
        renderer = GL.string(GL_RENDERER)
        version = GL.string(GL_VERSION)
        versionNumber = Int(epoxy_gl_version())
        isCoreProfile = GL.integer(GL_CONTEXT_PROFILE_MASK) & Int(GL_CONTEXT_CORE_PROFILE_BIT) != 0
    }

    /// A context with no window, for rendering into framebuffer objects. Works with DISPLAY unset
    /// wherever EGL does. Throws `GLContextError` listing every attempt when none works.
    public static func headless(trying backends: [Backend] = headlessOrder) throws -> GLContext {
        var attempts: [(Backend, String)] = []
        // A GPU first, when the order would otherwise try a software platform before it.
        if backends.first == .eglSurfaceless && backends.contains(.eglDevice) {
            do { return try makeEGLDevice(hardwareOnly: true) } catch let e as BackendFailure {
                attempts.append((.eglDevice, "no GPU device (\(e.reason))"))
            }
        }
        for backend in backends {
            do {
                switch backend {
                case .eglSurfaceless: return try makeEGLSurfaceless()
                case .eglDevice: return try makeEGLDevice()
                case .glfwHiddenWindow: return try makeHiddenWindow()
                case .glfwWindow: throw BackendFailure(reason: "a visible window is not headless; use GLContext.window")
                }
            } catch let e as BackendFailure {
                attempts.append((backend, e.reason))
            }
        }
        throw GLContextError(attempts: attempts)
    }

    /// Makes this context current on the calling thread.
    public func makeCurrent() throws {
        if let window {
            glfwMakeContextCurrent(window)
        } else if epoxy_eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_FALSE) {
            throw GLError("eglMakeCurrent failed (\(Self.eglErrorName()))")
        }
    }

    deinit {
        if let window {
            glfwDestroyWindow(window)
        } else if let display {
            _ = epoxy_eglMakeCurrent(display, nil, nil, nil)
            if let context { _ = epoxy_eglDestroyContext(display, context) }
            if let surface { _ = epoxy_eglDestroySurface(display, surface) }
            // No eglTerminate: displays are shared per platform and other contexts may use this one.
        }
    }

    // MARK: - EGL

    private struct BackendFailure: Error { var reason: String }

    static func eglErrorName() -> String {
        let e = epoxy_eglGetError()
        switch e {
        case EGL_SUCCESS: return "EGL_SUCCESS"
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
        default: return "EGL error 0x" + String(e, radix: 16)
        }
    }

    /// Space-separated extension names; the client extensions when `display` is nil.
    static func eglExtensions(_ display: EGLDisplay?) -> Set<Substring> {
        guard let p = epoxy_eglQueryString(display, EGL_EXTENSIONS) else {
            _ = epoxy_eglGetError()   // EGL_BAD_DISPLAY without EGL_EXT_client_extensions
            return []
        }
        return Set(String(cString: p).split(separator: " "))
    }

    /// EGL itself may be missing entirely (no libEGL): epoxy would abort on the first call.
    static func eglAvailable() -> Bool {
        epoxy_has_egl()
    }

    private static func makeEGLSurfaceless() throws -> GLContext {
        guard eglAvailable() else { throw BackendFailure(reason: "libEGL is not available") }
        guard eglExtensions(nil).contains("EGL_MESA_platform_surfaceless") else {
            throw BackendFailure(reason: "the EGL client does not offer EGL_MESA_platform_surfaceless")
        }
        guard let display = epoxy_eglGetPlatformDisplayEXT(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
            throw BackendFailure(reason: "eglGetPlatformDisplayEXT failed (\(eglErrorName()))")
        }
        return try makeEGLContext(on: display, backend: .eglSurfaceless)
    }

    /// A context on the first EGL device that works; with `hardwareOnly`, skipping Mesa's software
    /// device (EGL_MESA_device_software) and any context whose renderer is a software rasteriser.
    private static func makeEGLDevice(hardwareOnly: Bool = false) throws -> GLContext {
        guard eglAvailable() else { throw BackendFailure(reason: "libEGL is not available") }
        let client = eglExtensions(nil)
        guard client.contains("EGL_EXT_platform_device") else {
            throw BackendFailure(reason: "the EGL client does not offer EGL_EXT_platform_device")
        }
        guard client.contains("EGL_EXT_device_enumeration") || client.contains("EGL_EXT_device_base") else {
            throw BackendFailure(reason: "the EGL client cannot enumerate devices (no EGL_EXT_device_enumeration)")
        }
        var count: EGLint = 0
        guard epoxy_eglQueryDevicesEXT(0, nil, &count) != EGLBoolean(EGL_FALSE), count > 0 else {
            throw BackendFailure(reason: "eglQueryDevicesEXT found no devices")
        }
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        _ = epoxy_eglQueryDevicesEXT(count, &devices, &count)
        var reasons: [String] = []
        let canQuery = client.contains("EGL_EXT_device_query") || client.contains("EGL_EXT_device_base")
        for (i, device) in devices.prefix(Int(count)).enumerated() {
            if hardwareOnly && canQuery, let p = epoxy_eglQueryDeviceStringEXT(device, EGL_EXTENSIONS),
               String(cString: p).split(separator: " ").contains("EGL_MESA_device_software") {
                reasons.append("device \(i): Mesa's software device")
                continue
            }
            guard let display = epoxy_eglGetPlatformDisplayEXT(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil) else {
                reasons.append("device \(i): eglGetPlatformDisplayEXT failed (\(eglErrorName()))")
                continue
            }
            do {
                let made = try makeEGLContext(on: display, backend: .eglDevice)
                if hardwareOnly && GPUTimer.isSoftwareRasteriser(made.renderer) {
                    reasons.append("device \(i): a software rasteriser (\(made.renderer))")
                    continue
                }
                return made
            } catch let e as BackendFailure {
                reasons.append("device \(i): \(e.reason)")
            }
        }
        throw BackendFailure(reason: reasons.joined(separator: ", "))
    }

    private static func makeEGLContext(on display: EGLDisplay, backend: Backend) throws -> GLContext {
        var major: EGLint = 0, minor: EGLint = 0
        guard epoxy_eglInitialize(display, &major, &minor) != EGLBoolean(EGL_FALSE) else {
            throw BackendFailure(reason: "eglInitialize failed (\(eglErrorName()))")
        }
        guard epoxy_eglBindAPI(EGLenum(EGL_OPENGL_API)) != EGLBoolean(EGL_FALSE) else {
            throw BackendFailure(reason: "this EGL has no desktop OpenGL (eglBindAPI failed)")
        }
        let extensions = eglExtensions(display)
        // Without a config or a surface when the display allows it; else a 1×1 pbuffer.
        var config: EGLConfig? = nil
        let configless = extensions.contains("EGL_KHR_no_config_context") || extensions.contains("EGL_MESA_configless_context")
        let surfaceless = extensions.contains("EGL_KHR_surfaceless_context")
        if !configless || !surfaceless {
            let wanted: [EGLint] = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE]
            var found: EGLint = 0
            guard epoxy_eglChooseConfig(display, wanted, &config, 1, &found) != EGLBoolean(EGL_FALSE), found > 0 else {
                throw BackendFailure(reason: "no EGL config for a desktop OpenGL pbuffer")
            }
        }
        let attributes: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
        ]
        guard let context = epoxy_eglCreateContext(display, config, nil, attributes) else {
            throw BackendFailure(reason: "eglCreateContext for OpenGL 3.3 core failed (\(eglErrorName()))")
        }
        var surface: EGLSurface? = nil
        if !surfaceless {
            let size: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
            surface = epoxy_eglCreatePbufferSurface(display, config, size)
            if surface == nil {
                _ = epoxy_eglDestroyContext(display, context)
                throw BackendFailure(reason: "eglCreatePbufferSurface failed (\(eglErrorName()))")
            }
        }
        guard epoxy_eglMakeCurrent(display, surface, surface, context) != EGLBoolean(EGL_FALSE) else {
            let reason = "eglMakeCurrent failed (\(eglErrorName()))"
            if let surface { _ = epoxy_eglDestroySurface(display, surface) }
            _ = epoxy_eglDestroyContext(display, context)
            throw BackendFailure(reason: reason)
        }
        let made = GLContext(backend: backend, display: display, context: context, surface: surface)
        try made.checkVersion()
        return made
    }

    /// Rejects contexts older than 3.3 (eglCreateContext may hand back a lower version).
    private func checkVersion() throws {
        let v = versionNumber
        guard v >= 33 else {
            throw BackendFailure(reason: "got OpenGL \(v / 10).\(v % 10) (\(version)); 3.3 core is needed")
        }
    }

    // MARK: - GLFW

    private static func glfwErrorText() -> String {
        var description: UnsafePointer<CChar>? = nil
        let code = glfwGetError(&description)
        guard code != GLFW_NO_ERROR, let description else { return "unknown GLFW error" }
        return String(cString: description)
    }

    /// `size` (screen coordinates), scaled down with its aspect kept to fit the primary monitor's
    /// work area if it is larger (a 1170×2532 scene opens a window the screen can show; the viewer
    /// letterboxes the scene in it). After glfwInit; `size` as it is when there is no monitor.
    public static func fittingScreen(_ size: SIMD2<Int>) -> SIMD2<Int> {
        guard let monitor = glfwGetPrimaryMonitor(), size.x > 0, size.y > 0 else { return size }
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h)
        guard w > 0, h > 0, size.x > Int(w) || size.y > Int(h) else { return size }
        let s = min(Double(w) / Double(size.x), Double(h) / Double(size.y))
        return SIMD2(max(1, Int((Double(size.x) * s).rounded(.down))), max(1, Int((Double(size.y) * s).rounded(.down))))
    }

    /// A visible, resizable window with a 3.3 core context (the viewer's). `size` in screen
    /// coordinates, fitted to the screen (`fittingScreen`); the framebuffer may be larger on HiDPI
    /// screens. Throws GLContextError.
    public static func window(size requested: SIMD2<Int>, title: String) throws -> GLContext {
        guard glfwInit() == GLFW_TRUE else {
            throw GLContextError(attempts: [(.glfwWindow, "glfwInit failed: \(glfwErrorText())")])
        }
        let size = fittingScreen(requested)
        glfwDefaultWindowHints()
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE)
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE)
        // WM_CLASS "welkin", "welkin": window managers group and match it, scripts find it by it.
        glfwWindowHintString(GLFW_X11_CLASS_NAME, "welkin")
        glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "welkin")
        guard let window = glfwCreateWindow(Int32(size.x), Int32(size.y), title, nil, nil) else {
            throw GLContextError(attempts: [(.glfwWindow, "glfwCreateWindow failed: \(glfwErrorText())")])
        }
        glfwDefaultWindowHints()
        glfwMakeContextCurrent(window)
        let made = GLContext(backend: .glfwWindow, window: window)
        do { try made.checkVersion() } catch let e as BackendFailure {
            throw GLContextError(attempts: [(.glfwWindow, e.reason)])
        }
        return made
    }

    /// The GLFW window of a window context.
    public var glfwWindow: OpaquePointer? { window }

    private static func makeHiddenWindow() throws -> GLContext {
        guard glfwInit() == GLFW_TRUE else {
            throw BackendFailure(reason: "glfwInit failed: \(glfwErrorText())")
        }
        glfwDefaultWindowHints()
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        guard let window = glfwCreateWindow(1, 1, "welkin", nil, nil) else {
            throw BackendFailure(reason: "glfwCreateWindow failed: \(glfwErrorText())")
        }
        glfwDefaultWindowHints()
        glfwMakeContextCurrent(window)
        let made = GLContext(backend: .glfwHiddenWindow, window: window)
        try made.checkVersion()
        return made
    }
}
