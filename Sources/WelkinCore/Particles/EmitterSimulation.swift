// EmitterSimulation: one emitter layer advanced in fixed steps of 1/120 s from its start.
//
// The emitter starts `prewarm` seconds before scene time 0, so "scene time t" is emitter time
// t + prewarm, and the state at scene time t is the state after floor((t + prewarm) · 120) steps.
// Birth k of a cell happens at emitter time k / birthRate exactly; a particle born inside a step
// is advanced by the rest of that step with the same exact integrator, so births do not bunch
// at step boundaries. Every random value is a hash (ParticleRandom), so the state after N steps
// does not depend on how the steps were batched, cached or threaded.

import Dispatch
import Foundation

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
    /// Births so far per cell (the next birth's number).
    public private(set) var births: [UInt64]
    /// Births dropped because the layer held `maxParticles`.
    public private(set) var droppedBirths = 0

    private let constants: [StepConstants]
    private let cellSeeds: [UInt64]

    public init(layer: EmitterLayer, layerIndex: Int, sceneSize: SIMD2<Int>, seed: UInt64, wind: SIMD2<Double>) {
        self.layer = layer
        self.layerIndex = layerIndex
        self.sceneSize = SIMD2(Double(sceneSize.x), Double(sceneSize.y))
        self.seed = seed
        self.wind = wind
        stores = layer.cells.map { _ in ParticleStore() }
        births = layer.cells.map { _ in 0 }
        constants = layer.cells.map { cell in
            let a = SIMD2(cell.xAcceleration, cell.yAcceleration) + wind * cell.windFactor
            return StepConstants(damping: cell.damping, dt: EmitterSimulation.dt, acceleration: a)
        }
        cellSeeds = layer.cells.indices.map { ParticleRandom.mix(seed ^ ParticleRandom.mix(layer.seed &+ UInt64($0))) }
    }

    private init(copying other: EmitterSimulation) {
        layer = other.layer; layerIndex = other.layerIndex; sceneSize = other.sceneSize
        seed = other.seed; wind = other.wind
        stores = other.stores.map { $0.copy() }
        steps = other.steps; births = other.births; droppedBirths = other.droppedBirths
        constants = other.constants; cellSeeds = other.cellSeeds
    }

    /// A deep copy.
    public func copy() -> EmitterSimulation { EmitterSimulation(copying: self) }

    /// The step count that shows scene time `time`.
    public static func steps(at time: Double, prewarm: Double) -> Int {
        let t = (time + prewarm) * Double(stepsPerSecond)
        guard t.isFinite, t > 0 else { return 0 }
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
        while steps < target { step(threads: threadCount) }
    }

    /// One step of 1/120 s: move every particle, remove the dead, then add this step's births.
    public func step(threads: Int = 1) {
        let dt = Float(Self.dt)
        for (c, store) in stores.enumerated() {
            let anyDead: Bool
            let n = store.count
            if threads > 1 && n >= parallelThreshold {
                let chunks = threads * 4
                // Each chunk writes its own range of the store and its own flag: no two threads
                // touch the same memory, which the compiler cannot see through these references.
                nonisolated(unsafe) let flags = UnsafeMutablePointer<Bool>.allocate(capacity: chunks)
                defer { flags.deallocate() }
                nonisolated(unsafe) let shared = store
                let constant = constants[c]
                DispatchQueue.concurrentPerform(iterations: chunks) { j in
                    let lo = j * n / chunks, hi = (j + 1) * n / chunks
                    flags[j] = shared.integrate(constant, dt: dt, range: lo..<hi)
                }
                anyDead = (0..<chunks).contains { flags[$0] }
            } else {
                anyDead = store.integrate(constants[c], dt: dt)
            }
            if anyDead { store.removeDead() }
        }
        steps += 1
        emitBirths()
    }

    /// Births whose time falls in the step just finished, [(steps − 1)·dt, steps·dt).
    private func emitBirths() {
        let end = Double(steps) * Self.dt
        var live = count
        for (c, cell) in layer.cells.enumerated() where cell.enabled {
            let rate = cell.birthRate * layer.birthRate
            guard rate > 0, rate.isFinite else { continue }
            let store = stores[c]
            while true {
                let k = births[c]
                let born = Double(k) / rate
                guard born < end else { break }
                births[c] = k + 1
                if live >= layer.maxParticles { droppedBirths += 1; continue }
                if spawn(cell: cell, index: c, birth: k, bornAt: born, until: end, into: store) { live += 1 }
            }
        }
    }

    /// Samples birth `k` of cell `c` and advances it from `born` to `end`. Returns false when it
    /// dies before the end of its step (lifetime shorter than the rest of the step).
    private func spawn(cell: EmitterCell, index c: Int, birth k: UInt64, bornAt born: Double,
                       until end: Double, into store: ParticleStore) -> Bool {
        let key = ParticleRandom.key(seed: cellSeeds[c], layer: layerIndex, cell: c, birth: k)
        func u(_ slot: RandomSlot) -> Double { ParticleRandom.uniform(key, slot.rawValue) }
        func sample(_ mean: Double, _ range: Double, _ slot: RandomSlot) -> Double { EmitterCell.spread(mean, range, u(slot)) }

        let lifetime = max(0, sample(cell.lifetime, cell.lifetimeRange, .lifetime)) * layer.lifetime
        let age = end - born
        guard age < lifetime else { return false }
        let position = birthPosition(u(.shapeA), u(.shapeB))
        let speed = sample(cell.velocity, cell.velocityRange, .velocity) * layer.velocity
        let angle = cell.emissionAngle(u(.angle))
        var velocity = SIMD2(Foundation.cos(angle), Foundation.sin(angle)) * speed
        let scale = max(0, sample(cell.scale, cell.scaleRange, .scale))
        let spin = sample(cell.spin, cell.spinRange, .spin) * layer.spin
        func channel(_ m: Double, _ r: Double, _ slot: RandomSlot) -> Float { Float(min(max(sample(m, r, slot), 0), 1)) }
        let color = SIMD4(channel(cell.color.r, cell.redRange, .red), channel(cell.color.g, cell.greenRange, .green),
                          channel(cell.color.b, cell.blueRange, .blue), channel(cell.color.a, cell.alphaRange, .alpha))
        let phase = Float(u(.phase) * 2 * Double.pi)

        // The rest of the step, with the same exact integrator as every whole step.
        let rest = StepConstants(damping: cell.damping, dt: age, acceleration: .zero)
        let a = SIMD2<Double>(constants[c].acceleration)
        let p = position + velocity * Double(rest.b) + a * Double(rest.c)
        velocity = velocity * Double(rest.decay) + a * Double(rest.b)

        if store.capacity == 0 {
            // Reserve the steady state once.
            let expected = layer.steadyStateBound(cell)
            store.reserve(Int(min(expected * 1.05 + 1, Double(layer.maxParticles))), limit: layer.maxParticles)
        }
        store.reserve(store.count + 1, limit: layer.maxParticles)
        store.append(position: SIMD2<Float>(p), velocity: SIMD2<Float>(velocity), age: Float(age),
                     lifetime: Float(lifetime), scale: Float(scale), spin: Float(spin), color: color,
                     phase: phase, birth: UInt32(truncatingIfNeeded: k))
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
