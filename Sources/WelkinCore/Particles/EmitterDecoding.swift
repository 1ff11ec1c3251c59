// Decoding and validating `emitter` layers: every mistake names its JSON path.

import Foundation

extension EmitterLayer {
    /// The most cells one emitter may have (each is one instanced draw on the GPU).
    public static let maximumCells = 256

    /// The `emitter` layer's own keys (CAEmitterLayer's; the layer values multiply the cells').
    public static let properties: [Property] = {
        let d = EmitterLayer()
        let multiplier = 0.0...1e6
        return [
            Property("shape", .choice(EmitterShape.allCases.map(\.rawValue)), default: .string(d.shape.rawValue),
                     expected: "emitter shape", "Where new particles are placed: a point, a line, a rectangle or a circle."),
            Property("mode", .choice(EmitterMode.allCases.map(\.rawValue)), default: .string(d.mode.rawValue),
                     expected: "emitter mode", "Which part of the shape emits: its vertices, its outline or its surface."),
            Property("position", .unitPoint(-limit...limit), default: .point(d.position), "The centre of the emitter shape."),
            Property("size", .pair(0...limit), default: .point(d.size), unit: "unit",
                     expected: "[width, height] ≥ 0 in unit space", "The shape's width and height in unit space (a circle's radius is width / 2)."),
            Property("birthRate", .number(multiplier), default: .number(d.birthRate), "Multiplies every cell's birthRate (the product at most \(format(maximumEffectiveBirthRate)) a second)."),
            Property("lifetime", .number(multiplier), default: .number(d.lifetime), "Multiplies every cell's lifetime (with its lifetimeRange, at most \(format(maximumEffectiveLifetime)) s)."),
            Property("velocity", .number(multiplier), default: .number(d.velocity), "Multiplies every cell's velocity."),
            Property("scale", .number(multiplier), default: .number(d.scale), "Multiplies every cell's scale."),
            Property("spin", .number(-1e6...1e6), default: .number(d.spin), "Multiplies every cell's spin."),
            Property("prewarm", .number(0...maximumPrewarm), default: .number(d.prewarm), unit: "s", live: false,
                     expected: "seconds in 0…\(format(maximumPrewarm))", "Seconds the emitter has already run at time 0 (Core Animation's timeOffset)."),
            Property("seed", .integer(0...(1 << 53)), default: .number(Double(d.seed)), live: false,
                     expected: "a whole number ≥ 0", "Mixed with the scene's seed: emitters with different seeds differ."),
            Property("renderMode", .choice(EmitterRenderMode.allCases.map(\.rawValue)), default: .string(d.renderMode.rawValue),
                     expected: "render mode", "Compositing order within a cell (oldestFirst, oldestLast) or additive blending."),
            Property("maxParticles", .integer(1...maximumParticles), default: .number(Double(d.maxParticles)), live: false,
                     "Live particles at most for the whole layer; births beyond it are dropped."),
            Property("cells", .array(.object(EmitterCell.properties), count: 0...maximumCells), required: true,
                     "The kinds of particle this emitter emits (CAEmitterCell)."),
        ]
    }()

    /// Unit-space coordinates of the emitter's position and size stay within ±limit.
    public static let limit = 100.0

    /// The layer's `type` in scene files (for tools that write scenes, such as `welkin import`).
    public static var type: String { kind.type }

    static let kind = LayerKind("emitter", "Core Animation's CAEmitterLayer: cells of particles born, moved and drawn deterministically (docs/particles.md).",
                                properties, draws: [ParticleDraw.self]) { object, context in
        try SceneLoader.decodeEmitter(object, sceneDirectory: context.directory)
    }
}

extension EmitterCell {
    /// The largest speed, acceleration and other per-second rate a cell may have (bounds the
    /// numbers the simulation and the rasterisers work with).
    public static let rateLimit = 1e6
    /// The largest scale a particle may have.
    public static let scaleLimit = 1e3

