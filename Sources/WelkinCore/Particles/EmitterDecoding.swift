// Decoding and validating `emitter` layers: every mistake names its JSON path.

import Foundation

extension SceneLoader {
    static let emitterKeys = ["shape", "mode", "position", "size", "birthRate", "lifetime", "velocity", "scale",
                              "spin", "prewarm", "seed", "renderMode", "maxParticles", "cells"]
    static let cellKeys = ["name", "enabled", "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange",
                           "emissionLongitude", "emissionRange", "xAcceleration", "yAcceleration", "scale", "scaleRange",
                           "scaleSpeed", "spin", "spinRange", "color", "redRange", "greenRange", "blueRange", "alphaRange",
                           "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "sprite", "image", "spriteSize", "blur",
                           "streakDuration", "sway", "alphaOverLife", "scaleOverLife", "colorOverLife", "damping", "windFactor"]
    static let swayKeys = ["amplitude", "frequency", "endAmplitude"]

    /// The most particles per second one cell may emit (bounds the work of a step).
    static let maximumBirthRate = 1_000_000.0
    /// The longest lifetime, in seconds.
    static let maximumLifetime = 1_000_000.0
    /// The most samples in an over-life ramp.
    static let maximumRampSamples = 64

    static func decodeEmitter(_ object: ObjectReader, sceneDirectory: String?) throws -> EmitterLayer {
        var e = EmitterLayer()
        func multiplier(_ key: String, _ limit: Double = 1e6) throws -> Double? {
            try object[key]?.number(in: 0...limit, "a number in 0…\(format(limit))")
        }
        if let n = object["shape"] { e.shape = EmitterShape(rawValue: try n.oneOf(EmitterShape.allCases.map(\.rawValue), "emitter shape"))! }
        if let n = object["mode"] { e.mode = EmitterMode(rawValue: try n.oneOf(EmitterMode.allCases.map(\.rawValue), "emitter mode"))! }
        if let n = object["position"] { e.position = try n.unitPoint() }
        if let n = object["size"] {
            let s = try n.pair()
            guard s.x >= 0, s.y >= 0 else { throw n.error(.outOfRange, "expected [width, height] ≥ 0 in unit space, got [\(format(s.x)), \(format(s.y))]") }
            e.size = s
        }
        if let v = try multiplier("birthRate") { e.birthRate = v }
        if let v = try multiplier("lifetime") { e.lifetime = v }
        if let v = try multiplier("velocity") { e.velocity = v }
        if let v = try multiplier("scale") { e.scale = v }
        if let n = object["spin"] { e.spin = try n.number() }
        if let n = object["prewarm"] {
            e.prewarm = try n.number(in: 0...EmitterLayer.maximumPrewarm, "seconds in 0…\(format(EmitterLayer.maximumPrewarm))")
        }
        if let n = object["seed"] { e.seed = UInt64(try n.integer(in: 0...(1 << 53), "a whole number ≥ 0")) }
        if let n = object["renderMode"] {
            e.renderMode = EmitterRenderMode(rawValue: try n.oneOf(EmitterRenderMode.allCases.map(\.rawValue), "render mode"))!
        }
        if let n = object["maxParticles"] {
            e.maxParticles = try n.integer(in: 1...EmitterLayer.maximumParticles)
        }
        let cellsNode = try object.required("cells")
        e.cells = try cellsNode.array().map { try decodeCell($0, sceneDirectory: sceneDirectory) }

        return e
    }

    /// Warnings (not errors) about a decoded scene: emitters whose cells need more live particles
    /// than `maxParticles` allows.
    static func emitterWarnings(_ scene: Scene, file: String) -> [SceneError] {
        var warnings: [SceneError] = []
        for (i, layer) in scene.layers.enumerated() {
            guard case .emitter(let e) = layer.content else { continue }
            let expected = e.cells.filter(\.enabled).reduce(0.0) { $0 + e.steadyStateBound($1) }
            if expected > Double(e.maxParticles) {
                warnings.append(SceneError(.outOfRange, file: file, path: "layers[\(i)].maxParticles",
                    "warning: the cells' birthRate × lifetime needs up to \(Int(expected.rounded(.up))) live particles, more than maxParticles (\(e.maxParticles)); births beyond it are dropped"))
            }
        }
        return warnings
    }

