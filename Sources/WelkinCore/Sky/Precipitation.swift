// Precipitation: the rain and snow of the weather, drawn with the emitter system.
//
// A scene whose weather can rain or snow gets one hidden emitter per kind, drawn right after its
// last sky layer. Each falls at three depths (far, mid, near, drawn in that order: a cell each, and
// one more for each of a depth's shape variants — snow's clumps and crystals):
// near particles are larger, softer and faster on screen, far ones small and dim; rain is streaks
// along the velocity (motion blur), snow soft discs that sway.
//
// The field fills the frame evenly from the first frame, on any aspect ratio:
// - Every particle falls at a constant speed (its terminal velocity), so it spends the same time in
//   each row of the frame: constant density from top to bottom (seed 002's snow accelerates from
//   rest, so it crowds the top and thins out toward the bottom).
// - The emitter is a line just above the frame, as wide as the frame plus a margin that hides a
//   sprite, and each particle's x wraps around that width: what the wind carries out on one side
//   comes back on the other, so no side empties however far the wind pushes (a drift in points is
//   the same on a narrow portrait frame as on a wide one, so a frame-wide line left the lower part
//   of a phone-shaped frame empty on the upwind side).
// - Lifetimes and the prewarm follow the frame's height: a cell lives as long as its slowest
//   particle takes to fall through the frame and its margins, and the emitter has run that long at
//   t = 0, so the frame is settled at t = 0. Birth rates follow the frame's width, so the density
//   (particles per point²) is the same on every frame.
//
// What the weather asks for is applied when the frame is built, from closed forms, so the frame
// stays a pure function of (scene, seed, t, frame size):
// - Intensity thins births: birth k is drawn only when a hash of k is below the weather's rain (or
//   snow) intensity at the moment it was born, exactly as if the birth rate had followed the
//   weather. Drops already falling keep falling when the rain stops.
// - Wind carries each particle by ∫ wind dt over its life (the weather's exact wind travel), and
//   tilts streaks by the wind now; a depth's share of it grows with its speed on screen (parallax:
//   near flakes drift faster than far ones, and all rain stays parallel).

import Foundation

extension PrecipitationKind {
    /// How many times the weather's wind pushes this kind at its middle depth (drops and flakes
    /// show the wind more than the slow cloud drift it was chosen for).
    var windPush: Double {
        switch self {
        case .rain: return 4
        case .snow: return 3
        }
    }

    /// Whether this kind can fall in `scene`: some preset of its weather rains (snows), and the
    /// scene did not turn it off.
    public func falls(in scene: Scene) -> Bool {
        guard let weather = scene.weather, weather.precipitation.amount(self) > 0 else { return false }
        return ([weather.preset] + weather.schedule.map(\.preset)).contains { intensity($0.parameters) > 0 }
    }

    /// A layer index no scene layer has, so the particles' random keys never collide with a
    /// scene emitter's.
    public var layerIndex: Int { 1_000_000 + rawValue }

    /// The hash slot used to thin births (the simulation uses slots 1…12).
    public static let thinningSlot: UInt64 = 97

