// EmitterSimulation: one emitter layer advanced in fixed steps of 1/120 s from its start.
//
// The emitter starts `prewarm` seconds before scene time 0, so "scene time t" is emitter time
// t + prewarm, and the state at scene time t is the state after floor((t + prewarm) · 120) steps.
// Birth k of a cell happens at emitter time k / birthRate exactly; a particle born inside a step
// is advanced by the rest of that step with the same exact integrator, so births do not bunch
// at step boundaries. Every random value is a hash (ParticleRandom), so the state after N steps
// does not depend on how the steps were batched, cached or threaded.
//
// A frame simulates a bounded window of history, never the whole of a huge scene time
// (`SimulationPlan`): a particle lives at most its cell's longest lifetime, so an emitter that can
// never reach `maxParticles` is simulated exactly from one such lifetime before the frame; any
// other is simulated from at most a work budget's worth of steps back (docs/robustness.md).

import Dispatch
import Foundation
import Synchronization

/// The simulation of one emitter layer: its cells' particles after `steps` steps.
public final class EmitterSimulation {
    public static let stepsPerSecond = 120
    public static let dt = 1.0 / Double(stepsPerSecond)

    public let layer: EmitterLayer
    /// The layer's index in the scene (part of every particle's random key).
    public let layerIndex: Int
    /// The frame size in points (emitter positions are unit space).
    public let sceneSize: SIMD2<Double>
    public let seed: UInt64
    public let wind: SIMD2<Double>

    /// One store per cell, in the layer's cell order.
    public private(set) var stores: [ParticleStore]
    /// Cells with at least this many particles split their update across threads.
    public var parallelThreshold = 65_536
    /// Steps done since the emitter started.
    public private(set) var steps = 0
    /// The step this simulation started from, empty (0 unless it simulates a window; see `SimulationPlan`).
    public let startStep: Int
    /// Births so far per cell (the next birth's number).
    public private(set) var births: [UInt64]
    /// Births dropped because the layer held `maxParticles`.
    public private(set) var droppedBirths = 0
    /// Jump over births that die in their step, and over the rest of a step's births once the layer
    /// is full (`emitBirths`). Tests turn it off to compare with the one-by-one loop.
    var jumpsOverBirths = true

    private let constants: [StepConstants]
    private let kinematics: [CellKinematics]
    private let cellSeeds: [UInt64]
    /// Each cell's `EmitterCell.channelRange`: what its colour channels are clamped to.
    let channelRanges: [(low: SIMD4<Double>, high: SIMD4<Double>)]

    /// A simulation with no particles at step `startStep` (0: the emitter's start). From a later
    /// step, each cell's birth count is set to the births before it, so birth k keeps its time and
    /// random values, and any particle born after `startStep` is exactly the full simulation's.
    public init(layer: EmitterLayer, layerIndex: Int, sceneSize: SIMD2<Int>, seed: UInt64, wind: SIMD2<Double>,
                startStep: Int = 0) {
        self.layer = layer
        self.startStep = max(0, startStep)
        steps = self.startStep
        self.layerIndex = layerIndex
        self.sceneSize = SIMD2(Double(sceneSize.x), Double(sceneSize.y))
        self.seed = seed
        self.wind = wind
        stores = layer.cells.map { ParticleStore(extras: $0.usesExtras) }
        let start = Double(self.startStep) * Self.dt
        births = layer.cells.map { cell in
            let rate = layer.birthRate(of: cell)
            return start > 0 && cell.enabled && rate > 0 && rate.isFinite ? Self.firstBirth(atOrAfter: start, rate: rate) : 0
        }
        constants = layer.cells.map { cell in
            let a = SIMD2(cell.xAcceleration, cell.yAcceleration) + wind * cell.windFactor
            return StepConstants(damping: cell.damping, dt: EmitterSimulation.dt, acceleration: a)
        }
        let centre = SIMD2<Float>(layer.position * self.sceneSize)
        kinematics = zip(layer.cells, constants).map { cell, k in
            CellKinematics(motion: cell.orbit != nil ? .orbit : cell.usesForces ? .forces : .ballistic,
                           constants: k, centre: centre)
        }
        cellSeeds = layer.cells.indices.map { Self.cellSeed(seed: seed, layerSeed: layer.seed, cell: $0) }
        channelRanges = layer.cells.map(\.channelRange)
    }

