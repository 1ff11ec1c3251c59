// Groups: layers composited together offscreen, clipped by a mask layer's alpha, with an optional
// shadow — SwiftUI's .mask { } and .shadow() on a stack of views.

/// A `group` layer.
public struct GroupLayer: Sendable {
    /// Drawn in order into the group's own transparent buffer (at least one).
    public var layers: [Layer]
    /// Its alpha multiplies the group (nil: no mask).
    public var mask: Layer?
    /// Use 1 − the mask's alpha instead.
    public var invertsMask: Bool = false

    public init(layers: [Layer], mask: Layer? = nil, invertsMask: Bool = false) {
        self.layers = layers; self.mask = mask; self.invertsMask = invertsMask
    }

    /// How deep groups may nest (a group in a group, a group as a mask, …): each level needs its own
    /// offscreen buffers on both renderers.
    public static let maximumDepth = 8
    /// The most layers one group holds.
    public static let maximumLayers = 64
}

extension GroupLayer {
    static let kind = LayerKind("group", "Layers composited offscreen, then clipped by a mask layer's alpha (SwiftUI's .mask), with an optional shadow.", [
        Property("layers", .array(.layer, count: 1...maximumLayers), required: true, live: false,
                 "The group's layers, drawn in order into the group's own buffer."),
        Property("mask", .layer, live: false,
                 "Any layer that may be in a group (text, a gradient, a mesh, a group): its alpha clips the group."),
        Property("invert", .bool, default: .bool(false), "Clip by 1 − the mask's alpha: the group shows where the mask does not."),
    ], groupable: true, draws: [GroupDraw.self]) { object, context in
        if context.depth >= maximumDepth {
            throw object.node.error(.outOfRange, "groups and masks nest at most \(maximumDepth) deep; this group is number \(context.depth + 1)")
        }
        var group = GroupLayer(layers: [])
        if let items = try object.decode("layers", { n -> [Node] in
            guard case .array(let values) = n.value.kind, !values.isEmpty else {
                if case .array = n.value.kind { throw n.error(.outOfRange, "an empty group draws nothing: give it at least one layer") }
                throw n.wrongType("an array of layers")
            }
            return try n.array(count: 1...maximumLayers, "layers")
        }) {
            group.layers = try items.compactMap { item in
                try item.recover { try SceneLoader.decodeLayer(item, sceneSize: context.sceneSize, directory: context.directory, depth: context.depth + 1) }
            }
        }
        if let n = object["mask"] {
            group.mask = try n.recover { try SceneLoader.decodeLayer(n, sceneSize: context.sceneSize, directory: context.directory, depth: context.depth + 1) }
        }
        group.invertsMask = try object.bool("invert") ?? false
        return group
    }
}

/// A group at one instant: what both renderers draw.
///
/// Both draw it the same way: the layers into a transparent buffer (C), the mask into another (M);
/// S = C × maskFactor(M.a), read through the transform when there is one (LayerAffine); with a shadow, A = S.a blurred (ShadowDraw's kernels, horizontal then
/// vertical) and read at p − offset; then `withShadow(S, A, shadow colour, opacity)` is composited
/// source-over onto what is below. The maths below is mirrored in Shaders/group.glsl.
public struct GroupDraw: LayerDraw, Equatable {
    public var layers: [any LayerDraw]
    public var mask: (any LayerDraw)?
    public var invertsMask: Bool
    public var opacity: Float
    public var shadow: ShadowDraw?
    /// The masked picture is read through this (a layer's `transform`; nil: texel for texel).
    public var transform: LayerAffine?

    public static func == (a: GroupDraw, b: GroupDraw) -> Bool {
        let masks = a.mask.map { m in b.mask.map { m.isEqual(to: $0) } ?? false } ?? (b.mask == nil)
        return Frame.sameLayers(a.layers, b.layers) && masks && a.invertsMask == b.invertsMask && a.opacity == b.opacity && a.shadow == b.shadow
            && a.transform == b.transform
    }

    public init(layers: [any LayerDraw], mask: (any LayerDraw)? = nil, invertsMask: Bool = false, opacity: Float = 1, shadow: ShadowDraw? = nil,
                transform: LayerAffine? = nil) {
        self.layers = layers; self.mask = mask; self.invertsMask = invertsMask; self.opacity = opacity; self.shadow = shadow
        self.transform = transform
    }

    /// How much of the group shows where the mask has alpha `maskAlpha`.
    @inlinable public static func maskFactor(_ maskAlpha: Float, _ invert: Bool) -> Float {
        invert ? 1 - maskAlpha : maskAlpha
    }

    /// The group's content clipped by its mask.
    @inlinable public static func masked(_ content: SIMD4<Float>, _ maskAlpha: Float, _ invert: Bool) -> SIMD4<Float> {
        content * maskFactor(maskAlpha, invert)
    }

    /// The group's premultiplied colour over its own shadow, opacity applied.
    @inlinable public static func withShadow(_ content: SIMD4<Float>, _ shadowAlpha: Float, _ shadowColor: SIMD4<Float>,
                                             _ opacity: Float) -> SIMD4<Float> {
        (content + shadowColor * (shadowAlpha * (1 - content.w))) * opacity
    }

    /// One pass of the separable blur at index `i` of a line of `count` alphas (`stride` apart):
    /// the taps from −r to r in that order, those outside the line skipped (alpha 0).
    @inlinable public static func blurred(_ alpha: UnsafePointer<Float>, _ i: Int, _ count: Int, _ stride: Int,
                                          _ weights: UnsafePointer<Float>, _ taps: Int) -> Float {
        var sum: Float = 0
        for k in -taps...taps {
            let j = i + k
            if j >= 0 && j < count { sum += weights[abs(k)] * alpha[j * stride] }
        }
        return sum
    }
}

extension GroupLayer: GroupableContent {
    public var typeName: String { Self.kind.type }

    /// The group's layers and mask resolved in turn; the group carries the layer's own shadow.
    public func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw {
        GroupDraw(layers: layers.enumerated().map { Frame.resolve($1, r, path: "\(path).layers[\($0)]") },
                  mask: mask.map { Frame.resolve($0, r, path: "\(path).mask") },
                  invertsMask: invertsMask, opacity: Float(layer.opacity),
                  shadow: layer.shadow.map { ShadowDraw($0, time: r.time, scale: r.scale, space: r.colorSpace) })
    }
}
