// `welkin import`: a Particle Designer / cocos2d `.plist` or Starling `.pex` effect as a Welkin
// scene with one `emitter` layer of one cell (docs/particles.md, "Importing effects", has the
// key-by-key mapping and the reasons for each choice).
//
// Coordinates: a .plist is read as cocos2d reads it (y up: angles counter-clockwise, gravity y
// positive upwards), a .pex as Starling reads it (y down, like Welkin). Welkin's angles turn
// clockwise on screen, so a .plist's angle a becomes −a and its gravity y becomes −y.

import Foundation
import WelkinCore

public enum ParticleImport {
    public struct Options: Sendable {
        /// The scene's size in points.
        public var size: SIMD2<Int> = [512, 512]
        /// Place the emitter at the file's sourcePosition (y flipped for a .plist) instead of the centre.
        public var keepPosition = false
        public init() {}
    }

    /// A texture to write next to the scene.
    public struct Texture: Sendable, Equatable {
        /// A plain file name (no folder), ending in .png.
        public var fileName: String
        /// The PNG's bytes, exactly as decoded (or read).
        public var png: [UInt8]
    }

    public struct Result: Sendable {
        /// The scene file's text (JSON).
        public var scene: String
        public var texture: Texture?
        /// Things the scene cannot reproduce, one sentence each (`key: sentence`).
        public var warnings: [String]
    }

    /// The largest embedded texture, decompressed.
    static let maximumTextureBytes = 64 << 20