    private init(copying other: EmitterSimulation) {
        layer = other.layer; layerIndex = other.layerIndex; sceneSize = other.sceneSize
        seed = other.seed; wind = other.wind; startStep = other.startStep
        stores = other.stores.map { $0.copy() }
        steps = other.steps; births = other.births; droppedBirths = other.droppedBirths
        constants = other.constants; kinematics = other.kinematics; cellSeeds = other.cellSeeds
        channelRanges = other.channelRanges
    }

    /// The random stream seed of cell `cell` of an emitter with seed `layerSeed` in a scene with `seed`.
    public static func cellSeed(seed: UInt64, layerSeed: UInt64, cell: Int) -> UInt64 {
        ParticleRandom.mix(seed ^ ParticleRandom.mix(layerSeed &+ UInt64(cell)))
    }

    /// A deep copy.
    public func copy() -> EmitterSimulation { EmitterSimulation(copying: self) }

    /// The step count that shows scene time `time`.
    public static func steps(at time: Double, prewarm: Double) -> Int {
        let t = (time + prewarm) * Double(stepsPerSecond)
        // (NaN and negative times show the emitter's start; +∞, a time past Double's range × 120,
        // shows the last step like any huge time.)
        guard t > 0 else { return 0 }
        return Int(min(t + 1e-7, Double(Int32.max)).rounded(.down))
    }

    /// Live particles in all cells.
    public var count: Int { stores.reduce(0) { $0 + $1.count } }

    /// Bytes held by the particle arrays.
    public var allocatedBytes: Int { stores.reduce(0) { $0 + $1.allocatedBytes } }

    /// Advances to `target` steps (no-op when already there or past it).
    /// `threads`: how many threads share the particle update of a big cell; nil means one per core.
    public func advance(to target: Int, threads: Int? = 1) {
        let threadCount = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        // An orbiting particle's position is a closed form of its age: the steps before the last
        // only age such particles (the same float sums), the last one places them.
        while steps < target { step(threads: threadCount, placesOrbits: steps + 1 == target) }
    }

    /// One step of 1/120 s: move every particle, remove the dead, then add this step's births.
    /// `placesOrbits` false leaves orbiting particles' positions and velocities stale (their ages
    /// and deaths are exact); the next step with it true places them as if every step had.
    public func step(threads: Int = 1, placesOrbits: Bool = true) {
        let dt = Float(Self.dt)
        for (c, store) in stores.enumerated() {
            let anyDead = threads > 1 && store.count >= parallelThreshold
                ? Self.integrate(store, kinematics[c], dt: dt, threads: threads, placesOrbits: placesOrbits)
                : store.integrate(kinematics[c], dt: dt, range: 0..<store.count, placesOrbits: placesOrbits)
            if anyDead { store.removeDead() }
        }
        steps += 1
        emitBirths()
    }