    /// One kind of particle (CAEmitterCell). Scalar ranges are `value ± range`.
    public static let properties: PropertyTable = {
        let d = EmitterCell()
        let rate = -rateLimit...rateLimit, angle = -1e4...1e4
        return PropertyTable("emitterCell", title: "emitter cell",
                             "One kind of particle (Core Animation's CAEmitterCell). Every scalar with a range is sampled per particle as value ± range.", [
            Property("name", .string(maximumLength: 200), default: .string(d.name), live: false, "A label for the panel and for messages."),
            Property("enabled", .bool, default: .bool(d.enabled), "A disabled cell emits nothing."),
            Property("birthRate", .number(0...SceneLoader.maximumBirthRate), default: .number(d.birthRate), unit: "1/s", "Particles per second (× the layer's birthRate: at most \(format(EmitterLayer.maximumEffectiveBirthRate)))."),
            Property("lifetime", .number(0...SceneLoader.maximumLifetime), default: .number(d.lifetime), unit: "s", "How long each particle lives ((lifetime + lifetimeRange) × the layer's lifetime: at most \(format(EmitterLayer.maximumEffectiveLifetime)) s)."),
            Property("lifetimeRange", .number(0...SceneLoader.maximumLifetime), default: .number(d.lifetimeRange), unit: "s", "Lifetimes vary by ± this."),
            Property("velocity", .number(rate), default: .number(d.velocity), unit: "pt/s", "Speed at birth."),
            Property("velocityRange", .number(0...rateLimit), default: .number(d.velocityRange), unit: "pt/s", "Speeds vary by ± this."),
            Property("emissionLongitude", .number(angle), default: .number(d.emissionLongitude), unit: "rad",
                     "Direction of emission: 0 is +x, positive turns clockwise on screen (−π/2 is up)."),
            Property("emissionRange", .number(0...1e4), default: .number(d.emissionRange), unit: "rad", "The width of the cone of directions around emissionLongitude."),
            Property("xAcceleration", .number(rate), default: .number(d.xAcceleration), unit: "pt/s²", "Constant acceleration along x."),
            Property("yAcceleration", .number(rate), default: .number(d.yAcceleration), unit: "pt/s²", "Constant acceleration along y (positive is down)."),
            Property("scale", .number(-scaleLimit...scaleLimit), default: .number(d.scale), "Size multiplier at birth."),
            Property("scaleRange", .number(0...scaleLimit), default: .number(d.scaleRange), "Scales vary by ± this."),
            Property("scaleSpeed", .number(-scaleLimit...scaleLimit), default: .number(d.scaleSpeed), unit: "1/s", "Scale change per second."),
            Property("spin", .number(angle), default: .number(d.spin), unit: "rad/s", "Rotation speed."),
            Property("spinRange", .number(0...1e4), default: .number(d.spinRange), unit: "rad/s", "Spins vary by ± this."),
            Property("color", .color, default: .color(d.color), "Colour at birth (sRGB, straight alpha)."),
            Property("redRange", .number(0...1), default: .number(d.redRange), "Red varies by ± this."),
            Property("greenRange", .number(0...1), default: .number(d.greenRange), "Green varies by ± this."),
            Property("blueRange", .number(0...1), default: .number(d.blueRange), "Blue varies by ± this."),
            Property("alphaRange", .number(0...1), default: .number(d.alphaRange), "Alpha varies by ± this."),
            Property("redSpeed", .number(-1e3...1e3), default: .number(d.redSpeed), unit: "1/s", "Red change per second (clamped to 0…1)."),
            Property("greenSpeed", .number(-1e3...1e3), default: .number(d.greenSpeed), unit: "1/s", "Green change per second (clamped to 0…1)."),
            Property("blueSpeed", .number(-1e3...1e3), default: .number(d.blueSpeed), unit: "1/s", "Blue change per second (clamped to 0…1)."),
            Property("alphaSpeed", .number(-1e3...1e3), default: .number(d.alphaSpeed), unit: "1/s", "Alpha change per second (clamped to 0…1)."),
            Property("sprite", .choice(SpriteKind.allCases.map(\.rawValue)), default: .described("dot, or image when 'image' is set"),
                     expected: "sprite", "How a particle looks: a procedural sprite or a PNG image."),
            Property("image", .path("a PNG image"), live: false, "A PNG (at most 4096×4096), relative to the scene file; implies sprite \"image\"."),
            Property("spriteSize", .number(0...Double(EmitterLayer.maximumImageDimension)),
                     default: .described("16, or the image's width"), unit: "pt", "The sprite's size at scale 1."),
            Property("blur", .number(0...Double(EmitterLayer.maximumImageDimension)), default: .number(d.blur), unit: "pt",
                     "softDot and cloud: the Gaussian's standard deviation at scale 1."),
            Property("streakDuration", .number(0...10), default: .number(d.streakDuration), unit: "s",
                     "streak: seconds of motion the streak covers (its length is spriteSize + speed × this)."),
            Property("sway", .object(Sway.properties), "A horizontal cosine offset around the path (a flickering flame)."),
            Property("endScale", .number(-scaleLimit...scaleLimit), default: .described("the particle's start scale"),
                     "Scale at the end of life: each particle's scale goes linearly from its start scale to this (± endScaleRange)."),
            Property("endScaleRange", .number(0...scaleLimit), default: .number(d.endScaleRange), "End scales vary by ± this."),
            Property("rotation", .number(angle), default: .number(d.rotation), unit: "rad", "The sprite's angle at birth (clockwise on screen)."),
            Property("rotationRange", .number(0...1e4), default: .number(d.rotationRange), unit: "rad", "Start angles vary by ± this."),
            Property("endRotation", .number(angle), default: .described("the particle's start angle"), unit: "rad",
                     "The angle at the end of life: each particle turns linearly from its start angle to this (± endRotationRange), plus spin."),
            Property("endRotationRange", .number(0...1e4), default: .number(d.endRotationRange), unit: "rad", "End angles vary by ± this."),
            Property("endColor", .color, default: .described("the particle's start colour"),
                     "Colour at the end of life: each particle's colour goes linearly from its start colour to this (each component ± its end range)."),
            Property("endRedRange", .number(0...1), default: .number(d.endRedRange), "End red varies by ± this."),
            Property("endGreenRange", .number(0...1), default: .number(d.endGreenRange), "End green varies by ± this."),
            Property("endBlueRange", .number(0...1), default: .number(d.endBlueRange), "End blue varies by ± this."),
            Property("endAlphaRange", .number(0...1), default: .number(d.endAlphaRange), "End alpha varies by ± this."),
            Property("radialAcceleration", .number(rate), default: .number(d.radialAcceleration), unit: "pt/s²",
                     "Acceleration away from the emitter's position (negative: towards it)."),
            Property("radialAccelerationRange", .number(0...rateLimit), default: .number(d.radialAccelerationRange), unit: "pt/s²",
                     "Radial accelerations vary by ± this."),
            Property("tangentialAcceleration", .number(rate), default: .number(d.tangentialAcceleration), unit: "pt/s²",
                     "Acceleration perpendicular to the radial direction, clockwise on screen."),
            Property("tangentialAccelerationRange", .number(0...rateLimit), default: .number(d.tangentialAccelerationRange), unit: "pt/s²",
                     "Tangential accelerations vary by ± this."),
            Property("orbit", .object(Orbit.properties),
                     "Radial mode: particles circle the emitter's position, starting at the emission angle (velocity, accelerations, damping and wind do not apply)."),
            Property("emissionDuration", .number(0...SceneLoader.maximumLifetime), default: .described("forever"), unit: "s",
                     "Seconds the cell emits for from the emitter's start (emitter time, prewarm included)."),
            Property("alphaOverLife", .array(.number(0...1), count: 1...SceneLoader.maximumRampSamples),
                     "Alpha multipliers spaced evenly over the particle's life, linearly interpolated."),
            Property("scaleOverLife", .array(.number(0...scaleLimit), count: 1...SceneLoader.maximumRampSamples),
                     "Scale multipliers spaced evenly over the particle's life."),
            Property("colorOverLife", .array(.color, count: 1...SceneLoader.maximumRampSamples),
                     "Colour multipliers spaced evenly over the particle's life."),
            Property("damping", .number(0...1000), default: .number(d.damping), unit: "1/s", "Velocity relaxes as dv/dt = a − damping · v."),
            Property("windFactor", .number(-1e3...1e3), default: .number(d.windFactor), "How strongly the scene's wind pushes this cell."),
        ])
    }()
}

