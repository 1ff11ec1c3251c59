// SimulationCache: emitter states kept between frames, so a viewer playing forward advances each
// emitter by a frame's worth of steps instead of re-simulating from the start.
//
// `Frame(scene:time:)` stays a pure function of (scene, time): a cached state is only ever a state
// the simulation would reach from empty after the same number of steps (steps are fixed and every
// random value is a hash), so starting from it gives the same particles. Playing forward reuses the
// latest state; seeking back restarts from the nearest earlier checkpoint (one every 2 s of
// emitter time, at most `checkpointsPerEmitter`), or from empty. Memory is bounded: states of at
// most `maximumEmitters` emitters (least recently used go first), checkpoints only of states under
// `checkpointByteLimit`, and all checkpoints together under `totalCheckpointByteLimit`. Only the window of history the
// emitter's `SimulationPlan` names is ever simulated, so a huge scene time costs no more than a small one.

import Foundation

public final class SimulationCache: @unchecked Sendable {
    public static let shared = SimulationCache()

    /// What identifies one emitter's simulation.
    struct Key: Hashable {
        var layer: EmitterLayer
        var layerIndex: Int
        var sceneSize: SIMD2<Int>
        var seed: UInt64
        var wind: SIMD2<Double>
        /// How many emitters share the frame's work budget.
        var sharing: Int
    }

    private final class Entry {
        var latest: EmitterSimulation
        var checkpoints: [EmitterSimulation] = []
        var lastUse = 0
        let plan: SimulationPlan
        init(_ s: EmitterSimulation, workBudget: Double) { latest = s; plan = SimulationPlan(s.layer, workBudget: workBudget) }
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var clock = 0

    public static let checkpointSteps = 2 * EmitterSimulation.stepsPerSecond
    public static let checkpointsPerEmitter = 16
    public static let maximumEmitters = 32
    /// Checkpoints are skipped for states bigger than this (bytes), to bound memory.
    public static let checkpointByteLimit = 64 << 20
    /// All checkpoints together take at most this many bytes: beyond it the oldest checkpoints of
    /// the least recently used emitters go first. With the latest state of each of the
    /// `maximumEmitters` emitters (each at most `EmitterLayer.maximumParticles` particles), this
    /// bounds the cache's memory.
    public static let totalCheckpointByteLimit = 256 << 20

    /// Bytes held by checkpoints now (tests).
    public var checkpointBytes: Int { lock.lock(); defer { lock.unlock() }; return heldBytes }
    /// Emitters whose states are kept now (tests).
    public var emitterCount: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
    private var heldBytes = 0

    /// The work one frame's simulation may cost (SimulationPlan.workBudget). Tests lower it to run
    /// the budgeted paths quickly in debug builds; changing it forgets every state.
    public var workBudget: Double {
        get { lock.lock(); defer { lock.unlock() }; return budget }
        set { lock.lock(); budget = newValue; entries = [:]; heldBytes = 0; lock.unlock() }
    }
    private var budget: Double

    /// The byte limit of all checkpoints together (`totalCheckpointByteLimit`; tests lower it).
    let checkpointBudget: Int

    public init(workBudget: Double = SimulationPlan.workBudget, checkpointBudget: Int = SimulationCache.totalCheckpointByteLimit) {
        budget = workBudget
        self.checkpointBudget = checkpointBudget
    }

    /// Runs `body` with the emitter's simulation advanced to `steps`. The simulation must not
    /// escape `body` (the cache keeps advancing it). `sharing`: how many emitters of the frame
    /// share its work budget (`Scene.simulatedEmitterCount`), so a frame's simulation is bounded
    /// whatever its number of emitters.
    public func withSimulation<R>(layer: EmitterLayer, layerIndex: Int, sceneSize: SIMD2<Int>, seed: UInt64,
                                  wind: SIMD2<Double>, steps: Int, sharing: Int = 1,
                                  _ body: (EmitterSimulation) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        let sharing = max(1, sharing)
        let key = Key(layer: layer, layerIndex: layerIndex, sceneSize: sceneSize, seed: seed, wind: wind, sharing: sharing)
        let entry: Entry
        if let e = entries[key] {
            entry = e
        } else {
            if entries.count >= Self.maximumEmitters, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                heldBytes -= oldest.value.checkpoints.reduce(0) { $0 + $1.allocatedBytes }
                entries[oldest.key] = nil
            }
            entry = Entry(EmitterSimulation(layer: layer, layerIndex: layerIndex, sceneSize: sceneSize, seed: seed, wind: wind),
                          workBudget: budget / Double(sharing))
            entries[key] = entry
        }
        entry.lastUse = clock
        // Only the plan's window of history is simulated (SimulationPlan): a far seek starts afresh
        // near the target instead of advancing through everything before it.
        let plan = entry.plan
        if !plan.canContinue(entry.latest, to: steps) {
            if let checkpoint = entry.checkpoints.last(where: { plan.canContinue($0, to: steps) }) {
                entry.latest = checkpoint.copy()
            } else {
                entry.latest = EmitterSimulation(layer: layer, layerIndex: layerIndex, sceneSize: sceneSize, seed: seed, wind: wind,
                                                 startStep: plan.start(for: steps))
            }
        }
        let simulation = entry.latest
        while simulation.steps < steps {
            let next = (simulation.steps / Self.checkpointSteps + 1) * Self.checkpointSteps
            simulation.advance(to: min(next, steps), threads: nil)
            if simulation.steps == next, simulation.allocatedBytes <= Self.checkpointByteLimit,
               !entry.checkpoints.contains(where: { $0.steps == next && $0.startStep == simulation.startStep }) {
                let checkpoint = simulation.copy()
                entry.checkpoints.append(checkpoint)
                heldBytes += checkpoint.allocatedBytes
                entry.checkpoints.sort { $0.steps < $1.steps }
                if entry.checkpoints.count > Self.checkpointsPerEmitter { heldBytes -= entry.checkpoints.removeFirst().allocatedBytes }
                trimCheckpoints(keeping: entry)
            }
        }
        return try body(simulation)
    }

    /// Drops checkpoints until they fit `checkpointBudget`: the oldest of the least
    /// recently used emitter first, `current`'s last of all. (Called with the lock held.)
    private func trimCheckpoints(keeping current: Entry) {
        while heldBytes > checkpointBudget {
            let victim = entries.values.filter { !$0.checkpoints.isEmpty && $0 !== current }.min { $0.lastUse < $1.lastUse }
                ?? (current.checkpoints.isEmpty ? nil : current)
            guard let victim else { return }
            heldBytes -= victim.checkpoints.removeFirst().allocatedBytes
        }
    }

    /// Forgets every state (tests use this to prove the cache changes nothing).
    public func removeAll() {
        lock.lock(); entries = [:]; heldBytes = 0; lock.unlock()
    }
}
