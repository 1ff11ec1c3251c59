// The viewer: a GLFW window that draws a scene live, with keys and hot reload.
//
// Drawing goes through the same GLRenderer as headless rendering, into its RGBA8 output target,
// which is blitted to the window unscaled: the window shows exactly the pixels `S` saves and
// `welkin render` writes. A scene or shader that fails to reload leaves the last good one on screen.

import CEpoxy
import CGLFW
import Foundation
import WelkinCore
import WelkinReference

public final class Viewer {
    public struct Options {
        /// The scene file; nil shows the built-in default scene.
        public var scenePath: String?
        /// `--shaders DIR`.
        public var shaderDirectory: String?
        public var startTime: Double = 0
        public var startPaused = false
        /// Quit by itself after this many seconds (automation and tests).
        public var exitAfter: Double?
        public init() {}
    }

    /// The keys, as `H` prints them.
    public static let keyHelp = """
    Keys:
      Esc, Q        quit
      Space         pause / resume
      ← / →         step time back / forward 1 s (with Shift: 10 s)
      R             reload the scene and every shader now
      S             save a screenshot PNG of the exact framebuffer (welkin-NAME-TIME.png)
      F             toggle fullscreen
      1 … 6         weather: clear, cloudy, overcast, rain, snow, storm (cross-fades)
      W             next weather
      T / Shift-T   sky clock forward / back 30 min
      H             print this list
    """

    let options: Options
    var scene: Scene
    /// Sky edits made with keys (T, 1–6, W), re-applied when the scene file reloads.
    var skyClockShift = 0.0
    var weatherChanges: [(preset: WeatherPreset, at: Double)] = []
    let context: GLContext
    let window: OpaquePointer
    let renderer: GLRenderer
    let watcher: FileWatcher
    var wakeThread: Thread?
    var running = true

    var time: Double
    var paused: Bool
    var frameNumber = 0
    var needsRedraw = true
    /// Files whose last reload failed, with the message; the title shows a mark while non-empty.
    var failures: [String: String] = [:]
    /// Reloads waiting for their first frame, to report save-to-screen time.
    var reloadedAwaitingFrame: [(path: String, since: TimeInterval)] = []
    /// Time spent compiling in the latest reload, reported with it.
    var lastCompileSeconds: TimeInterval?
    var windowedFrame: (x: Int32, y: Int32, width: Int32, height: Int32)?
    var lastTitleUpdate: TimeInterval = 0
    var frameTimes: [Double] = []

    /// Opens the window. Throws GLContextError (no display), SceneError, ShaderError.
    public init(options: Options) throws {
        self.options = options
        if let path = options.scenePath {
            scene = try SceneLoader.load(path: path)
        } else {
            scene = Scene.defaultScene
        }
        time = options.startTime
        paused = options.startPaused
        let library = try ShaderLibrary.locate(override: options.shaderDirectory)
        context = try GLContext.window(size: scene.size, title: "\(scene.name) — Welkin")
        guard let window = context.glfwWindow else { throw GLError("the viewer's context has no window") }
        self.window = window
        renderer = try GLRenderer(context: context, shaders: library)
        watcher = try FileWatcher()
        try watcher.watch(watchedFiles())
        glfwSwapInterval(1)
        installCallbacks()
    }

    deinit {
        running = false
        glfwSetWindowUserPointer(window, nil)
    }

    /// Every file whose edit should reload something.
    func watchedFiles() -> [String] {
        var files = renderer.shaderFiles(for: scene)
        if let path = options.scenePath { files.append(path) }
        return files
    }

    /// Runs until the window closes. Returns the exit status.
    public func run() -> Int32 {
        startWakeThread()
        var fb = framebufferSize()
        print("viewing \(scene.name): \(scene.size.x)×\(scene.size.y) points, framebuffer \(fb.x)×\(fb.y), \(context.renderer); press H for keys")
        let started = ProcessInfo.processInfo.systemUptime
        var last = started
        while glfwWindowShouldClose(window) == GLFW_FALSE {
            // Idle when paused and nothing changes: wait for input or a file event (the wake thread).
            if paused && !needsRedraw && reloadedAwaitingFrame.isEmpty {
                if let due = watcher.timeUntilDue() { glfwWaitEventsTimeout(max(0.001, due)) } else { glfwWaitEventsTimeout(1) }
            } else {
                glfwPollEvents()
            }
            let now = ProcessInfo.processInfo.systemUptime
            if !paused { time += now - last; needsRedraw = true }
            last = now
            if let limit = options.exitAfter, now - started >= limit { break }

            applyChanges(watcher.changes(now: now))

            fb = framebufferSize()
            if fb.x <= 0 || fb.y <= 0 {
                // Minimised or 0×0: nothing to draw into.
                glfwWaitEventsTimeout(0.1)
                continue
            }
            guard needsRedraw else { continue }
            drawFrame(fb)
            needsRedraw = false
            let drawn = ProcessInfo.processInfo.systemUptime
            for reload in reloadedAwaitingFrame {
                var line = "reloaded \(reload.path) in \(Int(((drawn - reload.since) * 1000).rounded())) ms"
                if let compile = lastCompileSeconds { line += " (compiling \(Int((compile * 1000).rounded())) ms)" }
                print(line)
            }
            lastCompileSeconds = nil
            reloadedAwaitingFrame.removeAll()
            frameTimes.append(drawn - now)
            if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
            updateTitle(now: drawn)
        }
        running = false
        return 0
    }

