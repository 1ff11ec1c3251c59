// The emitter simulation exported files carry for emitters Core Animation cannot say (sway, damping,
// curved over-life ramps, end values, forces, orbits, emission durations, maxParticles): a copy of
// WelkinCore's EmitterSimulation (Sources/WelkinCore/Particles/EmitterSimulation.swift, its births and
// spawn), ParticleRandom, ParticleStore's kernels and ParticleSnapshot's closed forms, with the same
// formulas, Float storage and order of operations. RuntimeTwinTests runs it against WelkinCore
// (CanvasEmitterExport.swift writes the code that drives it; EmitterRuntime.swift has the sprites).

extension RuntimeSupport {
    static let particleSimulation = RuntimeSnippet(name: "particleSimulation", order: 23, requires: ["rgba"], pure: true, source: #"""
    /// Particle Designer's radial mode (Welkin's Orbit): the particle circles the emitter's position.
    private struct WelkinOrbit {
        var radius = 0.0, radiusRange = 0.0
        var endRadius: Double? = nil, endRadiusRange = 0.0
        var speed = 0.0, speedRange = 0.0
    }

    /// One kind of particle (Welkin's EmitterCell, its defaults): a value m with range r samples
    /// m + (2u − 1)·r; emissionRange is the cone's full angle.
    private struct WelkinParticleCell {
        var enabled = true
        var birthRate = 0.0, lifetime = 0.0, lifetimeRange = 0.0
        var velocity = 0.0, velocityRange = 0.0
        var emissionLongitude = 0.0, emissionRange = 0.0
        var xAcceleration = 0.0, yAcceleration = 0.0, windFactor = 1.0, damping = 0.0
        var scale = 1.0, scaleRange = 0.0, scaleSpeed = 0.0
        var spin = 0.0, spinRange = 0.0
        var color = WelkinRGBA(1, 1, 1, 1)
        /// red, green, blue, alpha.
        var colorRange = SIMD4<Double>(0, 0, 0, 0), colorSpeed = SIMD4<Double>(0, 0, 0, 0)
        var swayAmplitude = 0.0, swayFrequency = 1.0, swayEndAmplitude = 1.0
        var endScale: Double? = nil, endScaleRange = 0.0
        var rotation = 0.0, rotationRange = 0.0
        var endRotation: Double? = nil, endRotationRange = 0.0
        var endColor: WelkinRGBA? = nil, endColorRange = SIMD4<Double>(0, 0, 0, 0)
        var radialAcceleration = 0.0, radialAccelerationRange = 0.0
        var tangentialAcceleration = 0.0, tangentialAccelerationRange = 0.0
        var orbit: WelkinOrbit? = nil
        var emissionDuration: Double? = nil
        /// Evenly spaced samples over the normalised age, linearly interpolated.
        var alphaOverLife: [Double]? = nil, scaleOverLife: [Double]? = nil, colorOverLife: [WelkinRGBA]? = nil

        var usesForces: Bool {
            orbit == nil && (radialAcceleration != 0 || radialAccelerationRange != 0
                             || tangentialAcceleration != 0 || tangentialAccelerationRange != 0)
        }

        /// What the colour channels are clamped to: 0…1 widened to take in the cell's colours.
        var channelRange: (low: SIMD4<Double>, high: SIMD4<Double>) {
            var low = SIMD4<Double>(0, 0, 0, 0), high = SIMD4<Double>(1, 1, 1, 1)
            for c in [color] + (endColor.map { [$0] } ?? []) + (colorOverLife ?? []) {
                low = pointwiseMin(low, SIMD4(c.r, c.g, c.b, 0)); high = pointwiseMax(high, SIMD4(c.r, c.g, c.b, 1))
            }
            return (low, high)
        }
    }

    /// An emitter layer (Welkin's EmitterLayer) in a frame of `sceneSize` points.
    private struct WelkinParticleEmitter {
        enum Shape { case point, line, rectangle, circle }
        enum Mode { case points, outline, surface }
        /// Drawing order and blend: oldest (or newest) first within each cell, source-over; or added up.
        enum RenderMode { case oldestFirst, oldestLast, additive }
        var shape = Shape.point, mode = Mode.surface, renderMode = RenderMode.oldestFirst
        /// Unit space.
        var position = SIMD2<Double>(0.5, 0.5), size = SIMD2<Double>(0, 0)
        var birthRate = 1.0, lifetime = 1.0, velocity = 1.0, scale = 1.0, spin = 1.0
        var prewarm = 0.0
        var maxParticles = 100_000
        var cells: [WelkinParticleCell] = []
        /// The scene's seed and wind, the layer's seed and its index in the scene (the random streams' key).
        var sceneSeed: UInt64 = 0, seed: UInt64 = 0, layerIndex = 0
        var wind = SIMD2<Double>(0, 0)
        /// Steps a particle can stay alive (Welkin's SimulationPlan.lifetimeSteps), when simulating
        /// only that many steps before a frame gives exactly the full run's particles; nil: from the start.
        var windowSteps: Int? = nil
    }

    /// Twin of Welkin's ParticleRandom: every random value is a hash of who and what it is.
    private enum WelkinParticleRandom {
        static func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        static func key(seed: UInt64, layer: Int, cell: Int, birth: UInt64) -> UInt64 {
            var h = mix(seed)
            h = mix(h ^ UInt64(truncatingIfNeeded: layer))
            h = mix(h ^ UInt64(truncatingIfNeeded: cell))
            return mix(h ^ birth)
        }

        static func uniform(_ key: UInt64, _ index: UInt64) -> Double {
            Double(mix(key &+ index &* 0xD1B5_4A32_D192_ED03) >> 11) * 0x1p-53
        }

        // Welkin's RandomSlot.
        static let shapeA: UInt64 = 1, shapeB: UInt64 = 2, lifetime: UInt64 = 3, velocity: UInt64 = 4, angle: UInt64 = 5
        static let scale: UInt64 = 6, spin: UInt64 = 7, red: UInt64 = 8, green: UInt64 = 9, blue: UInt64 = 10, alpha: UInt64 = 11
        static let phase: UInt64 = 12, endScale: UInt64 = 13, rotation: UInt64 = 14, endRotation: UInt64 = 15, endRed: UInt64 = 16
        static let endGreen: UInt64 = 17, endBlue: UInt64 = 18, endAlpha: UInt64 = 19, radialAcceleration: UInt64 = 20
        static let tangentialAcceleration: UInt64 = 21, startRadius: UInt64 = 22, endRadius: UInt64 = 23, orbitSpeed: UInt64 = 24
    }

    /// One live particle: Welkin's ParticleStore fields (Float, as there), extras always filled.
    private struct WelkinParticle {
        var position: SIMD2<Float>, velocity: SIMD2<Float>, age: Float, lifetime: Float
        var scale: Float, spin: Float, color: SIMD4<Float>, phase: Float, birth: UInt64
        var endScale: Float, startRotation: Float, endRotation: Float, endColor: SIMD4<Float>
        var radial: Float, tangential: Float, startRadius: Float, endRadius: Float, orbitAngle: Float, orbitSpeed: Float
    }

    /// A particle as drawn: points, radians, straight-alpha sRGB with the over-life ramps applied.
    private struct WelkinShownParticle {
        var position: SIMD2<Double>, velocity: SIMD2<Double>, scale: Double, angle: Double, color: SIMD4<Double>
    }

    /// Twin of Welkin's EmitterSimulation: fixed steps of 1/120 s from the emitter's start, birth k of
    /// a cell at k / birthRate exactly. `advance(to:)` steps on from the last frame (a frame of
    /// playback costs its own steps); going back, or further ahead than `windowSteps`, it starts
    /// afresh `windowSteps` before the target, which gives the same particles.
    private final class WelkinParticleSimulation {
        static let stepsPerSecond = 120
        static let dt = 1.0 / Double(stepsPerSecond)
        static let maximumBirths: UInt64 = 1 << 63

        let emitter: WelkinParticleEmitter
        let sceneSize: SIMD2<Double>
        /// Each cell's live particles, oldest first.
        private(set) var particles: [[WelkinParticle]]
        private(set) var steps = 0
        private var births: [UInt64]
        private let cellSeeds: [UInt64]
        private let ranges: [(low: SIMD4<Double>, high: SIMD4<Double>)]
        /// Per cell: the step's (decay, b, c) and acceleration, as Welkin's StepConstants.
        private let constants: [(decay: Float, b: Float, c: Float, acceleration: SIMD2<Float>)]
        private let centre: SIMD2<Float>

        init(_ emitter: WelkinParticleEmitter, sceneSize: SIMD2<Double>, startStep: Int = 0) {
            self.emitter = emitter
            self.sceneSize = sceneSize
            steps = max(0, startStep)
            particles = emitter.cells.map { _ in [] }
            let start = Double(steps) * Self.dt
            births = emitter.cells.map { cell in
                let rate = cell.birthRate * emitter.birthRate
                return start > 0 && cell.enabled && rate > 0 && rate.isFinite ? Self.firstBirth(atOrAfter: start, rate: rate) : 0
            }
            cellSeeds = emitter.cells.indices.map {
                WelkinParticleRandom.mix(emitter.sceneSeed ^ WelkinParticleRandom.mix(emitter.seed &+ UInt64($0)))
            }
            ranges = emitter.cells.map(\.channelRange)
            constants = emitter.cells.map { cell in
                Self.stepConstants(damping: cell.damping, dt: Self.dt,
                                   acceleration: SIMD2(cell.xAcceleration, cell.yAcceleration) + emitter.wind * cell.windFactor)
            }
            centre = SIMD2<Float>(emitter.position * sceneSize)
        }

        /// Welkin's StepConstants: the exact integrator of dv/dt = a − k·v over dt, in Float.
        static func stepConstants(damping k: Double, dt: Double, acceleration: SIMD2<Double>) -> (decay: Float, b: Float, c: Float, acceleration: SIMD2<Float>) {
            if k > 0 {
                let e = exp(-k * dt)
                return (Float(e), Float((1 - e) / k), Float((dt - (1 - e) / k) / k), SIMD2<Float>(acceleration))
            }
            return (1, Float(dt), Float(dt * dt / 2), SIMD2<Float>(acceleration))
        }

        /// The step count that shows scene time `time`.
        static func steps(at time: Double, prewarm: Double) -> Int {
            let t = (time + prewarm) * Double(stepsPerSecond)
            guard t > 0 else { return 0 }
            return Int(min(t + 1e-7, Double(Int32.max)).rounded(.down))
        }

        /// The simulation showing scene time `time`: this one stepped on, or a fresh one.
        func advanced(toTime time: Double) -> WelkinParticleSimulation {
            let target = Self.steps(at: time, prewarm: emitter.prewarm)
            var simulation = self
            if target < steps || emitter.windowSteps.map({ target - steps > $0 }) == true {
                simulation = WelkinParticleSimulation(emitter, sceneSize: sceneSize, startStep: max(0, target - (emitter.windowSteps ?? target)))
            }
            while simulation.steps < target { simulation.step() }
            return simulation
        }

        /// One step: move every particle, remove the dead, then add the step's births.
        func step() {
            let dt = Float(Self.dt)
            for c in particles.indices {
                let k = constants[c], cell = emitter.cells[c]
                var anyDead = false
                for i in particles[c].indices {
                    var p = particles[c][i]
                    if let _ = cell.orbit {
                        p.age = p.age + dt
                        p = Self.orbit(p, centre: centre)
                    } else {
                        var a = k.acceleration
                        if cell.usesForces {
                            let d = p.position - centre
                            let length = (d * d).sum().squareRoot()
                            let n = length > 0 ? d / length : SIMD2<Float>(0, 0)
                            a = k.acceleration + n * p.radial + SIMD2(-n.y, n.x) * p.tangential
                        }
                        p.position = p.position + p.velocity * k.b + a * k.c
                        p.velocity = p.velocity * k.decay + a * k.b
                        p.age = p.age + dt
                    }
                    if p.age >= p.lifetime { anyDead = true }
                    particles[c][i] = p
                }
                if anyDead { particles[c].removeAll { !($0.age < $0.lifetime) } }
            }
            steps += 1
            emitBirths()
        }

        /// Welkin's ParticleKernel.orbit: radius linear over the life, angle advancing at its speed.
        static func orbit(_ p: WelkinParticle, centre: SIMD2<Float>) -> WelkinParticle {
            var q = p
            let u = p.lifetime > 0 ? min(p.age / p.lifetime, 1) : 1
            let r = p.startRadius + (p.endRadius - p.startRadius) * u
            let radiusRate = p.lifetime > 0 ? (p.endRadius - p.startRadius) / p.lifetime : 0
            let theta = Double(p.orbitAngle) + Double(p.orbitSpeed) * Double(p.age)
            let direction = SIMD2<Float>(Float(cos(theta)), Float(sin(theta)))
            let tangent = SIMD2(-direction.y, direction.x)
            q.position = centre + direction * r
            q.velocity = direction * radiusRate + tangent * (r * p.orbitSpeed)
            return q
        }

        /// Births in the step just finished; births that die within it, and births past a full layer, are jumped over.
        private func emitBirths() {
            let end = Double(steps) * Self.dt
            var live = particles.reduce(0) { $0 + $1.count }
            for (c, cell) in emitter.cells.enumerated() where cell.enabled {
                let rate = cell.birthRate * emitter.birthRate
                guard rate > 0, rate.isFinite, Double(births[c]) / rate < end else { continue }
                let stop = cell.emissionDuration.map { min(end, $0) } ?? end
                guard Double(births[c]) / rate < stop else { continue }
                let oldest = end - max(0, cell.lifetime + cell.lifetimeRange) * emitter.lifetime * (1 + 1e-9) - Self.dt * 1e-6
                if oldest > 0, Double(births[c]) / rate < oldest, live < emitter.maxParticles {
                    births[c] = max(births[c], Self.firstBirth(atOrAfter: oldest, rate: rate))
                }
                while true {
                    let k = births[c]
                    let born = Double(k) / rate
                    guard born < stop, k < Self.maximumBirths else { break }
                    if live >= emitter.maxParticles {
                        births[c] = Self.firstBirth(atOrAfter: stop, rate: rate)
                        break
                    }
                    births[c] = k + 1
                    if let p = spawn(c, birth: k, age: end - born) { particles[c].append(p); live += 1 }
                }
            }
        }

        static func firstBirth(atOrAfter time: Double, rate: Double) -> UInt64 {
            guard time > 0 else { return 0 }
            let estimate = (time * rate).rounded(.up)
            guard estimate < Double(maximumBirths) else { return maximumBirths }
            var k = UInt64(estimate)
            while k > 0 && Double(k - 1) / rate >= time { k -= 1 }
            while k < maximumBirths && Double(k) / rate < time { k += 1 }
            return k
        }

        /// Birth `k` of cell `c`, `age` seconds old at the end of the step; nil when it dies sooner.
        private func spawn(_ c: Int, birth k: UInt64, age: Double) -> WelkinParticle? {
            typealias R = WelkinParticleRandom
            let cell = emitter.cells[c]
            let key = R.key(seed: cellSeeds[c], layer: emitter.layerIndex, cell: c, birth: k)
            func u(_ slot: UInt64) -> Double { R.uniform(key, slot) }
            func sample(_ mean: Double, _ range: Double, _ slot: UInt64) -> Double { mean + (2 * u(slot) - 1) * range }

            let lifetime = max(0, sample(cell.lifetime, cell.lifetimeRange, R.lifetime)) * emitter.lifetime
            guard age < lifetime else { return nil }
            let position = birthPosition(u(R.shapeA), u(R.shapeB))
            let speed = sample(cell.velocity, cell.velocityRange, R.velocity) * emitter.velocity
            let angle = cell.emissionLongitude + (u(R.angle) - 0.5) * cell.emissionRange
            let velocity0 = SIMD2(cos(angle), sin(angle)) * speed
            let scale = max(0, sample(cell.scale, cell.scaleRange, R.scale))
            let spin = sample(cell.spin, cell.spinRange, R.spin) * emitter.spin
            let bounds = ranges[c]
            func channel(_ m: Double, _ r: Double, _ slot: UInt64, _ i: Int) -> Float {
                Float(min(max(sample(m, r, slot), bounds.low[i]), bounds.high[i]))
            }
            let color = SIMD4(channel(cell.color.r, cell.colorRange.x, R.red, 0), channel(cell.color.g, cell.colorRange.y, R.green, 1),
                              channel(cell.color.b, cell.colorRange.z, R.blue, 2), channel(cell.color.a, cell.colorRange.w, R.alpha, 3))
            let phase = Float(u(R.phase) * 2 * Double.pi)

            // The rest of the step, with the same exact integrator as every whole step.
            let rest = Self.stepConstants(damping: cell.damping, dt: age, acceleration: SIMD2(0, 0))
            let a = SIMD2<Double>(constants[c].acceleration)
            var p = position + velocity0 * Double(rest.b) + a * Double(rest.c)
            var velocity = velocity0 * Double(rest.decay) + a * Double(rest.b)

            let rotation = sample(cell.rotation, cell.rotationRange, R.rotation)
            let end = cell.endColor.map {
                SIMD4(channel($0.r, cell.endColorRange.x, R.endRed, 0), channel($0.g, cell.endColorRange.y, R.endGreen, 1),
                      channel($0.b, cell.endColorRange.z, R.endBlue, 2), channel($0.a, cell.endColorRange.w, R.endAlpha, 3))
            } ?? color
            var particle = WelkinParticle(
                position: .zero, velocity: .zero, age: Float(age), lifetime: Float(lifetime), scale: Float(scale), spin: Float(spin),
                color: color, phase: phase, birth: k,
                endScale: cell.endScale.map { Float(max(0, sample($0, cell.endScaleRange, R.endScale))) } ?? Float(scale),
                startRotation: Float(rotation),
                endRotation: cell.endRotation.map { Float(sample($0, cell.endRotationRange, R.endRotation)) } ?? Float(rotation),
                endColor: end, radial: 0, tangential: 0, startRadius: 0, endRadius: 0, orbitAngle: 0, orbitSpeed: 0)
            if cell.usesForces {
                particle.radial = Float(sample(cell.radialAcceleration, cell.radialAccelerationRange, R.radialAcceleration))
                particle.tangential = Float(sample(cell.tangentialAcceleration, cell.tangentialAccelerationRange, R.tangentialAcceleration))
                var k = rest
                k.acceleration = constants[c].acceleration
                let start = SIMD2<Float>(position)
                let d = start - centre
                let length = (d * d).sum().squareRoot()
                let n = length > 0 ? d / length : SIMD2<Float>(0, 0)
                let a = k.acceleration + n * particle.radial + SIMD2(-n.y, n.x) * particle.tangential
                p = SIMD2<Double>(start + SIMD2<Float>(velocity0) * k.b + a * k.c)
                velocity = SIMD2<Double>(SIMD2<Float>(velocity0) * k.decay + a * k.b)
            }
            particle.position = SIMD2<Float>(p)
            particle.velocity = SIMD2<Float>(velocity)
            if let orbit = cell.orbit {
                particle.startRadius = Float(sample(orbit.radius, orbit.radiusRange, R.startRadius))
                particle.endRadius = orbit.endRadius.map { Float(sample($0, orbit.endRadiusRange, R.endRadius)) } ?? particle.startRadius
                particle.orbitSpeed = Float(sample(orbit.speed, orbit.speedRange, R.orbitSpeed))
                particle.orbitAngle = Float(angle)
                particle = Self.orbit(particle, centre: centre)
            }
            return particle
        }

        /// Where a particle is born, in points, from two uniform numbers.
        func birthPosition(_ a: Double, _ b: Double) -> SIMD2<Double> {
            let center = emitter.position * sceneSize
            let half = emitter.size * sceneSize / 2
            switch (emitter.shape, emitter.mode) {
            case (.point, _), (.circle, .points):
                return center
            case (.line, .points):
                return center + SIMD2(a < 0.5 ? -half.x : half.x, 0)
            case (.line, _):
                return center + SIMD2((a - 0.5) * 2 * half.x, 0)
            case (.rectangle, .points):
                let corner = Int(a * 4)
                return center + SIMD2(corner & 1 == 0 ? -half.x : half.x, corner & 2 == 0 ? -half.y : half.y)
            case (.rectangle, .outline):
                let perimeter = 4 * (half.x + half.y)
                guard perimeter > 0 else { return center }
                var d = a * perimeter
                if d < 2 * half.x { return center + SIMD2(-half.x + d, -half.y) }
                d -= 2 * half.x
                if d < 2 * half.y { return center + SIMD2(half.x, -half.y + d) }
                d -= 2 * half.y
                if d < 2 * half.x { return center + SIMD2(half.x - d, half.y) }
                d -= 2 * half.x
                return center + SIMD2(-half.x, half.y - d)
            case (.rectangle, .surface):
                return center + SIMD2((a - 0.5) * 2 * half.x, (b - 0.5) * 2 * half.y)
            case (.circle, let mode):
                let radius = emitter.size.x * sceneSize.x / 2
                let r = mode == .outline ? radius : radius * a.squareRoot()
                let theta = (mode == .outline ? a : b) * 2 * Double.pi
                return center + SIMD2(cos(theta), sin(theta)) * r
            }
        }

        /// Linear interpolation of evenly spaced samples at u in 0…1 (Welkin's Ramp.evaluate).
        static func ramp<V>(_ values: [V], _ u: Double, _ mix: (V, V, Double) -> V) -> V {
            let n = values.count
            if n == 1 { return values[0] }
            let x = (u > 0 ? min(u, 1) : 0) * Double(n - 1)
            let i = min(Int(x), n - 2)
            return mix(values[i], values[i + 1], x - Double(i))
        }

        /// What particle `p` of cell `c` shows (Welkin's ParticleSnapshot): sway, start → end values,
        /// speeds and over-life ramps.
        func shown(_ p: WelkinParticle, cell c: Int) -> WelkinShownParticle {
            let cell = emitter.cells[c]
            let age = Double(p.age), lifetime = Double(p.lifetime)
            let u = lifetime > 0 ? min(age / lifetime, 1) : 1
            var position = SIMD2(Double(p.position.x), Double(p.position.y))
            if cell.swayAmplitude != 0 {
                let amplitude = cell.swayAmplitude * (1 + (cell.swayEndAmplitude - 1) * u)
                position.x += amplitude * cos(2 * Double.pi * cell.swayFrequency * age + Double(p.phase))
            }
            func interpolate(_ start: Float, _ end: Float) -> Double {
                let a = Double(start)
                return a + (Double(end) - a) * u
            }
            var scale = emitter.scale * max(0, interpolate(p.scale, p.endScale) + cell.scaleSpeed * age)
            if let r = cell.scaleOverLife { scale *= max(0, Self.ramp(r, u) { $0 + ($1 - $0) * $2 }) }
            let bounds = ranges[c]
            func clamp(_ v: SIMD4<Double>) -> SIMD4<Double> { v.clamped(lowerBound: bounds.low, upperBound: bounds.high) }
            var color = clamp(SIMD4(interpolate(p.color.x, p.endColor.x), interpolate(p.color.y, p.endColor.y),
                                    interpolate(p.color.z, p.endColor.z), interpolate(p.color.w, p.endColor.w)) + cell.colorSpeed * age)
            if let r = cell.colorOverLife {
                color *= Self.ramp(r.map { SIMD4($0.r, $0.g, $0.b, $0.a) }, u) { $0 + ($1 - $0) * $2 }
            }
            let angle = Double(p.spin) * age + interpolate(p.startRotation, p.endRotation)
            if let r = cell.alphaOverLife { color.w *= min(max(Self.ramp(r, u) { $0 + ($1 - $0) * $2 }, 0), 1) }
            return WelkinShownParticle(position: position, velocity: SIMD2(Double(p.velocity.x), Double(p.velocity.y)),
                                       scale: scale, angle: angle, color: clamp(color))
        }
    }
    """#)

    static let particleCanvas = RuntimeSnippet(name: "particleCanvas", order: 24, requires: ["particleSimulation", "spriteImage"], pure: false, source: #"""
    /// How a cell's particles look in the Canvas.
    private enum WelkinCanvasSprite {
        /// Welkin's procedural sprite of `size` points (at scale 1) and `blur` points.
        case procedural(WelkinSpriteKind, size: Double, blur: Double)
        /// A capsule `width` points wide along the velocity, as long as `duration` seconds of motion more.
        case streak(width: Double, duration: Double)
        /// The named image of the asset catalog, `size` points wide, `aspect` × that high.
        case image(String, size: Double, aspect: Double)
    }

    /// Where `.image` sprites are looked up: the app's main bundle (nil); a package's view loads
    /// them from its own resources (`Bundle.module`).
    private let welkinImageBundle: Bundle? = nil

    /// The simulation a Canvas steps from frame to frame (a class: the Canvas keeps it between frames).
    private final class WelkinParticleCanvasState {
        var simulation: WelkinParticleSimulation?
        var images: [CGImage?]?
    }

    /// An emitter drawn the way seed 004 draws its fire: a Canvas in a TimelineView showing the exported
    /// simulation at the scene time, each particle its cell's sprite translated, rotated, scaled and
    /// tinted, in Welkin's order and blend. The simulation runs in the Canvas's own points, so at the
    /// scene's size the particles are Welkin's.
    @available(iOS 15.0, macOS 12.0, *)
    private struct WelkinParticleCanvas: View {
        let emitter: WelkinParticleEmitter
        let sprites: [WelkinCanvasSprite]
        /// Scene time 0.
        let start: Date
        @State private var state = WelkinParticleCanvasState()

        var body: some View {
            TimelineView(.animation) { timeline in
                Canvas { context, size in
                    draw(in: &context, size: size, time: timeline.date.timeIntervalSince(start))
                }
            }
            // Additive particles add onto what lies below, as in Welkin's frame.
            .blendMode(emitter.renderMode == .additive ? .plusLighter : .normal)
        }

        private func draw(in context: inout GraphicsContext, size: CGSize, time: Double) {
            let points = SIMD2(Double(size.width), Double(size.height))
            var simulation = state.simulation ?? WelkinParticleSimulation(emitter, sceneSize: points)
            if simulation.sceneSize != points { simulation = WelkinParticleSimulation(emitter, sceneSize: points) }
            simulation = simulation.advanced(toTime: time)
            state.simulation = simulation
            let images = state.images ?? sprites.map { sprite -> CGImage? in
                guard case .procedural(let kind, let size, let blur) = sprite else { return nil }
                return welkinSpriteImage(kind, size: [size, size], blur: blur)
            }
            state.images = images
            context.blendMode = emitter.renderMode == .additive ? .plusLighter : .normal
            for (c, cellParticles) in simulation.particles.enumerated() {
                let order = emitter.renderMode == .oldestLast ? Array(cellParticles.reversed()) : cellParticles
                var resolved: GraphicsContext.ResolvedImage?
                switch sprites[c] {
                case .procedural:
                    resolved = images[c].map { context.resolve(Image(decorative: $0, scale: welkinSpriteScale).renderingMode(.template)) }
                case .image(let name, _, _):
                    resolved = context.resolve(Image(name, bundle: welkinImageBundle))
                case .streak:
                    resolved = nil
                }
                for particle in order {
                    let p = simulation.shown(particle, cell: c)
                    guard p.color.w > 0, p.scale > 0 else { continue }
                    let color = Color(.sRGB, red: p.color.x, green: p.color.y, blue: p.color.z)
                    var g = context
                    g.opacity = p.color.w
                    g.translateBy(x: CGFloat(p.position.x), y: CGFloat(p.position.y))
                    switch sprites[c] {
                    case .procedural:
                        guard var image = resolved, let pixels = images[c] else { continue }
                        image.shading = .color(color)
                        g.rotate(by: Angle(radians: p.angle))
                        let w = CGFloat(pixels.width) / welkinSpriteScale * CGFloat(p.scale)
                        let h = CGFloat(pixels.height) / welkinSpriteScale * CGFloat(p.scale)
                        g.draw(image, in: CGRect(x: -w / 2, y: -h / 2, width: w, height: h))
                    case .image(_, let size, let aspect):
                        guard let image = resolved else { continue }
                        g.addFilter(.colorMultiply(color))
                        g.rotate(by: Angle(radians: p.angle))
                        let w = CGFloat(size * p.scale), h = CGFloat(size * p.scale * aspect)
                        g.draw(image, in: CGRect(x: -w / 2, y: -h / 2, width: w, height: h))
                    case .streak(let width, let duration):
                        // Along the velocity, fading in from the tail (Welkin's streak coverage).
                        let speed = (p.velocity * p.velocity).sum().squareRoot()
                        let w = CGFloat(width * p.scale), l = w + CGFloat(speed * duration)
                        if speed > 0 { g.rotate(by: Angle(radians: atan2(p.velocity.y, p.velocity.x))) }
                        let capsule = Path(roundedRect: CGRect(x: -l / 2, y: -w / 2, width: l, height: w), cornerRadius: w / 2, style: .circular)
                        let tail = Color(.sRGB, red: p.color.x, green: p.color.y, blue: p.color.z, opacity: 0)
                        g.fill(capsule, with: .linearGradient(Gradient(colors: [tail, color]),
                                                              startPoint: CGPoint(x: -l / 2, y: 0), endPoint: CGPoint(x: l / 2, y: 0)))
                    }
                }
            }
        }
    }
    """#)
}
