// Emitters Core Animation cannot say, for SwiftUI: a Canvas in a TimelineView that runs the exported
// copy of Welkin's simulation (EmitterSimulationRuntime.swift) and draws every particle with its
// sprite, the way seed 004 draws its fire. The particles are Welkin's own: same births, random
// streams, motion and closed forms, held to WelkinCore by RuntimeTwinTests.

import Foundation
import WelkinCore

enum CanvasEmitterExport {
    static func export(_ e: EmitterLayer, layer: Layer, index: Int, context c: ExportContext) {
        let kind = layer.content.typeName
        c.runtime.formUnion(["particleCanvas"])
        c.usesEmitters = true   // CoreGraphics' images for the sprites
        c.animates = true
        c.require(iOS: 15, macOS: 12)
        let base = c.name(for: layer, index: index)
        let label = c.label(layer, index: index, kind: kind)
        let emitterName = base + "Emitter", spritesName = base + "Sprites"

        var f = SwiftSource()
        f.line("/// \(label) as Welkin simulates it, in points of the frame it is drawn in (Welkin's")
        f.line("/// EmitterLayer and EmitterCell values; unset ones are Welkin's defaults).")
        f.block("private let \(emitterName): WelkinParticleEmitter = {", "}()") { s in
            writeEmitter(e, index: index, c, into: &s)
        }
        f.line()
        f.line("/// How each cell of \(label) looks, in cell order.")
        f.block("private let \(spritesName): [WelkinCanvasSprite] = [", "]") { s in
            for cell in e.cells { s.line(sprite(cell, c) + ",") }
        }
        if !c.fileScope.text.isEmpty { c.fileScope.line() }
        c.fileScope.lines(f.text)

        // What still differs from Welkin's picture.
        if e.cells.contains(where: { [.dot, .softDot, .flake, .cloud].contains($0.sprite) }) {
            c.warn(index, kind, "approximated: sprites are drawn from images of Welkin's coverage at 3 pixels per point with 8 bits, scaled to each particle's size; Welkin evaluates the coverage at every pixel")
        }
        if e.cells.contains(where: { $0.sprite == .streak }) {
            c.warn(index, kind, "approximated: streaks are capsules filled with a linear fade; Welkin antialiases their edges per pixel")
        }
        let blend = e.renderMode == .additive ? "additive (plusLighter: premultiplied colours add, as Welkin's ONE, ONE blend)" : "source-over, \(e.renderMode == .oldestLast ? "newest" : "oldest") first within each cell, cells in order"
        c.addView { s in
            s.comment(label + " → a Canvas in a TimelineView running the exported copy of Welkin's emitter simulation (the same particles); \(blend).")
            s.line("WelkinParticleCanvas(emitter: \(emitterName), sprites: \(spritesName), start: start)")
            s.line(".opacity(\(c.n(layer.opacity)))")
        }
    }

    /// `.procedural(.softDot, size: 35.0, blur: 10.0)` and the like.
    static func sprite(_ cell: EmitterCell, _ c: ExportContext) -> String {
        let n = c.n
        switch cell.sprite {
        case .image:
            c.usesImages = true
            let asset = URL(fileURLWithPath: cell.imagePath ?? "sprite.png").deletingPathExtension().lastPathComponent
            let pixels = cell.imageSize ?? SIMD2(1, 1)
            let aspect = pixels.x > 0 ? Double(pixels.y) / Double(pixels.x) : 1
            return ".image(\(SwiftLiteral.string(asset)), size: \(n(cell.spriteSize)), aspect: \(n(aspect)))"
        case .streak:
            return ".streak(width: \(n(cell.spriteSize)), duration: \(n(cell.streakDuration)))"
        case .dot, .softDot, .flake, .cloud:
            let blur = cell.sprite == .softDot || cell.sprite == .cloud ? n(cell.blur) : "0"
            return ".procedural(.\(cell.sprite.rawValue), size: \(n(cell.spriteSize)), blur: \(blur))"
        }
    }

    /// Statements that build the emitter value `e`: only what differs from the defaults.
    static func writeEmitter(_ e: EmitterLayer, index: Int, _ c: ExportContext, into s: inout SwiftSource) {
        let n = c.n
        let d = EmitterLayer()
        s.line("var e = WelkinParticleEmitter()")
        if e.shape != d.shape { s.line("e.shape = .\(e.shape.rawValue)") }
        if e.mode != d.mode { s.line("e.mode = .\(e.mode.rawValue)") }
        if e.renderMode != d.renderMode { s.line("e.renderMode = .\(e.renderMode.rawValue)") }
        s.line("e.position = \(SwiftLiteral.pair(e.position))")
        if e.size != d.size { s.line("e.size = \(SwiftLiteral.pair(e.size))") }
        for (name, value, fallback) in [("birthRate", e.birthRate, d.birthRate), ("lifetime", e.lifetime, d.lifetime),
                                        ("velocity", e.velocity, d.velocity), ("scale", e.scale, d.scale),
                                        ("spin", e.spin, d.spin), ("prewarm", e.prewarm, d.prewarm)] where value != fallback {
            s.line("e.\(name) = \(n(value))")
        }
        if e.maxParticles != d.maxParticles { s.line("e.maxParticles = \(e.maxParticles)") }
        s.comment("The random streams' key: the scene's seed, the layer's seed and its index in the scene.")
        s.line("e.sceneSeed = \(c.scene.seed)")
        if e.seed != 0 { s.line("e.seed = \(e.seed)") }
        s.line("e.layerIndex = \(index)")
        if c.scene.wind != .zero { s.line("e.wind = \(SwiftLiteral.pair(c.scene.wind))") }
        let plan = SimulationPlan(e)
        if plan.exact, let window = plan.lifetimeSteps {
            s.comment("A particle lives at most \(window) steps of 1/120 s: a frame further on than that from the last re-simulates only those.")
            s.line("e.windowSteps = \(window)")
        } else {
            s.comment("Births may be dropped at maxParticles (or lifetimes are unbounded): a jump back re-simulates from the start.")
        }
        var names: [String] = []
        for (i, cell) in e.cells.enumerated() {
            let name = "cell\(i)"
            names.append(name)
            s.line()
            s.comment("cells[\(i)] \(SwiftLiteral.string(SwiftLiteral.commentText(cell.name)))")
            s.line("var \(name) = WelkinParticleCell()")
            writeCell(cell, name: name, c, into: &s)
        }
        s.line("e.cells = [\(names.joined(separator: ", "))]")
        s.line("return e")
    }