    /// One step's update of `store` on `threads` threads (never more, whatever the core count):
    /// the index range split into `threads × 4` chunks that the threads take in turn, so a thread
    /// slowed by other work does not hold up the step; each chunk is stepped by the same kernel as
    /// one thread would. Every particle's update depends only on itself, so the result is the same
    /// for any thread count. Returns whether any particle died.
    public static func integrate(_ store: ParticleStore, _ kinematic: CellKinematics, dt: Float, threads: Int,
                                 placesOrbits: Bool = true) -> Bool {
        let n = store.count
        let workers = max(1, threads)
        let chunks = workers * 4
        // Each chunk writes its own range of the store and its own flag: no two threads touch the
        // same memory, which the compiler cannot see through these references.
        nonisolated(unsafe) let flags = UnsafeMutablePointer<Bool>.allocate(capacity: chunks)
        flags.initialize(repeating: false, count: chunks)
        defer { flags.deallocate() }
        nonisolated(unsafe) let shared = store
        let next = ChunkCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let j = next.take()
                guard j < chunks else { return }
                let lo = j * n / chunks, hi = (j + 1) * n / chunks
                flags[j] = shared.integrate(kinematic, dt: dt, range: lo..<hi, placesOrbits: placesOrbits)
            }
        }
        return (0..<chunks).contains { flags[$0] }
    }

    /// The next chunk for a worker to take.
    private final class ChunkCounter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
    }

    /// Births whose time falls in the step just finished, [(steps − 1)·dt, steps·dt).
    ///
    /// The work is bounded whatever the rate: births that would die before the end of the step are
    /// skipped in one jump (they never change the live set), and once the layer holds
    /// `maxParticles` the rest of the step's births are counted as dropped in one jump. Both jumps
    /// land on the birth the one-by-one loop would stop at, so the particles are the same.
    private func emitBirths() {
        let end = Double(steps) * Self.dt
        var live = count
        for (c, cell) in layer.cells.enumerated() where cell.enabled {
            let rate = layer.birthRate(of: cell)
            guard rate > 0, rate.isFinite else { continue }
            let store = stores[c]
            guard Double(births[c]) / rate < end else { continue }
            // A cell with an emission duration emits births born before it, then no more.
            let stop = cell.emissionDuration.map { min(end, $0) } ?? end
            guard Double(births[c]) / rate < stop else { continue }
            // Births before this one are older than the cell's longest lifetime at the end of the step.
            let oldest = end - Self.longestLifetime(cell, layer) * (1 + 1e-9) - Self.dt * 1e-6
            if jumpsOverBirths, oldest > 0, Double(births[c]) / rate < oldest, live < layer.maxParticles {
                births[c] = max(births[c], Self.firstBirth(atOrAfter: oldest, rate: rate))
            }
            while true {
                let k = births[c]
                let born = Double(k) / rate
                guard born < stop, k < Self.maximumBirths else { break }
                if live >= layer.maxParticles && jumpsOverBirths {
                    let next = Self.firstBirth(atOrAfter: stop, rate: rate)
                    droppedBirths = Self.saturatingSum(droppedBirths, next - k)
                    births[c] = next
                    break
                }
                births[c] = k + 1
                if live >= layer.maxParticles { droppedBirths += 1; continue }
                if spawn(cell: cell, index: c, birth: k, bornAt: born, until: end, into: store) { live += 1 }
            }
        }
    }

    /// A cell emits at most this many particles (birth numbers stay far from UInt64's end; at the
    /// largest rate the decoder allows, 10¹² a second, that is 107 days of emitter time).
    public static let maximumBirths: UInt64 = 1 << 63

    /// The smallest birth number k with k / rate ≥ `time` (the order the one-by-one loop tests it
    /// in), at most `maximumBirths`.
    static func firstBirth(atOrAfter time: Double, rate: Double) -> UInt64 {
        guard time > 0 else { return 0 }
        let estimate = (time * rate).rounded(.up)
        guard estimate < Double(maximumBirths) else { return maximumBirths }
        var k = UInt64(estimate)
        // Double(k) is exact below 2⁵³; above, consecutive k share a value, so both loops stay short.
        while k > 0 && Double(k - 1) / rate >= time { k -= 1 }
        while k < maximumBirths && Double(k) / rate < time { k += 1 }
        return k
    }

    static func saturatingSum(_ a: Int, _ b: UInt64) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(Int(clamping: b))
        return overflow ? .max : sum
    }

    /// The longest lifetime a particle of `cell` can have, in seconds.
    static func longestLifetime(_ cell: EmitterCell, _ layer: EmitterLayer) -> Double {
        max(0, cell.longestLifetime) * layer.lifetime
    }

    /// Samples birth `k` of cell `c` and advances it from `born` to `end`. Returns false when it
    /// dies before the end of its step (lifetime shorter than the rest of the step).
    private func spawn(cell: EmitterCell, index c: Int, birth k: UInt64, bornAt born: Double,
                       until end: Double, into store: ParticleStore) -> Bool {
        let key = ParticleRandom.key(seed: cellSeeds[c], layer: layerIndex, cell: c, birth: layer.randomBirth(k, of: cell))
        func u(_ slot: RandomSlot) -> Double { ParticleRandom.uniform(key, slot.rawValue) }
        func sample(_ mean: Double, _ range: Double, _ slot: RandomSlot) -> Double { EmitterCell.spread(mean, range, u(slot)) }

        let lifetime = max(0, sample(cell.lifetime, cell.lifetimeRange, .lifetime)) * layer.lifetime
        let age = end - born
        guard age < lifetime else { return false }
        let position = birthPosition(u(.shapeA), u(.shapeB))
        let speed = sample(cell.velocity, cell.velocityRange, .velocity) * layer.velocity
        let angle = cell.emissionAngle(u(.angle))
        let velocity0 = SIMD2(Foundation.cos(angle), Foundation.sin(angle)) * speed
        var velocity = velocity0
        let scale = max(0, sample(cell.scale, cell.scaleRange, .scale))
        let spin = sample(cell.spin, cell.spinRange, .spin) * layer.spin
        let bounds = channelRanges[c]
        func channel(_ m: Double, _ r: Double, _ slot: RandomSlot, _ i: Int) -> Float {
            Float(min(max(sample(m, r, slot), bounds.low[i]), bounds.high[i]))
        }
        let color = SIMD4(channel(cell.color.r, cell.redRange, .red, 0), channel(cell.color.g, cell.greenRange, .green, 1),
                          channel(cell.color.b, cell.blueRange, .blue, 2), channel(cell.color.a, cell.alphaRange, .alpha, 3))
        let phase = Float(u(.phase) * 2 * Double.pi)

        // The rest of the step, with the same exact integrator as every whole step.
        let rest = StepConstants(damping: cell.damping, dt: age, acceleration: .zero)
        let a = SIMD2<Double>(constants[c].acceleration)
        var p = position + velocity * Double(rest.b) + a * Double(rest.c)
        velocity = velocity * Double(rest.decay) + a * Double(rest.b)

        var extras: [Float] = []
        if cell.usesExtras {
            typealias E = ParticleStore.Extra
            extras = Array(repeating: 0, count: E.allCases.count)
            extras[E.endScale.rawValue] = cell.endScale.map { Float(max(0, sample($0, cell.endScaleRange, .endScale))) } ?? Float(scale)
            let rotation = sample(cell.rotation, cell.rotationRange, .rotation)
            extras[E.startRotation.rawValue] = Float(rotation)
            extras[E.endRotation.rawValue] = cell.endRotation.map { Float(sample($0, cell.endRotationRange, .endRotation)) } ?? Float(rotation)
            let end = cell.endColor.map {
                SIMD4(channel($0.r, cell.endRedRange, .endRed, 0), channel($0.g, cell.endGreenRange, .endGreen, 1),
                      channel($0.b, cell.endBlueRange, .endBlue, 2), channel($0.a, cell.endAlphaRange, .endAlpha, 3))
            } ?? color
            extras[E.endRed.rawValue] = end.x; extras[E.endGreen.rawValue] = end.y
            extras[E.endBlue.rawValue] = end.z; extras[E.endAlpha.rawValue] = end.w
            let centre = kinematics[c].centre
            if cell.usesForces {
                let radial = Float(sample(cell.radialAcceleration, cell.radialAccelerationRange, .radialAcceleration))
                let tangential = Float(sample(cell.tangentialAcceleration, cell.tangentialAccelerationRange, .tangentialAcceleration))
                extras[E.radialAcceleration.rawValue] = radial
                extras[E.tangentialAcceleration.rawValue] = tangential
                var restConstants = rest
                restConstants.acceleration = constants[c].acceleration
                let q = ParticleKernel.advance(.init(position: SIMD2<Float>(position), velocity: SIMD2<Float>(velocity0), age: 0),
                                               radial: radial, tangential: tangential, restConstants, centre: centre, dt: Float(age))
                p = SIMD2<Double>(q.position); velocity = SIMD2<Double>(q.velocity)
            }
            if let orbit = cell.orbit {
                // Signed radii, as cocos2d and Starling: a negative one is on the opposite side.
                let start = Float(sample(orbit.radius, orbit.radiusRange, .startRadius))
                let endRadius = orbit.endRadius.map { Float(sample($0, orbit.endRadiusRange, .endRadius)) } ?? start
                let speed = Float(sample(orbit.speed, orbit.speedRange, .orbitSpeed))
                extras[E.startRadius.rawValue] = start; extras[E.endRadius.rawValue] = endRadius
                extras[E.orbitAngle.rawValue] = Float(angle); extras[E.orbitSpeed.rawValue] = speed
                let q = ParticleKernel.orbit(age: Float(age), lifetime: Float(lifetime), startRadius: start, endRadius: endRadius,
                                             angle: Float(angle), speed: speed, centre: centre)
                p = SIMD2<Double>(q.position); velocity = SIMD2<Double>(q.velocity)
            }
        }

        if store.capacity == 0 {
            // Reserve the steady state once.
            let expected = layer.steadyStateBound(cell)
            store.reserve(Int(min(expected * 1.05 + 1, Double(layer.maxParticles))), limit: layer.maxParticles)
        }
        store.reserve(store.count + 1, limit: layer.maxParticles)
        store.append(position: SIMD2<Float>(p), velocity: SIMD2<Float>(velocity), age: Float(age),
                     lifetime: Float(lifetime), scale: Float(scale), spin: Float(spin), color: color,
                     phase: phase, birth: UInt32(truncatingIfNeeded: k))
        if !extras.isEmpty { store.setExtras(extras) }
        return true
    }

    /// Where a particle is born, in points, from two uniform numbers.
    func birthPosition(_ a: Double, _ b: Double) -> SIMD2<Double> {
        let w = sceneSize.x, h = sceneSize.y
        let center = layer.position * sceneSize
        let half = layer.size * sceneSize / 2
        switch (layer.shape, layer.mode) {
        case (.point, _):
            return center
        case (.line, .points):
            return center + SIMD2(a < 0.5 ? -half.x : half.x, 0)
        case (.line, _):
            return center + SIMD2((a - 0.5) * 2 * half.x, 0)
        case (.rectangle, .points):
            let corner = Int(a * 4)
            return center + SIMD2(corner & 1 == 0 ? -half.x : half.x, corner & 2 == 0 ? -half.y : half.y)
        case (.rectangle, .outline):
            // Uniform along the perimeter: top, right, bottom, left.
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
        case (.circle, .points):
            return center
        case (.circle, let mode):
            // The radius is size.w / 2 of the frame width, on both axes.
            let radius = layer.size.x * w / 2
            let r = mode == .outline ? radius : radius * a.squareRoot()
            let theta = (mode == .outline ? a : b) * 2 * Double.pi
            _ = h
            return center + SIMD2(Foundation.cos(theta), Foundation.sin(theta)) * r
        }
    }
}