    /// Converts `effect` (read from a file in `effectDirectory`) into a scene named `name`.
    public static func convert(_ effect: EffectFile, effectDirectory: String, name: String,
                               options: Options = Options()) throws -> Result {
        var warnings: [String] = []
        let yUp = effect.format == .plist
        let flip = yUp ? -1.0 : 1.0
        let radians = Double.pi / 180
        func n(_ key: String, _ alternatives: String..., default d: Double = 0) throws -> Double {
            try effect.number(key, alternatives: alternatives, default: d)
        }
        func required(_ key: String, _ alternatives: String...) throws -> Double {
            for k in [key] + alternatives { if let v = try effect.number(k) { return v } }
            throw effect.error(key, "missing: every \(effect.format == .plist ? "Particle Designer property list" : ".pex file") has it")
        }

        let emitterType = try n("emitterType")
        guard emitterType == 0 || emitterType == 1 else {
            throw effect.error("emitterType", "expected 0 (gravity) or 1 (radial), got \(format(emitterType))")
        }
        let radial = emitterType == 1
        let maxParticles = try required("maxParticles")
        guard maxParticles >= 1, maxParticles <= Double(EmitterLayer.maximumParticles), maxParticles == maxParticles.rounded() else {
            throw effect.error("maxParticles", "expected a whole number in 1…\(EmitterLayer.maximumParticles), got \(format(maxParticles))")
        }
        let lifespan = try required("particleLifespan")
        guard lifespan > 0 else {
            throw effect.error("particleLifespan", "must be above 0: the emission rate is maxParticles / particleLifespan (cocos2d), got \(format(lifespan))")
        }
        let lifespanVariance = abs(try n("particleLifespanVariance"))
        let duration = try n("duration", default: -1)

        // Where: the scene's centre, or the file's position.
        let w = Double(options.size.x), h = Double(options.size.y)
        var position = [0.5, 0.5]
        if options.keepPosition {
            let x = try n("sourcePositionx"), y = try n("sourcePositiony")
            position = [x / w, yUp ? 1 - y / h : y / h]
        }
        let varianceX = abs(try n("sourcePositionVariancex")), varianceY = abs(try n("sourcePositionVariancey"))

        // The sprite: its size at scale 1 is the start size, so scale 1 ± startVariance / size.
        let startSize = try n("startParticleSize"), startSizeVariance = abs(try n("startParticleSizeVariance"))
        let finishSize = try n("finishParticleSize", default: -1)
        let finishSizeVariance = abs(try n("finishParticleSizeVariance"))
        let spriteSize = startSize > 0 ? startSize : finishSize > 0 ? finishSize : 1
        guard spriteSize <= Double(EmitterLayer.maximumImageDimension) else {
            throw effect.error("startParticleSize", "expected at most \(EmitterLayer.maximumImageDimension) points, got \(format(spriteSize))")
        }

        var cell: [(String, String)] = [("name", json(name)), ("birthRate", json(maxParticles / lifespan)),
                                        ("lifetime", json(lifespan)), ("lifetimeRange", json(lifespanVariance))]
        if duration >= 0 { cell.append(("emissionDuration", json(duration))) }
        let layerMaxParticles = try fittingMaxParticles(maxParticles, birthRate: maxParticles / lifespan, lifetime: lifespan,
                                                        lifetimeRange: lifespanVariance, effect: effect, warnings: &warnings)

        let angle = try n("angle"), angleVariance = abs(try n("angleVariance"))
        if radial {
            // cocos2d: position = centre − (cos a, sin a)·r in y-up; Starling the same in y-down. In
            // Welkin's y-down, clockwise angles that is the angle π − a (plist) or π + a (pex).
            let start = try n("maxRadius"), startVariance = abs(try n("maxRadiusVariance"))
            let end = try n("minRadius"), endVariance = abs(try n("minRadiusVariance"))
            let speed = try n("rotatePerSecond") * radians * flip
            let speedVariance = abs(try n("rotatePerSecondVariance")) * radians
            cell.append(("emissionLongitude", json(Double.pi + flip * angle * radians)))
            cell.append(("emissionRange", json(2 * angleVariance * radians)))
            // minRadius −1 is cocos2d's START_RADIUS_EQUAL_TO_END_RADIUS: the radius stays the start radius.
            let endKeys = end == -1 ? [] : [("endRadius", json(end)), ("endRadiusRange", json(endVariance))]
            cell.append(("orbit", object([("radius", json(start)), ("radiusRange", json(startVariance))] + endKeys
                                         + [("speed", json(speed)), ("speedRange", json(speedVariance))])))
            if varianceX != 0 || varianceY != 0 {
                warnings.append("\(shown(effect, "sourcePositionVariancex")): ignored in radial mode (particles circle the emitter's position, as in cocos2d)")
            }
        } else {
            cell.append(("velocity", json(try n("speed"))))
            cell.append(("velocityRange", json(abs(try n("speedVariance")))))
            cell.append(("emissionLongitude", json(flip * angle * radians)))
            cell.append(("emissionRange", json(2 * angleVariance * radians)))
            cell.append(("xAcceleration", json(try n("gravityx"))))
            cell.append(("yAcceleration", json(flip * (try n("gravityy")))))
            let radialAcceleration = try n("radialAcceleration"), radialVariance = abs(try n("radialAccelVariance", "radialAccelerationVariance"))
            let tangential = try n("tangentialAcceleration"), tangentialVariance = abs(try n("tangentialAccelVariance", "tangentialAccelerationVariance"))
            if radialAcceleration != 0 || radialVariance != 0 {
                cell.append(("radialAcceleration", json(radialAcceleration)))
                cell.append(("radialAccelerationRange", json(radialVariance)))
            }
            if tangential != 0 || tangentialVariance != 0 {
                // Counter-clockwise on a y-up plist is counter-clockwise on screen: Welkin's negative.
                cell.append(("tangentialAcceleration", json(flip * tangential)))
                cell.append(("tangentialAccelerationRange", json(tangentialVariance)))
            }
            cell.append(("windFactor", "0"))
        }

        cell.append(("spriteSize", json(spriteSize)))
        cell.append(("scale", json(startSize / spriteSize)))
        cell.append(("scaleRange", json(startSizeVariance / spriteSize)))
        if finishSize != -1 {
            cell.append(("endScale", json(finishSize / spriteSize)))
            cell.append(("endScaleRange", json(finishSizeVariance / spriteSize)))
        }

        // Rotation: degrees, clockwise on screen in both runtimes.
        let rotationStart = try n("rotationStart"), rotationStartVariance = abs(try n("rotationStartVariance"))
        let rotationEnd = try n("rotationEnd", default: rotationStart), rotationEndVariance = abs(try n("rotationEndVariance"))
        if rotationStart != 0 || rotationStartVariance != 0 {
            cell.append(("rotation", json(rotationStart * radians)))
            cell.append(("rotationRange", json(rotationStartVariance * radians)))
        }
        if rotationEnd != rotationStart || rotationEndVariance != 0 {
            cell.append(("endRotation", json(rotationEnd * radians)))
            cell.append(("endRotationRange", json(rotationEndVariance * radians)))
        }

        let components = ["Red", "Green", "Blue", "Alpha"]
        func color(_ prefix: String, default d: Double) throws -> [Double] {
            try components.map { try n(prefix + $0, default: d) }
        }
        let start = try color("startColor", default: 1), startVariance = try color("startColorVariance", default: 0).map(abs)
        let finish = try color("finishColor", default: 1), finishVariance = try color("finishColorVariance", default: 0).map(abs)
        for (i, c) in components.enumerated() {
            for (prefix, v) in [("startColor", start[i]), ("finishColor", finish[i])] where !(0...1).contains(v) {
                warnings.append("\(shown(effect, prefix + c)): \(format(v)) is outside 0…1; each particle's value is clamped to 0…1")
            }
        }
        cell.append(("color", array(start.map { min(max($0, 0), 1) })))
        cell.append(("redRange", json(min(startVariance[0], 1)))); cell.append(("greenRange", json(min(startVariance[1], 1))))
        cell.append(("blueRange", json(min(startVariance[2], 1)))); cell.append(("alphaRange", json(min(startVariance[3], 1))))
        cell.append(("endColor", array(finish.map { min(max($0, 0), 1) })))
        cell.append(("endRedRange", json(min(finishVariance[0], 1)))); cell.append(("endGreenRange", json(min(finishVariance[1], 1))))
        cell.append(("endBlueRange", json(min(finishVariance[2], 1)))); cell.append(("endAlphaRange", json(min(finishVariance[3], 1))))

        // Blending.
        let source = try n("blendFuncSource", default: 1), destination = try n("blendFuncDestination", default: 771)
        let renderMode: String
        switch (Int(source), Int(destination)) {
        case (1, 771), (770, 771): renderMode = "oldestFirst"
        case (770, 1), (1, 1): renderMode = "additive"
        default:
            renderMode = destination == 1 ? "additive" : "oldestFirst"
            warnings.append("\(shown(effect, "blendFuncSource")): the blend functions (\(format(source)), \(format(destination))) have no Welkin render mode; drawn \(renderMode == "additive" ? "additively (ONE, ONE)" : "with source-over (ONE, ONE_MINUS_SRC_ALPHA)")")
        }

        // The texture.
        let texture = try loadTexture(effect, effectDirectory: effectDirectory, sceneName: name, warnings: &warnings)
        if let texture {
            cell.append(("sprite", json("image")))
            cell.append(("image", json(texture.fileName)))
        } else {
            cell.append(("sprite", json("softDot")))
            cell.append(("blur", json(spriteSize / 6)))
        }

        var layer: [(String, String)] = [("type", json(EmitterLayer.type)), ("name", json(name)),
                                          ("shape", json(!radial && (varianceX != 0 || varianceY != 0) ? "rectangle" : "point")),
                                          ("position", array(position))]
        if !radial && (varianceX != 0 || varianceY != 0) {
            layer.append(("size", array([2 * varianceX / w, 2 * varianceY / h])))
        }
        layer.append(("renderMode", json(renderMode)))
        layer.append(("maxParticles", json(Double(layerMaxParticles))))
        layer.append(("cells", "[\n        " + object(cell, indent: "        ") + "\n      ]"))

        let description = "Imported by welkin import from \((effect.path as NSString).lastPathComponent) (\(effect.format == .plist ? "Particle Designer / cocos2d property list" : "Starling .pex"), \(radial ? "radial" : "gravity") emitter)."
        let scene = "{\n  \"name\": \(json(name)),\n  \"description\": \(json(description)),\n  \"size\": [\(options.size.x), \(options.size.y)],\n  \"background\": \"black\",\n  \"layers\": [\n    " + object(layer, indent: "    ") + "\n  ]\n}\n"
        return Result(scene: scene, texture: texture, warnings: warnings)
    }

