// What every layer kind provides, so that no shared file has to name the kinds: its model
// (`LayerContent`, what a layer of the scene file decodes to) resolves itself into a Frame's
// drawable values (`LayerDraw`). Each kind conforms in its own files; the renderers add their
// halves by conformance too (WelkinReference's `CPURasterizable`, WelkinGL's `GLDrawable`).
// `LayerKinds.all` is the one list that names every kind (docs/adding-a-layer-kind.md).

/// The model of one layer kind: `Layer.content`.
public protocol LayerContent: Sendable {
    /// The scene-file `type` of this layer (for tools that name layers: code export, messages).
    var typeName: String { get }
    /// Image files the layer reads (sprite images, shader channels), as the scene gives them, for
    /// a file watcher. None by default.
    var imagePaths: [String] { get }
    /// Whether the layer draws in the sky's directions (the sky and its clouds): a panorama keeps
    /// it, the weather's rain and snow fall in front of the last such layer. False by default.
    var isSkySpace: Bool { get }
    /// Appends what the layer at `index` of the scene's layers draws at this instant to `frame.layers`.
    func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder)
}

extension LayerContent {
    public var imagePaths: [String] { [] }
    public var isSkySpace: Bool { false }
}

/// A kind that may sit in a group, be a mask and cast a shadow (`LayerKind.groupable`): it is
/// resolved the same way wherever it sits.
public protocol GroupableContent: LayerContent {
    /// The layer's draw at this instant. `path` is the layer's JSON path, for messages. Most kinds
    /// answer `Frame.shadowed(layer, r) { opacity in … }`, which handles the shadow.
    func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw
}

extension GroupableContent {
    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        frame.layers.append(Frame.resolveGroupable(self, layer, frame.resolution, path: "layers[\(index)]"))
    }
}

/// One drawable layer of a Frame: a kind's value resolved to pixel space for one instant. Both
/// renderers draw it (WelkinReference's `CPURasterizable`, WelkinGL's `GLDrawable`).
public protocol LayerDraw: Sendable {
    /// Whether `other` is the same value (given by Equatable draw types).
    func isEqual(to other: any LayerDraw) -> Bool
}

extension LayerDraw where Self: Equatable {
    public func isEqual(to other: any LayerDraw) -> Bool { (other as? Self) == self }
}

extension Frame {
    /// Whether two lists of draws are equal, layer by layer (a frame made twice is the same).
    public static func sameLayers(_ a: [any LayerDraw], _ b: [any LayerDraw]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isEqual(to: $1) }
    }
}