    static func decodeCell(_ node: Node, sceneDirectory: String?) throws -> EmitterCell {
        let object = try node.object(cellKeys)
        try object.checkKeys()
        var c = EmitterCell()
        func number(_ key: String) throws -> Double? { try object[key]?.number() }
        func nonNegative(_ key: String, limit: Double = .greatestFiniteMagnitude) throws -> Double? {
            guard let n = object[key] else { return nil }
            if limit < .greatestFiniteMagnitude { return try n.number(in: 0...limit, "a number in 0…\(format(limit))") }
            return try n.nonNegative()
        }
        if let n = object["name"] { c.name = try n.string() }
        if let n = object["enabled"] { c.enabled = try n.bool() }
        if let v = try nonNegative("birthRate", limit: maximumBirthRate) { c.birthRate = v }
        if let v = try nonNegative("lifetime", limit: maximumLifetime) { c.lifetime = v }
        if let v = try nonNegative("lifetimeRange", limit: maximumLifetime) { c.lifetimeRange = v }
        if let v = try number("velocity") { c.velocity = v }
        if let v = try nonNegative("velocityRange") { c.velocityRange = v }
        if let v = try number("emissionLongitude") { c.emissionLongitude = v }
        if let v = try nonNegative("emissionRange") { c.emissionRange = v }
        if let v = try number("xAcceleration") { c.xAcceleration = v }
        if let v = try number("yAcceleration") { c.yAcceleration = v }
        if let v = try number("scale") { c.scale = v }
        if let v = try nonNegative("scaleRange") { c.scaleRange = v }
        if let v = try number("scaleSpeed") { c.scaleSpeed = v }
        if let v = try number("spin") { c.spin = v }
        if let v = try nonNegative("spinRange") { c.spinRange = v }
        if let n = object["color"] { c.color = try n.color() }
        if let v = try nonNegative("redRange") { c.redRange = v }
        if let v = try nonNegative("greenRange") { c.greenRange = v }
        if let v = try nonNegative("blueRange") { c.blueRange = v }
        if let v = try nonNegative("alphaRange") { c.alphaRange = v }
        if let v = try number("redSpeed") { c.redSpeed = v }
        if let v = try number("greenSpeed") { c.greenSpeed = v }
        if let v = try number("blueSpeed") { c.blueSpeed = v }
        if let v = try number("alphaSpeed") { c.alphaSpeed = v }
        if let v = try nonNegative("spriteSize", limit: Double(EmitterLayer.maximumImageDimension)) { c.spriteSize = v }
        if let v = try nonNegative("blur", limit: Double(EmitterLayer.maximumImageDimension)) { c.blur = v }
        if let v = try nonNegative("streakDuration", limit: 10) { c.streakDuration = v }
        if let v = try nonNegative("damping", limit: 1000) { c.damping = v }
        if let v = try number("windFactor") { c.windFactor = v }
        if let n = object["sway"] { c.sway = try decodeSway(n) }
        if let n = object["alphaOverLife"] { c.alphaOverLife = Ramp(try rampSamples(n).map { try $0.number(in: 0...1) }) }
        if let n = object["scaleOverLife"] { c.scaleOverLife = Ramp(try rampSamples(n).map { try $0.nonNegative() }) }
        if let n = object["colorOverLife"] { c.colorOverLife = Ramp(try rampSamples(n).map { try $0.color() }) }

        let imageNode = object["image"]
        if let n = object["sprite"] {
            c.sprite = SpriteKind(rawValue: try n.oneOf(SpriteKind.allCases.map(\.rawValue), "sprite"))!
        } else if imageNode != nil {
            c.sprite = .image
        }
        if c.sprite == .image {
            guard let imageNode else { throw node.error(.missingKey, "missing key 'image' (a PNG path, relative to the scene file) for \"sprite\": \"image\"") }
            let (path, size) = try decodeSpriteImage(imageNode, sceneDirectory: sceneDirectory)
            c.imagePath = path
            c.imageSize = size
            if object["spriteSize"] == nil { c.spriteSize = Double(size.x) }
        } else if let imageNode {
            throw imageNode.error(.invalidValue, "'image' needs \"sprite\": \"image\" (this cell's sprite is '\(c.sprite.rawValue)')")
        }
        return c
    }

    static func decodeSway(_ node: Node) throws -> Sway {
        let object = try node.object(swayKeys)
        try object.checkKeys()
        var s = Sway()
        if let n = object["amplitude"] { s.amplitude = try n.number() }
        if let n = object["frequency"] { s.frequency = try n.number() }
        if let n = object["endAmplitude"] { s.endAmplitude = try n.number() }
        return s
    }

    static func rampSamples(_ node: Node) throws -> [Node] {
        let items = try node.array()
        guard (1...maximumRampSamples).contains(items.count) else {
            throw node.error(.outOfRange, "expected 1…\(maximumRampSamples) samples spaced evenly over the particle's life, got \(items.count)")
        }
        return items
    }

    /// Resolves a sprite PNG against the scene's folder and checks its header: it must exist, be a
    /// PNG, and be at most 4096×4096. Returns the absolute path and the size in pixels.
    static func decodeSpriteImage(_ node: Node, sceneDirectory: String?) throws -> (String, SIMD2<Int>) {
        let relative = try node.string()
        guard !relative.isEmpty else { throw node.error(.invalidValue, "expected a path to a PNG image, got \"\"") }
        let base = sceneDirectory ?? FileManager.default.currentDirectoryPath
        let path = relative.hasPrefix("/") ? relative : URL(fileURLWithPath: base).appendingPathComponent(relative).standardizedFileURL.path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw node.error(.unreadableFile, exists ? "cannot read the image '\(relative)' (\(path))" : "no such image '\(relative)' (looked for \(path))")
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 24)) ?? Data())
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard header.count == 24, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8) else {
            throw node.error(.unreadableFile, "'\(relative)' is not a PNG image")
        }
        func be32(_ i: Int) -> Int { header[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let size = SIMD2(be32(16), be32(20))
        let limit = EmitterLayer.maximumImageDimension
        guard size.x >= 1, size.y >= 1, size.x <= limit, size.y <= limit else {
            throw node.error(.outOfRange, "the image '\(relative)' is \(size.x)×\(size.y) pixels; sprites may be at most \(limit)×\(limit)")
        }
        return (path, size)
    }
}
