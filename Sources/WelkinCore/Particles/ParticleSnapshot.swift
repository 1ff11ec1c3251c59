// What a live particle shows at one instant: the simulation's state plus the closed forms of
// scale, spin, colour, ramps and sway. `welkin particles` prints these; Frame draws them.

import Foundation

/// One live particle as drawn, in points of the scene's frame.
public struct ParticleSnapshot: Sendable, Equatable {
    /// The emitter's layer index in the scene.
    public var emitter: Int
    public var cellIndex: Int
    public var cell: String
    /// Where it is drawn (ballistic path plus sway), points.
    public var position: SIMD2<Double>
    /// Points per second (the ballistic velocity; sway is an offset).
    public var velocity: SIMD2<Double>
    public var age: Double
    public var lifetime: Double
    public var scale: Double
    /// Radians.
    public var angle: Double
    /// sRGB, straight alpha, ramps applied.
    public var color: SIMD4<Double>
    /// Birth number within the cell (lower is older).
    public var birth: UInt32
}

extension Ramp where Value == Double {
    /// Linear interpolation of evenly spaced samples at u in 0…1.
    func evaluate(_ u: Double) -> Double {
        let n = values.count
        if n == 1 { return values[0] }
        let x = (u > 0 ? min(u, 1) : 0) * Double(n - 1)   // NaN → 0, never Int(NaN)
        let i = min(Int(x), n - 2)
        let f = x - Double(i)
        return values[i] + (values[i + 1] - values[i]) * f
    }
}

extension Ramp where Value == RGBA {
    func evaluate(_ u: Double) -> SIMD4<Double> {
        func v(_ c: RGBA) -> SIMD4<Double> { SIMD4(c.r, c.g, c.b, c.a) }
        let n = values.count
        if n == 1 { return v(values[0]) }
        let x = (u > 0 ? min(u, 1) : 0) * Double(n - 1)   // NaN → 0, never Int(NaN)
        let i = min(Int(x), n - 2)
        let f = x - Double(i)
        return v(values[i]) + (v(values[i + 1]) - v(values[i])) * f
    }
}

extension EmitterSimulation {
    /// Every live particle as drawn now, per cell in cell order, oldest first within a cell.
    public func snapshot() -> [ParticleSnapshot] {
        var out: [ParticleSnapshot] = []
        out.reserveCapacity(count)
        for (c, cell) in layer.cells.enumerated() {
            let s = stores[c]
            if let order = s.birthOrder() {
                for i in order { out.append(particle(cell: cell, index: c, store: s, at: Int(i))) }
            } else {
                for i in 0..<s.count { out.append(particle(cell: cell, index: c, store: s, at: i)) }
            }
        }
        return out
    }

    func particle(cell: EmitterCell, index c: Int, store s: ParticleStore, at i: Int) -> ParticleSnapshot {
        let age = Double(s.age[i]), lifetime = Double(s.lifetime[i])
        let u = lifetime > 0 ? min(age / lifetime, 1) : 1
        var position = SIMD2(Double(s.px[i]), Double(s.py[i]))
        if cell.sway.amplitude != 0 {
            let amplitude = cell.sway.amplitude * (1 + (cell.sway.endAmplitude - 1) * u)
            position.x += amplitude * Foundation.cos(2 * Double.pi * cell.sway.frequency * age + Double(s.phase[i]))
        }
        // Start → end values (cells with extras): start + (end − start) · u.
        let extended = !s.extras.isEmpty
        func interpolate(_ start: Float, _ end: ParticleStore.Extra) -> Double {
            let a = Double(start)
            return extended ? a + (Double(s.extra(end)[i]) - a) * u : a
        }
        var scale = layer.scale * max(0, interpolate(s.scale[i], .endScale) + cell.scaleSpeed * age)
        if let r = cell.scaleOverLife { scale *= max(0, r.evaluate(u)) }
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        let bounds = channelRanges[c]
        func clamp(_ v: SIMD4<Double>) -> SIMD4<Double> { v.clamped(lowerBound: bounds.low, upperBound: bounds.high) }
        var color = clamp(SIMD4(interpolate(s.red[i], .endRed) + cell.redSpeed * age,
                                interpolate(s.green[i], .endGreen) + cell.greenSpeed * age,
                                interpolate(s.blue[i], .endBlue) + cell.blueSpeed * age,
                                interpolate(s.alpha[i], .endAlpha) + cell.alphaSpeed * age))
        if let r = cell.colorOverLife { color *= r.evaluate(u) }
        var angle = Double(s.spin[i]) * age
        if extended {
            let start = Double(s.extra(.startRotation)[i])
            angle += start + (Double(s.extra(.endRotation)[i]) - start) * u
        }
        if let r = cell.alphaOverLife { color.w *= clamp(r.evaluate(u)) }
        color = clamp(color)
        return ParticleSnapshot(emitter: layerIndex, cellIndex: c, cell: cell.name, position: position,
                                velocity: SIMD2(Double(s.vx[i]), Double(s.vy[i])), age: age, lifetime: lifetime,
                                scale: scale, angle: angle, color: color, birth: s.birth[i])
    }
}

extension ParticleSnapshot {
    /// Every live particle of every emitter layer of `scene` at scene time `time`: layer by layer,
    /// cell by cell, oldest first, then the weather's rain and snow (emitter 1000000 and 1000001) —
    /// the particles `Frame(scene:time:)` draws at the scene's size, from the same cache.
    public static func all(in scene: Scene, at time: Double) -> (particles: [ParticleSnapshot], droppedBirths: [(layer: Int, count: Int)]) {
        var out: [ParticleSnapshot] = []
        var dropped: [(layer: Int, count: Int)] = []
        for (index, layer) in scene.layers.enumerated() {
            guard let e = layer.content as? EmitterLayer else { continue }
            let steps = EmitterSimulation.steps(at: time, prewarm: e.prewarm)
            SimulationCache.shared.withSimulation(layer: e, layerIndex: index, sceneSize: scene.size, seed: scene.seed,
                                                  wind: scene.wind, steps: steps, sharing: scene.simulatedEmitterCount) { s in
                out += s.snapshot()
                if s.droppedBirths > 0 { dropped.append((index, s.droppedBirths)) }
            }
        }
        // The weather's rain and snow, as the frame draws them over the scene's frame.
        for kind in PrecipitationKind.allCases {
            if let falling = kind.particles(scene: scene, time: time) { out += falling.particles }
        }
        return (out, dropped)
    }
}
