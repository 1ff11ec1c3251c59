// Emitters: a CAEmitterLayer per emitter layer, its cells carrying every property Welkin and Core
// Animation share. Welkin's extras become Core Animation values where the maths allows it exactly
// (scene wind is a constant acceleration; a linear over-life ramp is a speed), and a comment and a
// warning where it does not (sway, damping, curved ramps). For SwiftUI, a layer with any of those
// is drawn instead by a Canvas running the exported simulation (CanvasEmitterExport.swift).

import Foundation
import WelkinCore

enum EmitterExport {
    /// Where an exported emitter comes from: a scene layer, or one the weather adds (index nil:
    /// its warnings name `weather`).
    struct Origin {
        /// The scene layer's index, for warnings.
        var index: Int?
        /// The layer's type (`emitter`), or what the weather's emitter draws (`rain`, `snow`).
        var kind: String
        /// How comments name it: `layers[2] "sparks" (emitter)`.
        var label: String
        /// The member name of its CAEmitterLayer (unique in the file).
        var base: String
        var opacity: Double
        /// The index in the scene's emitter of the first cell written (warnings name cells by it).
        var firstCell = 0
    }

    static func export(_ e: EmitterLayer, layer: Layer, index: Int, context c: ExportContext) {
        if c.target == .swiftUI, needsSimulation(e, layer: layer, index: index, scene: c.scene) {
            CanvasEmitterExport.export(e, layer: layer, index: index, context: c)
            return
        }
        let kind = layer.content.typeName
        let origin = Origin(index: index, kind: kind, label: c.label(layer, index: index, kind: kind),
                            base: c.name(for: layer, index: index), opacity: layer.opacity)
        export(e, origin: origin, context: c)
    }