    /// The depths this kind falls at, far to near (drawing order).
    var depths: [PrecipitationDepth] {
        switch self {
        case .rain:
            // Thin streaks; each is the drop's path over `streakDuration` (motion blur), so near
            // drops, faster on screen, draw longer streaks.
            return [
                PrecipitationDepth(name: "far drop", sprite: .streak, size: 1, speed: 650, speedRange: 60,
                                   color: RGBA(0.74, 0.78, 0.88, 0.22), density: 90, streakDuration: 0.02),
                PrecipitationDepth(name: "drop", sprite: .streak, size: 1.5, speed: 950, speedRange: 80,
                                   color: RGBA(0.8, 0.84, 0.93, 0.32), density: 32, streakDuration: 0.025),
                PrecipitationDepth(name: "near drop", sprite: .streak, size: 2.4, speed: 1400, speedRange: 120,
                                   color: RGBA(0.85, 0.88, 0.96, 0.4), density: 8, streakDuration: 0.03),
            ]
        case .snow:
            // Soft discs, softer with nearness (a near flake is out of focus); they sway as they fall.
            // Some of the middle depth's flakes show a shape: tumbling clumps (aggregates, the
            // commonest snowflake: three soft lobes) or six-armed crystals, each turning at its own
            // rate. Near flakes stay discs: out of focus, a flake's blur is round whatever its shape.
            return [
                PrecipitationDepth(name: "far flake", sprite: .softDot, size: 3, blur: 0.6, speed: 32, speedRange: 6,
                                   scaleRange: 0.3, color: RGBA(0.92, 0.94, 1, 0.6), density: 110,
                                   sway: Sway(amplitude: 4, frequency: 0.25)),
                PrecipitationDepth(name: "flake", sprite: .softDot, size: 6.5, blur: 1.6, speed: 60, speedRange: 10,
                                   scaleRange: 0.3, color: RGBA(0.96, 0.97, 1, 0.85), density: 30,
                                   sway: Sway(amplitude: 8, frequency: 0.3),
                                   variants: [PrecipitationVariant(name: "clump", sprite: .cloud, share: 0.2, sizeFactor: 1.3, spinRange: 1.2),
                                              PrecipitationVariant(name: "crystal", sprite: .flake, share: 0.04, sizeFactor: 1.5, spinRange: 1.5)]),
                PrecipitationDepth(name: "near flake", sprite: .softDot, size: 20, blur: 5, speed: 130, speedRange: 25,
                                   scaleRange: 0.35, color: RGBA(1, 1, 1, 0.7), density: 3.5,
                                   sway: Sway(amplitude: 14, frequency: 0.35)),
            ]
        }
    }

    /// The depth whose speed on screen takes the weather's wind × `windPush` as it is.
    static let middleDepth = 1

    /// How much of the wind each depth takes (its speed over the middle depth's).
    var windShares: [Double] {
        let d = depths
        return d.map { $0.speed / d[Self.middleDepth].speed }
    }

    /// The same for each of the emitter's cells: a depth's variants take its share.
    var cellWindShares: [Double] {
        zip(depths, windShares).flatMap { depth, share in Array(repeating: share, count: 1 + depth.variants.count) }
    }

    /// The strongest wind any preset of `scene`'s weather blows, points per second.
    public static func strongestWind(_ scene: Scene) -> Double {
        guard let weather = scene.weather else { return 0 }
        return ([weather.preset] + weather.schedule.map(\.preset))
            .map { ($0.parameters.wind * $0.parameters.wind).sum().squareRoot() }.max() ?? 0
    }

    /// Points around the frame, on every side, that hide any of this kind's sprites in `scene`
    /// (a streak tilted by the strongest wind included): births start that far above the top, lives
    /// end that far below the bottom, and x wraps around the frame's width plus twice this.
    public func margin(strongestWind: Double) -> Double {
        let shares = windShares
        return zip(depths, shares).map { depth, share in
            let size = depth.size * (1 + depth.scaleRange) * (depth.variants.map(\.sizeFactor) + [1]).max()!
            var extent = size / 2 + Double(SpriteShape.blurReach) * depth.blur * (1 + depth.scaleRange)
            if depth.sprite == .streak {
                let speed = depth.speed + depth.speedRange + strongestWind * windPush * share
                extent = (size + speed * depth.streakDuration) / 2
            }
            return extent + 2
        }.max() ?? 2
    }

    /// The most particles one kind keeps alive (beyond it the field thins evenly): a frame's
    /// snapshot of them stays near 14 MB.
    static let maximumParticles = 100_000.0
    /// The most particle-seconds one kind's live particles may add up to (each live particle times
    /// its lifetime: what a frame's exact simulation window costs). Snow over 1280×720 at amount 1
    /// is 5.0·10⁴ (0.75 s a fuzz input in the sanitised build), so amount 2 there is whole and a
    /// larger or heavier field thins evenly; rain, short-lived, stays far below. The fuzzer found
    /// snow over 12810×720 at 6.7·10⁵ taking 13 s an input (its limit is 5).
    static let maximumWork = 1.0e5

