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

    public static let defaultSize = SIMD2<Int>(1280, 720)
    public static let maximumDimension = 16384

    public init() {}
}

/// One layer of a scene. Layers composite premultiplied source-over, in order.
public struct Layer: Sendable {
    public var name: String?
    public var opacity: Double = 1
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
    }

    public init(name: String? = nil, opacity: Double = 1, content: Content) {
        self.name = name; self.opacity = opacity; self.content = content
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
            case .linear: return "linearGradient"
            case .radial: return "radialGradient"
            case .angular: return "angularGradient"
            case .elliptical: return "ellipticalGradient"
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
