// How sky layers enter a Frame: the frame's SkyState and each layer's part.

import Foundation

extension SkyState {
    /// The sky of `scene` at `time`: from its first `sky` layer (or the default sky) under its
    /// weather; nil when the scene has no sky layer, cloud layer or weather.
    public static func of(_ scene: Scene, time: Double) -> SkyState? {
        var first: SkyLayer?
        var any = scene.weather != nil
        for layer in scene.layers {
            if layer.content is CloudsLayer { any = true }
            guard let content = layer.content as? SkyContent else { continue }
            any = true
            if case .sky(let s) = content, first == nil { first = s }
        }
        guard any else { return nil }
        return SkyState(layer: first, time: time, weather: WeatherState(scene.weather, time: time, seed: scene.seed))
    }
}

extension SkyPart {
    /// A sky-family scene layer resolved for a frame. `state` is the frame's sky (the first sky
    /// layer's); a later sky layer computes its own.
    public init(_ content: SkyContent, state: SkyState, opacity: Double, time: Double, sceneSeed: UInt64,
                index: Int, pixelSize: SIMD2<Int>, scale: SIMD2<Double>, linear: Bool = false, panoramaPixelAngle: Double? = nil,
                environmentMap: Bool = false) {
        func seed(_ own: UInt64) -> UInt64 {
            UInt64(Noise.hash32(UInt32(truncatingIfNeeded: sceneSeed) ^ Noise.hash32(UInt32(truncatingIfNeeded: own) &+ UInt32(index))))
        }
        switch content {
        case .sky(let layer) where layer.model == .physical:
            let own = SkyState(layer: layer, time: time, weather: state.weather, night: true)
            self = .physical(PhysicalSkyDraw(layer, state: own, opacity: opacity, time: time,
                                             seed: UInt64(Noise.hash32(UInt32(truncatingIfNeeded: sceneSeed))),
                                             pixelSize: pixelSize, scale: scale, linear: linear, panoramaPixelAngle: panoramaPixelAngle,
                                             environmentMap: environmentMap))
        case .sky(let layer):
            let own = SkyState(layer: layer, time: time, weather: state.weather, night: true)
            // Stars do not depend on the layer's index: the same sky keeps its stars when layers move.
            self = .sky(SkyGradientDraw(layer, state: own, opacity: opacity, time: time,
                                        seed: UInt64(Noise.hash32(UInt32(truncatingIfNeeded: sceneSeed))),
                                        pixelSize: pixelSize, scale: scale, panoramaPixelAngle: panoramaPixelAngle))
        case .cloudCover(let layer):
            self = .cover(CloudCoverDraw(layer, state: state, opacity: opacity, seed: seed(layer.seed),
                                         pixelSize: pixelSize, scale: scale))
        case .cloudSprites(let layer):
            self = .sprites(CloudSpritesDraw(layer, state: state, opacity: opacity, seed: seed(layer.seed),
                                             pixelSize: pixelSize, scale: scale))
        }
    }
}

extension Scene {
    /// Moves every computed sun's clock by `seconds` (the viewer's T / Shift-T).
    public mutating func shiftSkyClock(by seconds: Double) {
        for i in layers.indices {
            if case .sky(var s)? = layers[i].content as? SkyContent {
                s.clockOffset += seconds
                layers[i].content = SkyContent.sky(s)
            }
        }
    }

    /// Switches to `preset` at scene time `time`, cross-fading from whatever the weather is then
    /// (the viewer's 1–6 and W keys). Later schedule entries are dropped.
    public mutating func changeWeather(to preset: WeatherPreset, at time: Double) {
        weather = Weather.changing(weather, to: preset, at: time)
    }

    /// The preset in effect at `time` (the last one switched to).
    public func weatherPreset(at time: Double) -> WeatherPreset {
        guard let weather else { return .clear }
        return weather.schedule.last(where: { $0.at <= time })?.preset ?? weather.preset
    }
}

extension SkyDraw: LayerDraw {}

extension SkyContent: LayerContent {
    public var isSkySpace: Bool { true }

    public var typeName: String {
        switch self {
        case .sky: return SkyLayer.kind.type
        case .cloudSprites: return CloudSpritesLayer.kind.type
        case .cloudCover: return CloudCoverLayer.kind.type
        }
    }

    /// Consecutive sky-family layers share one SkyDraw (SkyDraw.append).
    /// The parts are resolved for the frame's sky panorama (Frame.SkySetup); under another
    /// projection SkyDraw maps each output pixel to that panorama's pixel of the same direction.
    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        let r = frame.resolution
        let state = frame.sky!
        let setup = r.skySetup
        var part = SkyPart(self, state: state, opacity: layer.opacity, time: r.time, sceneSeed: r.seed,
                           index: index, pixelSize: setup.size, scale: setup.scale, linear: r.options.linearLight,
                           panoramaPixelAngle: setup.projection.map { Double($0.pixelAngle) }, environmentMap: r.options.projection.isPanorama)
        if case .physical(var p) = part, !r.options.projection.isPanorama {
            // The sun's disc and glare round in the picture (an environment map keeps the sky's own angles).
            p.roundSun(pixelSize: r.pixelSize, projection: setup.projection)
            part = .physical(p)
        }
        SkyDraw.append(part, projection: setup.projection, linear: r.options.linearLight, to: &frame.layers)
    }
}
