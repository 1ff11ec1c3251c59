// The registration list of layer kinds: the one shared place that names every kind.
//
// A kind is its `type` name, its property table (the common layer keys first, then its own) and its
// decoder; the kind's model, Frame resolution, CPU raster and GPU pass live in its own files
// (docs/adding-a-layer-kind.md lists them).

/// One layer kind of the scene format.
public struct LayerKind: Sendable {
    /// What decoding a layer needs besides its own object.
    public struct Context: Sendable {
        /// The scene's frame size in points.
        public var sceneSize: SIMD2<Int>
        /// The scene file's folder, for relative paths.
        public var directory: String?
        /// The layer's own `colorSpace`, when it has one.
        public var colorSpace: ColorSpace?
        /// How many groups (and masks) hold the layer: 0 at the top level.
        public var depth: Int = 0
    }

    /// The scene file's `type`.
    public let type: String
    /// Every key a layer of this kind accepts: the common ones, then its own.
    public let properties: PropertyTable
    /// Whether a layer of this kind may be in a group or be a mask, and cast a `shadow` (both draw it
    /// into an offscreen buffer first); sky and emitter layers, and user shaders, may not.
    public let groupable: Bool
    /// The Frame values its layers resolve to: each renderer has a raster or pass for each
    /// (WelkinReference's `CPURasterizable`, WelkinGL's `GLDrawable`; a test checks both).
    public let draws: [any LayerDraw.Type]
    let decode: @Sendable (ObjectReader, Context) throws -> any LayerContent

    public init(_ type: String, _ summary: String, _ properties: [Property], groupable: Bool = false,
                draws: [any LayerDraw.Type], decode: @escaping @Sendable (ObjectReader, Context) throws -> any LayerContent) {
        self.type = type
        self.groupable = groupable
        self.properties = PropertyTable(type, title: "\(type) layer", summary,
                                        LayerKind.commonProperties(type) + properties + (groupable ? [Shadow.property, LayerTransform.property] : []))
        self.draws = draws
        self.decode = decode
    }

    /// Keys every layer has.
    static func commonProperties(_ type: String) -> [Property] {
        [
            Property("type", .choice([type]), required: true, expected: "layer type", "The layer kind."),
            Property("name", .string(maximumLength: 200), live: false, "A label for the panel and for messages."),
            Property("opacity", KeyframeTables.numberType(0...1), default: .number(1), animatable: true,
                     "Multiplies the layer's alpha; keyframes or an animation make it fade."),
            Property("colorSpace", .choice(ColorSpace.allCases.map(\.rawValue)), default: .described("the scene's colorSpace"),
                     expected: "colour space", "The space gradients and meshes of this layer interpolate in."),
        ]
    }
}

/// Every layer kind, in the order docs and `welkin schema` list them. Adding a kind adds a line here.
public enum LayerKinds {
    public static let all: [LayerKind] = [
        Gradient.linearKind,
        Gradient.radialKind,
        Gradient.angularKind,
        Gradient.ellipticalKind,
        ShaderLayer.kind,
        MeshGradient.kind,
        SkyLayer.kind,
        CloudSpritesLayer.kind,
        CloudCoverLayer.kind,
        CloudsLayer.kind,
        EmitterLayer.kind,
        TextLayer.kind,
        GroupLayer.kind,
    ]

    private static let byType: [String: LayerKind] = Dictionary(uniqueKeysWithValues: all.map { ($0.type, $0) })

    public static func kind(_ type: String) -> LayerKind? { byType[type] }

    /// Every Frame value a layer can resolve to, each once, in `all`'s order.
    public static var drawTypes: [any LayerDraw.Type] {
        var seen: Set<ObjectIdentifier> = [], out: [any LayerDraw.Type] = []
        for type in all.flatMap(\.draws) where seen.insert(ObjectIdentifier(type)).inserted { out.append(type) }
        return out
    }
}
