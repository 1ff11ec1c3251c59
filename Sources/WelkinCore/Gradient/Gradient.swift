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
    /// The shape's numbers and the stops over time, when any of them animates (`shape` and `stops`
    /// then hold the values at time 0).
    public var animation: GradientAnimation?

    public init(shape: Shape, stops: [GradientStop], colorSpace: ColorSpace? = nil) {
        self.shape = shape
        self.stops = stops.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        self.colorSpace = colorSpace
    }

    /// The gradient at scene time `t` (stops sorted again: animated locations may pass each other);
    /// animated colours move in its colour space (`sceneSpace` when it has none).
    public func at(_ t: Double, sceneSpace: ColorSpace = .srgb) -> Gradient {
        guard let a = animation else { return self }
        let space = colorSpace ?? sceneSpace
        return Gradient(shape: a.shape(at: t, like: shape), stops: a.stops.map {
            GradientStop(color: $0.color.value(at: t, in: space), location: min(max($0.location.value(at: t), 0), 1))
        }, colorSpace: colorSpace)
    }

    /// The most stops one gradient may have (the GPU's uniform array size).
    public static let maximumStops = 64
}

/// A gradient's animated values: every stop (in the file's order) and the shape's point and numbers.
public struct GradientAnimation: Sendable, Equatable {
    public struct Stop: Sendable, Equatable {
        public var color: Animated<RGBA>
        public var location: Animated<Double>
    }
    public var stops: [Stop]
    /// linear: start and end; the others: center.
    public var points: [Animated<SIMD2<Double>>]
    /// radial: start and end radius; angular: start and end angle; elliptical: the radius fractions.
    public var numbers: [Animated<Double>]

    /// Whether anything moves.
    public var isAnimated: Bool {
        func moves<V>(_ a: Animated<V>) -> Bool { if case .constant = a { return false } else { return true } }
        return stops.contains { moves($0.color) || moves($0.location) } || points.contains(where: moves) || numbers.contains(where: moves)
    }

    func shape(at t: Double, like shape: Gradient.Shape) -> Gradient.Shape {
        let p = points.map { $0.value(at: t) }, n = numbers.map { $0.value(at: t) }
        switch shape {
        case .linear: return .linear(start: p[0], end: p[1])
        case .radial: return .radial(center: p[0], startRadius: max(0, n[0]), endRadius: max(0, n[1]))
        case .angular: return .angular(center: p[0], startAngle: n[0], endAngle: n[1])
        case .elliptical: return .elliptical(center: p[0], startRadiusFraction: max(0, n[0]), endRadiusFraction: max(0, n[1]))
        }
    }
}