    /// The layer's maxParticles: the effect's own, or more when the cell's birthRate × longest
    /// lifetime (the bound the scene loader warns against, `EmitterLayer.steadyStateBound`) needs
    /// more, so no birth is dropped and rendering the scene warns of nothing. cocos2d's rate
    /// maxParticles / particleLifespan with a lifespan variance keeps about maxParticles alive on
    /// average but up to rate × (lifespan + variance) at once. Capped at Welkin's limit, with a warning.
    static func fittingMaxParticles(_ effectMax: Double, birthRate: Double, lifetime: Double, lifetimeRange: Double,
                                    effect: EffectFile, warnings: inout [String]) throws -> Int {
        // The values exactly as the scene will hold them (the JSON text round-trips each Double).
        var cell = EmitterCell()
        cell.birthRate = birthRate
        cell.lifetime = lifetime
        cell.lifetimeRange = lifetimeRange
        let bound = EmitterLayer().steadyStateBound(cell)
        guard bound > effectMax else { return Int(effectMax) }
        // One more than the bound: a window of the longest lifetime can hold one birth at each end.
        let needed = bound.rounded(.up) + 1
        if needed > Double(EmitterLayer.maximumParticles) {
            warnings.append("\(shown(effect, "maxParticles")): birthRate × the longest lifetime needs up to \(format(bound.rounded(.up))) live particles, more than Welkin's limit \(EmitterLayer.maximumParticles); births beyond it are dropped")
            return EmitterLayer.maximumParticles
        }
        return Int(needed)
    }

