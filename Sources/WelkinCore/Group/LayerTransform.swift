// Layer transforms: SwiftUI's .scaleEffect(_:anchor:), .rotationEffect(_:anchor:) and .offset(x:y:)
// on any layer that may sit in a group (docs/animation.md, "Transforms").
//
// A transformed layer is drawn as it would be untransformed into its own offscreen picture, and that
// picture is then resampled through the inverse of the transform (bilinear, pixel centres, outside
// the picture transparent) on both renderers: the maths is `LayerAffine` here and `maskedContent` in
// Shaders/group-inputs.glsl. So a layer lands on fractions of a pixel, and a mask moves with its
// layer (the group's picture is masked before it is transformed). The shadow is cast by the
// transformed layer: its offset stays on the screen's axes, as a light would.

import Foundation

/// A layer's `transform`.
public struct LayerTransform: Sendable, Equatable {
    /// Points, y down (SwiftUI's `.offset(x:y:)`).
    public var offset: Animated<SIMD2<Double>> = .constant(.zero)
    /// [sx, sy] (a number n is [n, n]); negative mirrors (SwiftUI's `.scaleEffect`).
    public var scale: Animated<SIMD2<Double>> = .constant(SIMD2(1, 1))
    /// Degrees, clockwise on screen (SwiftUI's `.rotationEffect(.degrees(…))`).
    public var rotation: Animated<Double> = .constant(0)
    /// The unit point scale and rotation turn about, in the layer's frame (text: the box of its
    /// lines; every other kind: the scene's frame).
    public var anchor: SIMD2<Double> = SIMD2(0.5, 0.5)

    public init() {}

    public static let maximumOffset = 10_000.0
    public static let maximumScale = 100.0
    public static let maximumRotation = 100_000.0

    /// The transform at scene time `t` in pixel space, `box` being the layer's frame (pixels) that
    /// `anchor` is a unit point of; nil when it collapses the layer (a scale of 0).
    public func affine(at t: Double, box: SIMD4<Double>, pixelsPerPoint: SIMD2<Double>) -> LayerAffine? {
        let (offset, scale, rotation) = at(t)
        let anchor = SIMD2(box.x, box.y) + self.anchor * SIMD2(box.z - box.x, box.w - box.y)
        return LayerAffine(offset: offset, scale: scale, rotation: rotation, anchor: anchor, pixelsPerPoint: pixelsPerPoint)
    }

    /// The transform's numbers at scene time `t`.
    public func at(_ t: Double) -> (offset: SIMD2<Double>, scale: SIMD2<Double>, rotation: Double) {
        (offset.value(at: t), scale.value(at: t), rotation.value(at: t))
    }
}

extension LayerTransform {
    public static let properties = PropertyTable("transform", title: "transform",
        "Moves, scales and turns a layer as SwiftUI's `.scaleEffect`, `.rotationEffect` and `.offset` do, in that order, about `anchor`; each number may be keyframes or an animation (docs/animation.md).", [
        Property("offset", KeyframeTables.pointType(-maximumOffset...maximumOffset), default: .point(.zero), unit: "pt", animatable: true,
                 "[x, y]: how far the layer moves (y down), fractions of a pixel included."),
        Property("scale", KeyframeTables.scaleType(-maximumScale...maximumScale), default: .number(1), animatable: true,
                 "A number, or [sx, sy]; negative mirrors, 0 hides the layer."),
        Property("rotation", KeyframeTables.numberType(-maximumRotation...maximumRotation), default: .number(0), unit: "°", animatable: true,
                 "Degrees clockwise on screen (SwiftUI's rotationEffect), or an angle like \"-10deg\"."),
        Property("anchor", .unitPoint(-1e4...1e4), default: .point(SIMD2(0.5, 0.5)),
                 "The unit point scale and rotation turn about: in the box of a text layer's lines, in the scene's frame for every other kind."),
    ])

    /// The property layer kinds that may sit in a group add to their tables.
    static let property = Property("transform", .object(properties),
                                   "Offset, scale and rotation about an anchor, on both renderers to fractions of a pixel (docs/animation.md).")
        .withDefaultJSON(JSONValue(.object([])))   // the panel offers its keys; an edit writes only what changed