/// Which steps of an emitter's history a frame simulates, so that a frame's simulation work is
/// bounded whatever the scene time (a frame at t = 10⁹ s costs what one at t = 60 s does).
///
/// - **Exact window.** A particle lives at most its cell's longest lifetime (plus the float age's
///   rounding), so when the layer can never hold `maxParticles` (no birth is ever dropped), the
///   particles at step N are those born in the last `lifetimeSteps` steps, whatever came before:
///   simulating from empty at N − lifetimeSteps gives exactly the particles of the full run.
/// - **Budgeted history.** Otherwise (births may be dropped, so the live set depends on the whole
///   history; or lifetimes too long to bound), the frame simulates from empty at the multiple of
///   `historySteps` that lies between one and two `historySteps` before N (from the start when N is
///   below 2 × historySteps: exact there). `historySteps` is what `workBudget` allows.
public struct SimulationPlan: Sendable, Equatable {
    /// Steps a particle can stay alive, or nil when its lifetime is too long to bound.
    public var lifetimeSteps: Int?
    /// The most particles the layer can hold at once (maxParticles, or less when its cells cannot reach it).
    public var peakParticles: Int
    /// Whether simulating the last `lifetimeSteps` steps gives exactly the full run's particles.
    public var exact: Bool
    /// The history a non-exact plan simulates: between this and twice this many steps.
    public var historySteps: Int