    /// Writes `e` as a CAEmitterLayer: its configure and layout functions at file scope and its
    /// place in the ZStack (SwiftUI) or the sublayers (Core Animation). `configureMore` adds lines
    /// at the end of the configure function (the emitter is `emitter` there).
    /// `liveBirthRate`: a Swift expression for the layer's birth rate, evaluated every frame in a
    /// TimelineView (SwiftUI only: a live sky's rain and snow following the view's weather).
    static func export(_ e: EmitterLayer, origin: Origin, context c: ExportContext, liveBirthRate: String? = nil,
                       configureMore: (inout SwiftSource) -> Void = { _ in }) {
        let index = origin.index, kind = origin.kind
        c.usesEmitters = true
        c.runtime.formUnion(["platformY", "cgColor"])
        let base = origin.base
        let capital = base.prefix(1).uppercased() + base.dropFirst()
        let make = "configure\(capital)Emitter", place = "layout\(capital)Emitter"
        let label = origin.label
        var notes: [String] = []

        var f = SwiftSource()
        f.line("/// Sets up `emitter` as \(label). Welkin's ranges are Core Animation's value ± range and its")
        f.line("/// emissionRange is the cone's full angle, as Apple describes them (Welkin's docs/particles.md).")
        f.line("/// Core Animation draws its own random numbers: the same distributions, not the same particles.")
        f.block("private func \(make)(_ emitter: CAEmitterLayer) {") { s in
            s.line("emitter.emitterShape = .\(e.shape.rawValue)")
            s.line("emitter.emitterMode = .\(e.mode.rawValue)")
            s.line("emitter.renderMode = .\(e.renderMode.rawValue)")
            if e.renderMode != .additive, e.cells.filter(\.enabled).count > 1 {
                let message = c.warn(index, kind, "approximated: renderMode \(e.renderMode.rawValue): Welkin orders particles by age within each cell and draws the cells in order; Core Animation orders all the layer's particles together")
                notes.append(message)
                s.comment(message)
            }
            s.comment("The layer's multipliers of every cell's values.")
            s.line("emitter.birthRate = \(c.n(e.birthRate))")
            s.line("emitter.lifetime = \(c.n(e.lifetime))")
            s.line("emitter.velocity = \(c.n(e.velocity))")
            s.line("emitter.scale = \(c.n(e.scale))")
            s.line("emitter.spin = \(c.n(e.spin))")
            s.line("emitter.seed = \(UInt32(truncatingIfNeeded: c.scene.seed ^ e.seed))")
            if e.prewarm > 0 {
                s.comment("prewarm \(c.n(e.prewarm)) s: the emitter has already run this long when it appears (Core Animation's timeOffset, as seed 002's code does).")
                s.line("emitter.beginTime = CACurrentMediaTime()")
                s.line("emitter.timeOffset = \(c.n(e.prewarm))")
            }
            let bound = e.cells.filter(\.enabled).reduce(0.0) { $0 + e.steadyStateBound($1) }
            if bound > Double(e.maxParticles) {
                let message = c.warn(index, kind, "not exported: maxParticles \(e.maxParticles) (Welkin drops births beyond it; the cells need up to \(Int(bound.rounded(.up))); Core Animation has no such limit)")
                notes.append(message)
                s.comment(message)
            }
            var names: [String] = []
            var used = Set<String>()   // cell names end in "Cell", so they never meet the parameter
            for (i, cell) in e.cells.enumerated() {
                var name = (SwiftLiteral.identifier(cell.name) ?? "cell") + "Cell"
                if used.contains(name) { name = "cell\(i)" }
                used.insert(name)
                names.append(name)
                s.line()
                writeCell(cell, index: origin.firstCell + i, name: name, emitter: e, layerIndex: index, kind: kind, notes: &notes, c, into: &s)
            }
            s.line()
            s.line("emitter.emitterCells = [\(names.joined(separator: ", "))]")
            configureMore(&s)
        }
        f.line()
        f.line("/// Places the emitter of \(label) in `bounds`: Welkin's unit position and size.")
        f.block("private func \(place)(_ emitter: CAEmitterLayer, in bounds: CGRect) {") { s in
            s.line("emitter.frame = bounds")
            s.line("emitter.emitterPosition = welkinPoint(\(c.n(e.position.x)), \(c.n(e.position.y)), in: bounds)")
            if e.shape == .circle {
                s.comment("Welkin's circle has radius size.x / 2 of the frame's width; Core Animation's has radius emitterSize.width.")
                s.line("emitter.emitterSize = CGSize(width: \(c.n(e.size.x)) * bounds.width / 2, height: \(c.n(e.size.y)) * bounds.height)")
            } else {
                s.line("emitter.emitterSize = CGSize(width: \(c.n(e.size.x)) * bounds.width, height: \(c.n(e.size.y)) * bounds.height)")
            }
        }
        if !c.fileScope.text.isEmpty { c.fileScope.line() }
        c.fileScope.lines(f.text)

        if c.target == .swiftUI {
            c.runtime.insert("emitterView")
            c.addView { s in
                s.comment(label + " → a CAEmitterLayer hosted in a UIView (iOS) or NSView (macOS): \(make)(_:).")
                if let liveBirthRate {
                    s.comment("Its birth rate follows the live sky's weather, updated every frame.")
                    s.block("TimelineView(.animation) { _ in", "}") { s in
                        s.line("WelkinEmitterView(configure: \(make), layout: \(place), birthRate: Float(\(liveBirthRate)))")
                    }
                } else {
                    s.line("WelkinEmitterView(configure: \(make), layout: \(place))")
                }
                s.line(".opacity(\(c.n(origin.opacity)))")
            }
        } else {
            c.members.line("private let \(base) = CAEmitterLayer()")
            c.body.comment(label + " → a CAEmitterLayer: \(make)(_:).")
            c.body.line("\(make)(\(base))")
            c.body.line("\(base).opacity = \(c.n(origin.opacity))")
            c.body.line("addSublayer(\(base))")
            c.layout.line("\(place)(\(base), in: bounds)")
        }
    }

    /// Whether Core Animation cannot say `e`: written as a CAEmitterLayer, it would have a "not
    /// exported" note (a cell's sway, damping, curved ramp, end values, rotation, forces, orbit or
    /// emission duration, or births dropped at maxParticles). The SwiftUI export draws such a layer
    /// with the exported simulation instead (CanvasEmitterExport).
    static func needsSimulation(_ e: EmitterLayer, layer: Layer, index: Int, scene: Scene) -> Bool {
        let scratch = ExportContext(scene: scene, target: .coreAnimation)
        export(e, layer: layer, index: index, context: scratch)
        return scratch.warnings.contains { $0.message.hasPrefix("not exported: ") || $0.message.contains(": not exported: ") }
    }