extension Sway {
    public static let properties: PropertyTable = {
        let d = Sway()
        return PropertyTable("sway", title: "sway", "A horizontal cosine offset around a particle's ballistic path.", [
            Property("amplitude", .number(-1e5...1e5), default: .number(d.amplitude), unit: "pt", "The offset's amplitude at birth."),
            Property("frequency", .number(-1e3...1e3), default: .number(d.frequency), unit: "Hz", "Cycles per second."),
            Property("endAmplitude", .number(-1e3...1e3), default: .number(d.endAmplitude),
                     "The amplitude at the end of life as a fraction of amplitude (linear in age)."),
        ])
    }()
}

extension Orbit {
    public static let properties: PropertyTable = {
        let d = Orbit()
        let length = 0...1e6
        return PropertyTable("orbit", title: "orbit", "Radial mode: a particle circles the emitter's position, its distance going linearly from radius to endRadius over its life while its angle turns at speed.", [
            Property("radius", .number(length), default: .number(d.radius), unit: "pt", "Distance from the emitter's position at birth."),
            Property("radiusRange", .number(length), default: .number(d.radiusRange), unit: "pt", "Start radii vary by ± this."),
            Property("endRadius", .number(length), default: .described("the particle's start radius"), unit: "pt", "Distance at the end of life."),
            Property("endRadiusRange", .number(length), default: .number(d.endRadiusRange), unit: "pt", "End radii vary by ± this."),
            Property("speed", .number(-1e4...1e4), default: .number(d.speed), unit: "rad/s", "How fast the angle turns (positive: clockwise on screen)."),
            Property("speedRange", .number(0...1e4), default: .number(d.speedRange), unit: "rad/s", "Speeds vary by ± this."),
        ])
    }()
}

