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
    /// Why the text cannot be drawn at this size (the renderers report it), or nil.
    public var failure: String?
    /// The layer's JSON path in the scene (`layers[2]`, `layers[0].mask`), for messages.
    public var path: String

    public init(_ layer: TextLayer, opacity: Double, time: Double, clock: Timestamp, pixelSize: SIMD2<Int>, scale: SIMD2<Double>,
                path: String = "") {
        self.path = path
        color = layer.color.value(at: time).premultiplied * Float(opacity)
        string = layer.template.render(clock)
        let style = TextStyle(font: layer.font, pixelsPerEm: layer.size * scale, lineSpacing: layer.lineSpacing * scale.y,
                              horizontal: layer.alignment.horizontal, vertical: layer.alignment.vertical)
        let size = SIMD2<Double>(Double(pixelSize.x), Double(pixelSize.y))
        do {
            let layout = try TextLayout.make(string, style: style, origin: layer.position * size)
            quads = layout.quads
            atlas = layout.atlas
            failure = nil
        } catch {
            quads = []
            atlas = nil
            failure = "\(error)"
        }
    }

    /// The failure as an error both renderers throw.
    public var error: TextDrawError? {
        failure.map { TextDrawError(message: path.isEmpty ? $0 : "\(path): \($0)") }
    }

    /// The premultiplied colour a glyph texel of `coverage` (0…255) adds, source-over.
    @inlinable public func glyphColor(_ coverage: UInt8) -> SIMD4<Float> {
        color * (Float(coverage) * (1 / 255))
    }
}

/// A text layer that cannot be drawn at this size (its layout failed): `layers[N]: sentence`.
public struct TextDrawError: UserFacingError, Sendable {
    public var message: String
    public var description: String { message }
    public func inScene(_ file: String?) -> any UserFacingError { SceneFileError(sceneFile: file, message: message) }
}

extension TextDraw: LayerDraw {}

extension TextLayer: GroupableContent {
    public var typeName: String { Self.kind.type }

    public func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw {
        Frame.shadowed(layer, r) { TextDraw(self, opacity: $0, time: r.time, clock: r.clock, pixelSize: r.pixelSize, scale: r.scale, path: path) }
    }
}
