// Frame: everything needed to draw one instant of a scene, in pixel space. No GL; no files but
// fonts, which WelkinText reads once (text layers are laid out here, glyphs and all, so both
// renderers draw the very same quads and coverage).

/// One drawable layer of a frame.
public enum DrawLayer: Sendable, Equatable {
    case gradient(GradientDraw)
    case shader(ShaderDraw)
    case mesh(MeshDraw)
    /// Consecutive sky, cloud cover and cloud sprite layers, drawn in one pass on the GPU.
    case sky(SkyDraw)
    /// An emitter's particles as sprite instances.
    case particles(ParticleDraw)
    /// Glyph quads over a coverage atlas.
    case text(TextDraw)
    /// Layers drawn offscreen, masked, maybe shadowed; also any layer with a shadow (a group of one).
    indirect case group(GroupDraw)
}

/// A user shader layer at one instant: the built-in uniforms come from the Frame.
public struct ShaderDraw: Sendable, Equatable {
    public var layer: ShaderLayer
    public var opacity: Float
    /// The layer's index in the scene, for messages.
    public var index: Int
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
    /// Frame number for `u_frame`: the viewer's counter; headless, floor(time × 60).
    public var frameNumber: Int
    /// Mouse position in pixels, origin bottom-left (`u_mouse`); zero headless.
    public var mouse: SIMD2<Float> = .zero
    /// The sky at this instant (sun, colours, weather) when the scene has sky layers or weather;
    /// user shaders read it as built-in uniforms.
    public var sky: SkyState?

    /// Resolves `scene` at `time` for `pixelSize` (default: the scene size, one pixel per point).
    ///
    /// By default the whole scene is scaled to the pixel size (`--size`: the same picture at another
    /// resolution, points scaled per axis). A window passes `scale` (its content scale) instead: the
    /// frame is then `pixelSize / scale` points, unit space stretches to it and points stay points.
    public init(scene: Scene, time: Double, pixelSize: SIMD2<Int>? = nil, scale: SIMD2<Double>? = nil) {
        let size = pixelSize ?? scene.size
        self.pixelSize = size
        self.scale = scale ?? SIMD2<Double>(Double(size.x), Double(size.y)) / SIMD2<Double>(Double(scene.size.x), Double(scene.size.y))
        self.time = time
        self.background = scene.background.premultiplied
        self.dither = scene.dither
        self.frameNumber = time.isFinite ? Int(max(-1e15, min(1e15, (time * 60).rounded(.down)))) : 0
        var layers: [DrawLayer] = []
        let sky = SkyState.of(scene, time: time)
        self.sky = sky
        // The weather's rain and snow fall in front of the last sky layer (docs/sky.md).
        let pointScale = self.scale
        // Animated meshes share the frame's spring steps, as emitters share its simulation budget
        // (ParticleDraw): a frame's work does not grow with its number of layers.
        let springSteps = MeshRandomWalk.maximumSpringSteps / max(1, scene.animatedMeshCount)
        let resolution = Resolution(colorSpace: scene.colorSpace, seed: scene.seed, time: time, pixelSize: size,
                                    scale: pointScale, clock: scene.clock(at: time), springSteps: springSteps)
        let lastSky = scene.layers.lastIndex { if case .sky = $0.content { return true } else { return false } }
        for (index, layer) in scene.layers.enumerated() {
            defer {
                if index == lastSky ?? scene.layers.count - 1 {
                    layers += Frame.precipitation(scene: scene, time: time, scale: pointScale)
                }
            }
            switch layer.content {
            case .gradient, .mesh, .text, .group:
                layers.append(Frame.resolve(layer, resolution, path: "layers[\(index)]"))
            case .shader(let s):
                layers.append(.shader(ShaderDraw(layer: s, opacity: Float(layer.opacity), index: index)))
            case .sky(let content):
                SkyDraw.append(SkyPart(content, state: sky!, opacity: layer.opacity, time: time, sceneSeed: scene.seed,
                                       index: index, pixelSize: size, scale: self.scale), to: &layers)
            case .emitter(let e):
                layers.append(.particles(ParticleDraw(e, index: index, scene: scene, time: time,
                                                      opacity: layer.opacity, pixelScale: self.scale)))
            }
        }
        self.layers = layers
    }

    /// What resolving a layer that may sit in a group needs besides the layer.
    struct Resolution {
        var colorSpace: ColorSpace
        var seed: UInt64
        var time: Double
        var pixelSize: SIMD2<Int>
        var scale: SIMD2<Double>
        var clock: Timestamp
        /// The spring steps one animated mesh may take (the frame's share of the bound).
        var springSteps: Int
    }

    /// A gradient, mesh, text or group layer (decoding keeps the other kinds out of groups). A layer
    /// with a shadow becomes a group of one: the group carries the shadow and the layer's opacity.
    /// `path` is the layer's JSON path, for messages.
    static func resolve(_ layer: Layer, _ r: Resolution, path: String) -> DrawLayer {
        let opacity = layer.shadow == nil ? layer.opacity : 1
        let shadow = layer.shadow.map { ShadowDraw($0, time: r.time, scale: r.scale) }
        let content: DrawLayer
        switch layer.content {
        case .gradient(let g):
            content = .gradient(GradientDraw(g, opacity: opacity, sceneColorSpace: r.colorSpace, pixelSize: r.pixelSize, scale: r.scale))
        case .mesh(let m):
            content = .mesh(MeshDraw(m, opacity: opacity, sceneColorSpace: r.colorSpace, seed: r.seed, time: r.time, pixelSize: r.pixelSize,
                                     springSteps: r.springSteps))
        case .text(let t):
            content = .text(TextDraw(t, opacity: opacity, time: r.time, clock: r.clock, pixelSize: r.pixelSize, scale: r.scale, path: path))
        case .group(let g):
            return .group(GroupDraw(layers: g.layers.enumerated().map { resolve($1, r, path: "\(path).layers[\($0)]") },
                                    mask: g.mask.map { resolve($0, r, path: "\(path).mask") },
                                    invertsMask: g.invertsMask, opacity: Float(layer.opacity), shadow: shadow))
        case .shader, .sky, .emitter:
            preconditionFailure("decoding keeps \(layer.content.typeName) layers out of groups and shadows")
        }
        guard let shadow else { return content }
        return .group(GroupDraw(layers: [content], opacity: Float(layer.opacity), shadow: shadow))
    }
}

extension Scene {
    /// Emitters a frame of this scene simulates: its emitter layers and the weather's rain and snow.
    /// They share the frame's simulation budget (SimulationPlan.workBudget).
    public var simulatedEmitterCount: Int {
        layers.filter { if case .emitter = $0.content { return true } else { return false } }.count
            + PrecipitationKind.allCases.filter { $0.falls(in: self) }.count
    }

    /// Mesh layers with a random walk: they share the frame's MeshRandomWalk.maximumSpringSteps.
    public var animatedMeshCount: Int {
        layers.filter { if case .mesh(let m) = $0.content { return m.animation != nil } else { return false } }.count
    }
}
