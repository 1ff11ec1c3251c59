// The viewer's clock: scene time, pause, playback speed, frame steps, and the sky's clock and
// weather changes made with keys (re-applied to every scene that loads). The rules live here; the
// viewer says what changed (Viewer+Keys.swift) and draws.

import Foundation
import WelkinCore

struct Playback {
    /// One frame of the clock for `,` and `.`.
    static let frameStep = 1.0 / 60
    /// The latest scene time the viewer goes to (Scene.timeRange).
    static let maximumTime = Scene.timeRange.upperBound
    /// The playback speeds `[` and `]` step through.
    static let speedSteps: [Double] = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2]
    static let speedRange = 0.1...2.0

    var time: Double
    var paused: Bool
    /// Scene seconds per second of wall time (`speed`, `[` and `]`).
    var speed = 1.0
    /// Frames drawn so far (Frame.frameNumber).
    var frameNumber = 0
    /// Sky edits made with keys (T, 1–6, W), re-applied when the scene file reloads.
    private(set) var skyClockShift = 0.0
    private(set) var weatherChanges: [(preset: WeatherPreset, at: Double)] = []

    init(time: Double, paused: Bool) {
        self.time = max(0, time)
        self.paused = paused
    }

    /// Moves the clock to `t`, kept in 0…maximumTime.
    mutating func setTime(_ t: Double) { time = min(max(0, t), Self.maximumTime) }

    /// Runs the clock for `seconds` of wall time; false while paused.
    mutating func advance(wallSeconds seconds: Double) -> Bool {
        guard !paused else { return false }
        time += seconds * speed
        return true
    }

    mutating func setSpeed(_ s: Double) { speed = min(max(s, Self.speedRange.lowerBound), Self.speedRange.upperBound) }

    /// The next speed step up (`]`) or down (`[`), or the speed itself at either end.
    func steppedSpeed(up: Bool) -> Double {
        let next = up ? Self.speedSteps.first { $0 > speed + 1e-9 } : Self.speedSteps.last { $0 < speed - 1e-9 }
        return next ?? speed
    }

    /// Notes a weather change from now, for a scene whose transition takes `transition` seconds,
    /// and returns when it starts: one transition earlier while paused, so the paused picture shows
    /// the new weather at once.
    mutating func changeWeather(to preset: WeatherPreset, transition: Double) -> Double {
        let at = paused ? max(0, time - transition) : time
        weatherChanges.append((preset, at))
        return at
    }

    /// The file's weather is edited: the keys' changes no longer apply over it.
    mutating func forgetWeatherChanges() { weatherChanges.removeAll() }

    mutating func shiftSkyClock(by seconds: Double) { skyClockShift += seconds }

    /// A scene as the viewer draws it: with the keys' sky clock and weather changes applied.
    func prepared(_ loaded: Scene) -> Scene {
        var scene = loaded
        scene.shiftSkyClock(by: skyClockShift)
        for change in weatherChanges { scene.changeWeather(to: change.preset, at: change.at) }
        return scene
    }

    /// "sky clock +1.5 h".
    var skyClockText: String {
        "sky clock \(skyClockShift >= 0 ? "+" : "−")\(String(format: "%.1f", abs(skyClockShift) / 3600)) h"
    }

    static func format(_ t: Double) -> String { String(format: "%.2f", t) }

    static func speedText(_ s: Double) -> String {
        var text = String(format: "%.2f", s)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }
}
