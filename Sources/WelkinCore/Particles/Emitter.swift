// The `emitter` layer: Core Animation's CAEmitterLayer and CAEmitterCell, as scene values.
//
// Every default lives here, next to the property that owns it (docs/particles.md lists them).
// Where Welkin goes beyond Core Animation (sprites drawn procedurally, sway, over-life ramps,
// damping, wind) the extra properties default to "no effect".

/// Where an emitter places new particles.
public enum EmitterShape: String, Sendable, Hashable, CaseIterable {
    case point, line, rectangle, circle
}

/// Which part of the shape emits: its vertices, its outline, or its whole surface.
public enum EmitterMode: String, Sendable, Hashable, CaseIterable {
    case points, outline, surface
}

/// The order particles are composited in.
public enum EmitterRenderMode: String, Sendable, Hashable, CaseIterable {
    /// Within each cell, the oldest particle is drawn first (newest on top); source-over.
    case oldestFirst
    /// Within each cell, the newest particle is drawn first (oldest on top); source-over.
    case oldestLast
    /// Premultiplied colours add up (blend ONE, ONE): SwiftUI's plusLighter.
    case additive
}

/// How a particle looks. The procedural sprites are drawn by the same functions on the GPU
/// (Shaders/sprite.glsl) and the CPU (SpriteShape.swift).
public enum SpriteKind: String, Sendable, Hashable, CaseIterable {
    /// An antialiased disc.
    case dot
    /// A disc blurred with a Gaussian of standard deviation `blur`.
    case softDot
    /// A six-armed snowflake.
    case flake
    /// A capsule aligned to the velocity, its length growing with speed (rain).
    case streak
    /// Three soft overlapping puffs.
    case cloud
    /// A PNG image (`image`), bilinearly sampled.
    case image

    /// The shaders' integer code (`SPRITE_*` in sprite.glsl).
    public var code: Int32 {
        switch self {
        case .dot: return 0
        case .softDot: return 1
        case .flake: return 2
        case .streak: return 3
        case .cloud: return 4
        case .image: return 5
        }
    }
}

/// A horizontal cosine offset around the ballistic path (seed 004's flickering flame).
public struct Sway: Sendable, Hashable {
    /// Points, at birth.
    public var amplitude: Double = 0
    /// Cycles per second.
    public var frequency: Double = 1
    /// The amplitude at the end of life as a fraction of `amplitude` (linear in normalised age).
    public var endAmplitude: Double = 1

    public init(amplitude: Double = 0, frequency: Double = 1, endAmplitude: Double = 1) {
        self.amplitude = amplitude; self.frequency = frequency; self.endAmplitude = endAmplitude
    }
}

/// A cell whose particles circle the emitter's position instead of flying (Particle Designer's
/// radial emitter): a particle starts at the emission angle, at `radius` from the centre; its
/// distance goes linearly to `endRadius` over its life while its angle advances by `speed`.
public struct Orbit: Sendable, Hashable {
    /// Points from the emitter's position at birth.
    public var radius: Double = 0
    public var radiusRange: Double = 0
    /// Points at the end of life; nil: the particle's start radius (a circle).
    public var endRadius: Double? = nil
    public var endRadiusRange: Double = 0
    /// Radians per second; positive turns clockwise on screen.
    public var speed: Double = 0
    public var speedRange: Double = 0

    public init() {}
}

/// A value over a particle's normalised age 0…1: evenly spaced samples, linearly interpolated.
public struct Ramp<Value: Sendable & Hashable>: Sendable, Hashable {
    public var values: [Value]
    public init(_ values: [Value]) { self.values = values }
}

/// One kind of particle (CAEmitterCell). A scalar mean m with its range r samples uniformly from
/// [m − r, m + r], Core Animation's "value ± range" (Apple: a lifetime of 10 s with a lifetimeRange
/// of 3 s lives between 7 and 13 s). `emissionRange` is the one exception: it is the full angle of
/// the emission cone, so directions lie in emissionLongitude ± emissionRange/2 (docs/particles.md
/// gives the sources for both).
public struct EmitterCell: Sendable, Hashable {
    public var name: String = "cell"
    public var enabled: Bool = true
    /// Particles per second.
    public var birthRate: Double = 0
    /// Seconds.
    public var lifetime: Double = 0
    public var lifetimeRange: Double = 0
    /// Points per second.
    public var velocity: Double = 0
    public var velocityRange: Double = 0
    /// Radians, 0 = +x, y down (−π/2 is up).
    public var emissionLongitude: Double = 0
    /// Radians, the full angle of the cone (directions in emissionLongitude ± emissionRange/2).
    public var emissionRange: Double = 0
    /// Points per second².
    public var xAcceleration: Double = 0
    public var yAcceleration: Double = 0
    public var scale: Double = 1
    public var scaleRange: Double = 0
    /// Scale change per second.
    public var scaleSpeed: Double = 0
    /// Radians per second.
    public var spin: Double = 0
    public var spinRange: Double = 0
    /// sRGB, straight alpha.
    public var color: RGBA = .white
    public var redRange: Double = 0
    public var greenRange: Double = 0
    public var blueRange: Double = 0
    public var alphaRange: Double = 0
    /// Change per second of each component (clamped to `channelRange`: 0…1 for sRGB colours).
    public var redSpeed: Double = 0
    public var greenSpeed: Double = 0
    public var blueSpeed: Double = 0
    public var alphaSpeed: Double = 0

