// ParticleDraw: an emitter layer at one instant, as the sprite instances both renderers draw.
//
// Built once per Frame from the cached simulation; the GPU uploads the instances as they are and
// the CPU reference rasterises the same array in the same order.

import Dispatch
import Foundation

/// The instances of one cell: one instanced draw on the GPU.
public struct SpriteBatch: Sendable, Equatable {
    public var sprite: SpriteKind
    /// softDot's standard deviation, cloud's edge width, as a fraction of each instance's size.x.
    public var blurFraction: Float
    /// The PNG, for `.image`.
    public var imagePath: String?
    /// In drawing order.
    public var instances: [SpriteInstance]

    /// The largest `blurFraction`: a sprite blurred over a thousand times its own size is invisible
    /// anyway (its peak coverage is far below 1/255), and the cap keeps `blur(_:)` finite.
    public static let maximumBlurFraction = 1024.0

    /// The blur of one instance in pixels.
    @inline(__always) public func blur(_ s: SpriteInstance) -> Float { blurFraction * s.size.x }
}

/// One emitter layer's sprites at one instant.
public struct ParticleDraw: Sendable, Equatable {
    /// (ONE, ONE) blending instead of premultiplied source-over.
    public var additive: Bool
    /// One batch per cell, in cell order.
    public var batches: [SpriteBatch]
    /// The layer's index in the scene.
    public var index: Int
    /// Births dropped so far because the layer held maxParticles.
    public var droppedBirths: Int

    public var instanceCount: Int { batches.reduce(0) { $0 + $1.instances.count } }

    /// Resolves `layer` (scene layer `index`) at scene time `time`: the sprite instances are built
    /// straight from the cached simulation's stores (no snapshot array between them: a million
    /// particles would need 136 MB of `ParticleSnapshot`s), in parallel chunks, with the same maths
    /// and order as `init(_:index:particles:opacity:pixelScale:)` on `simulation.snapshot()`.
    public init(_ layer: EmitterLayer, index: Int, scene: Scene, time: Double, opacity: Double,
                pixelScale: SIMD2<Double>) {
        let steps = EmitterSimulation.steps(at: time, prewarm: layer.prewarm)
        let (batches, dropped) = SimulationCache.shared.withSimulation(
            layer: layer, layerIndex: index, sceneSize: scene.size, seed: scene.seed, wind: scene.wind, steps: steps,
            sharing: scene.simulatedEmitterCount) { simulation in
                (Self.batches(simulation, opacity: opacity, pixelScale: pixelScale), simulation.droppedBirths)
            }
        self.index = index
        additive = layer.renderMode == .additive
        droppedBirths = dropped
        self.batches = batches
    }

    /// Turns snapshots (cell by cell, oldest first within a cell) into sprite instances.
    public init(_ layer: EmitterLayer, index: Int, particles: [ParticleSnapshot], opacity: Double,
                pixelScale: SIMD2<Double>) {
        self.index = index
        additive = layer.renderMode == .additive
        droppedBirths = 0
        let sizeScale = Float((pixelScale.x * pixelScale.y).squareRoot())
        let scale = SIMD2<Float>(pixelScale)
        var batches = Self.emptyBatches(layer)
        for p in particles {
            let cell = layer.cells[p.cellIndex]
            guard let instance = Self.instance(p, cell: cell, opacity: opacity, sizeScale: sizeScale, scale: scale) else { continue }
            batches[p.cellIndex].instances.append(instance)
        }
        if layer.renderMode == .oldestLast {
            for i in batches.indices { batches[i].instances.reverse() }
        }
        self.batches = batches
    }

    static func emptyBatches(_ layer: EmitterLayer) -> [SpriteBatch] {
        layer.cells.map { cell in
            SpriteBatch(sprite: cell.sprite,
                        blurFraction: cell.spriteSize > 0 ? Float(min(cell.blur / cell.spriteSize, SpriteBatch.maximumBlurFraction)) : 0,
                        imagePath: cell.imagePath, instances: [])
        }
    }

