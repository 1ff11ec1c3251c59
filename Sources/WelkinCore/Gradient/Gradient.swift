// The gradient layers' model: linearGradient, radialGradient, angularGradient, ellipticalGradient.

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
