// Frame: everything needed to draw one instant of a scene, in pixel space. No GL; no files but
// fonts, which WelkinText reads once (text layers are laid out here, glyphs and all, so both
// renderers draw the very same quads and coverage).

import Foundation

/// A scene at time t resolved for a pixel size. Both renderers draw the same Frame.
public struct Frame: Sendable {
    public var pixelSize: SIMD2<Int>
    /// Pixels per point on each axis.
    public var scale: SIMD2<Double>
    public var time: Double
    /// Premultiplied background.
    public var background: SIMD4<Float>
    public var dither: Bool
    /// The space the picture is quantised in (the output transform, OutputColorSpace.swift).
    public var outputColorSpace: OutputColorSpace
    public var layers: [any LayerDraw]
    /// Frame number for `u_frame`: the viewer's counter; headless, floor(time × 60).
    public var frameNumber: Int
    /// Mouse position in pixels, origin bottom-left (`u_mouse`); zero headless.
    public var mouse: SIMD2<Float> = .zero
    /// Shadertoy's iMouse (ShadertoyMouse): xy the position while a button is held, zw where it was
    /// pressed (z negative once released, w negative after the press frame); zero headless.
    public var shadertoyMouse: SIMD4<Float> = .zero
    /// Shadertoy's keyboard texture (a `keyboard` channel): the viewer's keys; all zero headless.
    public var keyboard = ShadertoyKeyboard()
    /// The sky at this instant (sun, colours, weather) when the scene has sky layers or weather;
    /// user shaders read it as built-in uniforms.
    public var sky: SkyState?
    /// How the frame is projected and in what light (FrameOptions).
    public var options: FrameOptions
    /// The screen-space layers a panorama left out (their types, in order), for one warning.
    public var omittedLayers: [String] = []
    /// For each of `layers`, the index in `scene.layers` of the scene layer that began it (a run of
    /// sky layers is one draw, begun by its first); −1 for the weather's precipitation.
    public var sceneLayerIndices: [Int] = []
    /// The panorama sky-space layers are drawn for, and the projection into it.
    public var skySetup: SkySetup

    /// Resolves `scene` at `time` for `pixelSize` (default: the scene size, one pixel per point).
    ///
    /// By default the whole scene is scaled to the pixel size (`--size`: the same picture at another
    /// resolution, points scaled per axis). A window passes `scale` (its content scale) instead: the
    /// frame is then `pixelSize / scale` points, unit space stretches to it and points stay points.
    public init(scene: Scene, time: Double, pixelSize: SIMD2<Int>? = nil, scale: SIMD2<Double>? = nil,
                options: FrameOptions = FrameOptions()) {
        let size = pixelSize ?? scene.size
        self.options = options
        self.pixelSize = size
        self.scale = scale ?? SIMD2<Double>(Double(size.x), Double(size.y)) / SIMD2<Double>(Double(scene.size.x), Double(scene.size.y))
        self.time = time
        self.background = scene.background.premultiplied
        self.dither = scene.dither
        self.outputColorSpace = scene.outputColorSpace
        self.frameNumber = time.isFinite ? Int(max(-1e15, min(1e15, (time * 60).rounded(.down)))) : 0
        let skySetup = SkySetup(scene: scene, time: time, pixelSize: size, scale: self.scale, projection: options.projection)
        self.skySetup = skySetup
        let sky = SkyState.of(scene, time: time)
        self.sky = sky
        let resolution = Resolution(scene: scene, colorSpace: scene.colorSpace, seed: scene.seed, time: time, pixelSize: size,
                                    scale: self.scale, clock: scene.clock(at: time), options: options, skySetup: skySetup)
        var builder = Builder(scene: scene, sky: sky, resolution: resolution)
        // The weather's rain and snow fall in front of the last sky layer, volumetric clouds
        // included (docs/sky.md).
        let lastSky = scene.layers.lastIndex { $0.content.isSkySpace }
        let panorama = options.projection.isPanorama
        var omitted: [String] = []
        var sources: [Int] = []
        for (index, layer) in scene.layers.enumerated() {
            if panorama && !layer.content.isSkySpace {
                omitted.append(layer.content.typeName)
            } else {
                layer.content.resolve(layer.at(time), index: index, in: &builder)
            }
            sources += repeatElement(index, count: builder.layers.count - sources.count)
            if index == lastSky ?? scene.layers.count - 1 {
                let falling = Frame.precipitation(scene: scene, time: time, pixelSize: size, scale: self.scale, loop: options.loop)
                if panorama { omitted += falling.isEmpty ? [] : ["precipitation"] } else { builder.layers += falling }
                sources += repeatElement(-1, count: builder.layers.count - sources.count)
            }
        }
        self.sceneLayerIndices = sources
        self.layers = builder.layers
        self.omittedLayers = omitted
    }