    /// The sprite a particle shows, or nil when it shows nothing (transparent, no size, or numbers
    /// that overflowed: both renderers skip it alike).
    @inline(__always)
    static func instance(_ p: ParticleSnapshot, cell: EmitterCell, opacity: Double, sizeScale: Float,
                         scale: SIMD2<Float>) -> SpriteInstance? {
        let alpha = Float(p.color.w * opacity)
        let width = Float(cell.spriteSize * p.scale) * sizeScale
        guard alpha > 0, width > 0 else { return nil }
        var size = SIMD2(width, width)
        var axis = SIMD2<Float>(Float(Foundation.cos(p.angle)), Float(Foundation.sin(p.angle)))
        switch cell.sprite {
        case .streak:
            let speed = (p.velocity * p.velocity).sum().squareRoot()
            size.x = width + Float(speed * cell.streakDuration) * sizeScale
            axis = speed > 0 ? SIMD2<Float>(p.velocity / speed) : SIMD2(1, 0)
        case .image:
            if let pixels = cell.imageSize, pixels.x > 0 {
                size.y = width * Float(pixels.y) / Float(pixels.x)
            }
        default:
            break
        }
        let straight = SIMD4<Float>(p.color)
        let color = SIMD4(straight.x * alpha, straight.y * alpha, straight.z * alpha, alpha)
        let instance = SpriteInstance(color: color, center: SIMD2<Float>(p.position) * scale, size: size, axis: axis)
        return instance.isFinite ? instance : nil
    }

    /// Particles per chunk when building instances on several threads (tests make it small).
    nonisolated(unsafe) static var chunkSize = 32_768

    /// Every cell's instances, oldest first (newest first for `oldestLast`), from the stores.
    static func batches(_ simulation: EmitterSimulation, opacity: Double, pixelScale: SIMD2<Double>) -> [SpriteBatch] {
        let layer = simulation.layer
        let sizeScale = Float((pixelScale.x * pixelScale.y).squareRoot())
        let scale = SIMD2<Float>(pixelScale)
        var batches = emptyBatches(layer)
        let reversed = layer.renderMode == .oldestLast
        for (c, cell) in layer.cells.enumerated() {
            // Read only while the chunks run (the cache's lock is held): no thread writes them.
            nonisolated(unsafe) let store = simulation.stores[c]
            nonisolated(unsafe) let simulation = simulation
            let n = store.count
            guard n > 0 else { continue }
            let order = store.birthOrder()
            let chunkSize = Self.chunkSize
            let chunks = (n + chunkSize - 1) / chunkSize
            var counts = [Int](repeating: 0, count: chunks)
            let instances = [SpriteInstance](unsafeUninitializedCapacity: n) { buffer, initialized in
                nonisolated(unsafe) let out = buffer.baseAddress!
                counts.withUnsafeMutableBufferPointer { countsBuffer in
                    nonisolated(unsafe) let kept = countsBuffer.baseAddress!
                    // Each chunk writes its own range of `out` and its own count.
                    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                        let lo = chunk * chunkSize, hi = min(n, lo + chunkSize)
                        var m = lo
                        for k in lo..<hi {
                            // Position k of the drawing order is store index i.
                            let j = reversed ? n - 1 - k : k
                            let i = order.map { Int($0[j]) } ?? j
                            let p = simulation.particle(cell: cell, index: c, store: store, at: i)
                            if let s = instance(p, cell: cell, opacity: opacity, sizeScale: sizeScale, scale: scale) {
                                (out + m).initialize(to: s)
                                m += 1
                            }
                        }
                        kept[chunk] = m - lo
                    }
                }
                // Close the gaps left by skipped particles, in order.
                var end = counts[0]
                for chunk in 1..<max(chunks, 1) {
                    let lo = chunk * chunkSize
                    if end != lo { (out + end).moveInitialize(from: out + lo, count: counts[chunk]) }
                    end += counts[chunk]
                }
                initialized = end
            }
            batches[c].instances = instances
        }
        return batches
    }
}

extension ParticleDraw: LayerDraw {}

extension EmitterLayer: LayerContent {
    public var typeName: String { Self.kind.type }
    public var imagePaths: [String] { cells.compactMap(\.imagePath) }

    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        let emitter = looping(frame.resolution.options.loop)
        frame.layers.append(ParticleDraw(emitter, index: index, scene: frame.scene, time: frame.resolution.time,
                                         opacity: layer.opacity, pixelScale: frame.resolution.scale))
    }
}

extension Scene {
    /// Emitters a frame of this scene simulates: its emitter layers and the weather's rain and snow.
    /// They share the frame's simulation budget (SimulationPlan.workBudget).
    public var simulatedEmitterCount: Int {
        layers.filter { $0.content is EmitterLayer }.count + PrecipitationKind.allCases.filter { $0.falls(in: self) }.count
    }
}
