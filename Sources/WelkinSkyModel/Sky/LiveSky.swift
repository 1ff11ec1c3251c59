// LiveSky: a scene's physical sky (or a dated palette sky with its night) and volumetric clouds
// resolved for an instant from values alone,
// as WelkinCore resolves them into a Frame (SkyFrame.swift, SkyDrawLayers.swift,
// CloudsLayerFrame.swift) for a scene seen through its sky's own view or a camera that does not
// move (a phone's portrait frame). A package that
// `welkin export-code --package` writes carries this module's files as they are and calls this
// each frame, so its sky keeps moving past the recorded track: the sun and Moon for any date and
// place, the weather, the tables. Welkin's export checks every value it gives against the GL
// path's, at each sample and at probe times past the track (MetalLive), and a value that differs
// stays recorded.

import Foundation

public struct LiveSky: Sendable, Equatable, Codable {
    /// The scene's first sky layer: a physical sky, or a palette sky (its dated night computed too).
    public var sky: SkyLayer
    public var skyOpacity: Double
    /// The clouds layer drawn over it, if any, with its opacity and scene layer index (its seed's).
    public var clouds: CloudsLayer?
    public var cloudsOpacity: Double
    public var cloudsIndex: Int
    public var weather: Weather?
    public var seed: UInt64
    /// The frame's size in pixels and the scene's pixels per point.
    public var pixelSize: SIMD2<Int>
    public var scale: SIMD2<Double>
    /// Colours composited in linear light (scene-linear output).
    public var linear: Bool
    /// The camera the frame is seen through (the scene's `camera`, or a portrait frame's own), if any.
    public var camera: CameraState?

    public init(sky: SkyLayer, skyOpacity: Double, clouds: CloudsLayer?, cloudsOpacity: Double, cloudsIndex: Int,
                weather: Weather?, seed: UInt64, pixelSize: SIMD2<Int>, scale: SIMD2<Double>, linear: Bool, camera: CameraState? = nil) {
        self.sky = sky; self.skyOpacity = skyOpacity; self.clouds = clouds; self.cloudsOpacity = cloudsOpacity
        self.cloudsIndex = cloudsIndex; self.weather = weather; self.seed = seed; self.pixelSize = pixelSize
        self.scale = scale; self.linear = linear; self.camera = camera
    }

    /// The draws at scene time `t`: the sky's (physical, or a palette's with its dated night) and the clouds'.
    public struct Draws: Sendable {
        public var physical: PhysicalSkyDraw?
        public var palette: SkyGradientDraw?
        public var clouds: CloudsDraw?
    }

    /// The view the sky's panorama is drawn for (SkyView(scene): the first sky layer's).
    public var view: SkyView { SkyView(azimuth: sky.viewAzimuth, fieldOfView: sky.fieldOfView, horizon: sky.horizon) }

    public func draws(at t: Double) -> Draws {
        let weatherState = WeatherState(weather, time: t, seed: seed)
        // The frame's sky (SkyState.of): the first sky layer's sun under the weather.
        let state = SkyState(layer: sky, time: t, weather: weatherState)
        let own = SkyState(layer: sky, time: t, weather: weatherState, night: true)
        // The camera's projection of the frame (Frame.SkySetup: the panorama is the frame's own size).
        let projection = camera.map { SkyProjection.camera($0, size: pixelSize, view: view, viewSize: pixelSize) }
        let skySeed = UInt64(Noise.hash32(UInt32(truncatingIfNeeded: seed)))
        var physical: PhysicalSkyDraw?, palette: SkyGradientDraw?
        if sky.model == .physical {
            var p = PhysicalSkyDraw(sky, state: own, opacity: skyOpacity, time: t, seed: skySeed,
                                    pixelSize: pixelSize, scale: scale, linear: linear, panoramaPixelAngle: projection.map { Double($0.pixelAngle) })
            p.roundSun(pixelSize: pixelSize, projection: projection)
            physical = p
        } else {
            // SkyPart's palette sky (SkyFrame.swift).
            palette = SkyGradientDraw(sky, state: own, opacity: skyOpacity, time: t, seed: skySeed, pixelSize: pixelSize, scale: scale,
                                      panoramaPixelAngle: projection.map { Double($0.pixelAngle) })
        }
        var cloudsDraw: CloudsDraw?
        if let clouds {
            let s = clouds.shape(weather: state.weather.parameters)
            if s.coverage > 0 || s.cirrus > 0 {
                var c = CloudsDraw(clouds, state: state, physical: physical.map { ($0, sky) }, night: physical?.night ?? palette?.night,
                                   opacity: cloudsOpacity, time: t,
                                   seed: CloudsDraw.seed(scene: seed, layer: clouds.seed, index: cloudsIndex),
                                   pixelSize: pixelSize, projection: projection ?? .panorama(view, size: pixelSize), linear: linear)
                if sky.ground != .none {
                    c.groundShade = CloudsDraw.groundShadeAlpha(coverage: s.coverage, darkness: state.weather.parameters.cloudDarkness, linear: linear)
                }
                cloudsDraw = c
            }
        }
        return Draws(physical: physical, palette: palette, clouds: cloudsDraw)
    }
}