    func framebufferSize() -> SIMD2<Int> {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetFramebufferSize(window, &w, &h)
        return SIMD2(Int(w), Int(h))
    }

    func contentScale() -> SIMD2<Double> {
        var x: Float = 1, y: Float = 1
        glfwGetWindowContentScale(window, &x, &y)
        return SIMD2(Double(x > 0 ? x : 1), Double(y > 0 ? y : 1))
    }

    func drawFrame(_ fb: SIMD2<Int>) {
        var frame = Frame(scene: scene, time: time, pixelSize: fb, scale: contentScale())
        frame.frameNumber = frameNumber
        var cx = 0.0, cy = 0.0
        glfwGetCursorPos(window, &cx, &cy)
        let scale = contentScale()
        frame.mouse = SIMD2(Float(cx * scale.x), Float(Double(fb.y) - cy * scale.y))
        do {
            try renderer.draw(frame)
            failures["draw"] = nil
        } catch {
            // Keep showing the last good picture; say why once (naming the scene file when a
            // value of the scene is at fault).
            let message = error is ShaderLayerError ? "\(scene.sourcePath ?? "<default scene>"): \(error)" : "\(error)"
            if failures["draw"] != message { printError(message) }
            failures["draw"] = message
        }
        frameNumber += 1
        try? context.makeCurrent()
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), renderer.outputFramebuffer)
        epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), 0)
        epoxy_glViewport(0, 0, GLsizei(fb.x), GLsizei(fb.y))
        if renderer.outputFramebuffer == 0 {
            epoxy_glClearColor(0, 0, 0, 1)
            epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        } else {
            epoxy_glBlitFramebuffer(0, 0, GLint(fb.x), GLint(fb.y), 0, 0, GLint(fb.x), GLint(fb.y),
                                    GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        }
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glfwSwapBuffers(window)
    }

    func updateTitle(now: TimeInterval) {
        guard now - lastTitleUpdate > 0.25 || paused || frameTimes.count < 2 else { return }
        lastTitleUpdate = now
        let average = frameTimes.isEmpty ? 0 : frameTimes.reduce(0, +) / Double(frameTimes.count)
        var title = "\(scene.name) — t \(String(format: "%.1f", time)) s"
        if paused {
            title += " — paused"
        } else {
            title += " — \(String(format: "%.0f", average > 0 ? 1 / average : 0)) fps, \(String(format: "%.1f", average * 1000)) ms"
        }
        if !failures.isEmpty { title += " — ⚠ error (see terminal)" }
        glfwSetWindowTitle(window, title)
    }

    // MARK: - Reload

    /// Reloads what the changed files feed; on failure keeps the last good scene or programs.
    func applyChanges(_ changes: [FileWatcher.Change], force: Bool = false) {
        guard !changes.isEmpty || force else { return }
        let sceneFile = options.scenePath.map(FileWatcher.absolute)
        let sceneChanged = force || changes.contains { $0.path == sceneFile }
        let shaderChanged = force || changes.contains { $0.path != sceneFile }
        let since = changes.map(\.firstEvent).min() ?? ProcessInfo.processInfo.systemUptime
        if sceneChanged, let path = options.scenePath {
            do {
                scene = try SceneLoader.load(path: path)
                scene.shiftSkyClock(by: skyClockShift)
                for change in weatherChanges { scene.changeWeather(to: change.preset, at: change.at) }
                failures[path] = nil
                reloadedAwaitingFrame.append((path, since))
            } catch {
                printError("\(error)")
                failures[path] = "\(error)"
            }
        }
        if shaderChanged {
            let names = changes.filter { $0.path != sceneFile }.map(\.path)
            let compileStart = ProcessInfo.processInfo.systemUptime
            defer { lastCompileSeconds = ProcessInfo.processInfo.systemUptime - compileStart }
            do {
                try renderer.reloadShaders(changedFiles: force ? nil : Set(names))
                failures["shaders"] = nil
                for name in names { reloadedAwaitingFrame.append((name, since)) }
                if force && names.isEmpty { reloadedAwaitingFrame.append(("shaders", since)) }
            } catch {
                printError("\(error)")
                failures["shaders"] = "\(error)"
            }
        }
        do { try watcher.watch(watchedFiles()) } catch { printError("\(error)") }
        needsRedraw = true
    }

    /// Wakes the event loop when the watcher has events, so a paused viewer sleeps until then.
    func startWakeThread() {
        let fd = watcher.fileDescriptor
        let thread = Thread { [weak self] in
            while self?.running ?? false {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 200) > 0 && p.revents & Int16(POLLIN) != 0 {
                    glfwPostEmptyEvent()
                    usleep(20_000)  // let the main loop drain the events before looking again
                }
            }
        }
        thread.start()
        wakeThread = thread
    }

    // MARK: - Input

    func installCallbacks() {
        glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
        glfwSetKeyCallback(window) { window, key, _, action, mods in
            guard action == GLFW_PRESS || action == GLFW_REPEAT, let window,
                  let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().key(key, shift: mods & GLFW_MOD_SHIFT != 0)
        }
        glfwSetFramebufferSizeCallback(window) { window, _, _ in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
        glfwSetWindowRefreshCallback(window) { window in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
    }

    func key(_ key: Int32, shift: Bool) {
        switch key {
        case GLFW_KEY_ESCAPE, GLFW_KEY_Q:
            glfwSetWindowShouldClose(window, GLFW_TRUE)
        case GLFW_KEY_SPACE:
            paused.toggle()
            print(paused ? "paused at t = \(String(format: "%.2f", time)) s" : "resumed")
        case GLFW_KEY_LEFT, GLFW_KEY_RIGHT:
            time += (key == GLFW_KEY_LEFT ? -1 : 1) * (shift ? 10 : 1)
        case GLFW_KEY_R:
            applyChanges([], force: true)
        case GLFW_KEY_S:
            saveScreenshot()
        case GLFW_KEY_F:
            toggleFullscreen()
        case GLFW_KEY_H:
            print(Self.keyHelp)
        case GLFW_KEY_1...GLFW_KEY_6:
            changeWeather(to: WeatherPreset.allCases[Int(key - GLFW_KEY_1)])
        case GLFW_KEY_W:
            let all = WeatherPreset.allCases
            changeWeather(to: all[(all.firstIndex(of: scene.weatherPreset(at: time))! + 1) % all.count])
        case GLFW_KEY_T:
            skyClockShift += shift ? -1800 : 1800
            scene.shiftSkyClock(by: shift ? -1800 : 1800)
            print("sky clock \(skyClockShift >= 0 ? "+" : "−")\(String(format: "%.1f", abs(skyClockShift) / 3600)) h")
        default:
            return
        }
        needsRedraw = true
        lastTitleUpdate = 0
    }

    func saveScreenshot() {
        let image = renderer.readImage()
        guard image.width > 0 else { return }
        let safeName = scene.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let path = "welkin-\(String(safeName))-\(String(format: "%.2f", time))s.png"
        do {
            try PNG.write(image, to: path)
            print("saved \(path) (\(image.width)×\(image.height))")
        } catch {
            printError("\(error)")
        }
    }

    func toggleFullscreen() {
        if let saved = windowedFrame {
            glfwSetWindowMonitor(window, nil, saved.x, saved.y, saved.width, saved.height, 0)
            windowedFrame = nil
        } else if let monitor = glfwGetPrimaryMonitor(), let mode = glfwGetVideoMode(monitor) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            glfwGetWindowPos(window, &x, &y)
            glfwGetWindowSize(window, &w, &h)
            windowedFrame = (x, y, w, h)
            glfwSetWindowMonitor(window, monitor, 0, 0, mode.pointee.width, mode.pointee.height, mode.pointee.refreshRate)
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

extension Viewer {
    /// Cross-fades to `preset` from now (keys 1–6 and W).
    func changeWeather(to preset: WeatherPreset) {
        weatherChanges.append((preset, time))
        scene.changeWeather(to: preset, at: time)
        print("weather: \(preset.rawValue)")
    }
}
