// The text layer's property table and decoder. Decoding asks nothing of the machine's fonts, so a
// scene decodes (and `validate` and `export-code` answer) the same everywhere: the font is found
// when the Frame lays the text out (TextDraw), where a missing family, file or glyph is an error at
// the layer's `font` or `string` path; `Scene.fontWarnings()` lets `validate` say so beforehand.

import Foundation
import WelkinText

extension TextLayer {
    static let kind: LayerKind = {
        let d = TextLayer()
        return LayerKind("text", "A string set with HarfBuzz in a font file or an installed family, its glyph coverage from FreeType (docs/text-and-masks.md).", [
            Property("string", .string(maximumLength: maximumCharacters), required: true,
                     "The text; \"\\n\" breaks lines. `{time:HH:mm}` shows the scene's clock (the sky's local time when it has a date)."),
            Property("font", .string(maximumLength: 4096), default: .string(defaultFamily), live: false,
                     "A font file (.ttf, .otf, .ttc; relative to the scene file) or an installed family name (fontconfig)."),
            Property("size", .number(1...maximumSize), default: .number(d.size), unit: "pt", "Points per em."),
            Property("weight", .choice(FontWeight.allCases.map(\.rawValue)), default: .string(d.weight.rawValue), live: false,
                     expected: "font weight", "SwiftUI's weights: the family's nearest face (a font file is one face)."),
            Property("position", .unitPoint(-1e4...1e4), default: .point(d.position),
                     "Where the alignment point goes. A name (`top`, `bottomTrailing`…) places the text inside the frame at that side, `margin` in, as SwiftUI's frame alignment does."),
            Property("alignment", .choice(TextAlignment.allCases.map(\.rawValue)), default: .string(d.alignment.rawValue),
                     expected: "text alignment", "Which point of the text's box sits at `position`; lines align to the same side. A named `position` makes its name the default."),
            Property("margin", .number(0...1e4), default: .number(d.margin), unit: "pt",
                     "With a named `position`: the space between the frame's edge and the text (SwiftUI's default padding)."),
            Property("lineSpacing", .number(0...1000), default: .number(d.lineSpacing), unit: "pt",
                     "Extra space between lines, beyond the font's line height."),
            Property("color", KeyframeTables.colorType, default: .color(.white), animatable: true, "The text's colour (straight sRGB)."),
        ], groupable: true, draws: [TextDraw.self]) { object, context in
            try SceneLoader.decodeText(object, sceneDirectory: context.directory)
        }
    }()

    /// Whether a `font` value names a file rather than a family.
    static func isFontPath(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains { lower.hasSuffix($0) }
    }
}

extension SceneLoader {
    static func decodeText(_ object: ObjectReader, sceneDirectory: String?) throws -> TextLayer {
        var t = TextLayer()
        if let v = try object.number("size") { t.size = v }
        if let v = try object.choice("weight", as: FontWeight.self) { t.weight = v }
        if let v = try object.unitPoint("position") {
            t.position = v
            // A name places the text inside the frame: its box's point of the same name at the frame's.
            if case .string(let name)? = object["position"]?.value.kind {
                t.inside = name == "zero" ? .topLeading : TextAlignment(rawValue: name)
                t.alignment = t.inside ?? t.alignment
            }
        }
        if let v = try object.choice("alignment", as: TextAlignment.self) { t.alignment = v }
        if let v = try object.number("margin") { t.margin = v }
        if let v = try object.number("lineSpacing") { t.lineSpacing = v }
        if let v = try object.animatedColor("color") { t.color = v }
        _ = try object.decode("font") { n -> Void in
            let name = try n.string()
            guard !name.isEmpty else { throw n.error(.invalidValue, "expected a font file or a family name, got \"\"") }
            t.fontName = name
            if TextLayer.isFontPath(name) {
                let base = sceneDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
                let path = name.hasPrefix("/") ? name : URL(fileURLWithPath: base).appendingPathComponent(name).standardizedFileURL.path
                t.font = FontRequest(.file(path: path, index: 0), weight: t.weight.openType)
            } else {
                t.font = FontRequest(.family(name), weight: t.weight.openType)
            }
        }
        t.font.weight = t.weight.openType
        if let s = try object.string("string"), let node = object["string"] {
            _ = try node.recover {
                t.string = s
                try checkString(s, node)
                do { t.template = try TextTemplate.parse(s) } catch let e as TextTemplate.SyntaxError {
                    throw node.error(.invalidValue, e.message)
                }
            }
        }
        return t
    }

    /// Refuses what cannot be drawn before any shaping: control characters and too many lines.
    static func checkString(_ s: String, _ node: Node) throws {
        if let c = s.unicodeScalars.first(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            throw node.error(.invalidValue, "control character U+\(String(format: "%04X", c.value)) cannot be drawn (lines break at \"\\n\"; use spaces for tabs)")
        }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false).count
        guard lines <= TextLayer.maximumLines else {
            throw node.error(.outOfRange, "\(lines) lines, at most \(TextLayer.maximumLines)")
        }
    }
}
