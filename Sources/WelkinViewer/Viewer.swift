// The viewer: a GLFW window that draws a scene live, with keys, hot reload, a console and a panel.
// This type owns the window, the renderer and the loop, and composes small parts with one job each:
//
// - Playback (the clock: time, pause, speed, frame steps, the sky clock and the keys' weather),
// - Reload (the candidate scene, what is broken, reloads to report; Viewer+Reload.swift),
// - Recording (the video and a pending window screenshot; Viewer+Recording.swift),
// - Stats (frame times and counts for the title and `stats`), Panel (Viewer+Panel.swift),
//   CameraLook (Viewer+Camera.swift);
// - the console's commands, one table (ConsoleCommands.swift); keys in Viewer+Keys.swift; drawing
//   and presenting in Viewer+Drawing.swift; GLFW's callbacks and the wake threads in Viewer+Window.swift.
//
// Drawing goes through the same GLRenderer as headless rendering, into its RGBA8 output target,
// which is blitted to the window unscaled: the window shows exactly the pixels `S` saves and
// `welkin render --size` writes. The picture keeps the scene's aspect and framing, scaled to fit
// the window and letterboxed (A fills the window instead, re-framing the scene); with the panel up
// it is fitted into the part of the window left of it, the window widened to make room if need be. The panel and the error overlay are drawn over the blit, never into the picture. A failed
// reload keeps the last good scene on screen; a scene with errors at start opens with them shown.
// Edits (console, panel, undo) change the scene's text (SceneEditor): a candidate the next frame draws.
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

    /// The options it was opened with; `scenePath` changes when `save PATH` gives the scene a new file.
    var options: Options
    /// The last good scene: what is drawn.
    var scene: Scene
    /// The scene's document text, its edits, undo and saving.
    var editor: SceneEditor
    /// Commands read from standard input (ConsoleCommands.swift).
    let console = ConsoleInput()
    let context: GLContext
    let window: OpaquePointer
    let renderer: GLRenderer
    let watcher: FileWatcher
    var wakeThread: Thread?
    /// Cleared when the viewer stops; the wake thread reads it (an atomic: two threads).
    let running = Flag(true)
    /// Set by SIGINT or SIGTERM (Ctrl-C where the console runs): quit as Q does, keeping unsaved edits.
    let interrupted = Flag(false)
    /// Set when tables an interactive frame asked for are built (TablesInBackground): draw again.
    let tablesArrived = Flag(false)
    var signalSources: [DispatchSourceSignal] = []

    /// The clock: time, pause, speed, the sky clock and weather changes (Playback.swift).
    var playback: Playback
    /// Hot reload: the candidate scene, what is broken, reloads to report (Viewer+Reload.swift).
    var reload = Reload()
    /// The video recording and a pending window screenshot (Viewer+Recording.swift).
    var recording = Recording()
    /// What the last frames cost (Stats.swift).
    var stats = Stats()
    /// The panel (Tab) and what it remembers (Viewer+Panel.swift).
    var panel = Panel()
    /// Looking around with the mouse (Viewer+Camera.swift).
    var look = CameraLook()
    var needsRedraw = true
    /// The last frame drew a picture that drawing it again improves (GLRenderer.isRefining): the
    /// next turn of the loop draws again, once the console's waiting commands have run.
    var refinesNext = false
    /// Console `passes`: the next frame is drawn with every draw timed (PassTiming) and printed.
    var timesNextFramesPasses = false
    /// The scene's framing in the window (A, `framing`): letterboxed at its own aspect, or filling it.
    var framing = Framing.fit
    /// The window's width before Tab widened it for the panel, and the width it was given then
    /// (hiding the panel gives the width back while the window is still that wide).
    var widenedForPanel: (before: Int32, after: Int32)?
    /// Keys pressed since the loop last looked (handled between frames, never in the middle of one).
    var pendingKeys: [(key: Int32, mods: Int32)] = []
    /// Shadertoy's iMouse and keyboard texture, from the window's pointer and keys.
    var shadertoyMouse = ShadertoyMouse()
    var shadertoyKeyboard = ShadertoyKeyboard()
    var windowedFrame: (x: Int32, y: Int32, width: Int32, height: Int32)?

    /// Opens the window. Throws GLContextError (no display), SceneError, ShaderError.
    public init(options: Options) throws {
        self.options = options
        var startupErrors: [SceneError] = []
        if let path = options.scenePath {
            // A file that cannot be read stops here; one with errors opens with them on screen,
            // an empty picture, and the file watched: the first good save draws.
            let bytes = try SceneLoader.readFile(path: path)
            do {
                scene = try SceneLoader.decode(bytes, path: path)
            } catch let error as SceneError {
                startupErrors = SceneLoader.validate(path: path)
                if startupErrors.isEmpty { startupErrors = [error] }
                scene = Scene()
                scene.name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            }
            // Text that is not JSON has no document to edit yet: the editor takes the file once it parses.
            editor = try (try? SceneEditor(path: path, bytes: bytes)) ?? SceneEditor(path: nil, bytes: Array("{}".utf8))
        } else {
            scene = Scene.defaultScene
            editor = try SceneEditor(path: nil, bytes: Array(Scene.defaultSceneJSON.utf8))
        }
        playback = Playback(time: options.startTime, paused: options.startPaused)
        let library = try ShaderLibrary.locate(override: options.shaderDirectory)
        context = try GLContext.window(size: scene.size, title: "\(scene.name) — Welkin")
        guard let window = context.glfwWindow else { throw GLError("the viewer's context has no window") }
        self.window = window
        renderer = try GLRenderer(context: context, shaders: library)
        // A frame where nothing moved (a still scene playing, a redraw for the panel or the
        // console): the last picture is shown again without drawing it.
        renderer.reusesUnchangedFrames = true
        renderer.runsBuffersLive = true
        watcher = try FileWatcher()
        try watcher.watch(watchedFiles())
        glfwSwapInterval(1)
        installCallbacks()
        if let path = options.scenePath, !startupErrors.isEmpty {
            reload.failures.set(path, startupErrors.map(\.description).joined(separator: "\n"))
            reload.awaitingFirstScene = true
        }
        TablesInBackground.shared.onBuilt = { [tablesArrived] in
            tablesArrived.set(true)
            glfwPostEmptyEvent()
        }
        renderer.whileRendering = { [unowned self] in
            glfwPollEvents()
            return glfwWindowShouldClose(self.window) == GLFW_FALSE && !self.interrupted.isSet
        }
    }

    deinit {
        running.set(false)
        glfwSetWindowUserPointer(window, nil)
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
            if playback.paused && !needsRedraw && !refinesNext && reload.awaitingFrame.isEmpty && pendingKeys.isEmpty && !console.hasPending
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
            handleCameraLook(pictureRect(framebufferSize()))
            handleConsoleCommands()
            if tablesArrived.isSet {
                tablesArrived.set(false)
                needsRedraw = true
            }
            if glfwWindowShouldClose(window) != GLFW_FALSE || interrupted.isSet { break }
            // A picture being refined draws again, after the console's commands had their turn
            // (a refining redraw is not a change a command made, which the next command waits for).
            if refinesNext { refinesNext = false; needsRedraw = true }
            if playback.advance(wallSeconds: now - last) { needsRedraw = true }
            last = now

            applyChanges(watcher.changes(now: now))

            fb = framebufferSize()
            if fb.x <= 0 || fb.y <= 0 {
                // Minimised or 0×0: nothing to draw into.
                if let path = recording.pendingWindowShot {
                    recording.pendingWindowShot = nil
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
            // A still picture being refined (the clouds' full march, a slice a frame): draw again.
            if renderer.isRefining { refinesNext = true }
            let drawn = ProcessInfo.processInfo.systemUptime
            stats.recordFrame(seconds: drawn - now)
            for line in reload.drawnLines(at: drawn) { print(line) }
            updateTitle(now: drawn)
        }
        // Gone from the screen now, whatever the process does next.
        glfwHideWindow(window)
        running.set(false)
        if recording.isRecording {
            // Quitting saves the recording as `record stop` does.
            do { try stopRecording() } catch { printError("record: \((error as? CommandError)?.message ?? "\(error)")") }
        }
        if panel.started { wp_save_settings() }
        keepUnsavedEdits()
        return 0
    }
}