    /// A cell's value with its range and speed, as Swift expressions.
    struct Channel {
        var base: String, range: String, speed: String
        var rangeIsZero: Bool, speedIsZero: Bool
    }

    /// How a ramp of over-life multipliers maps onto a channel.
    enum RampFit { case exact, approximate, none }

    static func fit(_ samples: [Double], _ ch: Channel, lifetimeRange: Double) -> RampFit {
        switch samples.count {
        case 1: return .exact
        case 2: return !ch.speedIsZero ? .none : (ch.rangeIsZero && lifetimeRange == 0 ? .exact : .approximate)
        default: return .none
        }
    }

    /// The channel times the ramp: a constant multiplies value, range and speed; a linear ramp
    /// k0 → k1 over a life of L seconds is value × k0 changing by value × (k1 − k0) / L per second.
    static func apply(_ samples: [Double], to ch: Channel, lifetime: String) -> Channel {
        let k = samples.map(SwiftLiteral.number).map { $0.hasPrefix("-") ? "(\($0))" : $0 }
        let range = ch.rangeIsZero ? ch.range : "\(ch.range) * \(k[0])"
        if samples.count == 1 {
            return Channel(base: "\(ch.base) * \(k[0])", range: range, speed: ch.speedIsZero ? ch.speed : "\(ch.speed) * \(k[0])",
                           rangeIsZero: ch.rangeIsZero, speedIsZero: ch.speedIsZero)
        }
        return Channel(base: "\(ch.base) * \(k[0])", range: range,
                       speed: "\(ch.base) * (\(k[1]) - \(k[0])) / \(lifetime)", rangeIsZero: ch.rangeIsZero, speedIsZero: false)
    }