    /// What resolving a layer needs besides the layer, wherever it sits.
    public struct Resolution: Sendable {
        public var scene: Scene
        public var colorSpace: ColorSpace
        public var seed: UInt64
        public var time: Double
        public var pixelSize: SIMD2<Int>
        /// Pixels per point on each axis.
        public var scale: SIMD2<Double>
        public var clock: Timestamp
        public var options: FrameOptions = FrameOptions()
        /// The panorama sky-space layers are drawn for, and the projection into it.
        public var skySetup: SkySetup
    }

    /// What the sky-space layers are drawn for: the panorama view (azimuth, width, horizon) at a
    /// pixel size and scale, and the projection of the frame's pixels into it (nil when the frame
    /// is that panorama).
    public struct SkySetup: Sendable {
        public var view: SkyView
        public var size: SIMD2<Int>
        public var scale: SIMD2<Double>
        public var projection: SkyProjection?
        /// The camera at this instant, for the frame's own view.
        public var camera: CameraState

        public init(scene: Scene, time: Double, pixelSize: SIMD2<Int>, scale: SIMD2<Double>, projection: FrameOptions.Projection) {
            // The sky layer's own panorama: at the frame's size for its own view, at the scene's
            // size for a panorama of the sky alone.
            let viewSize = projection.isPanorama ? scene.size : pixelSize
            camera = CameraState(scene, time: time, pixelSize: viewSize)
            view = SkyView(scene)
            size = viewSize
            self.scale = projection.isPanorama ? SIMD2(1, 1) : scale
            switch projection {
            case .view:
                self.projection = scene.viewCamera == nil ? nil : SkyProjection.camera(camera, size: pixelSize, view: view, viewSize: viewSize)
            case .equirect:
                self.projection = .equirect(pixelSize, view: view, viewSize: viewSize)
            case .fisheye:
                let dome = CameraState(projection: .fisheye, yaw: camera.yaw, pitch: 90, fieldOfView: 180)
                self.projection = SkyProjection.camera(dome, size: pixelSize, view: view, viewSize: viewSize)
            case .cubeFace(let face):
                self.projection = .cubeFace(face, size: pixelSize.x, view: view, viewSize: viewSize)
            }
        }

        /// Every output pixel's direction, the panorama's own included (the clouds march along it).
        public var pixelDirections: SkyProjection { projection ?? .panorama(view, size: size) }

        /// Where a direction (x east, y north, z up) lands in the frame's pixels (y down), for the
        /// frame's own view; nil behind a pinhole camera or outside a fisheye's circle.
        public func pixel(of direction: SIMD3<Double>, state: SkyState) -> SIMD2<Double>? {
            guard let p = projection else {
                let e = asin(max(-1, min(1, direction.z))) * 180 / .pi, a = atan2(direction.x, direction.y) * 180 / .pi
                var s = state
                s.sunElevation = e; s.sunAzimuth = a
                return s.sunPixel(pixelSize: size)
            }
            let right = SIMD3<Double>(p.right), up = SIMD3<Double>(p.up), forward = SIMD3<Double>(p.forward)
            let centre = SIMD2<Double>(p.center), scale = Double(p.scale.x)
            let x = (direction * right).sum(), y = (direction * up).sum(), z = (direction * forward).sum()
            switch p.kind {
            case .rectilinear:
                guard z > 0 else { return nil }
                return centre + SIMD2(x / z, -y / z) / scale
            case .fisheye:
                let theta = acos(max(-1, min(1, z)))
                guard theta <= Double(p.limit) else { return nil }
                let r = (x * x + y * y).squareRoot()
                return r > 0 ? centre + SIMD2(x, -y) / r * (theta / scale) : centre
            case .panorama:
                let e = asin(max(-1, min(1, direction.z))) * 180 / .pi, a = atan2(direction.x, direction.y) * 180 / .pi
                var d = a - Double(p.azimuth)
                d -= 360 * (d / 360 + 0.5).rounded(.down)
                return centre + SIMD2(d, -e) / scale
            case .equirect:
                return nil
            }
        }
    }

