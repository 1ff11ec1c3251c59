// The viewer's keys and clock: time, playback speed, frame steps, weather and the sky clock.
//
// Keys arrive in GLFW's callback (possibly while a frame renders) and are handled between frames.
// Console commands that do the same thing call the same functions, so they answer the same way.

@preconcurrency import CEpoxy
import CGLFW
import Foundation
import WelkinCore
import WelkinImage

extension Viewer {
    /// One frame of the clock for `,` and `.`.
    static let frameStep = 1.0 / 60
    /// The latest scene time the viewer goes to (Scene.timeRange).
    static let maximumTime = Scene.timeRange.upperBound

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
            setTime(time + (key == GLFW_KEY_LEFT ? -1 : 1) * (shift ? 10 : 1))
            print("t = \(Self.format(time)) s")
        case GLFW_KEY_COMMA, GLFW_KEY_PERIOD:
            // A frame step pauses: stepping is for looking at one frame.
            if !paused { paused = true }
            setTime(time + (key == GLFW_KEY_COMMA ? -1 : 1) * Self.frameStep)
            print("t = \(Self.format(time)) s (paused)")
        case GLFW_KEY_HOME:
            setTime(0)
            print("t = 0.00 s")
        case GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET:
            let steps = Self.speedSteps
            let next = key == GLFW_KEY_LEFT_BRACKET ? steps.last { $0 < speed - 1e-9 } : steps.first { $0 > speed + 1e-9 }
            setSpeed(next ?? speed)
        case GLFW_KEY_R:
            if shift { toggleRecording() } else { reloadEverything() }
        case GLFW_KEY_S:
            saveScreenshot()
        case GLFW_KEY_F:
            toggleFullscreen()
        case GLFW_KEY_TAB:
            togglePanel()
        case GLFW_KEY_H:
            print(Self.keyHelp)
            print(Self.consoleHelp)
        case GLFW_KEY_1...GLFW_KEY_6:
            changeWeather(to: WeatherPreset.allCases[Int(key - GLFW_KEY_1)])
        case GLFW_KEY_W:
            let all = WeatherPreset.allCases
            changeWeather(to: all[(all.firstIndex(of: scene.weatherPreset(at: time))! + 1) % all.count])
        case GLFW_KEY_T:
            shiftSkyClock(by: shift ? -1800 : 1800)
        case GLFW_KEY_C:
            cycleProjection()
        default:
            return
        }
        needsRedraw = true
        lastTitleUpdate = 0
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

    /// Moves the clock to `t`, never below 0.
    func setTime(_ t: Double) {
        time = min(max(0, t), Self.maximumTime)
        needsRedraw = true
        lastTitleUpdate = 0
    }

    func togglePause() {
        paused.toggle()
        print(paused ? "paused at t = \(Self.format(time)) s" : "resumed")
        needsRedraw = true
        lastTitleUpdate = 0
    }

    func setSpeed(_ s: Double) {
        speed = min(max(s, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        print("speed \(Self.speedText(speed))")
        lastTitleUpdate = 0
    }

    static func speedText(_ s: Double) -> String {
        var text = String(format: "%.2f", s)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    // MARK: - Sky and weather

    /// Cross-fades to `preset` from now (keys 1–6 and W, `weather`). While paused the change is
    /// placed one transition earlier, so the paused picture shows the new weather at once.
    func changeWeather(to preset: WeatherPreset) {
        let transition = scene.weather?.transition ?? Weather().transition
        let at = paused ? max(0, time - transition) : time
        weatherChanges.append((preset, at))
        scene.changeWeather(to: preset, at: at)
        candidate?.scene.changeWeather(to: preset, at: at)
        var answer = "weather: \(preset.rawValue)"
        if !scene.hasWeatherLayers {
            answer += preset.precipitates
                ? " (this scene has no sky or cloud layer: only its rain or snow shows)"
                : " (nothing shows it: this scene has no sky or cloud layer)"
        } else if paused && transition > 0 {
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
        skyClockShift += seconds
        scene.shiftSkyClock(by: seconds)
        candidate?.scene.shiftSkyClock(by: seconds)
        print("sky clock \(skyClockShift >= 0 ? "+" : "−")\(String(format: "%.1f", abs(skyClockShift) / 3600)) h")
        needsRedraw = true
    }

    /// A scene as the viewer draws it: with the keys' sky clock and weather changes applied.
    func prepared(_ loaded: Scene) -> Scene {
        var scene = loaded
        scene.shiftSkyClock(by: skyClockShift)
        for change in weatherChanges { scene.changeWeather(to: change.preset, at: change.at) }
        return scene
    }

    // MARK: - Screenshots

    /// S: the exact picture as welkin-NAME-TIME.png in the current folder.
    func saveScreenshot() {
        let safeName = scene.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        do {
            try saveScreenshot(to: "welkin-\(String(safeName))-\(Self.format(time))s.png")
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

    func saveScreenshot(to path: String) throws {
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