extension SceneLoader {
    /// The most particles per second one cell may emit (bounds the work of a step).
    static let maximumBirthRate = 1_000_000.0
    /// The longest lifetime, in seconds.
    static let maximumLifetime = EmitterLayer.maximumEffectiveLifetime
    /// The most samples in an over-life ramp.
    static let maximumRampSamples = 64

    static func decodeEmitter(_ object: ObjectReader, sceneDirectory: String?) throws -> EmitterLayer {
        var e = EmitterLayer()
        if let v = try object.choice("shape", as: EmitterShape.self) { e.shape = v }
        if let v = try object.choice("mode", as: EmitterMode.self) { e.mode = v }
        if let v = try object.unitPoint("position") { e.position = v }
        if let v = try object.pair("size") { e.size = v }
        if let v = try object.number("birthRate") { e.birthRate = v }
        if let v = try object.number("lifetime") { e.lifetime = v }
        if let v = try object.number("velocity") { e.velocity = v }
        if let v = try object.number("scale") { e.scale = v }
        if let v = try object.number("spin") { e.spin = v }
        if let v = try object.number("prewarm") { e.prewarm = v }
        if let v = try object.integer("seed") { e.seed = UInt64(v) }
        if let v = try object.choice("renderMode", as: EmitterRenderMode.self) { e.renderMode = v }
        if let v = try object.integer("maxParticles") { e.maxParticles = v }
        e.cells = try object.decode("cells") { n in
            try n.elements(count: 0...EmitterLayer.maximumCells, "cells") { try decodeCell($0, sceneDirectory: sceneDirectory) }
        } ?? []
        try checkEffectiveRates(e, object)
        return e
    }