    public var sprite: SpriteKind = .dot
    /// Absolute path of the PNG when `sprite` is `.image`.
    public var imagePath: String? = nil
    /// The PNG's width and height in pixels (read from its header at load time).
    public var imageSize: SIMD2<Int>? = nil
    /// The sprite's size in points at scale 1 (Core Animation's image size). For `.image`,
    /// the default is the image's own size.
    public var spriteSize: Double = EmitterCell.defaultSpriteSize
    /// softDot and cloud: Gaussian standard deviation in points at scale 1.
    public var blur: Double = 0
    /// streak: seconds of motion the streak covers (its length is spriteSize + speed × this).
    public var streakDuration: Double = EmitterCell.defaultStreakDuration

    public var sway: Sway = Sway()
    // Start → end interpolation per particle, linear in normalised age (Particle Designer's
    // start/finish values, each with its own ± range). nil: the particle's start value throughout.
    public var endScale: Double? = nil
    public var endScaleRange: Double = 0
    /// The sprite's angle at birth, radians (clockwise on screen).
    public var rotation: Double = 0
    public var rotationRange: Double = 0
    public var endRotation: Double? = nil
    public var endRotationRange: Double = 0
    public var endColor: RGBA? = nil
    public var endRedRange: Double = 0
    public var endGreenRange: Double = 0
    public var endBlueRange: Double = 0
    public var endAlphaRange: Double = 0
    /// Points per second², away from the emitter's position (negative pulls towards it).
    public var radialAcceleration: Double = 0
    public var radialAccelerationRange: Double = 0
    /// Points per second², perpendicular to the radial direction, clockwise on screen.
    public var tangentialAcceleration: Double = 0
    public var tangentialAccelerationRange: Double = 0
    /// Radial mode: particles circle the emitter's position (velocity, accelerations, damping and
    /// wind do not apply).
    public var orbit: Orbit? = nil
    /// Seconds of emitter time the cell emits for, from the emitter's start; nil: forever.
    public var emissionDuration: Double? = nil

    public var alphaOverLife: Ramp<Double>? = nil
    public var scaleOverLife: Ramp<Double>? = nil
    /// Multiplies the particle's colour (all four components).
    public var colorOverLife: Ramp<RGBA>? = nil
    /// 1/s: velocity relaxes as dv/dt = a − damping · v.
    public var damping: Double = 0
    /// How strongly the scene's `wind` pushes this cell.
    public var windFactor: Double = 1

    public static let defaultSpriteSize = 16.0
    public static let defaultStreakDuration = 1.0 / 30

    public init() {}

    /// What the particles' colour components are clamped to (Core Animation's 0…1): per channel,
    /// 0…1 widened to take in the cell's colours (`color`, `endColor`, `colorOverLife`), so a colour
    /// written in Display P3 outside sRGB keeps its extended-sRGB components. Alpha stays 0…1.
    public var channelRange: (low: SIMD4<Double>, high: SIMD4<Double>) {
        var low = SIMD4<Double>(0, 0, 0, 0), high = SIMD4<Double>(1, 1, 1, 1)
        for c in [color] + (endColor.map { [$0] } ?? []) + (colorOverLife?.values ?? []) {
            let v = SIMD4(c.r, c.g, c.b, 0)
            low = pointwiseMin(low, v); high = pointwiseMax(high, SIMD4(c.r, c.g, c.b, 1))
        }
        return (low, high)
    }

    /// Core Animation's `value ± range`: a uniform u in [0, 1) mapped onto [mean − range, mean + range].
    public static func spread(_ mean: Double, _ range: Double, _ u: Double) -> Double {
        mean + (2 * u - 1) * range
    }

    /// The emission direction for a uniform u in [0, 1): the cone's full angle `emissionRange`,
    /// centred on `emissionLongitude`.
    public func emissionAngle(_ u: Double) -> Double {
        emissionLongitude + (u - 0.5) * emissionRange
    }

    /// Whether particles carry per-particle start → end values, radial/tangential accelerations or
    /// an orbit (`ParticleStore.Extra`): cells without them keep the 56-byte particle and the fast kernel.
    public var usesExtras: Bool {
        endScale != nil || rotation != 0 || rotationRange != 0 || endRotation != nil || endColor != nil
            || usesForces || orbit != nil
    }