    /// The longest a particle of the weather's rain or snow lives in `scene` (drawn at its own
    /// size), in seconds: 0 when none falls.
    public static func longestLifetime(in scene: Scene) -> Double {
        guard let weather = scene.weather else { return 0 }
        let wind = strongestWind(scene)
        return allCases.filter { $0.falls(in: scene) }.map {
            $0.emitter(amount: weather.precipitation.amount($0), frameSize: scene.size, strongestWind: wind).prewarm
        }.max() ?? 0
    }

    /// The hidden emitter over a frame of `frameSize` points, at full strength (`amount` scales
    /// its birth rate). `strongestWind`: `strongestWind(_:)` of the scene.
    func emitter(amount: Double, frameSize: SIMD2<Int>, strongestWind: Double) -> EmitterLayer {
        let size = SIMD2<Double>(Double(max(frameSize.x, 1)), Double(max(frameSize.y, 1)))
        let margin = margin(strongestWind: strongestWind)
        let width = size.x + 2 * margin, fall = size.y + 2 * margin
        var layer = EmitterLayer()
        layer.shape = .line
        layer.position = [0.5, -margin / size.y]
        layer.size = [width / size.x, 0]
        layer.birthRate = amount
        layer.cells = depths.flatMap { $0.cells(lineWidth: width, fall: fall) }
        layer.prewarm = min(layer.cells.map(\.longestLifetime).max() ?? 0, EmitterLayer.maximumPrewarm)
        // A frame of thousands of points a side would hold millions: every depth thins alike so the
        // whole stays under `maximumParticles`, and no birth is ever dropped.
        let bound = layer.cells.reduce(0) { $0 + layer.steadyStateBound($1) }
        // The simulation's work grows with the live particles times how long each lives (a tall
        // frame's snow lives long): past `maximumWork` the field thins too.
        let work = layer.cells.reduce(0) { $0 + layer.steadyStateBound($1) * $1.longestLifetime * layer.lifetime }
        let thinning = min(bound > Self.maximumParticles ? Self.maximumParticles / bound : 1,
                           work > Self.maximumWork ? Self.maximumWork / work : 1)
        for c in layer.cells.indices { layer.cells[c].birthRate *= thinning }
        // Room for the steady state, the births of a step or two more and float rounding (the
        // simulation plan's exact window needs it: SimulationPlan.init).
        let rates = layer.cells.reduce(0) { $0 + $1.birthRate * layer.birthRate }
        layer.maxParticles = Int((bound * thinning * 1.05 + rates * 0.05).rounded(.up)) + 64
        return layer
    }
}

/// One depth of precipitation: how a cell of its particles looks and falls, in points.
struct PrecipitationDepth {
    var name: String
    var sprite: SpriteKind
    /// The sprite's size at scale 1 (a streak's width).
    var size: Double
    /// softDot's blur (standard deviation) at scale 1.
    var blur: Double = 0
    /// The fall speed, constant over the fall (terminal velocity): m ± r.
    var speed: Double
    var speedRange: Double
    /// Scale 1 ± this.
    var scaleRange: Double = 0
    var color: RGBA
    /// Particles per 100,000 points² of the frame.
    var density: Double
    var streakDuration: Double = EmitterCell.defaultStreakDuration
    var sway = Sway()
    /// Shapes some of its particles take instead of `sprite` (each a cell of its own after the depth's).
    var variants: [PrecipitationVariant] = []

    /// The mean of 1/v over the speeds m ± r (uniform): the mean time per point of fall.
    var meanSlowness: Double {
        let lo = speed - speedRange, hi = speed + speedRange
        return hi > lo ? Foundation.log(hi / lo) / (hi - lo) : 1 / speed
    }

