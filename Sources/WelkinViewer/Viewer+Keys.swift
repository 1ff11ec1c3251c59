// The viewer's keys, and what they share with the console: the clock (Playback), weather, the sky
// clock, screenshots.
//
// Keys arrive in GLFW's callback (possibly while a frame renders) and are handled between frames.
// Console commands that do the same thing call the same functions, so they answer the same way.

@preconcurrency import CEpoxy
import CGLFW
import Foundation
import WelkinCore
import WelkinImage

extension Viewer {
    /// The keys, as `H` prints them.
    public static let keyHelp = """
    Keys:
      Esc, Q        quit
      Space         pause / resume
      ← / →         step time back / forward 1 s (with Shift: 10 s)
      , / .         step one frame back / forward (1/60 s)
      Home          back to t = 0 (shader buffers start again from frame 0)
      [ / ]         playback speed down / up (0.1× … 2×)
      R             reload the scene and every shader now
      Shift-R       start / stop recording the window as NAME-rec-N.mp4 beside the scene (needs ffmpeg)
      S             save a screenshot PNG of the picture at final quality (welkin-NAME-TIME.png)
      Ctrl-S        save the edited scene to its file
      Ctrl-Z        undo an edit (Ctrl-Shift-Z: redo)
      Tab           show / hide the panel
      F             toggle fullscreen
      A             framing: the scene's own, letterboxed (fit) / re-framed to fill the window (fill)
      1 … 7         weather: clear, cloudy, overcast, rain, snow, storm, fog (cross-fades)
      W             next weather
      T / Shift-T   sky clock forward / back 30 min
      C             next camera projection: panorama, rectilinear, fisheye
      drag, scroll  look around (the sky camera's yaw and pitch), zoom (its field of view)
      H             print this list (the console's commands too)
    """

    /// A and `framing`: how the scene takes the window (Framing).
    func setFraming(_ new: Framing) {
        framing = new
        print(new == .fit ? "framing fit: the scene's own framing, scaled to fit the window (A fills it)"
                          : "framing fill: the scene re-framed to fill the window (A fits it again)")
        needsRedraw = true
        needsPresent()
    }

    func handlePendingKeys() {
        let keys = pendingKeys
        pendingKeys.removeAll()
        for (key, mods) in keys { self.key(key, mods: mods) }
    }

    func key(_ key: Int32, mods: Int32) {
        let shift = mods & GLFW_MOD_SHIFT != 0
        if mods & GLFW_MOD_CONTROL != 0 {
            controlKey(key, shift: shift)
            return
        }
        switch key {
        case GLFW_KEY_SPACE:
            togglePause()
        case GLFW_KEY_LEFT, GLFW_KEY_RIGHT:
            setTime(playback.time + (key == GLFW_KEY_LEFT ? -1 : 1) * (shift ? 10 : 1))
            print("t = \(Playback.format(playback.time)) s")
        case GLFW_KEY_COMMA, GLFW_KEY_PERIOD:
            // A frame step pauses: stepping is for looking at one frame.
            playback.paused = true
            setTime(playback.time + (key == GLFW_KEY_COMMA ? -1 : 1) * Playback.frameStep)
            print("t = \(Playback.format(playback.time)) s (paused)")
        case GLFW_KEY_HOME:
            restart()
            print("t = 0.00 s")
        case GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET:
            setSpeed(playback.steppedSpeed(up: key == GLFW_KEY_RIGHT_BRACKET))
        case GLFW_KEY_R:
            if shift { toggleRecording() } else { reloadEverything() }
        case GLFW_KEY_S:
            saveScreenshot()
        case GLFW_KEY_F:
            toggleFullscreen()
        case GLFW_KEY_A:
            setFraming(framing == .fit ? .fill : .fit)
        case GLFW_KEY_TAB:
            togglePanel()
        case GLFW_KEY_H:
            print(Self.keyHelp)
            print(Self.consoleHelp)
        case GLFW_KEY_1...GLFW_KEY_7:
            changeWeather(to: WeatherPreset.allCases[Int(key - GLFW_KEY_1)])
        case GLFW_KEY_W:
            let all = WeatherPreset.allCases
            changeWeather(to: all[(all.firstIndex(of: scene.weatherPreset(at: playback.time))! + 1) % all.count])
        case GLFW_KEY_T:
            shiftSkyClock(by: shift ? -1800 : 1800)
        case GLFW_KEY_C:
            cycleProjection()
        default:
            return
        }
        needsRedraw = true
        refreshTitle()
    }

    /// Ctrl-S saves, Ctrl-Z undoes, Ctrl-Shift-Z (and Ctrl-Y) redoes: answered as the console does.
    func controlKey(_ key: Int32, shift: Bool) {
        let command: String
        switch key {
        case GLFW_KEY_S: command = "save"
        case GLFW_KEY_Z: command = shift ? "redo" : "undo"
        case GLFW_KEY_Y: command = "redo"
        case GLFW_KEY_Q: glfwSetWindowShouldClose(window, GLFW_TRUE); return
        default: return
        }
        runCommand(command)
    }

