// The scene model: an immutable, validated value decoded from a scene file.
//
// Nothing downstream re-validates a Scene. Defaults live here, next to the types that own them.

/// A point in unit space: (0, 0) is the top-left of the frame, (1, 1) the bottom-right.
public typealias UnitPoint = SIMD2<Double>

/// A whole scene: frame size, background and layers drawn in order.
public struct Scene: Sendable {
    /// Frame size in points.
    public var size: SIMD2<Int> = Scene.defaultSize
    public var seed: UInt64 = 1
    /// Whether `seed` was derived from the name (the file gave none): two scenes without a seed
    /// then draw different snowfalls, stars and clouds.
    public var seedIsDerived = false
    public var background: RGBA = .black
    public var dither: Bool = true
    public var colorSpace: ColorSpace = .srgb
    /// The space of the rendered picture (PNG, viewer, video); colours outside it are clipped in linear light.
    public var outputColorSpace: OutputColorSpace = .srgb
    public var layers: [Layer] = []
    /// Top-level `weather`; nil is steady clear weather.
    public var weather: Weather? = nil
    /// Top-level `camera`: how the sky-space layers are seen; nil is the sky layer's own panorama.
    public var camera: Camera? = nil
    /// Points per second², added to every emitter cell's acceleration × its windFactor.
    public var wind: SIMD2<Double> = .zero
    /// Problems that do not stop the scene from drawing (printed by the command line).
    public var warnings: [SceneError] = []
    /// A display name (the viewer's title); defaults to the file name without extension.
    public var name: String = "untitled"
    /// The file the scene came from, for resolving relative paths and for error messages.
    public var sourcePath: String? = nil
    /// Top-level `metadata`: any JSON, kept for tools and otherwise ignored.
    public var metadata: JSONValue? = nil

    public static let defaultSize = SIMD2<Int>(1280, 720)

    /// The seed of a scene that gives none: FNV-1a (64-bit) of its name's UTF-8, to 53 bits (a
    /// whole number JSON and Double keep exactly).
    public static func seed(forName name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h & ((1 << 53) - 1)
    }
    public static let maximumDimension = 16384
    /// The most layers a scene may have.
    public static let maximumLayers = 256
    /// The scene times a frame may be asked for, seconds: the same rule for `--time` on the command
    /// line and `time` in the viewer's console (a day short of Double's trouble with fractions at
    /// the top).
    public static let timeRange = 0.0...1e9

    public init() {}
}

extension Scene {
    /// The top level of a scene file.
    public static let properties: PropertyTable = {
        let d = Scene()
        return PropertyTable("scene", title: "scene", "A Welkin scene: frame size, background and layers drawn in order.", [
            Property("name", .string(maximumLength: 200), default: .described("the file name"), live: false, "Shown in the viewer's title."),
            Property("description", .string(maximumLength: 100_000), live: false, "Free text, ignored."),
            Property("size", .array(.integer(1...maximumDimension), count: 2...2), default: .point([Double(d.size.x), Double(d.size.y)]),
                     unit: "pt", live: false, "Frame size [width, height] in points."),
            Property("seed", .integer(0...(1 << 53)), default: .described("made from the name"), live: false,
                     expected: "a whole number ≥ 0", "Seeds every random choice in the scene. Without it, a number made from the scene's name (or file name), so two scenes do not share a snowfall."),
            Property("background", .color, default: .color(d.background), "Drawn under every layer."),
            Property("dither", .bool, default: .bool(d.dither), "Ordered dither at the final 8-bit quantisation."),
            Property("colorSpace", .choice(ColorSpace.allCases.map(\.rawValue)), default: .string(d.colorSpace.rawValue),
                     expected: "colour space", "The space gradients and meshes interpolate in."),
            Property("outputColorSpace", .choice(OutputColorSpace.allCases.map(\.rawValue)), default: .string(d.outputColorSpace.rawValue),
                     live: false, expected: "output colour space",
                     "The picture's colour space (PNG, viewer, video); out-of-gamut colours are clipped in linear light (docs/export.md)."),
            Property("wind", .pair(-EmitterCell.rateLimit...EmitterCell.rateLimit), default: .point(d.wind), unit: "pt/s²",
                     "Pushes every emitter cell (times its windFactor)."),
            Property("weather", Weather.propertyType, default: .described("steady clear weather"), animatable: true,
                     "A weather preset, or an object with a preset, a transition and a schedule (docs/sky.md)."),
            Property("camera", .object(Camera.properties), default: .described("the sky layer's panorama view"), animatable: true,
                     "How the sky-space layers are seen: yaw, pitch, field of view and projection (docs/sky.md \"Camera\")."),
            Property("layers", .array(.layer, count: 0...maximumLayers), default: .emptyArray, live: false,
                     "The layers, drawn in order, later ones on top."),
            Property("metadata", .any, live: false, "Any JSON for other tools (notes, provenance); kept and ignored."),
            Property("$schema", .string(maximumLength: 4096), live: false,
                     "The JSON Schema this file follows (`welkin schema`), for editors; ignored by Welkin."),
        ])
    }()
}

/// One layer of a scene. Layers composite premultiplied source-over, in order.
public struct Layer: Sendable {
    public var name: String?
    public var opacity: Double = 1
    /// A shadow under the layer (kinds that can sit in a group).
    public var shadow: Shadow? = nil
    /// The kind's model (`Gradient`, `MeshGradient`, …: `layer.content as? MeshGradient`); `LayerKinds.all` lists the kinds.
    public var content: any LayerContent

    /// Offset, scale and rotation (kinds that can sit in a group; nil: none).
    public var transform: LayerTransform? = nil
    /// `opacity` as keyframes or an animation (nil: the constant `opacity`).
    public var opacityAnimation: Animated<Double>? = nil

    public init(name: String? = nil, opacity: Double = 1, shadow: Shadow? = nil, content: any LayerContent) {
        self.name = name; self.opacity = opacity; self.shadow = shadow; self.content = content
    }

    /// The layer at scene time `t`: its animated opacity evaluated (clamped to 0…1).
    public func at(_ t: Double) -> Layer {
        guard let animation = opacityAnimation else { return self }
        var layer = self
        layer.opacity = min(max(animation.value(at: t), 0), 1)
        return layer
    }
}
