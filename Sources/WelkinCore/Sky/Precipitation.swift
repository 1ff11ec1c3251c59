// Precipitation: the rain and snow of the weather, drawn with the emitter system.
//
// A scene whose weather can rain or snow gets one hidden emitter per kind (rain streaks as in
// Scenes/rain.json, seed 002's snow cells as in Scenes/snow.json), drawn right after its last sky
// layer. Each emitter runs at full strength in the shared simulation cache; what the weather asks
// for is applied when the frame is built, from closed forms, so the frame stays a pure function
// of (scene, seed, t):
// - Intensity thins births: birth k is drawn only when a hash of k is below the weather's rain (or
//   snow) intensity at the moment it was born, exactly as if the birth rate had followed the
//   weather. Drops already falling keep falling when the rain stops.
// - Wind carries each particle by ∫ wind dt over its life (the weather's exact wind travel), and
//   tilts streaks by the wind now.

import Foundation

/// Which precipitation an emitter draws.
public enum PrecipitationKind: Int, Sendable, CaseIterable {
    case rain, snow

    /// The weather's intensity of this kind, 0…1.
    func intensity(_ p: WeatherParameters) -> Double {
        switch self {
        case .rain: return p.rain
        case .snow: return p.snow
        }
    }

    /// How many times the weather's wind pushes this kind (drops and flakes show the wind more
    /// than the slow cloud drift it was chosen for).
    var windPush: Double {
        switch self {
        case .rain: return 4
        case .snow: return 3
        }
    }

    /// Whether this kind can fall in `scene`: some preset of its weather rains (snows), and the
    /// scene did not turn it off.
    func falls(in scene: Scene) -> Bool {
        guard let weather = scene.weather, weather.precipitation.amount(self) > 0 else { return false }
        return ([weather.preset] + weather.schedule.map(\.preset)).contains { intensity($0.parameters) > 0 }
    }

    /// A layer index no scene layer has, so the particles' random keys never collide with a
    /// scene emitter's.
    var layerIndex: Int { 1_000_000 + rawValue }

    /// The hash slot used to thin births (the simulation uses slots 1…12).
    static let thinningSlot: UInt64 = 97

    /// The hidden emitter, at full strength (`amount` scales its birth rate).
    func emitter(amount: Double) -> EmitterLayer {
        var layer = EmitterLayer()
        layer.shape = .line
        layer.birthRate = amount
        switch self {
        case .rain:
            // Scenes/rain.json's two streak cells, value for value: a slower, fainter far layer and
            // near drops. Ranges are m ± r, as for every cell (docs/particles.md, "Ranges").
            layer.position = [0.5, -0.05]; layer.size = [1.4, 0]; layer.prewarm = 2
            var far = EmitterCell()
            far.name = "far drop"; far.sprite = .streak; far.spriteSize = 1.5; far.streakDuration = 0.025
            far.birthRate = 300; far.lifetime = 1.6; far.lifetimeRange = 0.15
            far.velocity = 450; far.velocityRange = 30; far.emissionLongitude = .pi / 2; far.emissionRange = 0.04
            far.yAcceleration = 200; far.color = RGBA(0.7, 0.75, 0.9, 0.35)
            var near = EmitterCell()
            near.name = "drop"; near.sprite = .streak; near.spriteSize = 2.5; near.streakDuration = 0.04
            near.birthRate = 220; near.lifetime = 1.0; near.lifetimeRange = 0.1
            near.velocity = 750; near.velocityRange = 50; near.emissionLongitude = .pi / 2; near.emissionRange = 0.04
            near.yAcceleration = 400; near.color = RGBA(0.8, 0.85, 0.95, 0.6); near.alphaRange = 0.1
            layer.cells = [far, near]
        case .snow:
            // Seed 002's snow (Scenes/snow.json): every cell value is the article's, meant for Core
            // Animation's m ± r, so its ranges stay as the article wrote them (speeds 10…50).
            layer.position = [0.5, 0]; layer.size = [1, 0]; layer.prewarm = 10
            var flake = EmitterCell()
            flake.name = "flake"; flake.sprite = .dot; flake.spriteSize = 32
            flake.birthRate = 30; flake.lifetime = 20; flake.scale = 0.15; flake.scaleRange = 0.6
            flake.velocity = 30; flake.velocityRange = 20; flake.emissionRange = .pi
            flake.spin = -0.5; flake.spinRange = 1; flake.yAcceleration = 30; flake.xAcceleration = 5
            var blurry = flake
            blurry.name = "blurry flake"; blurry.sprite = .softDot; blurry.spriteSize = 48; blurry.blur = 8
            blurry.velocity = 40
            layer.cells = [flake, blurry]
        }
        return layer
    }
}

