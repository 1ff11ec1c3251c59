// Frame: everything needed to draw one instant of a scene, in pixel space. No GL, no files.

/// One drawable layer of a frame.
public enum DrawLayer: Sendable, Equatable {
    case gradient(GradientDraw)
}

/// A scene at time t resolved for a pixel size. Both renderers draw the same Frame.
public struct Frame: Sendable {
    public var pixelSize: SIMD2<Int>
    /// Pixels per point on each axis.
    public var scale: SIMD2<Double>
    public var time: Double
    /// Premultiplied background.
    public var background: SIMD4<Float>
    public var dither: Bool
    public var layers: [DrawLayer]

    /// Resolves `scene` at `time` for `pixelSize` (default: the scene size, one pixel per point).
    public init(scene: Scene, time: Double, pixelSize: SIMD2<Int>? = nil) {
        let size = pixelSize ?? scene.size
        self.pixelSize = size
        self.scale = SIMD2<Double>(Double(size.x), Double(size.y)) / SIMD2<Double>(Double(scene.size.x), Double(scene.size.y))
        self.time = time
        self.background = scene.background.premultiplied
        self.dither = scene.dither
        var layers: [DrawLayer] = []
        for layer in scene.layers {
            switch layer.content {
            case .gradient(let g):
                layers.append(.gradient(GradientDraw(g, opacity: layer.opacity, sceneColorSpace: scene.colorSpace,
                                                     pixelSize: size, scale: scale)))
            }
        }
        self.layers = layers
    }
}
