// A text layer at one instant: glyph quads on whole pixels and the atlas of their coverage, as
// both renderers draw them.
//
// The colour maths is mirrored in Shaders/text.glsl; keep names and constants in step.

import WelkinText

/// A text layer resolved for a frame.
public struct TextDraw: Sendable, Equatable {
    /// In drawing order: each is composited source-over, glyph after glyph.
    public var quads: [GlyphQuad]
    /// The coverage the quads copy, texel for texel (nil when the layout failed).
    public var atlas: GlyphAtlas?
    /// Premultiplied sRGB, the layer's opacity applied.
    public var color: SIMD4<Float>
    /// The string as drawn at this instant (its clock placeholders filled in).
    public var string: String
    /// Why the text cannot be drawn (a missing font or glyph, a size past the limits; the renderers
    /// report it), or nil.
    public var failure: String?
    /// Where the failure is in the scene: the layer's path, or its `font` or `string` key.
    public var failurePath: String
    /// The layer's JSON path in the scene (`layers[2]`, `layers[0].mask`), for messages.
    public var path: String
    /// The box of its lines, pixels (a transform's anchor is a unit point of it); nil when the layout failed.
    public var frameBox: SIMD4<Double>?

    public init(_ layer: TextLayer, opacity: Double, time: Double, clock: Timestamp, pixelSize: SIMD2<Int>, scale: SIMD2<Double>,
                path: String = "", space: ColorSpace = .srgb) {
        self.path = path
        failurePath = path
        color = layer.color.value(at: time, in: space).premultiplied * Float(opacity)
        string = layer.template.render(clock)
        let style = TextStyle(font: layer.font, pixelsPerEm: layer.size * scale, lineSpacing: layer.lineSpacing * scale.y,
                              horizontal: layer.alignment.horizontal, vertical: layer.alignment.vertical)
        let size = SIMD2<Double>(Double(pixelSize.x), Double(pixelSize.y))
        do {
            let layout = try TextLayout.make(string, style: style, origin: layer.origin(pixelSize: size, scale: scale))
            quads = layout.quads
            atlas = layout.atlas
            frameBox = layout.bounds
            failure = nil
        } catch {
            quads = []
            atlas = nil
            frameBox = nil
            let (key, sentence) = (error as? FontError).map(layer.fontProblem) ?? (nil, "\(error)")
            failure = sentence
            failurePath = key.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? path
        }
    }

    /// The failure as an error both renderers throw.
    public var error: TextDrawError? {
        failure.map { TextDrawError(path: failurePath, sentence: $0) }
    }

    /// The premultiplied colour a glyph texel of `coverage` (0…255) adds, source-over.
    @inlinable public func glyphColor(_ coverage: UInt8) -> SIMD4<Float> {
        color * (Float(coverage) * (1 / 255))
    }
}

/// A text layer that cannot be drawn (its layout failed): `layers[N].font: sentence`. The CLI
/// puts the scene file in front.
public struct TextDrawError: UserFacingError, Sendable {
    /// The JSON path: the layer's, or its `font` or `string` key's.
    public var path: String
    public var sentence: String
    public var message: String { path.isEmpty ? sentence : "\(path): \(sentence)" }
    public var description: String { message }
    public func inScene(_ file: String?) -> any UserFacingError { SceneFileError(sceneFile: file, message: message) }
}

extension TextLayer {
    /// A font error as the key it is about (`font`, `string`, nil: the layer) and a sentence.
    func fontProblem(_ e: FontError) -> (key: String?, sentence: String) {
        switch e {
        case .noSuchFile(let path):
            return ("font", "no such font file '\(fontName ?? path)' (looked for \(path))")
        case .unreadableFile:
            return (fontName == nil ? nil : "font", e.description)
        case .unknownFamily(let name, let installed):
            if fontName == nil {
                return (nil, "the default font family '\(name)' is not installed ('make deps' installs it: Debian's fonts-dejavu-core)")
            }
            var message = "no installed font family '\(name)'"
            if let near = nearest(name, in: installed) { message += "; did you mean '\(near)'?" }
            else { message += " (fc-list : family lists the installed ones)" }
            return ("font", message)
        case .missingCharacter:
            return ("string", e.description)
        case .tooLarge:
            return (nil, e.description)
        }
    }
}

extension Scene {
    /// What this machine's fonts cannot draw, as warnings naming file and JSON path: a missing
    /// family or file, a character no installed font has (every one the string's clock can show).
    /// Decoding never asks (a scene means the same on every machine); `validate` does, and drawing
    /// the layer reports the same problem as an error (`TextDrawError`).
    public func fontWarnings(file: String) -> [SceneError] {
        var warnings: [SceneError] = []
        func visit(_ layer: Layer, _ path: String) {
            if let group = layer.content as? GroupLayer {
                for (i, child) in group.layers.enumerated() { visit(child, "\(path).layers[\(i)]") }
                if let mask = group.mask { visit(mask, "\(path).mask") }
            }
            guard let text = layer.content as? TextLayer else { return }
            do {
                _ = try TextEngine.resolve(text.font)
                try TextEngine.checkCharacters(text.template.possibleCharacters, text.font)
            } catch let e as FontError {
                let (key, sentence) = text.fontProblem(e)
                warnings.append(SceneError(.unreadableFile, file: file, path: key.map { "\(path).\($0)" } ?? path,
                                           "warning: this machine cannot draw it: \(sentence)"))
            } catch {
                warnings.append(SceneError(.unreadableFile, file: file, path: path, "warning: \(error)"))
            }
        }
        for (i, layer) in layers.enumerated() { visit(layer, "layers[\(i)]") }
        return warnings
    }
}

extension TextDraw: FramedDraw {}

extension TextLayer: GroupableContent {
    public var typeName: String { Self.kind.type }

    public func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw {
        Frame.shadowed(layer, r) { TextDraw(self, opacity: $0, time: r.time, clock: r.clock, pixelSize: r.pixelSize, scale: r.scale, path: path, space: r.colorSpace) }
    }
}