    /// The cell for a line `lineWidth` points wide, whose particles fall `fall` points (the frame
    /// and its margins): it lives as long as the slowest takes to fall that far, and its birth rate
    /// gives `density` (rate × mean slowness / width = particles per point²).
    func cell(lineWidth: Double, fall: Double) -> EmitterCell {
        var cell = EmitterCell()
        cell.name = name
        cell.sprite = sprite
        cell.spriteSize = size
        cell.blur = blur
        cell.streakDuration = streakDuration
        cell.velocity = speed
        cell.velocityRange = speedRange
        cell.emissionLongitude = .pi / 2
        cell.emissionRange = 0
        cell.scale = 1
        cell.scaleRange = scaleRange
        cell.color = color
        cell.sway = sway
        cell.lifetime = fall / (speed - speedRange)
        cell.birthRate = density * 1e-5 * lineWidth / meanSlowness
        return cell
    }

    /// The depth's cells: its own sprite's, then each variant's (the same fall, sway and colour; its
    /// sprite, size and turning), the birth rate shared between them.
    func cells(lineWidth: Double, fall: Double) -> [EmitterCell] {
        var main = cell(lineWidth: lineWidth, fall: fall)
        let rate = main.birthRate
        main.birthRate = rate * (1 - variants.reduce(0) { $0 + $1.share })
        return [main] + variants.map { v in
            var c = main
            c.name = v.name
            c.sprite = v.sprite
            c.spriteSize = size * v.sizeFactor
            c.spinRange = v.spinRange
            c.birthRate = rate * v.share
            return c
        }
    }
}

/// A shape some of a depth's particles take: `share` of its births, `sizeFactor` × its size,
/// turning at 0 ± `spinRange` radians a second from upright (Core Animation's spin and spinRange).
struct PrecipitationVariant {
    var name: String
    var sprite: SpriteKind
    var share: Double
    var sizeFactor: Double = 1
    var spinRange: Double = 0
}

extension ParticleDraw {
    /// The weather's `kind` of precipitation at scene time `time` over a frame of `frameSize`
    /// points, or nil when none can fall in this scene (no preset of its weather rains or snows, or
    /// the scene turned it off).
    public static func precipitation(_ kind: PrecipitationKind, scene: Scene, time: Double, opacity: Double = 1,
                                     frameSize: SIMD2<Int>? = nil, pixelScale: SIMD2<Double>, loop: Double? = nil) -> ParticleDraw? {
        guard let (layer, particles) = kind.particles(scene: scene, time: time, frameSize: frameSize, loop: loop) else { return nil }
        return ParticleDraw(layer, index: kind.layerIndex, particles: particles, opacity: opacity, pixelScale: pixelScale)
    }
}

extension PrecipitationKind {
    /// The hidden emitter and every particle of this kind the frame draws at `time` over a frame of
    /// `frameSize` points (the scene's size by default), thinned by the weather's intensity and
    /// carried by its wind; nil when none can fall in this scene.
    /// `loop`: the births repeat every this many seconds (EmitterLayer.loopPeriod).
    public func particles(scene: Scene, time: Double, frameSize: SIMD2<Int>? = nil, loop: Double? = nil) -> (layer: EmitterLayer, particles: [ParticleSnapshot])? {
        let kind = self
        guard let weather = scene.weather, kind.falls(in: scene) else { return nil }
        let frameSize = frameSize ?? scene.size
        let strongestWind = PrecipitationKind.strongestWind(scene)
        let layer = kind.emitter(amount: weather.precipitation.amount(kind), frameSize: frameSize, strongestWind: strongestWind).looping(loop)
        let steps = EmitterSimulation.steps(at: time, prewarm: layer.prewarm)
        var particles = SimulationCache.shared.withSimulation(
            layer: layer, layerIndex: kind.layerIndex, sceneSize: frameSize, seed: scene.seed, wind: scene.wind,
            steps: steps, sharing: scene.simulatedEmitterCount) { $0.snapshot() }

        let now = WeatherState(weather, time: time, seed: scene.seed)
        let pushes = kind.windPushes
        let seeds = layer.cells.indices.map { kind.thinningSeed(scene: scene, cell: $0) }
        // Weather at each birth: births share times (k / rate), so remember the last one asked.
        var last: (time: Double, state: WeatherState)?
        func weatherState(at t: Double) -> WeatherState {
            if let last, last.time == t { return last.state }
            let s = WeatherState(weather, time: t, seed: scene.seed)
            last = (t, s)
            return s
        }
        let rates = layer.cells.map { layer.birthRate(of: $0) }
        // x wraps around the birth line: [−margin, width + margin).
        let margin = kind.margin(strongestWind: strongestWind)
        let period = Double(max(frameSize.x, 1)) + 2 * margin
        particles = particles.compactMap { p in
            var p = p
            // Birth k happened at emitter time k / rate exactly (docs/particles.md).
            let born = Double(p.birth) / rates[p.cellIndex] - layer.prewarm
            let then = weatherState(at: born)
            let key = ParticleRandom.key(seed: seeds[p.cellIndex], layer: kind.layerIndex, cell: p.cellIndex,
                                         birth: layer.randomBirth(UInt64(p.birth), of: layer.cells[p.cellIndex]))
            guard ParticleRandom.uniform(key, PrecipitationKind.thinningSlot) < kind.intensity(then.parameters) else { return nil }
            let push = pushes[p.cellIndex]
            p.position += (now.windTravel - then.windTravel) * push
            p.velocity += now.parameters.wind * push
            if p.position.x.isFinite {
                var x = (p.position.x + margin).truncatingRemainder(dividingBy: period)
                if x < 0 { x += period }
                p.position.x = x - margin
            }
            return p
        }
        return (layer, particles)
    }
}

