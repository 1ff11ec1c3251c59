// The viewer's physical sky while an edited atmosphere's tables are built: its render thread never
// waits for them. A frame drawn for the viewer (FrameOptions.interactive) whose atmosphere's
// tables (AtmosphereTables, and the sky-view tables at the sun's elevation) are not built yet draws
// the atmosphere it drew last, and the new tables are built on a background queue; when they are
// ready `onBuilt` asks the viewer for another frame, which draws the new atmosphere. A panel slider
// dragged across the Mie coefficient keeps the viewer at its frame rate (the picture follows some
// 60–80 ms behind on two cores) instead of stalling every step for the tables.
//
// Renders, exports, `welkin compare` and the reference renderer never come here: they build what
// they need before drawing, so a scene at a time is one picture however it is drawn.

import Foundation
import WelkinAtmosphere

public final class TablesInBackground: @unchecked Sendable {
    public static let shared = TablesInBackground()

    public init() {}

    /// Runs on the builder's queue when a set of tables asked for is built (the viewer wakes its loop).
    public var onBuilt: (@Sendable () -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return built }
        set { lock.lock(); built = newValue; lock.unlock() }
    }

    /// What a frame reads: the atmospheres' tables and the sun's sky-view tables.
    struct Need: Equatable {
        var coefficients: [AtmosphereCoefficients]
        var skyViews: [SkyViewTable.Key]

        init(_ atmosphere: Atmosphere, weather: WeatherState, sunElevation: Double) {
            coefficients = FadingAtmosphere.ends(atmosphere, weather: weather)
            skyViews = coefficients.flatMap {
                SkyViewTable.blendedKeys(for: SkyViewTable.Key(coefficients: $0, altitude: atmosphere.altitude / 1000, sunElevation: sunElevation))
            }
        }

        var isCached: Bool { coefficients.allSatisfy(AtmosphereTables.isCached) && skyViews.allSatisfy(SkyViewTable.isCached) }

        /// On this thread alone: the viewer's frame keeps the other core.
        func build() {
            for c in coefficients { _ = AtmosphereTables.shared(for: c, parallel: false) }
            for key in skyViews { _ = SkyViewTable.shared(for: key, parallel: false) }
        }
    }

    private let lock = NSLock()
    private var built: (@Sendable () -> Void)?
    /// Per scene layer index: the atmosphere an interactive frame drew last.
    private var drawn: [Int: Atmosphere] = [:]
    private var building: Need?
    /// The latest set asked for while another is built (a dragged slider asks every frame: only
    /// the last value is worth building).
    private var queued: Need?
    private let queue = DispatchQueue(label: "welkin.atmosphere-tables", qos: .userInitiated)

    /// How many sets have been built here (tests).
    public private(set) var buildCount = 0

    /// `scene` with every physical sky's atmosphere as an interactive frame at `time` draws it: its
    /// own when its tables are built; the last one drawn while they are built in the background;
    /// its own (built now, on this thread) when nothing was drawn before or the last one's tables
    /// are gone too.
    public func scene(_ scene: Scene, time: Double) -> Scene {
        var out = scene
        var weather: WeatherState?
        for (index, layer) in scene.layers.enumerated() {
            guard case .sky(var sky)? = layer.content as? SkyContent, sky.model == .physical else { continue }
            if weather == nil { weather = WeatherState(scene.weather, time: time, seed: scene.seed) }
            let e = SkyState.sunElevation(of: sky, time: time)
            let wanted = sky.physical.atmosphere
            let need = Need(wanted, weather: weather!, sunElevation: e)
            lock.lock()
            let last = drawn[index]
            lock.unlock()
            if need.isCached { remember(wanted, index); continue }
            guard let last, last != wanted, Need(last, weather: weather!, sunElevation: e).isCached else {
                remember(wanted, index)
                continue
            }
            request(need)
            sky.physical.atmosphere = last
            out.layers[index].content = SkyContent.sky(sky)
        }
        return out
    }

    /// Forgets what was drawn (a new scene in the viewer: nothing to stand in for its sky).
    public func reset() {
        lock.lock()
        drawn = [:]
        lock.unlock()
    }

    private func remember(_ atmosphere: Atmosphere, _ index: Int) {
        lock.lock()
        drawn[index] = atmosphere
        lock.unlock()
    }

    private func request(_ need: Need) {
        lock.lock()
        defer { lock.unlock() }
        guard building != need else { return }
        guard building == nil else { queued = need; return }
        building = need
        queue.async { self.run(need) }
    }

    private func run(_ need: Need) {
        need.build()
        lock.lock()
        buildCount += 1
        let next = queued
        queued = nil
        building = next
        let done = built
        lock.unlock()
        done?()
        if let next { run(next) }
    }
}