    /// Whether the acceleration depends on the particle's position (radial or tangential).
    public var usesForces: Bool {
        orbit == nil && (radialAcceleration != 0 || radialAccelerationRange != 0
                         || tangentialAcceleration != 0 || tangentialAccelerationRange != 0)
    }

    /// The longest lifetime a particle of this cell can sample, in seconds (before the layer's multiplier).
    public var longestLifetime: Double { lifetime + lifetimeRange }
}

/// A particle emitter layer (CAEmitterLayer).
public struct EmitterLayer: Sendable, Hashable {
    public var shape: EmitterShape = .point
    public var mode: EmitterMode = .surface
    /// Unit space.
    public var position: UnitPoint = [0.5, 0.5]
    /// Unit space: a line spans position.x ± size.x/2; a circle's radius is size.x/2 of the frame width.
    public var size: SIMD2<Double> = [0, 0]
    // Layer multipliers of the cells' values.
    public var birthRate: Double = 1
    public var lifetime: Double = 1
    public var velocity: Double = 1
    public var scale: Double = 1
    public var spin: Double = 1
    /// Seconds the emitter has already run at t = 0 (Core Animation's timeOffset trick).
    public var prewarm: Double = 0
    /// Mixed with the scene's seed.
    public var seed: UInt64 = 0
    public var renderMode: EmitterRenderMode = .oldestFirst
    /// Live particles at most, per layer; births beyond it are dropped.
    public var maxParticles: Int = EmitterLayer.defaultMaxParticles
    public var cells: [EmitterCell] = []
    /// Births repeat every this many seconds (`welkin export --loop`; not a scene key): each cell
    /// emits a whole number of births a period (its rate × the period, rounded, at least one) evenly
    /// spread over it, and birth k takes birth (k mod that number)'s random values, so the particles
    /// at t + period are the particles at t (the state is periodic once the oldest particle alive
    /// was born a period or more after the emitter started). nil: births as the cells ask.
    public var loopPeriod: Double?

    public static let defaultMaxParticles = 100_000
    /// The most `maxParticles` may be (bounds memory: 56 bytes each).
    public static let maximumParticles = 1_000_000
    /// The most births a second one cell may have with the layer's multiplier (cell birthRate ×
    /// layer birthRate).
    public static let maximumEffectiveBirthRate = 10_000_000.0
    /// The longest a particle may live with the layer's multiplier ((cell lifetime + lifetimeRange)
    /// × layer lifetime), in seconds: 8 h 20 min.
    public static let maximumEffectiveLifetime = 30_000.0
    /// The longest `prewarm`, in seconds (prewarming costs simulation time).
    public static let maximumPrewarm = 3600.0
    /// The largest PNG a sprite may be, per side.
    public static let maximumImageDimension = 4096

    public init() {}

    /// At most about how many particles of `cell` are alive in the steady state: birth rate × the
    /// longest lifetime. Sizes the particle store and the `maxParticles` warning, so no birth is
    /// dropped without that warning.
    public func steadyStateBound(_ cell: EmitterCell) -> Double {
        cell.birthRate * birthRate * cell.longestLifetime * lifetime
    }

    /// The layer repeating its births every `period` seconds (nil: as it is). Its prewarm grows to
    /// its longest lifetime and a period more, so even the frames a period before the clip's start
    /// (a loop's cross-fade) hold every particle whose twin the clip shows: a particle alive at t + L
    /// was born at most a lifetime before, and its twin a period earlier must be after the start.
    public func looping(_ period: Double?) -> EmitterLayer {
        guard let period, period > 0, period.isFinite else { return self }
        var layer = self
        layer.loopPeriod = period
        let longest = cells.filter(\.enabled).map { EmitterSimulation.longestLifetime($0, self) }.max() ?? 0
        layer.prewarm = max(prewarm, longest) + period
        return layer
    }

    /// `cell`'s births a second with the layer's multiplier; over a loop (`loopPeriod`) the whole
    /// number of births a period it makes, over the period.
    public func birthRate(of cell: EmitterCell) -> Double {
        let rate = cell.birthRate * birthRate
        guard let period = loopPeriod, let n = Self.birthsPerPeriod(rate, period) else { return rate }
        return Double(n) / period
    }

    /// The birth whose random values birth k of `cell` takes: k, or over a loop k mod the births a period.
    public func randomBirth(_ k: UInt64, of cell: EmitterCell) -> UInt64 {
        guard let period = loopPeriod, let n = Self.birthsPerPeriod(cell.birthRate * birthRate, period) else { return k }
        return k % n
    }

    /// A rate's births a period (rounded, at least one); nil when it makes no loop (no births, no period).
    static func birthsPerPeriod(_ rate: Double, _ period: Double) -> UInt64? {
        guard period > 0, period.isFinite, rate > 0, rate.isFinite else { return nil }
        return UInt64(min(max((rate * period).rounded(), 1), Double(EmitterSimulation.maximumBirths)))
    }
}
