// The viewer: a GLFW window that draws a scene live, with keys, hot reload, a console and a panel.
//
// Drawing goes through the same GLRenderer as headless rendering, into its RGBA8 output target,
// which is blitted to the window unscaled: the window shows exactly the pixels `S` saves and
// `welkin render` writes; the panel and the error overlay are drawn over the blit, never into the
// picture (Viewer+Panel.swift). A scene or shader that fails to reload leaves the last good one on
// screen, a layer that cannot be drawn leaves every other layer drawn (Viewer+Reload.swift).
//
// Edits — console commands (Viewer+Console.swift), panel widgets, undo — change the scene's text
// (SceneEditor) and become a candidate scene that the next frame draws; keys and the clock are in
// Viewer+Keys.swift.
//
// Quitting is prompt even when a frame takes a second on a software rasteriser: the renderer polls
// the window while it waits for the GPU (GLRenderer.whileRendering), a quit abandons the frame,
// and the caller exits without tearing GL down (see `run()`).

@preconcurrency import CEpoxy
import CGLFW
import Foundation
import Synchronization
import WelkinCore
import WelkinGL
import WelkinImage
import WelkinPanelShim

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
      , / .         step one frame back / forward (1/60 s)
      Home          back to t = 0
      [ / ]         playback speed down / up (0.1× … 2×)
      R             reload the scene and every shader now
      Shift-R       start / stop recording the window as NAME-rec-N.mp4 beside the scene (needs ffmpeg)
      S             save a screenshot PNG of the exact framebuffer (welkin-NAME-TIME.png)
      Ctrl-S        save the edited scene to its file
      Ctrl-Z        undo an edit (Ctrl-Shift-Z: redo)
      Tab           show / hide the panel
      F             toggle fullscreen
      1 … 6         weather: clear, cloudy, overcast, rain, snow, storm (cross-fades)
      W             next weather
      T / Shift-T   sky clock forward / back 30 min
      C             next camera projection: panorama, rectilinear, fisheye
      drag, scroll  look around (the sky camera's yaw and pitch), zoom (its field of view)
      H             print this list (the console's commands too)
    """

    /// What may replace the drawn scene once it has drawn a frame (Viewer+Reload.swift).
    struct Candidate {
        var scene: Scene
        var since: TimeInterval
        /// False for a reload nobody asked about (a sprite image changed size) and for edits.
        var announce: Bool
        /// An edit waiting for its scene to draw: its answer is printed then, or it is taken back.
        var edit: Edit?

        struct Edit {
            var command: String
            /// Printed when the edit's scene has drawn; nil for a panel drag (said on release).
            var answer: String?
        }
    }

    let options: Options
    /// The last good scene: what is drawn.
    var scene: Scene
    /// A scene that loaded after an edit but has not drawn yet: its first frame decides whether it
    /// replaces `scene` (Viewer+Reload.swift).
    var candidate: Candidate?
    /// The scene's document text, its edits, undo and saving.
    var editor: SceneEditor
    /// Commands read from standard input.
    let console = ConsoleInput()
    /// Sky edits made with keys (T, 1–6, W), re-applied when the scene file reloads.
    var skyClockShift = 0.0
    var weatherChanges: [(preset: WeatherPreset, at: Double)] = []
    let context: GLContext
    let window: OpaquePointer
    let renderer: GLRenderer
    let watcher: FileWatcher
    var wakeThread: Thread?
    /// Cleared when the viewer stops; the wake thread reads it (an atomic: two threads).
    let running = Flag(true)
    /// Set by SIGINT or SIGTERM (Ctrl-C where the console runs): quit as Q does, keeping unsaved edits.
    let interrupted = Flag(false)
    var signalSources: [DispatchSourceSignal] = []

    var time: Double
    var paused: Bool
    /// Scene seconds per second of wall time (`speed`, `[` and `]`).
    var speed = 1.0
    /// The panel (Tab) and what it remembers.
    var panel = PanelState()
    /// Looking around with the mouse (Viewer+Camera.swift).
    var look = CameraLook()
    /// The last frame drawn: particles and draw passes, and how long it took.
    var lastStats = (particles: 0, draws: 0)
    var lastFrameSeconds = 0.0
    /// `screenshot --window FILE`: the window's pixels (panel and overlay too) at the next present.
    var pendingWindowShot: String?
    /// The recording running (Shift-R, `record`), if any (Viewer+Recording.swift).
    var recorder: Recorder?
    var frameNumber = 0
    var needsRedraw = true
    /// Keys pressed since the loop last looked (handled between frames, never in the middle of one).
    var pendingKeys: [(key: Int32, mods: Int32)] = []
    /// What is broken now; the title shows a mark while any is.
    var failures = Failures()
    /// Reloads waiting for their first frame, to report save-to-screen time.
    var reloadedAwaitingFrame: [(path: String, since: TimeInterval)] = []
    /// Time spent compiling in the latest reload, reported with it.
    var lastCompileSeconds: TimeInterval?
    var windowedFrame: (x: Int32, y: Int32, width: Int32, height: Int32)?
    var lastTitleUpdate: TimeInterval = 0
    var titleShowsFailure = false
    var frameTimes: [Double] = []

    /// Opens the window. Throws GLContextError (no display), SceneError, ShaderError.
    public init(options: Options) throws {
        self.options = options
        if let path = options.scenePath {
            scene = try SceneLoader.load(path: path)
            editor = try SceneEditor(path: path, bytes: try SceneLoader.readFile(path: path))
        } else {
            scene = Scene.defaultScene
            editor = try SceneEditor(path: nil, bytes: Array(Scene.defaultSceneJSON.utf8))
        }
        time = max(0, options.startTime)
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
        renderer.whileRendering = { [unowned self] in
            glfwPollEvents()
            return glfwWindowShouldClose(self.window) == GLFW_FALSE && !self.interrupted.isSet
        }
    }

    deinit {
        running.set(false)
        glfwSetWindowUserPointer(window, nil)
    }

    /// Every file whose edit should reload something: the scene, its shaders (includes too) and
    /// its sprite images.
    func watchedFiles() -> [String] {
        var files = renderer.files(for: scene)
        if let path = options.scenePath { files.append(path) }
        return files
    }

    /// Runs until the window closes, then hides it. Returns the exit status.
    ///
    /// The caller should exit without releasing the viewer: destroying the GL context waits for
    /// any frame the quit abandoned to finish rendering (up to a whole frame: 0.5 s and more for a
    /// user shader over 2560×1600 on llvmpipe), and the process's exit frees it all anyway.
    public func run() -> Int32 {
        startWakeThread()
        console.start()
        catchInterrupts()
        var fb = framebufferSize()
        print("viewing \(scene.name): \(scene.size.x)×\(scene.size.y) points, framebuffer \(fb.x)×\(fb.y), \(context.renderer); press H for keys")
        let started = ProcessInfo.processInfo.systemUptime
        var last = started
        while true {
            // Idle when paused and nothing changes: wait for input, a file event (the wake thread)
            // or the --exit-after deadline.
            if paused && !needsRedraw && reloadedAwaitingFrame.isEmpty && pendingKeys.isEmpty && !console.hasPending
                && panel.framesToPresent == 0 {
                var timeout = watcher.timeUntilDue() ?? 1
                if let limit = options.exitAfter { timeout = min(timeout, started + limit - ProcessInfo.processInfo.systemUptime) }
                glfwWaitEventsTimeout(max(0.001, timeout))
            } else {
                glfwPollEvents()
            }
            // Checked before anything else: a quit never waits for one more frame.
            if glfwWindowShouldClose(window) != GLFW_FALSE || interrupted.isSet { break }
            let now = ProcessInfo.processInfo.systemUptime
            if let limit = options.exitAfter, now - started >= limit { break }
            handlePendingKeys()
            handleCameraLook(framebufferSize())
            handleConsoleCommands()
            if glfwWindowShouldClose(window) != GLFW_FALSE || interrupted.isSet { break }
            if !paused { time += (now - last) * speed; needsRedraw = true }
            last = now

            applyChanges(watcher.changes(now: now))

            fb = framebufferSize()
            if fb.x <= 0 || fb.y <= 0 {
                // Minimised or 0×0: nothing to draw into.
                if let path = pendingWindowShot {
                    pendingWindowShot = nil
                    printError("screenshot: the window is minimised; nothing to save in \(path)")
                }
                glfwWaitEventsTimeout(0.1)
                continue
            }
            guard needsRedraw else {
                // The scene is unchanged, but the panel or the overlay must answer input.
                if panel.framesToPresent > 0 {
                    panel.framesToPresent -= 1
                    guard present(fb) else { break }
                }
                continue
            }
            needsRedraw = false
            guard drawFrame(fb) else { break }   // abandoned: the window is closing
            let drawn = ProcessInfo.processInfo.systemUptime
            lastFrameSeconds = drawn - now
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
        // Gone from the screen now, whatever the process does next.
        glfwHideWindow(window)
        running.set(false)
        if recorder != nil {
            // Quitting saves the recording as `record stop` does.
            do { try stopRecording() } catch { printError("record: \((error as? CommandError)?.message ?? "\(error)")") }
        }
        if panel.started { wp_save_settings() }
        keepUnsavedEdits()
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

    func makeFrame(_ scene: Scene, _ fb: SIMD2<Int>) -> Frame {
        var shown = scene
        for i in panel.hiddenLayers where i < shown.layers.count { shown.layers[i].opacity = 0; shown.layers[i].opacityAnimation = nil }
        var frame = Frame(scene: shown, time: time, pixelSize: fb, scale: contentScale())
        frame.frameNumber = frameNumber
        // The window is an sRGB surface: a Display P3 scene is shown as its sRGB picture (the same
        // colours, clipped per channel in linear light where P3 reaches outside sRGB; docs/export.md).
        frame.outputColorSpace = .srgb
        var cx = 0.0, cy = 0.0
        glfwGetCursorPos(window, &cx, &cy)
        let scale = contentScale()
        frame.mouse = SIMD2(Float(cx * scale.x), Float(Double(fb.y) - cy * scale.y))
        return frame
    }

    /// Draws a frame of the candidate scene if there is one (deciding its fate), else of `scene`,
    /// and shows it. Returns false when the frame was abandoned because the window is closing.
    func drawFrame(_ fb: SIMD2<Int>) -> Bool {
        if let candidate {
            guard let outcome = draw(candidate.scene, fb) else { return false }
            if !settleCandidate(outcome) {
                // Refused: the last good scene is drawn instead, so the failed one never shows.
                guard let outcome = draw(scene, fb) else { return false }
                report(outcome)
            }
        } else {
            guard let outcome = draw(scene, fb) else { return false }
            report(outcome)
        }
        frameNumber += 1
        return present(fb)
    }

    /// Shows the renderer's output in the window, with the panel and the error overlay over it.
    /// Returns false when the frame was abandoned because the window is closing.
    func present(_ fb: SIMD2<Int>) -> Bool {
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
        if drawsImGui { drawImGui(fb) }
        // The blit of a 2560×1600 frame takes 30–50 ms on llvmpipe: a quit need not wait for it.
        do { try renderer.finishWhileRendering() } catch { return false }
        if let path = pendingWindowShot {
            pendingWindowShot = nil
            saveWindowShot(to: path, fb)
        }
        recordFrame(fb)
        glfwSwapBuffers(window)
        return true
    }

    /// What drawing one frame came to.
    struct DrawOutcome {
        /// The layers left out (the frame was drawn without them).
        var layerFailures: [GLRenderer.LayerFailure] = []
        /// Nothing could be drawn (the window keeps the last picture).
        var frameError: Error?
    }

    /// Draws a frame of `scene` into the renderer's output; nil when the frame was abandoned.
    func draw(_ scene: Scene, _ fb: SIMD2<Int>) -> DrawOutcome? {
        do {
            let frame = makeFrame(scene, fb)
            lastStats = frame.stats
            try renderer.draw(frame)
            return DrawOutcome()
        } catch is GLRenderer.FrameAbandoned {
            return nil
        } catch {
            if renderer.layerFailures.isEmpty { return DrawOutcome(frameError: error) }
            return DrawOutcome(layerFailures: renderer.layerFailures)
        }
    }

    /// The GPU time of the latest frame whose timer query has come back (GLRenderer's GPUTimer,
    /// read without waiting); nil where the context cannot time frames (llvmpipe).
    var gpuFrameMilliseconds: Double? { renderer.gpuTimer.frameMilliseconds }

    func updateTitle(now: TimeInterval) {
        // The fps figure at most four times a second; the ⚠ mark as soon as it changes.
        guard now - lastTitleUpdate > 0.25 || recorder != nil && now - lastTitleUpdate > 1 || paused || frameTimes.count < 2 || titleShowsFailure != !failures.isEmpty else { return }
        lastTitleUpdate = now
        let average = frameTimes.isEmpty ? 0 : frameTimes.reduce(0, +) / Double(frameTimes.count)
        var title = "\(scene.name)\(editor.isDirty ? " •" : "") — t \(String(format: "%.1f", time)) s"
        if paused {
            title += " — paused"
        } else {
            title += " — \(String(format: "%.0f", average > 0 ? 1 / average : 0)) fps, \(String(format: "%.1f", average * 1000)) ms"
            if let gpu = gpuFrameMilliseconds { title += " (GPU \(String(format: "%.1f", gpu)) ms)" }
            if speed != 1 { title += " — \(Self.speedText(speed))" }
        }
        if let recording = recordingTitle { title += " — \(recording)" }
        if !failures.isEmpty { title += " — ⚠ error (see terminal)" }
        glfwSetWindowTitle(window, title)
        titleShowsFailure = !failures.isEmpty
    }

    // MARK: - Waking

    /// SIGINT and SIGTERM end the loop as a quit does (so unsaved edits are kept), from a dispatch
    /// queue: the flag is atomic, and glfwPostEmptyEvent may be called from any thread.
    func catchInterrupts() {
        let interrupted = self.interrupted
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                interrupted.set(true)
                glfwPostEmptyEvent()
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Wakes the event loop when the watcher has events, so a paused viewer sleeps until then.
    func startWakeThread() {
        let fd = watcher.fileDescriptor
        let running = self.running
        let thread = Thread {
            while running.isSet {
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
            let viewer = Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue()
            // The panel has the keyboard (a value typed into a field): the viewer's keys wait.
            if viewer.panel.visible && viewer.panel.started {
                viewer.needsPresent()
                if wp_want_keyboard() { return }
            }
            // Events are also polled while a frame renders: a quit takes effect at once, other keys
            // wait for the frame to finish (they change what the frame is drawing).
            if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q) && mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT) == 0 {
                glfwSetWindowShouldClose(window, GLFW_TRUE)
            } else {
                viewer.pendingKeys.append((key, mods))
            }
        }
        glfwSetFramebufferSizeCallback(window) { window, _, _ in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
        glfwSetWindowRefreshCallback(window) { window in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
        // Mouse and text input: a paused viewer redraws only on change, so the panel asks to be
        // presented again while it is up. (Installed before ImGui's, which chain to them.)
        glfwSetCursorPosCallback(window) { window, _, _ in Viewer.inputArrived(window) }
        glfwSetMouseButtonCallback(window) { window, _, _, _ in Viewer.inputArrived(window) }
        glfwSetScrollCallback(window) { window, _, y in
            Viewer.inputArrived(window)
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().look.pendingScroll += y
        }
        glfwSetCharCallback(window) { window, _ in Viewer.inputArrived(window) }
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

/// A flag one thread sets and another reads.
final class Flag: Sendable {
    private let value: Atomic<Bool>

    init(_ value: Bool) { self.value = Atomic(value) }

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
}