extension LiveSky {
    /// How strongly `kind` falls at scene time `t` (0…1: the weather's rain or snow, cross-fading as
    /// the weather does): what a package's rain and snow emitters multiply their birth rates by.
    public func precipitation(_ kind: PrecipitationKind, at t: Double) -> Double {
        guard let weather else { return 0 }
        return kind.intensity(WeatherState(weather, time: t, seed: seed).parameters)
    }

    /// The sky for another date and place: the sun, the Moon and the stars computed for `date` at
    /// scene time 0 (a sky with a fixed sun starts following the real one), `timeScale` sky seconds
    /// a second; nil keeps the sky's own (a fixed sun: 1). Refraction, palette and the rest stay.
    public mutating func place(date: Date?, latitude: Double?, longitude: Double?, timeScale: Double?) {
        let own: (date: Timestamp, latitude: Double, longitude: Double, timeScale: Double)?
        if case .computed(let d, let la, let lo, let s) = sky.sun { own = (d, la, lo, s) } else { own = nil }
        guard date != nil || latitude != nil || longitude != nil || timeScale != nil else { return }
        let start = date.map { Timestamp(unixSeconds: $0.timeIntervalSince1970, offsetSeconds: TimeZone.current.secondsFromGMT(for: $0)) }
            ?? own?.date ?? Timestamp(unixSeconds: Date().timeIntervalSince1970, offsetSeconds: TimeZone.current.secondsFromGMT())
        sky.sun = .computed(date: start, latitude: latitude ?? own?.latitude ?? 0, longitude: longitude ?? own?.longitude ?? 0,
                            timeScale: timeScale ?? own?.timeScale ?? 1)
    }

    /// Cross-fades to `preset` from scene time `time` on, from whatever the weather is then (as the
    /// viewer's weather keys do: Scene.changeWeather); later scheduled changes are dropped.
    public mutating func changeWeather(to preset: WeatherPreset, at time: Double) {
        weather = Weather.changing(weather, to: preset, at: time)
    }
}

extension Weather {
    /// `weather` (nil: none yet) cross-fading to `preset` from scene time `time` on, from whatever
    /// it is then; its later scheduled changes dropped. The viewer's weather keys and a package's
    /// weather input both go through it.
    public static func changing(_ weather: Weather?, to preset: WeatherPreset, at time: Double) -> Weather {
        var w = weather ?? Weather()
        let start = max(time, 0)
        w.schedule = w.schedule.filter { $0.at < start }
        if weather == nil && start == 0 { w.preset = preset } else { w.schedule.append((start, preset)) }
        return w
    }
}

extension PhysicalSkyDraw {
    /// The sun's disc and glare round in the picture: `sunMetric` for a frame of `pixelSize` seen
    /// through `projection` (nil: the sky's own panorama). WelkinCore's Frame and LiveSky both call it.
    public mutating func roundSun(pixelSize: SIMD2<Int>, projection: SkyProjection?) {
        let start = SIMD2(Double(pixelSize.x), Double(pixelSize.y)) / 2
        if let projection {
            sunMetric = Self.sunMetric(sunAzimuth: Double(sunAzimuth), sunElevation: Double(sunElevation), start: start,
                                       angles: { projection.projectionAngles($0) })
        } else {
            let (az0, cx, hy, dpp) = (viewAzimuth, centerX, horizonY, degreesPerPixel)
            sunMetric = Self.sunMetric(sunAzimuth: Double(sunAzimuth), sunElevation: Double(sunElevation), start: start,
                                       angles: { SIMD2(az0 + ($0.x - cx) * dpp, (hy - $0.y) * dpp) })
        }
    }
}

extension CloudsDraw {
    /// A clouds layer's seed from the scene's, its own and its place among the layers.
    public static func seed(scene: UInt64, layer: UInt64, index: Int) -> UInt64 {
        UInt64(Noise.hash32(UInt32(truncatingIfNeeded: scene) ^ Noise.hash32(UInt32(truncatingIfNeeded: layer) &+ UInt32(index))))
    }

    /// The share of the ground's light the clouds take away, as the alpha of black over the ground:
    /// layers composite sRGB-encoded (the display's ~2.2 power), scene-linear output in linear light.
    public static func groundShadeAlpha(coverage: Double, darkness: Double, linear: Bool) -> Float {
        let taken = groundShade(coverage: coverage, darkness: darkness)
        return Float(linear ? taken : 1 - pow(1 - taken, 1 / 2.2))
    }
}