    /// The work a frame's budgeted histories may cost, in particle updates (one update of one
    /// particle is about 10 ns here; a birth costs about `spawnCost`, a step `stepCost` plus
    /// `cellCost` per cell). A frame's emitters share it (`Scene.simulatedEmitterCount`).
    /// An exact window may cost up to `exactWorkFactor` times this (a hundred thousand particles of
    /// half-minute lifetimes): it is what the full run would have simulated anyway, and approximating
    /// it would drop particles that should show. (At 10, the fuzzer found a frame of 44,000 rain drops
    /// living 146 s that took 7 s here.)
    public static let workBudget = 2.0e8
    public static let exactWorkFactor = 2.0
    static let spawnCost = 16.0
    static let stepCost = 64.0
    static let cellCost = 16.0
    /// A particle under radial or tangential acceleration (`ParticleKernel.advance`, one particle at
    /// a time with a square root) costs this many updates of the vectorised kernel: measured 16 ns
    /// against 3 ns (release, imported effects at t = 1000 s). Orbiting particles only age between
    /// frames (`placesOrbits`), as cheap as the vectorised kernel.
    static let forcesCost = 18.0
    /// Any cell with per-particle extras (end values, forces, orbits: 13 more floats a particle,
    /// moved along when particles die) costs at least this many: measured on the imported effects
    /// at t = 1000 s, whose frames took 2.1–2.2 s (release) with 1 and 6.
    static let extrasCost = 4.0
    /// Lifetimes longer than this are not bounded: float ages this large advance by rounded steps.
    public static let longestBoundedLifetime = 30_000.0