    static func decode(_ node: Node) throws -> LayerTransform {
        let o = try node.object(properties)
        try o.checkKeys()
        var t = LayerTransform()
        if let n = o["offset"] { t.offset = try n.animatedPoint(in: -maximumOffset...maximumOffset, allowsNumber: false) }
        if let n = o["scale"] { t.scale = try n.animatedPoint(in: -maximumScale...maximumScale, allowsNumber: true) }
        if let v = try o.animatedNumber("rotation") { t.rotation = v }
        if let v = try o.unitPoint("anchor") { t.anchor = v }
        return t
    }
}

/// A transform at one instant in pixel space: where each screen pixel reads the layer's own picture.
///
/// Screen point s and picture point q (pixels, y down) are related by s = A (q − a) + a + o, with
/// A = P R(θ) S P⁻¹ (P: points to pixels, R clockwise on screen, S the scale), a the anchor and o the
/// offset in pixels. Both renderers read the picture at q = m·c + t for each pixel centre c, with
/// m = A⁻¹ and t = a − m (a + o) as Floats, and blend its four nearest pixels (`bilinear`).
public struct LayerAffine: Sendable, Equatable {
    /// m, row by row: (m00, m01, m10, m11).
    public var inverse: SIMD4<Float>
    public var inverseOffset: SIMD2<Float>
    /// A and its offset (a + o − A a), for boxes.
    public var forward: SIMD4<Double>
    public var forwardOffset: SIMD2<Double>

    /// nil when the transform collapses the layer to a line or a point (a scale of 0): nothing shows.
    public init?(offset: SIMD2<Double>, scale s: SIMD2<Double>, rotation degrees: Double, anchor: SIMD2<Double>, pixelsPerPoint p: SIMD2<Double>) {
        let theta = degrees * .pi / 180
        let c = cos(theta), sn = sin(theta)
        // R S in points, then conjugated by P: A = P (R S) P⁻¹.
        let rs = SIMD4<Double>(c * s.x, -sn * s.y, sn * s.x, c * s.y)
        let a01: Double = rs.y * p.x / p.y, a10: Double = rs.z * p.y / p.x
        let a = SIMD4<Double>(rs.x, a01, a10, rs.w)
        let det: Double = a.x * a.w - a.y * a.z
        guard det.isFinite, abs(det) > 1e-9 else { return nil }
        let m = SIMD4<Double>(a.w / det, -a.y / det, -a.z / det, a.x / det)
        let o: SIMD2<Double> = offset * p
        let moved: SIMD2<Double> = anchor + o
        let back = SIMD2<Double>(m.x * moved.x + m.y * moved.y, m.z * moved.x + m.w * moved.y)
        let t: SIMD2<Double> = anchor - back
        inverse = SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w))
        inverseOffset = SIMD2<Float>(Float(t.x), Float(t.y))
        forward = a
        let turned = SIMD2<Double>(a.x * anchor.x + a.y * anchor.y, a.z * anchor.x + a.w * anchor.y)
        forwardOffset = moved - turned
    }

    /// Where the picture's point `q` (pixels) lands on the screen.
    public func forward(_ q: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(forward.x * q.x + forward.y * q.y, forward.z * q.x + forward.w * q.y) + forwardOffset
    }

    /// The picture's point that lands on the screen at `s` (pixels): `forward` undone, in Double.
    public func backward(_ s: SIMD2<Double>) -> SIMD2<Double> {
        let a = forward, d = s - forwardOffset
        let det = a.x * a.w - a.y * a.z
        return SIMD2(a.w * d.x - a.y * d.y, -a.z * d.x + a.x * d.y) / det
    }

    /// Whether it moves nothing (the picture is then read texel for texel).
    public var isIdentity: Bool {
        forward == SIMD4(1, 0, 0, 1) && forwardOffset == .zero
    }

    /// Where the pixel at `p` (top-down) reads the picture, in pixel coordinates less ½ (so a whole
    /// number is a texel's centre).
    @inlinable public func source(_ p: SIMD2<Int>) -> SIMD2<Float> {
        let cx = Float(p.x) + 0.5, cy = Float(p.y) + 0.5
        return SIMD2(inverse.x * cx + inverse.y * cy + inverseOffset.x - 0.5,
                     inverse.z * cx + inverse.w * cy + inverseOffset.y - 0.5)
    }

    /// The picture at `u` (`source`'s coordinates): its four nearest texels blended, those outside
    /// the `size` picture transparent. Mirrored in Shaders/group-inputs.glsl.
    @inlinable public static func bilinear(_ u: SIMD2<Float>, size: SIMD2<Int>, _ texel: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        guard u.x > -1, u.x < Float(size.x), u.y > -1, u.y < Float(size.y) else { return .zero }
        let fx = u.x.rounded(.down), fy = u.y.rounded(.down)
        let i = Int(fx), j = Int(fy)
        let f = SIMD2(u.x - fx, u.y - fy)
        func tap(_ x: Int, _ y: Int) -> SIMD4<Float> { x >= 0 && y >= 0 && x < size.x && y < size.y ? texel(x, y) : .zero }
        let top = tap(i, j) * (1 - f.x) + tap(i + 1, j) * f.x
        let bottom = tap(i, j + 1) * (1 - f.x) + tap(i + 1, j + 1) * f.x
        return top * (1 - f.y) + bottom * f.y
    }

    /// A group's content at pixel `p`: `maskedTexel` (its masked picture, transparent outside) read
    /// through `transform` when there is one, texel for texel otherwise. group-inputs.glsl's
    /// `maskedContent`.
    @inlinable public static func maskedContent(_ p: SIMD2<Int>, _ transform: LayerAffine?, size: SIMD2<Int>,
                                                _ maskedTexel: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        guard let transform else { return maskedTexel(p.x, p.y) }
        return bilinear(transform.source(p), size: size, maskedTexel)
    }

    /// The screen box [x0, y0, x1, y1) that the picture's box `b` can reach (a pixel of slack for
    /// the bilinear taps).
    public func reach(_ b: SIMD4<Int>) -> SIMD4<Int> {
        let corners = [SIMD2(Double(b.x), Double(b.y)), SIMD2(Double(b.z), Double(b.y)),
                       SIMD2(Double(b.x), Double(b.w)), SIMD2(Double(b.z), Double(b.w))].map {
            SIMD2(forward.x * $0.x + forward.y * $0.y, forward.z * $0.x + forward.w * $0.y) + forwardOffset
        }
        func clamp(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v))) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return SIMD4(clamp(xs.min()!.rounded(.down)) - 1, clamp(ys.min()!.rounded(.down)) - 1,
                     clamp(xs.max()!.rounded(.up)) + 1, clamp(ys.max()!.rounded(.up)) + 1)
    }
}