    /// The cell values as the layer's multipliers make them: births a second and the longest
    /// lifetime, each within its limit (EmitterLayer.maximumEffectiveBirthRate, .maximumEffectiveLifetime),
    /// reported at the cell's key.
    static func checkEffectiveRates(_ e: EmitterLayer, _ object: ObjectReader) throws {
        guard let cellsNode = object["cells"], case .array(let items) = cellsNode.value.kind else { return }
        for (j, c) in e.cells.enumerated() where j < items.count {
            let cell = cellsNode.element(j, items[j])
            let cellObject = try? cell.object(EmitterCell.properties)
            func place(_ key: String) -> Node { cellObject?[key] ?? object[key] ?? cell }
            let births = c.birthRate * e.birthRate
            if births > EmitterLayer.maximumEffectiveBirthRate {
                throw place("birthRate").error(.outOfRange, "birthRate \(format(c.birthRate)) × the layer's birthRate \(format(e.birthRate)) is \(format(births)) births a second; at most \(format(EmitterLayer.maximumEffectiveBirthRate))")
            }
            let lifetime = EmitterSimulation.longestLifetime(c, e)
            if lifetime > EmitterLayer.maximumEffectiveLifetime {
                throw place("lifetime").error(.outOfRange, "lifetime + lifetimeRange (\(format(c.longestLifetime)) s) × the layer's lifetime \(format(e.lifetime)) is \(format(lifetime)) s; a particle may live at most \(format(EmitterLayer.maximumEffectiveLifetime)) s")
            }
        }
    }

    /// Warnings (not errors) about a decoded scene: emitters whose cells need more live particles
    /// than `maxParticles` allows.
    static func emitterWarnings(_ scene: Scene, file: String) -> [SceneError] {
        var warnings: [SceneError] = []
        for (i, layer) in scene.layers.enumerated() {
            guard let e = layer.content as? EmitterLayer else { continue }
            let expected = e.cells.filter(\.enabled).reduce(0.0) { $0 + e.steadyStateBound($1) }
            if expected > Double(e.maxParticles) {
                warnings.append(SceneError(.outOfRange, file: file, path: "layers[\(i)].maxParticles",
                    "warning: the cells' birthRate × lifetime needs up to \(Int(expected.rounded(.up))) live particles, more than maxParticles (\(e.maxParticles)); births beyond it are dropped"))
            }
        }
        return warnings
    }