    static func writeCell(_ cell: EmitterCell, name: String, _ c: ExportContext, into s: inout SwiftSource) {
        let n = c.n
        let d = EmitterCell()
        func set(_ key: String, _ v: Double, _ fallback: Double) { if v != fallback { s.line("\(name).\(key) = \(n(v))") } }
        func setOptional(_ key: String, _ v: Double?) { if let v { s.line("\(name).\(key) = \(n(v))") } }
        func vector(_ key: String, _ v: SIMD4<Double>) {
            if v != .zero { s.line("\(name).\(key) = [\(n(v.x)), \(n(v.y)), \(n(v.z)), \(n(v.w))]") }
        }
        if !cell.enabled { s.line("\(name).enabled = false") }
        set("birthRate", cell.birthRate, d.birthRate); set("lifetime", cell.lifetime, d.lifetime)
        set("lifetimeRange", cell.lifetimeRange, d.lifetimeRange)
        set("velocity", cell.velocity, d.velocity); set("velocityRange", cell.velocityRange, d.velocityRange)
        set("emissionLongitude", cell.emissionLongitude, d.emissionLongitude); set("emissionRange", cell.emissionRange, d.emissionRange)
        set("xAcceleration", cell.xAcceleration, d.xAcceleration); set("yAcceleration", cell.yAcceleration, d.yAcceleration)
        if c.scene.wind != .zero { set("windFactor", cell.windFactor, d.windFactor) }
        set("damping", cell.damping, d.damping)
        set("scale", cell.scale, d.scale); set("scaleRange", cell.scaleRange, d.scaleRange); set("scaleSpeed", cell.scaleSpeed, d.scaleSpeed)
        set("spin", cell.spin, d.spin); set("spinRange", cell.spinRange, d.spinRange)
        if cell.color != d.color { s.line("\(name).color = \(c.rgba(cell.color))" + c.hexComment(cell.color)) }
        vector("colorRange", SIMD4(cell.redRange, cell.greenRange, cell.blueRange, cell.alphaRange))
        vector("colorSpeed", SIMD4(cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed))
        if cell.sway.amplitude != 0 {
            s.comment("Sway: a horizontal cosine offset of this amplitude (points) and frequency (Hz), going linearly to endAmplitude × it over the life.")
            set("swayAmplitude", cell.sway.amplitude, 0); set("swayFrequency", cell.sway.frequency, 1)
            set("swayEndAmplitude", cell.sway.endAmplitude, 1)
        }
        setOptional("endScale", cell.endScale); set("endScaleRange", cell.endScaleRange, 0)
        set("rotation", cell.rotation, 0); set("rotationRange", cell.rotationRange, 0)
        setOptional("endRotation", cell.endRotation); set("endRotationRange", cell.endRotationRange, 0)
        if let end = cell.endColor { s.line("\(name).endColor = \(c.rgba(end))") }
        vector("endColorRange", SIMD4(cell.endRedRange, cell.endGreenRange, cell.endBlueRange, cell.endAlphaRange))
        set("radialAcceleration", cell.radialAcceleration, 0); set("radialAccelerationRange", cell.radialAccelerationRange, 0)
        set("tangentialAcceleration", cell.tangentialAcceleration, 0)
        set("tangentialAccelerationRange", cell.tangentialAccelerationRange, 0)
        if let o = cell.orbit {
            var parts = ["radius: \(n(o.radius))", "radiusRange: \(n(o.radiusRange))"]
            if let r = o.endRadius { parts.append("endRadius: \(n(r))") }
            parts += ["endRadiusRange: \(n(o.endRadiusRange))", "speed: \(n(o.speed))", "speedRange: \(n(o.speedRange))"]
            s.line("\(name).orbit = WelkinOrbit(\(parts.joined(separator: ", ")))")
        }
        setOptional("emissionDuration", cell.emissionDuration)
        if let r = cell.alphaOverLife { s.line("\(name).alphaOverLife = [\(r.values.map(n).joined(separator: ", "))]") }
        if let r = cell.scaleOverLife { s.line("\(name).scaleOverLife = [\(r.values.map(n).joined(separator: ", "))]") }
        if let r = cell.colorOverLife { s.line("\(name).colorOverLife = [\(r.values.map { c.rgba($0) }.joined(separator: ", "))]") }
    }
}
