// ParticleDraw: an emitter layer at one instant, as the sprite instances both renderers draw.
//
// Built once per Frame from the cached simulation; the GPU uploads the instances as they are and
// the CPU reference rasterises the same array in the same order.

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

    /// Resolves `layer` (scene layer `index`) at scene time `time`.
    public init(_ layer: EmitterLayer, index: Int, scene: Scene, time: Double, opacity: Double,
                pixelScale: SIMD2<Double>) {
        let steps = EmitterSimulation.steps(at: time, prewarm: layer.prewarm)
        let (particles, dropped) = SimulationCache.shared.withSimulation(
            layer: layer, layerIndex: index, sceneSize: scene.size, seed: scene.seed, wind: scene.wind, steps: steps,
            sharing: scene.simulatedEmitterCount) {
                ($0.snapshot(), $0.droppedBirths)
            }
        self.init(layer, index: index, particles: particles, opacity: opacity, pixelScale: pixelScale)
        droppedBirths = dropped
    }

    /// Turns snapshots (cell by cell, oldest first within a cell) into sprite instances.
    public init(_ layer: EmitterLayer, index: Int, particles: [ParticleSnapshot], opacity: Double,
                pixelScale: SIMD2<Double>) {
        self.index = index
        additive = layer.renderMode == .additive
        droppedBirths = 0
        let sizeScale = Float((pixelScale.x * pixelScale.y).squareRoot())
        let scale = SIMD2<Float>(pixelScale)
        var batches = layer.cells.map { cell in
            SpriteBatch(sprite: cell.sprite,
                        blurFraction: cell.spriteSize > 0 ? Float(min(cell.blur / cell.spriteSize, SpriteBatch.maximumBlurFraction)) : 0,
                        imagePath: cell.imagePath, instances: [])
        }
        for p in particles {
            let cell = layer.cells[p.cellIndex]
            let alpha = Float(p.color.w * opacity)
            let width = Float(cell.spriteSize * p.scale) * sizeScale
            guard alpha > 0, width > 0 else { continue }
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
            // A particle whose numbers overflowed (huge velocities, scales, sways) has no place to be
            // drawn: both renderers skip it alike.
            guard instance.isFinite else { continue }
            batches[p.cellIndex].instances.append(instance)
        }
        if layer.renderMode == .oldestLast {
            for i in batches.indices { batches[i].instances.reverse() }
        }
        self.batches = batches
    }
}

extension ParticleDraw: LayerDraw {}

extension EmitterLayer: LayerContent {
    public var typeName: String { Self.kind.type }
    public var imagePaths: [String] { cells.compactMap(\.imagePath) }

    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        frame.layers.append(ParticleDraw(self, index: index, scene: frame.scene, time: frame.resolution.time,
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