    static func decodeCell(_ node: Node, sceneDirectory: String?) throws -> EmitterCell {
        let object = try node.object(EmitterCell.properties)
        try object.checkKeys()
        var c = EmitterCell()
        if let v = try object.string("name") { c.name = v }
        if let v = try object.bool("enabled") { c.enabled = v }
        let numbers: [(String, WritableKeyPath<EmitterCell, Double>)] = [
            ("birthRate", \.birthRate), ("lifetime", \.lifetime), ("lifetimeRange", \.lifetimeRange),
            ("velocity", \.velocity), ("velocityRange", \.velocityRange),
            ("emissionLongitude", \.emissionLongitude), ("emissionRange", \.emissionRange),
            ("xAcceleration", \.xAcceleration), ("yAcceleration", \.yAcceleration),
            ("scale", \.scale), ("scaleRange", \.scaleRange), ("scaleSpeed", \.scaleSpeed),
            ("spin", \.spin), ("spinRange", \.spinRange),
            ("redRange", \.redRange), ("greenRange", \.greenRange), ("blueRange", \.blueRange), ("alphaRange", \.alphaRange),
            ("redSpeed", \.redSpeed), ("greenSpeed", \.greenSpeed), ("blueSpeed", \.blueSpeed), ("alphaSpeed", \.alphaSpeed),
            ("spriteSize", \.spriteSize), ("blur", \.blur), ("streakDuration", \.streakDuration),
            ("damping", \.damping), ("windFactor", \.windFactor),
            ("endScaleRange", \.endScaleRange), ("rotation", \.rotation), ("rotationRange", \.rotationRange),
            ("endRotationRange", \.endRotationRange),
            ("endRedRange", \.endRedRange), ("endGreenRange", \.endGreenRange), ("endBlueRange", \.endBlueRange),
            ("endAlphaRange", \.endAlphaRange),
            ("radialAcceleration", \.radialAcceleration), ("radialAccelerationRange", \.radialAccelerationRange),
            ("tangentialAcceleration", \.tangentialAcceleration), ("tangentialAccelerationRange", \.tangentialAccelerationRange),
        ]
        for (key, path) in numbers {
            if let v = try object.number(key) { c[keyPath: path] = v }
        }
        if let v = try object.color("color") { c.color = v }
        if let v = try object.number("endScale") { c.endScale = v }
        if let v = try object.number("endRotation") { c.endRotation = v }
        if let v = try object.color("endColor") { c.endColor = v }
        if let v = try object.number("emissionDuration") { c.emissionDuration = v }
        if let v = try object.decode("orbit", decodeOrbit) { c.orbit = v }
        if let v = try object.decode("sway", decodeSway) { c.sway = v }
        func ramp<T>(_ key: String, _ sample: @escaping (Node) throws -> T) throws -> Ramp<T>? {
            try object.decode(key) { n, p in
                guard case .array(_, let count) = p.type else { preconditionFailure("\(key) is not an array") }
                let items = try n.array()
                guard count.contains(items.count) else {
                    throw n.error(.outOfRange, "expected \(count.lowerBound)…\(count.upperBound) samples spaced evenly over the particle's life, got \(items.count)")
                }
                return Ramp(try items.map(sample))
            }
        }
        if let v = try ramp("alphaOverLife", { try $0.number(in: 0...1) }) { c.alphaOverLife = v }
        if let v = try ramp("scaleOverLife", { try $0.number(in: 0...EmitterCell.scaleLimit) }) { c.scaleOverLife = v }
        if let v = try ramp("colorOverLife", { try $0.color() }) { c.colorOverLife = v }

        let imageNode = object["image"]
        if let v = try object.choice("sprite", as: SpriteKind.self) {
            c.sprite = v
        } else if imageNode != nil {
            c.sprite = .image
        }
        if c.sprite == .image {
            guard let imageNode else { throw node.error(.missingKey, "missing key 'image' (a PNG path, relative to the scene file) for \"sprite\": \"image\"") }
            if let (path, size) = try imageNode.recover({ try decodeSpriteImage(imageNode, sceneDirectory: sceneDirectory) }) {
                c.imagePath = path
                c.imageSize = size
                if object["spriteSize"] == nil { c.spriteSize = Double(size.x) }
            }
        } else if let imageNode {
            throw imageNode.error(.invalidValue, "'image' needs \"sprite\": \"image\" (this cell's sprite is '\(c.sprite.rawValue)')")
        }
        return c
    }

    static func decodeOrbit(_ node: Node) throws -> Orbit {
        let object = try node.object(Orbit.properties)
        try object.checkKeys()
        var o = Orbit()
        if let v = try object.number("radius") { o.radius = v }
        if let v = try object.number("radiusRange") { o.radiusRange = v }
        if let v = try object.number("endRadius") { o.endRadius = v }
        if let v = try object.number("endRadiusRange") { o.endRadiusRange = v }
        if let v = try object.number("speed") { o.speed = v }
        if let v = try object.number("speedRange") { o.speedRange = v }
        return o
    }

    static func decodeSway(_ node: Node) throws -> Sway {
        let object = try node.object(Sway.properties)
        try object.checkKeys()
        var s = Sway()
        if let v = try object.number("amplitude") { s.amplitude = v }
        if let v = try object.number("frequency") { s.frequency = v }
        if let v = try object.number("endAmplitude") { s.endAmplitude = v }
        return s
    }

    /// Resolves a sprite PNG against the scene's folder and checks its header: it must exist, be a
    /// PNG, and be at most 4096×4096. Returns the absolute path and the size in pixels.
    static func decodeSpriteImage(_ node: Node, sceneDirectory: String?) throws -> (String, SIMD2<Int>) {
        try decodePNGPath(node, sceneDirectory: sceneDirectory, limit: EmitterLayer.maximumImageDimension, what: "sprites")
    }
}
