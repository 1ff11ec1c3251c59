// The `meshGradient` layer: SwiftUI's MeshGradient as a scene value (see docs/mesh-gradients.md).
//
// A width × height grid of vertices, each with a colour; every cell is a Coons patch bounded by
// four cubic Bézier edges. Vertices may animate by a seeded random walk followed through a
// spring, and colours by keyframes. Defaults live here.

/// A mesh vertex with explicit Bézier handles, all in unit space (SwiftUI's MeshGradient.BezierPoint).
public struct MeshBezierPoint: Sendable, Equatable {
    public var position: UnitPoint
    /// Handle toward the previous vertex in the row.
    public var leading: UnitPoint
    /// Handle toward the previous vertex in the column.
    public var top: UnitPoint
    /// Handle toward the next vertex in the row.
    public var trailing: UnitPoint
    /// Handle toward the next vertex in the column.
    public var bottom: UnitPoint

    public init(position: UnitPoint, leading: UnitPoint, top: UnitPoint, trailing: UnitPoint, bottom: UnitPoint) {
        self.position = position; self.leading = leading; self.top = top; self.trailing = trailing; self.bottom = bottom
    }

    /// The same point moved by `offset` (handles travel with their vertex).
    public func offset(by d: UnitPoint) -> MeshBezierPoint {
        MeshBezierPoint(position: position + d, leading: leading + d, top: top + d, trailing: trailing + d, bottom: bottom + d)
    }
}

/// A mesh gradient layer.
public struct MeshGradient: Sendable, Equatable {
    /// Vertices per row (≥ 2).
    public var width: Int
    /// Vertices per column (≥ 2).
    public var height: Int
    /// How the vertices were given.
    public enum Vertices: Sendable, Equatable {
        /// Positions only: handles are automatic (Catmull-Rom), recomputed as points move.
        case points([UnitPoint])
        /// Explicit handles.
        case bezier([MeshBezierPoint])
    }
    /// width × height vertices, row-major from the top-left.
    public var vertices: Vertices
    /// width × height colours, row-major from the top-left.
    public var colors: [RGBA]
    /// Drawn where the mesh does not cover.
    public var background: RGBA = .clear
    /// Bicubic (true) or bilinear (false) colour across each patch.
    public var smoothsColors: Bool = true
    /// Overrides the scene's colour space when set.
    public var colorSpace: ColorSpace?
    /// Moves vertices over time.
    public var animation: MeshRandomWalk?
    /// Colours at later times; `colors` is the keyframe at time 0.
    public var colorKeyframes: [MeshColorKeyframe] = []
    /// Each `points` vertex over time, when any animates (keyframes or `{from, to, animation}`);
    /// `vertices` then holds them at time 0.
    public var pointAnimations: [Animated<SIMD2<Double>>]?
    /// Each of `colors` over time, when any animates; `colors` then holds them at time 0.
    public var colorAnimations: [Animated<RGBA>]?

    /// The mesh at scene time `t`: animated vertices and colours evaluated (colours in its colour
    /// space, `sceneSpace` when it has none). The random walk and colour keyframes then start from these.
    public func at(_ t: Double, sceneSpace: ColorSpace = .srgb) -> MeshGradient {
        guard pointAnimations != nil || colorAnimations != nil else { return self }
        var mesh = self
        if let p = pointAnimations { mesh.vertices = .points(p.map { $0.value(at: t) }) }
        if let c = colorAnimations { mesh.colors = c.map { $0.value(at: t, in: colorSpace ?? sceneSpace) } }
        return mesh
    }

    /// The largest grid per side (the GPU keeps one row of colour coefficients per patch).
    public static let maximumVerticesPerSide = 64
    /// Unit coordinates (positions and handles) must lie in −limit…limit: a mesh may reach well
    /// beyond the frame, but not so far that pixel coordinates lose their fixed-point precision.
    public static let coordinateLimit = 10.0

    public init(width: Int, height: Int, vertices: Vertices, colors: [RGBA]) {
        self.width = width; self.height = height; self.vertices = vertices; self.colors = colors
    }

    /// The vertex positions as given (time 0).
    public var startPositions: [UnitPoint] {
        switch vertices {
        case .points(let p): return p
        case .bezier(let b): return b.map(\.position)
        }
    }
}

/// Colours of every vertex at one time.
public struct MeshColorKeyframe: Sendable, Equatable {
    /// Seconds, > 0 and increasing from one keyframe to the next.
    public var time: Double
    public var colors: [RGBA]
    public init(time: Double, colors: [RGBA]) { self.time = time; self.colors = colors }
}