    /// The effect's texture: the embedded `textureImageData` (base64 of a PNG, plain or
    /// gzip-compressed), or else the PNG file `textureFileName` beside the effect; nil when neither,
    /// or when the named file does not exist (soft dots then), each with a warning in `warnings`.
    public static func loadTexture(_ effect: EffectFile, effectDirectory: String, sceneName: String,
                                   warnings: inout [String]) throws -> Texture? {
        let fileName = try effect.string("textureFileName")?.trimmingSpace ?? ""
        let data = try effect.string("textureImageData")?.filter { !$0.isWhitespace } ?? ""
        let base = fileName.isEmpty ? "" : (fileName as NSString).lastPathComponent
        var outputName = base.isEmpty ? sceneName + "-texture.png" : (base as NSString).deletingPathExtension + ".png"
        outputName = String(outputName.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "-" })
        if outputName.hasPrefix(".") { outputName = "texture" + outputName }
        if !data.isEmpty {
            guard let decoded = Data(base64Encoded: data) else {
                throw effect.error("textureImageData", "not valid base64")
            }
            var bytes = [UInt8](decoded)
            if Gzip.isCompressed(bytes) {
                do { bytes = try Gzip.inflate(bytes, limit: maximumTextureBytes) } catch let e as Gzip.Error {
                    throw effect.error("textureImageData", "cannot decompress the embedded image: \(e.description)")
                }
            }
            try checkPNG(bytes, effect: effect, key: "textureImageData", what: "the embedded image")
            return Texture(fileName: outputName, png: bytes)
        }
        guard !fileName.isEmpty else {
            warnings.append("textureFileName: the effect names no texture; particles are drawn as soft dots")
            return nil
        }
        let path = fileName.hasPrefix("/") ? fileName : (effectDirectory as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            warnings.append("\(shown(effect, "textureFileName")): the texture \(path) does not exist (and the effect embeds no textureImageData); particles are drawn as soft dots")
            return nil
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw effect.error("textureFileName", "cannot read the texture \(path) (the effect embeds no textureImageData)")
        }
        let bytes = [UInt8](contents)
        try checkPNG(bytes, effect: effect, key: "textureFileName", what: path)
        return Texture(fileName: outputName, png: bytes)
    }

    static func checkPNG(_ bytes: [UInt8], effect: EffectFile, key: String, what: String) throws {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            throw effect.error(key, "\(what) is a TIFF image; Welkin imports PNG textures only (save the texture as PNG in Particle Designer and export again)")
        }
        throw effect.error(key, "\(what) is not a PNG image (nor a gzip-compressed one)")
    }

    // JSON text.
    static func shown(_ effect: EffectFile, _ key: String) -> String { effect.values[key.lowercased()]?.key ?? key }

    /// JSON text through the scene writer's own forms (JSONValue), so an imported scene's numbers
    /// and strings are written as every other Welkin file's are.
    static func format(_ v: Double) -> String { JSONValue.numberText(v) }

    static func json(_ v: Double) -> String { JSONValue.numberText(v) }

    static func json(_ s: String) -> String { JSONValue.quoted(s) }

    static func array(_ values: [Double]) -> String { "[" + values.map(json).joined(separator: ", ") + "]" }

    static func object(_ members: [(String, String)], indent: String = "") -> String {
        "{" + members.map { "\(json($0.0)): \($0.1)" }.joined(separator: ",\n\(indent) ") + "}"
    }
}
