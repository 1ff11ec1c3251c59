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
    public var background: RGBA = .black
    public var dither: Bool = true
    public var colorSpace: ColorSpace = .srgb
    public var layers: [Layer] = []
    /// Top-level `weather`; nil is steady clear weather.
    public var weather: Weather? = nil
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
    public static let maximumDimension = 16384
    /// The most layers a scene may have.
    public static let maximumLayers = 256

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
            Property("seed", .integer(0...(1 << 53)), default: .number(Double(d.seed)), live: false,
                     expected: "a whole number ≥ 0", "Seeds every random choice in the scene."),
            Property("background", .color, default: .color(d.background), "Drawn under every layer."),
            Property("dither", .bool, default: .bool(d.dither), "Ordered dither at the final 8-bit quantisation."),
            Property("colorSpace", .choice(ColorSpace.allCases.map(\.rawValue)), default: .string(d.colorSpace.rawValue),
                     expected: "colour space", "The space gradients and meshes interpolate in."),
            Property("wind", .pair(-EmitterCell.rateLimit...EmitterCell.rateLimit), default: .point(d.wind), unit: "pt/s²",
                     "Pushes every emitter cell (times its windFactor)."),
            Property("weather", Weather.propertyType, default: .described("steady clear weather"), animatable: true,
                     "A weather preset, or an object with a preset, a transition and a schedule (docs/sky.md)."),
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
    public var content: Content

    public enum Content: Sendable {
        case gradient(Gradient)
        /// A user's GLSL fragment shader (GPU only; the CPU reference refuses it).
        case shader(ShaderLayer)
        /// A mesh gradient (docs/mesh-gradients.md).
        case mesh(MeshGradient)
        /// `sky`, `cloudSprites` or `cloudCover` (Sky/SkyLayers.swift).
        case sky(SkyContent)
        /// A particle emitter (Core Animation's CAEmitterLayer).
        case emitter(EmitterLayer)
        /// A string in a font (docs/text-and-masks.md).
        case text(TextLayer)
        /// Layers composited offscreen, masked, maybe shadowed (docs/text-and-masks.md).
        indirect case group(GroupLayer)
    }

    public init(name: String? = nil, opacity: Double = 1, shadow: Shadow? = nil, content: Content) {
        self.name = name; self.opacity = opacity; self.shadow = shadow; self.content = content
    }
}

extension Layer.Content {
    /// The scene-file `type` of this layer (for tools that name layers: code export, messages).
    public var typeName: String {
        switch self {
        case .gradient(let g): return g.shape.typeName
        case .shader: return ShaderLayer.kind.type
        case .mesh: return MeshGradient.kind.type
        case .emitter: return EmitterLayer.kind.type
        case .text: return TextLayer.kind.type
        case .group: return GroupLayer.kind.type
        case .sky(.sky): return SkyLayer.kind.type
        case .sky(.cloudSprites): return CloudSpritesLayer.kind.type
        case .sky(.cloudCover): return CloudCoverLayer.kind.type
        }
    }
}

/// A colour stop. Locations are in 0…1.
public struct GradientStop: Equatable, Sendable {
    public var color: RGBA
    public var location: Double
    public init(color: RGBA, location: Double) { self.color = color; self.location = location }
}

/// A SwiftUI-style gradient: a shape that maps each pixel to t, and stops that map t to a colour.
public struct Gradient: Sendable {
    public enum Shape: Sendable, Equatable {
        /// t runs from `start` (0) to `end` (1), unit points; isolines perpendicular in pixel space.
        case linear(start: UnitPoint, end: UnitPoint)
        /// t runs from `startRadius` to `endRadius`, in points, around `center`.
        case radial(center: UnitPoint, startRadius: Double, endRadius: Double)
        /// t runs with the angle around `center`, degrees, 0 = +x, clockwise on screen.
        case angular(center: UnitPoint, startAngle: Double, endAngle: Double)
        /// t from length(((x − cx)/w, (y − cy)/h)), radii as fractions of the frame.
        case elliptical(center: UnitPoint, startRadiusFraction: Double, endRadiusFraction: Double)

        /// The scene-file `type` of each shape.
        public var typeName: String {
            switch self {
            case .linear: return Gradient.linearKind.type
            case .radial: return Gradient.radialKind.type
            case .angular: return Gradient.angularKind.type
            case .elliptical: return Gradient.ellipticalKind.type
            }
        }
    }
    public var shape: Shape
    /// Sorted by location (stable), at least one.
    public var stops: [GradientStop]
    /// Overrides the scene's colour space when set.
    public var colorSpace: ColorSpace?

    public init(shape: Shape, stops: [GradientStop], colorSpace: ColorSpace? = nil) {
        self.shape = shape
        self.stops = stops.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        self.colorSpace = colorSpace
    }

    /// The most stops one gradient may have (the GPU's uniform array size).
    public static let maximumStops = 64
}
