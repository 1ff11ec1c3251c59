// `welkin export-web` of emitters (web-runtime.js, "Particles").

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension EmitterLayer: WebExportable {
    /// An emitter: its layer and cells as values, and what EmitterSimulation derives from them
    /// once (cell seeds, step constants, channel ranges, the simulation plan); the page runs the
    /// same simulation in 1/120 s steps (web-runtime.js, "Particles").
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        let e = self
        if e.cells.contains(where: { $0.sprite == .image }) { return b.leaveOut(layer, path, "an emitter with image sprites") }
        var programsByKind: [WebJSON] = []
        for cell in e.cells {
            let defines = [("WELKIN_SPRITE_KIND", String(cell.sprite.code))]
            programsByKind.append(.number(Double(try b.program(vertex: ShaderSource(path: b.shaders.path("sprite.vert"), defines: defines),
                                                             fragment: ShaderSource(path: b.shaders.path("sprite.frag"), defines: defines)))))
        }
        let size = SIMD2<Double>(Double(b.scene.size.x), Double(b.scene.size.y))
        let plan = SimulationPlan(e, workBudget: SimulationPlan.workBudget / Double(max(1, b.scene.simulatedEmitterCount)))
        let centre = SIMD2<Float>(e.position * size)
        func number(_ v: Double?) -> WebJSON { v.map(WebJSON.number) ?? .null }
        func color(_ c: RGBA?) -> WebJSON { c.map { .numbers([$0.r, $0.g, $0.b, $0.a]) } ?? .null }
        let cells: [WebJSON] = e.cells.enumerated().map { c, cell in
            let k = StepConstants(damping: cell.damping, dt: EmitterSimulation.dt,
                                  acceleration: SIMD2(cell.xAcceleration, cell.yAcceleration) + b.scene.wind * cell.windFactor)
            let range = cell.channelRange
            return .object([
                ("enabled", .bool(cell.enabled)), ("birthRate", .number(cell.birthRate)), ("lifetime", .number(cell.lifetime)),
                ("lifetimeRange", .number(cell.lifetimeRange)), ("velocity", .number(cell.velocity)), ("velocityRange", .number(cell.velocityRange)),
                ("emissionLongitude", .number(cell.emissionLongitude)), ("emissionRange", .number(cell.emissionRange)),
                ("scale", .number(cell.scale)), ("scaleRange", .number(cell.scaleRange)), ("scaleSpeed", .number(cell.scaleSpeed)),
                ("spin", .number(cell.spin)), ("spinRange", .number(cell.spinRange)), ("color", color(cell.color)),
                ("colorRanges", .numbers([cell.redRange, cell.greenRange, cell.blueRange, cell.alphaRange])),
                ("colorSpeeds", .numbers([cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed])),
                ("sprite", .string(cell.sprite.rawValue)), ("spriteSize", .number(cell.spriteSize)),
                ("blurFraction", .floats([cell.spriteSize > 0 ? Float(min(cell.blur / cell.spriteSize, SpriteBatch.maximumBlurFraction)) : 0])),
                ("streakDuration", .number(cell.streakDuration)),
                ("sway", .numbers([cell.sway.amplitude, cell.sway.frequency, cell.sway.endAmplitude])),
                ("endScale", number(cell.endScale)), ("endScaleRange", .number(cell.endScaleRange)),
                ("rotation", .number(cell.rotation)), ("rotationRange", .number(cell.rotationRange)),
                ("endRotation", number(cell.endRotation)), ("endRotationRange", .number(cell.endRotationRange)),
                ("endColor", color(cell.endColor)),
                ("endColorRanges", .numbers([cell.endRedRange, cell.endGreenRange, cell.endBlueRange, cell.endAlphaRange])),
                ("radial", .numbers([cell.radialAcceleration, cell.radialAccelerationRange])),
                ("tangential", .numbers([cell.tangentialAcceleration, cell.tangentialAccelerationRange])),
                ("orbit", cell.orbit.map { o in .object([("radius", .numbers([o.radius, o.radiusRange])), ("endRadius", number(o.endRadius)),
                                                        ("endRadiusRange", .number(o.endRadiusRange)), ("speed", .numbers([o.speed, o.speedRange]))]) } ?? .null),
                ("emissionDuration", number(cell.emissionDuration)),
                ("alphaOverLife", cell.alphaOverLife.map { .numbers($0.values) } ?? .null),
                ("scaleOverLife", cell.scaleOverLife.map { .numbers($0.values) } ?? .null),
                ("colorOverLife", cell.colorOverLife.map { .array($0.values.map { color($0) }) } ?? .null),
                ("damping", .number(cell.damping)), ("usesExtras", .bool(cell.usesExtras)), ("usesForces", .bool(cell.usesForces)),
                ("longestLifetime", .number(cell.longestLifetime)), ("steadyStateBound", .number(e.steadyStateBound(cell))),
                ("seed", .string(String(EmitterSimulation.cellSeed(seed: b.scene.seed, layerSeed: e.seed, cell: c)))),
                ("constants", .floats([k.decay, k.b, k.c, k.acceleration.x, k.acceleration.y])),
                ("channelLow", .numbers([range.low.x, range.low.y, range.low.z, range.low.w])),
                ("channelHigh", .numbers([range.high.x, range.high.y, range.high.z, range.high.w])),
                ("program", programsByKind[c]),
            ])
        }
        return .object([
            ("kind", .string("particles")), ("label", .string(b.label(layer, path))), ("index", .number(Double(index))),
            ("shape", .string(e.shape.rawValue)), ("mode", .string(e.mode.rawValue)), ("position", .numbers([e.position.x, e.position.y])),
            ("size", .numbers([e.size.x, e.size.y])), ("birthRate", .number(e.birthRate)), ("lifetime", .number(e.lifetime)),
            ("velocity", .number(e.velocity)), ("scale", .number(e.scale)), ("spin", .number(e.spin)), ("prewarm", .number(e.prewarm)),
            ("renderMode", .string(e.renderMode.rawValue)), ("maxParticles", .number(Double(e.maxParticles))),
            ("centre", .floats([centre.x, centre.y])), ("sceneSize", .numbers([size.x, size.y])), ("opacity", .number(layer.opacity)),
            ("plan", .object([("exact", .bool(plan.exact)), ("lifetimeSteps", plan.lifetimeSteps.map { .number(Double($0)) } ?? .null),
                              ("historySteps", .number(Double(plan.historySteps)))])),
            ("cells", .array(cells)),
        ])
    }

}