    static func writeCell(_ cell: EmitterCell, index: Int, name: String, emitter e: EmitterLayer, layerIndex: Int?, kind: String,
                          notes: inout [String], _ c: ExportContext, into s: inout SwiftSource) {
        func n(_ v: Double) -> String { c.n(v) }
        func p(_ v: Double) -> String { v < 0 ? "(\(n(v)))" : n(v) }
        let cellLabel = "cells[\(index)] \(SwiftLiteral.string(SwiftLiteral.commentText(cell.name)))"
        func note(_ message: String) {
            let m = c.warn(layerIndex, kind, "\(cellLabel): \(message)")
            notes.append(m)
            s.comment(message)
        }
        s.comment(cellLabel)
        s.line("let \(name) = CAEmitterCell()")
        s.line("\(name).name = \(SwiftLiteral.string(cell.name))")
        if !cell.enabled { s.line("\(name).isEnabled = false") }

        // Contents: the sprite.
        let lifetime = e.lifetime == 1 ? n(cell.lifetime) : "(\(n(cell.lifetime)) * \(n(e.lifetime)))"
        let lifetimeSeconds = cell.lifetime * e.lifetime
        let wind = c.scene.wind * cell.windFactor
        let acceleration = SIMD2(cell.xAcceleration, cell.yAcceleration) + wind
        switch cell.sprite {
        case .image:
            c.usesImages = true
            let file = URL(fileURLWithPath: cell.imagePath ?? "sprite.png")
            let asset = file.deletingPathExtension().lastPathComponent
            let width = cell.imageSize?.x ?? 1
            s.comment("The PNG \(file.lastPathComponent): add it to your asset catalog as \(SwiftLiteral.string(asset)). Welkin draws it \(n(cell.spriteSize)) points wide (\(width) pixels).")
            s.line("#if canImport(UIKit)")
            s.line("\(name).contents = UIImage(named: \(SwiftLiteral.string(asset)))?.cgImage")
            s.line("#else")
            s.line("\(name).contents = NSImage(named: \(SwiftLiteral.string(asset)))?.cgImage(forProposedRect: nil, context: nil, hints: nil)")
            s.line("#endif")
            s.line("\(name).contentsScale = \(width) / \(n(cell.spriteSize))")
        case .streak:
            c.runtime.insert("spriteImage")
            let direction = SIMD2(cos(cell.emissionLongitude), sin(cell.emissionLongitude))
            let middle = direction * cell.velocity * e.velocity + acceleration * (lifetimeSeconds / 2)
            // Derived values, rounded: they approximate anyway.
            let speed = ((middle * middle).sum().squareRoot() * 10).rounded() / 10
            let angle = speed > 0 ? (atan2(middle.y, middle.x) * 1e4).rounded() / 1e4 : 0
            note("approximated: a streak turns with its velocity and grows with its speed in Welkin; Core Animation's particles keep their image, so it is drawn along the velocity at mid-life (\(n(speed)) pt/s, \(n(angle)) rad)")
            s.line("\(name).contents = welkinSpriteImage(.streak, size: [\(n(cell.spriteSize)) + \(n(speed)) * \(n(cell.streakDuration)), \(n(cell.spriteSize))], blur: 0, angle: \(n(angle)))")
            s.line("\(name).contentsScale = welkinSpriteScale")
        case .dot, .softDot, .flake, .cloud:
            c.runtime.insert("spriteImage")
            let blur = cell.sprite == .softDot || cell.sprite == .cloud ? n(cell.blur) : "0"
            s.line("\(name).contents = welkinSpriteImage(.\(cell.sprite.rawValue), size: [\(n(cell.spriteSize)), \(n(cell.spriteSize))], blur: \(blur))")
            s.line("\(name).contentsScale = welkinSpriteScale")
        }

        s.line("\(name).birthRate = \(n(cell.birthRate))")
        s.line("\(name).lifetime = \(n(cell.lifetime))")
        s.line("\(name).lifetimeRange = \(n(cell.lifetimeRange))")
        s.line("\(name).velocity = \(n(cell.velocity))")
        s.line("\(name).velocityRange = \(n(cell.velocityRange))")
        s.line("\(name).emissionLongitude = welkinYDown * \(p(cell.emissionLongitude))")
        s.line("\(name).emissionRange = \(n(cell.emissionRange))")
        if wind != .zero {
            s.comment("The scene's wind [\(n(c.scene.wind.x)), \(n(c.scene.wind.y))] pt/s² × windFactor \(n(cell.windFactor)) is a constant acceleration: exactly Core Animation's.")
            s.line("\(name).xAcceleration = \(n(cell.xAcceleration)) + \(p(c.scene.wind.x)) * \(p(cell.windFactor))")
            s.line("\(name).yAcceleration = welkinYDown * (\(n(cell.yAcceleration)) + \(p(c.scene.wind.y)) * \(p(cell.windFactor)))")
        } else {
            s.line("\(name).xAcceleration = \(n(cell.xAcceleration))")
            s.line("\(name).yAcceleration = welkinYDown * \(p(cell.yAcceleration))")
        }

        // Channels, with the over-life ramps folded in where that is exact or close.
        var scale = Channel(base: n(cell.scale), range: n(cell.scaleRange), speed: n(cell.scaleSpeed),
                            rangeIsZero: cell.scaleRange == 0, speedIsZero: cell.scaleSpeed == 0)
        var colors = [
            Channel(base: n(cell.color.r), range: n(cell.redRange), speed: n(cell.redSpeed), rangeIsZero: cell.redRange == 0, speedIsZero: cell.redSpeed == 0),
            Channel(base: n(cell.color.g), range: n(cell.greenRange), speed: n(cell.greenSpeed), rangeIsZero: cell.greenRange == 0, speedIsZero: cell.greenSpeed == 0),
            Channel(base: n(cell.color.b), range: n(cell.blueRange), speed: n(cell.blueSpeed), rangeIsZero: cell.blueRange == 0, speedIsZero: cell.blueSpeed == 0),
            Channel(base: n(cell.color.a), range: n(cell.alphaRange), speed: n(cell.alphaSpeed), rangeIsZero: cell.alphaRange == 0, speedIsZero: cell.alphaSpeed == 0),
        ]
        var exact: [String] = []
        func fold(_ key: String, _ list: String, _ samples: [[Double]], _ channels: inout [Channel]) {
            let fits = zip(samples, channels).map { fit($0, $1, lifetimeRange: cell.lifetimeRange) }
            if fits.contains(.none) {
                let why = samples.contains { $0.count > 2 }
                    ? "this ramp is not a straight line"
                    : "the cell already changes the value at a speed, and the ramp on top of it makes a curve"
                note("not exported: \(key) \(list): Core Animation changes a particle's values only at a constant speed, and \(why)")
                return
            }
            channels = zip(samples, channels).map { apply($0, to: $1, lifetime: lifetime) }
            if fits.contains(.approximate) {
                note("approximated: \(key) \(list) as a constant speed over the mean lifetime \(n(lifetimeSeconds)) s (exact only without lifetimeRange and the value's own range)")
            } else {
                exact.append("\(key) \(list) over a life of \(n(lifetimeSeconds)) s: exactly a starting value and a speed.")
            }
        }
        if let ramp = cell.colorOverLife {
            let channels = [ramp.values.map(\.r), ramp.values.map(\.g), ramp.values.map(\.b), ramp.values.map(\.a)]
            let list = "[" + ramp.values.map { c.rgbaList($0) }.joined(separator: ", ") + "]"
            fold("colorOverLife", list, channels, &colors)
        }
        if let ramp = cell.alphaOverLife {
            var alpha = [colors[3]]
            fold("alphaOverLife", "[" + ramp.values.map(n).joined(separator: ", ") + "]", [ramp.values], &alpha)
            colors[3] = alpha[0]
        }
        if let ramp = cell.scaleOverLife {
            var channels = [scale]
            fold("scaleOverLife", "[" + ramp.values.map(n).joined(separator: ", ") + "]", [ramp.values], &channels)
            scale = channels[0]
        }
        for line in exact { s.comment(line) }
        s.line("\(name).scale = \(scale.base)")
        s.line("\(name).scaleRange = \(scale.range)")
        s.line("\(name).scaleSpeed = \(scale.speed)")
        s.line("\(name).spin = welkinYDown * \(p(cell.spin))")
        s.line("\(name).spinRange = \(n(cell.spinRange))")
        s.line("\(name).color = CGColor(srgbRed: \(colors[0].base), green: \(colors[1].base), blue: \(colors[2].base), alpha: \(colors[3].base))"
               + c.hexComment(cell.color))
        for (channel, key) in zip(colors, ["red", "green", "blue", "alpha"]) {
            s.line("\(name).\(key)Range = \(channel.range)")
            s.line("\(name).\(key)Speed = \(channel.speed)")
        }

        // What Core Animation cannot do.
        if cell.sway.amplitude != 0 {
            note("not exported: sway (amplitude \(n(cell.sway.amplitude)) pt, frequency \(n(cell.sway.frequency)) Hz, endAmplitude \(n(cell.sway.endAmplitude))): Core Animation has no per-particle oscillation")
        }
        if cell.damping != 0 {
            note("not exported: damping \(n(cell.damping))/s: Core Animation's particles keep a constant acceleration")
        }
        if cell.endScale != nil || cell.endRotation != nil || cell.endColor != nil {
            note("not exported: endScale/endRotation/endColor: Core Animation has no per-particle start → end interpolation (its scaleSpeed and colour speeds are per cell)")
        }
        if cell.rotation != 0 || cell.rotationRange != 0 {
            note("not exported: rotation \(n(cell.rotation)) ± \(n(cell.rotationRange)) rad: CAEmitterCell has no start angle")
        }
        if cell.usesForces {
            note("not exported: radialAcceleration/tangentialAcceleration: Core Animation's particles keep a constant acceleration")
        }
        if cell.orbit != nil {
            note("not exported: orbit (radial mode): Core Animation's particles fly, they do not circle the emitter")
        }
        if let d = cell.emissionDuration {
            note("not exported: emissionDuration \(n(d)) s: set the cell's CAMediaTiming duration or stop the emitter yourself")
        }
    }
}

extension EmitterLayer: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { EmitterExport.export(self, layer: layer, index: index, context: context) }
}