extension PrecipitationKind {
    /// The seed of cell `cell`'s thinning draws (whether a birth falls at the weather's intensity then).
    public func thinningSeed(scene: Scene, cell: Int) -> UInt64 {
        ParticleRandom.mix(scene.seed ^ ParticleRandom.mix(0x5eed_0000 &+ UInt64(cell) &+ UInt64(rawValue) << 8))
    }
}

extension PrecipitationKind {
    /// The hidden emitter Welkin draws this kind with in `scene` over a frame of `frameSize` points
    /// (the scene's size by default), at full intensity, or nil when none can fall. The weather
    /// thins its births by `intensity(_:)` at each birth's time and carries each particle of cell c
    /// by the weather's wind × `windPushes[c]` (`particles(scene:time:frameSize:)`); code export
    /// writes it as a CAEmitterLayer.
    public func emitter(in scene: Scene, frameSize: SIMD2<Int>? = nil) -> EmitterLayer? {
        guard let weather = scene.weather, falls(in: scene) else { return nil }
        return emitter(amount: weather.precipitation.amount(self), frameSize: frameSize ?? scene.size,
                       strongestWind: Self.strongestWind(scene))
    }

    /// Points per second each depth (the emitter's cells, in order) moves per point per second of
    /// the weather's wind.
    public var windPushes: [Double] { cellWindShares.map { $0 * windPush } }

    /// The same per depth, far to near (a depth's cells share its push).
    public var depthWindPushes: [Double] { windShares.map { $0 * windPush } }

    /// The depth (far to near) each of the emitter's cells belongs to.
    public var cellDepths: [Int] { depths.enumerated().flatMap { i, d in Array(repeating: i, count: 1 + d.variants.count) } }
}

extension Frame {
    /// The weather's precipitation layers at `time` (none without weather), over a frame of
    /// `pixelSize` pixels at `scale` pixels per point.
    static func precipitation(scene: Scene, time: Double, pixelSize: SIMD2<Int>, scale: SIMD2<Double>, loop: Double? = nil) -> [any LayerDraw] {
        let points = SIMD2<Double>(Double(pixelSize.x), Double(pixelSize.y)) / scale
        let frameSize = SIMD2<Int>(Int(clamping: Int64(points.x.isFinite ? min(max(points.x.rounded(), 1), Double(Scene.maximumDimension)) : 1)),
                                   Int(clamping: Int64(points.y.isFinite ? min(max(points.y.rounded(), 1), Double(Scene.maximumDimension)) : 1)))
        return PrecipitationKind.allCases.compactMap { kind in
            ParticleDraw.precipitation(kind, scene: scene, time: time, frameSize: frameSize, pixelScale: scale, loop: loop)
        }
    }
}
