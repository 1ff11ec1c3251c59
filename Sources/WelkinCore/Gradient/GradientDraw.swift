// A gradient resolved to pixel space: what both renderers draw.
//
// The maths here is mirrored line for line in Shaders/gradient.glsl; keep names and constants in step.

import Foundation

/// Premultiplied colour stops in an interpolation space, sorted by location.
public struct ResolvedStops: Sendable, Equatable {
    public var locations: [Float]
    /// Premultiplied components in `space`.
    public var colors: [SIMD4<Float>]
    public var space: ColorSpace

    public init(_ stops: [GradientStop], space: ColorSpace) {
        locations = stops.map { Float($0.location) }
        colors = stops.map { ColorMath.toInterpolationSpace($0.color, space) }
        self.space = space
    }

    /// The interpolated colour at t, premultiplied, still in the interpolation space.
    /// Pads beyond the ends; at a hard edge (equal locations) t takes the later colour.
    @inlinable public func interpolate(_ t: Float) -> SIMD4<Float> {
        let n = locations.count
        if !(t > locations[0]) { return colors[0] }   // also catches NaN
        if t >= locations[n - 1] { return colors[n - 1] }
        var i = 0
        while !(t < locations[i + 1]) { i += 1 }
        let f = (t - locations[i]) / (locations[i + 1] - locations[i])
        return colors[i] + (colors[i + 1] - colors[i]) * f
    }

    /// Whether the stops are evenly spaced from 0 to 1 (within 10⁻⁵: colours listed without
    /// locations are), three or more: the GPU then finds a t's stop as ⌊t (n − 1)⌋ and one
    /// comparison either side instead of comparing t with every stop (WELKIN_STOPS_EVEN,
    /// gradient.glsl): the same stop as `interpolate`'s search, since that guess is off by at most one.
    public var evenlySpaced: Bool {
        let n = locations.count
        guard n >= 3 else { return false }
        for (k, l) in locations.enumerated() where !(abs(Double(l) - Double(k) / Double(n - 1)) <= 1e-5) { return false }
        return true
    }

    /// The colour at t as premultiplied sRGB-encoded components, ready to composite.
    @inlinable public func evaluate(_ t: Float) -> SIMD4<Float> {
        ColorMath.fromInterpolationSpace(interpolate(t), space)
    }
}

/// A gradient in pixel space.
public struct GradientDraw: Sendable, Equatable {
    /// The GPU's integer codes (uniform `u_kind`).
    public enum Kind: Int32, Sendable { case linear = 0, radial = 1, angular = 2 }

    public var kind: Kind
    /// linear: the start point; radial and angular: the centre. Pixels.
    public var origin: SIMD2<Float>
    /// linear: (end − start)/|end − start|² in pixels⁻¹, so t = dot(p − origin, vector);
    /// radial: per-axis scale from pixels to the radius unit (points or frame fractions).
    /// angular: unused.
    public var vector: SIMD2<Float>
    /// radial: (start radius, 1/(end − start radius)); angular: (start angle, signed span) in radians.
    public var range: SIMD2<Float>
    public var stops: ResolvedStops
    public var opacity: Float

    /// A span so large that a zero-width radial ramp becomes a hard edge.
    public static let hardEdgeScale: Float = 1e30

    public init(_ gradient: Gradient, opacity: Double, sceneColorSpace: ColorSpace,
                pixelSize: SIMD2<Int>, scale: SIMD2<Double>) {
        let size = SIMD2<Double>(Double(pixelSize.x), Double(pixelSize.y))
        func pixel(_ u: UnitPoint) -> SIMD2<Float> { SIMD2<Float>(u * size) }
        stops = ResolvedStops(gradient.stops, space: gradient.colorSpace ?? sceneColorSpace)
        self.opacity = Float(opacity)
        switch gradient.shape {
        case .linear(let start, let end):
            kind = .linear
            let s = start * size, e = end * size
            let d = e - s
            let lengthSquared = (d * d).sum()
            origin = SIMD2<Float>(s)
            // Equal start and end: t = 0 everywhere (the first stop's colour).
            vector = lengthSquared > 0 ? SIMD2<Float>(d / lengthSquared) : .zero
            range = .zero
        case .radial(let center, let r0, let r1):
            kind = .radial
            origin = pixel(center)
            vector = SIMD2<Float>(1 / scale)
            range = SIMD2(Float(r0), r1 != r0 ? Float(1 / (r1 - r0)) : Self.hardEdgeScale)
        case .elliptical(let center, let f0, let f1):
            kind = .radial
            origin = pixel(center)
            vector = SIMD2<Float>(1 / size)
            range = SIMD2(Float(f0), f1 != f0 ? Float(1 / (f1 - f0)) : Self.hardEdgeScale)
        case .angular(let center, let startAngle, let endAngle):
            kind = .angular
            origin = pixel(center)
            vector = .zero
            range = SIMD2(Float(startAngle * .pi / 180), Float((endAngle - startAngle) * .pi / 180))
        }
    }

    /// t at pixel-space point p (a pixel centre is (x + 0.5, y + 0.5)). Not clamped.
    @inlinable public func parameter(at p: SIMD2<Float>) -> Float {
        switch kind {
        case .linear:
            let d = (p - origin) * vector
            return d.x + d.y
        case .radial:
            let d = (p - origin) * vector
            return ((d * d).sum().squareRoot() - range.x) * range.y
        case .angular:
            let d = p - origin
            return Self.angularParameter(angle: atan2f(d.y, d.x), start: range.x, span: range.y)
        }
    }

    /// SwiftUI's AngularGradient: a span of a full turn or more shows only the last complete turn;
    /// a shorter span fills the missing wedge with the end colours, switching halfway across it.
    @inlinable public static func angularParameter(angle: Float, start: Float, span: Float) -> Float {
        let turn: Float = 6.28318530717958647692
        let s = abs(span)
        let a = span >= 0 ? glslMod(angle - start, turn) : glslMod(start - angle, turn)
        if s >= turn {
            return (s - turn + glslMod(a - s, turn)) / s
        }
        if a <= s && s > 0 { return a / s }
        return (a - s) < (turn - s) * 0.5 ? 1 : 0
    }

    /// GLSL's mod: x − y·floor(x/y) (fmod differs for negative x).
    @inlinable public static func glslMod(_ x: Float, _ y: Float) -> Float {
        x - y * (x / y).rounded(.down)
    }

    /// The premultiplied sRGB colour at p, opacity applied.
    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> {
        stops.evaluate(min(max(parameter(at: p), 0), 1)) * opacity
    }
}

extension GradientDraw: LayerDraw {}

extension Gradient: GroupableContent {
    public var typeName: String { shape.typeName }

    public func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw {
        let gradient = at(r.time, sceneSpace: r.colorSpace)
        return Frame.shadowed(layer, r) { GradientDraw(gradient, opacity: $0, sceneColorSpace: r.colorSpace, pixelSize: r.pixelSize, scale: r.scale) }
    }
}