/// Top-level `weather.precipitation`: whether and how strongly the weather's rain and snow fall.
public struct PrecipitationSettings: Sendable, Equatable {
    /// Multiplies the birth rate of rain (0 turns it off).
    public var rain: Double = 1
    /// Multiplies the birth rate of snow (0 turns it off).
    public var snow: Double = 1
    /// The most either may be.
    public static let maximumAmount = 4.0

    public init(rain: Double = 1, snow: Double = 1) {
        self.rain = rain; self.snow = snow
    }

    public static let off = PrecipitationSettings(rain: 0, snow: 0)

    func amount(_ kind: PrecipitationKind) -> Double {
        switch kind {
        case .rain: return rain
        case .snow: return snow
        }
    }
}

extension ParticleDraw {
    /// The weather's `kind` of precipitation at scene time `time`, or nil when none can fall in
    /// this scene (no preset of its weather rains or snows, or the scene turned it off).
    public static func precipitation(_ kind: PrecipitationKind, scene: Scene, time: Double, opacity: Double = 1,
                                     pixelScale: SIMD2<Double>) -> ParticleDraw? {
        guard let weather = scene.weather, kind.falls(in: scene) else { return nil }
        let layer = kind.emitter(amount: weather.precipitation.amount(kind))
        let steps = EmitterSimulation.steps(at: time, prewarm: layer.prewarm)
        var particles = SimulationCache.shared.withSimulation(
            layer: layer, layerIndex: kind.layerIndex, sceneSize: scene.size, seed: scene.seed, wind: scene.wind,
            steps: steps, sharing: scene.simulatedEmitterCount) { $0.snapshot() }

        let now = WeatherState(weather, time: time, seed: scene.seed)
        let windNow = now.parameters.wind * kind.windPush
        let seeds = layer.cells.indices.map { ParticleRandom.mix(scene.seed ^ ParticleRandom.mix(0x5eed_0000 &+ UInt64($0) &+ UInt64(kind.rawValue) << 8)) }
        // Weather at each birth: births share times (k / rate), so remember the last one asked.
        var last: (time: Double, state: WeatherState)?
        func weatherState(at t: Double) -> WeatherState {
            if let last, last.time == t { return last.state }
            let s = WeatherState(weather, time: t, seed: scene.seed)
            last = (t, s)
            return s
        }
        let rates = layer.cells.map { $0.birthRate * layer.birthRate }
        particles = particles.compactMap { p in
            var p = p
            // Birth k happened at emitter time k / rate exactly (docs/particles.md).
            let born = Double(p.birth) / rates[p.cellIndex] - layer.prewarm
            let then = weatherState(at: born)
            let key = ParticleRandom.key(seed: seeds[p.cellIndex], layer: kind.layerIndex, cell: p.cellIndex, birth: UInt64(p.birth))
            guard ParticleRandom.uniform(key, PrecipitationKind.thinningSlot) < kind.intensity(then.parameters) else { return nil }
            p.position += (now.windTravel - then.windTravel) * kind.windPush
            p.velocity += windNow
            return p
        }
        return ParticleDraw(layer, index: kind.layerIndex, particles: particles, opacity: opacity, pixelScale: pixelScale)
    }
}

extension Frame {
    /// The weather's precipitation layers at `time` (none without weather).
    static func precipitation(scene: Scene, time: Double, scale: SIMD2<Double>) -> [any LayerDraw] {
        PrecipitationKind.allCases.compactMap { kind in
            ParticleDraw.precipitation(kind, scene: scene, time: time, pixelScale: scale)
        }
    }
}