extension Frame {
    /// A groupable layer at this instant, its transform applied: the kind's own draw, or, with a
    /// transform, a group around it that resamples it (a group layer takes the transform itself, so
    /// its mask moves with it), casts the layer's shadow and carries its opacity.
    static func resolveGroupable(_ content: GroupableContent, _ layer: Layer, _ r: Resolution, path: String) -> any LayerDraw {
        guard let transform = layer.transform else { return content.resolve(layer, r, path: path) }
        // A transform at rest at this instant (scale 1, no turn, no offset: its affine is the
        // identity, whatever the anchor) needs no group: the layer is drawn as without one (no
        // extra float target, clear and composite), resolved once.
        let now = transform.at(r.time)
        if now.scale == SIMD2(1, 1) && now.rotation == 0 && now.offset == .zero && !(content is GroupLayer) {
            return content.resolve(layer, r, path: path)
        }
        var bare = layer
        bare.shadow = nil
        bare.opacity = 1
        let draw = content.resolve(bare, r, path: path)
        let frame = SIMD4(0, 0, Double(r.pixelSize.x), Double(r.pixelSize.y))
        let box = (draw as? any FramedDraw)?.frameBox ?? frame
        let affine = transform.affine(at: r.time, box: box, pixelsPerPoint: r.scale)
        let shadow = layer.shadow.map { ShadowDraw($0, time: r.time, scale: r.scale, space: r.colorSpace) }
        let opacity = Float(affine == nil ? 0 : layer.opacity)
        let moved = affine.flatMap { $0.isIdentity ? nil : $0 }
        if var group = draw as? GroupDraw, content is GroupLayer {
            group.transform = moved; group.shadow = shadow; group.opacity = opacity
            return group
        }
        return GroupDraw(layers: [draw], opacity: opacity, shadow: shadow, transform: moved)
    }
}

/// A draw whose frame is not the scene's (a text layer's box of lines): a transform's anchor is a
/// unit point of it.
public protocol FramedDraw: LayerDraw {
    /// [x0, y0, x1, y1], pixels, y down.
    var frameBox: SIMD4<Double>? { get }
}