    /// The plan for `layer`; `workBudget` is for tests (a small one makes short histories).
    public init(_ layer: EmitterLayer, workBudget: Double = SimulationPlan.workBudget) {
        let dt = EmitterSimulation.dt
        var lifetimeSeconds = 0.0
        var bounded = true
        var births = 0.0       // the most particles alive at once, as births in a lifetime window
        var perStep = 0.0      // births per step
        var updateCost = 1.0   // the dearest kernel among the cells, in vectorised updates
        for cell in layer.cells where cell.enabled {
            let rate = layer.birthRate(of: cell)
            guard rate > 0, rate.isFinite else { continue }
            if cell.usesExtras { updateCost = max(updateCost, Self.extrasCost) }
            if cell.orbit == nil && cell.usesForces { updateCost = max(updateCost, Self.forcesCost) }
            let longest = EmitterSimulation.longestLifetime(cell, layer)
            guard longest <= Self.longestBoundedLifetime else {
                // Its particles may never die: the layer may fill up to maxParticles.
                bounded = false; births = .infinity; perStep += rate * dt + 1; continue
            }
            // A particle dies at the first step its float age reaches its float lifetime; a float age
            // near a advances by dt rounded to its ulp (at most a·2⁻²⁴ off per step).
            let slowdown = 1 - longest * Double(EmitterSimulation.stepsPerSecond) * 0x1p-24
            let death = longest * (1 + 1e-6) / slowdown + 2 * dt
            lifetimeSeconds = max(lifetimeSeconds, death)
            births += (rate * death).rounded(.up) + 1
            perStep += rate * dt + 1
        }
        let maxParticles = Double(layer.maxParticles)
        peakParticles = Int(min(births, maxParticles))
        let fixed = Self.stepCost + Self.cellCost * Double(layer.cells.count) + Self.spawnCost * min(perStep, 9 * maxParticles)
        let cost = fixed + Double(peakParticles) * updateCost
        let window = bounded ? Int((lifetimeSeconds * Double(EmitterSimulation.stepsPerSecond)).rounded(.up)) + 1 : nil
        lifetimeSteps = window
        // An exact window starts empty, and a particle born τ into it is at most τ old: the live
        // count at τ is at most rate · τ, so the window's particle updates are at most half of
        // window × peak (a million 5 s dots: 3.2·10⁸ updates, not 6.2·10⁸).
        let windowWork = Double(window ?? 0) * (fixed + Double(peakParticles) * updateCost / 2)
        exact = bounded && births <= maxParticles && windowWork <= workBudget * Self.exactWorkFactor
        historySteps = max(1, Int(min(workBudget / (2 * cost), Double(Int32.max))))
    }

    /// The step a frame at step `target` simulates from.
    public func start(for target: Int) -> Int {
        if exact, let window = lifetimeSteps { return max(0, target - window) }
        if target < 2 * historySteps { return 0 }
        return (target - historySteps) / historySteps * historySteps
    }

    /// Whether advancing `simulation` to `target` gives the plan's particles, for no more work than
    /// starting afresh.
    public func canContinue(_ simulation: EmitterSimulation, to target: Int) -> Bool {
        guard simulation.steps <= target else { return false }
        let start = start(for: target)
        if exact, let window = lifetimeSteps {
            return (simulation.startStep == 0 || simulation.startStep + window <= target) && simulation.steps >= start
        }
        return simulation.startStep == start
    }
}
