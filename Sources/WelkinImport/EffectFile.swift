// Particle Designer / cocos2d `.plist` and Starling / Sparrow `.pex` effect files, read into one
// flat table of the plist's key names (the .pex elements map onto them: <gravity x= y=> is
// gravityx/gravityy, <startColor red= …> is startColorRed …, <texture name= data=> is
// textureFileName/textureImageData). Key names match case-insensitively, so the spellings both
// formats have used (particleLifeSpan, FinishParticleSizeVariance, radialAccelVariance) all read.

import WelkinCore

/// A value of an effect file: a number or a string (with where it came from, for messages).
public struct EffectValue: Sendable {
    public enum Kind: Sendable { case number(Double), string(String) }
    public var kind: Kind
    /// The key as the file spells it (`angle`, `gravity.x` in a .pex).
    public var key: String
}

/// An effect file's keys and values.
public struct EffectFile: Sendable {
    public enum Format: String, Sendable { case plist, pex }
    public var format: Format
    /// By lower-cased plist key name.
    public var values: [String: EffectValue]
    /// The file's path (for messages).
    public var path: String

    public struct Error: UserFacingError, Sendable {
        /// `file: key: sentence`.
        public var description: String
        public var message: String { description }
    }

    /// A mistake in the effect: `file: key: sentence`.
    public func error(_ key: String, _ sentence: String) -> Error {
        Error(description: "\(path): \(values[key.lowercased()]?.key ?? key): \(sentence)")
    }

    /// Reads an effect file; the format comes from its root element (`plist` or `particleEmitterConfig`).
    public static func parse(_ text: String, path: String) throws -> EffectFile {
        let root: XMLElement
        do { root = try XMLReader.parse(text) } catch let e as XMLError {
            throw Error(description: "\(path): \(e.line): not a well-formed XML file: \(e.message)")
        }
        switch root.name {
        case "plist": return try plist(root, path: path)
        case "particleEmitterConfig": return try pex(root, path: path)
        default:
            throw Error(description: "\(path): \(root.name): expected a Particle Designer property list (<plist>) or a .pex file (<particleEmitterConfig>), got <\(root.name)>")
        }
    }

    static func plist(_ root: XMLElement, path: String) throws -> EffectFile {
        guard let dict = root.children.first, dict.name == "dict", root.children.count == 1 else {
            throw Error(description: "\(path): plist: expected one <dict> inside <plist>")
        }
        var values: [String: EffectValue] = [:]
        var key: String?
        for child in dict.children {
            if child.name == "key" {
                if let key { throw Error(description: "\(path): \(key): the key has no value (line \(child.line))") }
                key = child.text
                continue
            }
            guard let k = key else { throw Error(description: "\(path): plist: <\(child.name)> on line \(child.line) follows no <key>") }
            key = nil
            let kind: EffectValue.Kind
            switch child.name {
            case "real", "integer":
                guard let v = Double(child.text.trimmingSpace), v.isFinite else {
                    throw Error(description: "\(path): \(k): expected a number, got '\(child.text.prefix(40))'")
                }
                kind = .number(v)
            case "string", "data": kind = .string(child.text)
            case "true": kind = .number(1)
            case "false": kind = .number(0)
            default: continue   // arrays and dictionaries: no effect key has one
            }
            if values[k.lowercased()] != nil { throw Error(description: "\(path): \(k): the key appears twice") }
            values[k.lowercased()] = EffectValue(kind: kind, key: k)
        }
        if let key { throw Error(description: "\(path): \(key): the key has no value") }
        return EffectFile(format: .plist, values: values, path: path)
    }

    static func pex(_ root: XMLElement, path: String) throws -> EffectFile {
        var values: [String: EffectValue] = [:]
        func set(_ key: String, _ text: String, _ shown: String, number: Bool) throws {
            let kind: EffectValue.Kind
            if number {
                guard let v = Double(text.trimmingSpace), v.isFinite else {
                    throw Error(description: "\(path): \(shown): expected a number, got '\(text.prefix(40))'")
                }
                kind = .number(v)
            } else {
                kind = .string(text)
            }
            if values[key.lowercased()] != nil { throw Error(description: "\(path): \(shown): the key appears twice") }
            values[key.lowercased()] = EffectValue(kind: kind, key: shown)
        }
        let components = [("red", "Red"), ("green", "Green"), ("blue", "Blue"), ("alpha", "Alpha")]
        for e in root.children {
            if e.name == "texture" {
                if let name = e.attribute("name") { try set("textureFileName", name, "texture.name", number: false) }
                if let data = e.attribute("data") { try set("textureImageData", data, "texture.data", number: false) }
                continue
            }
            var any = false
            if let v = e.attribute("value") { try set(e.name, v, e.name, number: true); any = true }
            for axis in ["x", "y"] {
                if let v = e.attribute(axis) { try set(e.name + axis, v, "\(e.name).\(axis)", number: true); any = true }
            }
            for (attribute, suffix) in components {
                if let v = e.attribute(attribute) { try set(e.name + suffix, v, "\(e.name).\(attribute)", number: true); any = true }
            }
            if !any && !e.attributes.isEmpty {
                throw Error(description: "\(path): \(e.name): expected a value, x/y or red/green/blue/alpha attribute (line \(e.line))")
            }
        }
        return EffectFile(format: .pex, values: values, path: path)
    }

    /// The number under `key` (or any of its alternative spellings), nil when absent.
    public func number(_ keys: String...) throws -> Double? {
        for key in keys {
            guard let v = values[key.lowercased()] else { continue }
            guard case .number(let n) = v.kind else { throw error(key, "expected a number") }
            return n
        }
        return nil
    }

    /// The number under `key`, or `fallback` when absent.
    public func number(_ key: String, alternatives: [String] = [], default fallback: Double) throws -> Double {
        for k in [key] + alternatives {
            guard let v = values[k.lowercased()] else { continue }
            guard case .number(let n) = v.kind else { throw error(k, "expected a number") }
            return n
        }
        return fallback
    }

    public func string(_ key: String) throws -> String? {
        guard let v = values[key.lowercased()] else { return nil }
        switch v.kind {
        case .string(let s): return s
        case .number: throw error(key, "expected a string")
        }
    }
}

extension String {
    var trimmingSpace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