    // MARK: - Clock

    /// Moves the clock to `t`, kept in 0…maximumTime.
    func setTime(_ t: Double) {
        playback.setTime(t)
        needsRedraw = true
        refreshTitle()
    }

    /// Back to t = 0, shader buffers from frame 0 too (Home, the panel's |<).
    func restart() {
        setTime(0)
        renderer.resetShaderBuffers()
    }

    func togglePause() {
        playback.paused.toggle()
        print(playback.paused ? "paused at t = \(Playback.format(playback.time)) s" : "resumed")
        needsRedraw = true
        refreshTitle()
    }

    func setSpeed(_ s: Double) {
        playback.setSpeed(s)
        print("speed \(Playback.speedText(playback.speed))")
        refreshTitle()
    }

    // MARK: - Sky and weather

    /// Cross-fades to `preset` from now (keys 1–6 and W, `weather`). While paused the change is
    /// placed one transition earlier, so the paused picture shows the new weather at once.
    func changeWeather(to preset: WeatherPreset) {
        let transition = scene.weather?.transition ?? Weather().transition
        let at = playback.changeWeather(to: preset, transition: transition)
        scene.changeWeather(to: preset, at: at)
        reload.candidate?.scene.changeWeather(to: preset, at: at)
        var answer = "weather: \(preset.rawValue)"
        if !scene.hasWeatherLayers {
            answer += preset.precipitates
                ? " (this scene has no sky or cloud layer: only its rain or snow shows)"
                : " (nothing shows it: this scene has no sky or cloud layer)"
        } else if playback.paused && transition > 0 {
            answer += " (shown at once while paused)"
        }
        print(answer)
        needsRedraw = true
    }

    /// T and Shift-T: the sky's clock, or why it changes nothing.
    func shiftSkyClock(by seconds: Double) {
        let suns = scene.layers.compactMap { layer -> SunSource? in
            if case .sky(let s)? = layer.content as? SkyContent { return s.sun }
            return nil
        }
        guard !suns.isEmpty else {
            print("sky clock: this scene has no sky layer, so there is no clock to turn")
            return
        }
        guard suns.contains(where: { if case .computed = $0 { return true } else { return false } }) else {
            print("sky clock: the sky's sun is fixed (sunElevation), so the clock changes nothing; give the sky a date, latitude and longitude to move it")
            return
        }
        playback.shiftSkyClock(by: seconds)
        scene.shiftSkyClock(by: seconds)
        reload.candidate?.scene.shiftSkyClock(by: seconds)
        print(playback.skyClockText)
        needsRedraw = true
    }

    // MARK: - Screenshots

    /// S: the exact picture as welkin-NAME-TIME.png in the current folder.
    func saveScreenshot() {
        let safeName = scene.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        do {
            try saveScreenshot(to: "welkin-\(String(safeName))-\(Playback.format(playback.time))s.png")
        } catch {
            printError("\(error)")
        }
    }

    /// The window's pixels as they are about to be shown (the panel and the overlay too).
    func saveWindowShot(to path: String, _ fb: SIMD2<Int>) {
        let pixels = readWindow(fb)
        // GL's rows run bottom up; the window's alpha means nothing.
        var image = Image(width: fb.x, height: fb.y, pixels: [UInt8](repeating: 0, count: pixels.count))
        let row = fb.x * 4
        image.pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<fb.y {
                for i in 0..<row { out[y * row + i] = i % 4 == 3 ? 255 : pixels[(fb.y - 1 - y) * row + i] }
            }
        }
        do {
            try PNG.write(image, to: path)
            print("saved \(path) (\(fb.x)×\(fb.y), window)")
        } catch {
            printError("screenshot: \(error)")
        }
    }

    /// The picture at final quality (a render's: the clouds marched at every pixel), whether or not
    /// the viewer's own frame had finished refining.
    func saveScreenshot(to path: String) throws {
        if renderer.outputSize.x > 0 { _ = draw(scene, pictureRect(framebufferSize()), interactive: false) }
        let image = renderer.readImage()
        guard image.width > 0 else { throw CommandError("nothing has been drawn yet") }
        try PNG.write(image, to: path)
        print("saved \(path) (\(image.width)×\(image.height))")
    }
}

extension Scene {
    /// Whether a layer shows the weather's tint and clouds (the sky and its clouds).
    var hasWeatherLayers: Bool {
        layers.contains { $0.content.isSkySpace }
    }
}

extension WeatherPreset {
    var precipitates: Bool { self == .rain || self == .snow || self == .storm }
}