    /// A frame being resolved: each top-level layer appends its draws (`LayerContent.resolve`).
    public struct Builder: Sendable {
        public let scene: Scene
        /// The frame's sky (`Frame.sky`).
        public let sky: SkyState?
        public let resolution: Resolution
        /// The draws so far, in drawing order.
        public var layers: [any LayerDraw] = []
    }

    /// A layer that may sit in a group (decoding keeps the other kinds out of groups).
    /// `path` is the layer's JSON path, for messages.
    static func resolve(_ layer: Layer, _ r: Resolution, path: String) -> any LayerDraw {
        guard let content = layer.content as? GroupableContent else {
            preconditionFailure("decoding keeps \(layer.content.typeName) layers out of groups and shadows")
        }
        return resolveGroupable(content, layer.at(r.time), r, path: path)
    }

    /// The usual resolution of a kind that may sit in a group: `draw(opacity)` at the layer's
    /// opacity, or, when the layer has a shadow, a group of one that carries the shadow and the
    /// layer's opacity around the content drawn at opacity 1.
    public static func shadowed(_ layer: Layer, _ r: Resolution, _ draw: (Double) -> any LayerDraw) -> any LayerDraw {
        guard let shadow = layer.shadow else { return draw(layer.opacity) }
        return GroupDraw(layers: [draw(1)], opacity: Float(layer.opacity), shadow: ShadowDraw(shadow, time: r.time, scale: r.scale, space: r.colorSpace))
    }
}

/// How a frame is projected and in what light.
public struct FrameOptions: Sendable, Equatable {
    /// `view`: the sky through the scene's camera (or its sky layer's panorama), every layer drawn.
    /// The others show sky-space layers only: `equirect`, the whole sphere (width = 2 × height;
    /// column x looks at azimuth 360°·(x + ½)/W clockwise from north, row y at elevation
    /// 90° − 180°·(y + ½)/H); `fisheye`, the all-sky dome (equidistant, 180° across the shorter
    /// side, the zenith at the centre, the camera's yaw at the bottom edge); `cubeFace`, one face
    /// of a cube map (CubeFace).
    public enum Projection: Sendable, Equatable {
        case view, equirect, fisheye, cubeFace(CubeFace)

        /// A panorama of the sky alone (not the scene's view).
        public var isPanorama: Bool { self != .view }
    }

    public var projection: Projection = .view
    /// Scene-linear light (EXR): the physical sky's radiance × 2^exposure with no tone curve, every
    /// other colour decoded from sRGB, composited in linear light.
    public var linearLight = false
    /// A viewer's frame: work a layer can spread over frames (the clouds' march at every pixel)
    /// is done at its interactive quality, and the renderer refines it while the picture stands
    /// still, to the picture a render draws. Renders, exports and the reference are final (false).
    public var interactive = false
    /// A looping export's period (`welkin export --loop`): emitters and the weather's rain and snow
    /// repeat their births every this many seconds (EmitterLayer.loopPeriod), so the particles at
    /// t + loop are the particles at t and a loop's cross-fade blends two frames that show the same
    /// particles (no ghosts). nil: particles as the scene asks.
    public var loop: Double?

    public init(projection: Projection = .view, linearLight: Bool = false, interactive: Bool = false, loop: Double? = nil) {
        self.projection = projection; self.linearLight = linearLight; self.interactive = interactive; self.loop = loop
    }
}
