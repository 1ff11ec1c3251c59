// The sky camera: top-level `camera`, how the sky-space layers (sky, clouds, cloud cover, stars,
// Moon) are seen. Screen-space layers do not move with it.
//
// Every sky-space part is drawn for a panorama view (equal degrees per pixel, the sky layer's
// `viewAzimuth`/`fieldOfView`/`horizon` of old). A projection other than that panorama maps each
// output pixel to its direction, then to the panorama pixel that looks the same way
// (SkyProjection, mirrored by Shaders/camera.glsl), so every projection of a sky is the same sky.

import Foundation

/// Top-level `camera` {yaw, pitch, fieldOfView, projection}; unset numbers come from the first sky
/// layer's view.
public struct Camera: Sendable, Equatable {
    /// The projection (CameraProjection, WelkinSkyModel).
    public typealias Projection = CameraProjection

    public var projection: Projection = .panorama
    /// Degrees clockwise from north the view's centre looks toward; nil: the sky's `viewAzimuth`.
    public var yaw: Animated<Double>? = nil
    /// Degrees above the horizon at the view's centre; nil: where the sky's `horizon` puts it.
    public var pitch: Animated<Double>? = nil
    /// Degrees across the width (fisheye: across the shorter side); nil: the sky's `fieldOfView`.
    public var fieldOfView: Animated<Double>? = nil

    public init(projection: Projection = .panorama, yaw: Animated<Double>? = nil, pitch: Animated<Double>? = nil,
                fieldOfView: Animated<Double>? = nil) {
        self.projection = projection; self.yaw = yaw; self.pitch = pitch; self.fieldOfView = fieldOfView
    }

    /// The widest field a pinhole camera takes, the widest fisheye (CameraProjection's).
    public static let rectilinearLimit = CameraProjection.rectilinearLimit
    public static let fisheyeLimit = CameraProjection.fisheyeLimit

    /// The field of view `projection` can show.
    public static func fieldRange(_ projection: Projection) -> ClosedRange<Double> { projection.fieldRange }

    public static let properties: PropertyTable = {
        PropertyTable("camera", title: "camera",
            "How the sky-space layers (sky, clouds, cloud cover, stars, Moon) are seen (docs/sky.md \"Camera\"). Unset numbers come from the first sky layer's view; screen-space layers stay where they are.", [
            Property("projection", .choice(Projection.allCases.map(\.rawValue)), default: .string(Projection.panorama.rawValue),
                     expected: "projection", "`panorama` (equal degrees per pixel), `rectilinear` (a pinhole camera) or `fisheye` (equidistant; 180° with pitch 90 is an all-sky dome)."),
            Property("yaw", KeyframeTables.numberType(-360...720), default: .described("the sky's viewAzimuth"), unit: "°",
                     animatable: true, "Where the view's centre looks, clockwise from north."),
            Property("pitch", KeyframeTables.numberType(-90...90), default: .described("where the sky's horizon puts it"), unit: "°",
                     animatable: true, "How far above the horizon the view's centre looks."),
            Property("fieldOfView", KeyframeTables.numberType(1...360), default: .described("the sky's fieldOfView"), unit: "°",
                     animatable: true, "Degrees across the width (fisheye: across the shorter side); a rectilinear camera takes at most \(Int(rectilinearLimit))°."),
        ])
    }()
}

extension SceneLoader {
    static func decodeCamera(_ node: Node) throws -> Camera {
        let object = try node.object(Camera.properties)
        try object.checkKeys()
        var camera = Camera()
        if let v = try object.choice("projection", as: Camera.Projection.self) { camera.projection = v }
        camera.yaw = try object.animatedNumber("yaw")
        camera.pitch = try object.animatedNumber("pitch")
        camera.fieldOfView = try object.animatedNumber("fieldOfView")
        if let field = camera.fieldOfView, let n = object["fieldOfView"] {
            let range = Camera.fieldRange(camera.projection)
            let values = field.namedValues
            if let bad = values.first(where: { !range.contains($0) }) {
                throw n.error(.outOfRange, "a \(camera.projection.rawValue) camera shows at most \(format(range.upperBound))°, got \(format(bad))°")
            }
        }
        return camera
    }
}

extension Scene {
    /// The camera the sky-space layers are seen through: the scene's `camera`, or for a portrait
    /// scene (taller than wide) whose first sky layer keeps the default panorama (`fieldOfView` and
    /// `horizon` as SkyLayer's defaults) a rectilinear camera about 100° from top to bottom with the
    /// horizon 82 % of the way down, looking along the sky's `viewAzimuth` (StarterScene.camera(for:),
    /// what `welkin new` writes for a phone). The default panorama's equal degrees per pixel across
    /// a 390-point width would span 216° from bottom to top: past the zenith and down the other
    /// side, the sun a dash. nil: the sky's own panorama.
    public var viewCamera: Camera? {
        if let camera { return camera }
        guard size.y > size.x else { return nil }
        var first: SkyLayer?
        for layer in layers {
            if case .sky(let s)? = layer.content as? SkyContent { first = s; break }
        }
        let plain = SkyLayer()
        guard let sky = first, sky.fieldOfView == plain.fieldOfView, sky.horizon == plain.horizon else { return nil }
        let (fieldOfView, pitch) = StarterScene.camera(for: size)
        return Camera(projection: .rectilinear, pitch: .constant(Double(pitch)), fieldOfView: .constant(Double(fieldOfView)))
    }
}


extension SkyView {
    /// The first sky layer's view (the default sky's when there is none).
    public init(_ scene: Scene) {
        var first = SkyLayer()
        for layer in scene.layers {
            if case .sky(let s)? = layer.content as? SkyContent { first = s; break }
        }
        self.init(azimuth: first.viewAzimuth, fieldOfView: first.fieldOfView, horizon: first.horizon)
    }
}

extension CameraState {
    /// `scene`'s camera at `time` for a frame of `pixelSize`: the sky's view where
    /// the camera leaves a number unset. A panorama's pitch is the elevation at the frame's centre.
    public init(_ scene: Scene, time: Double, pixelSize: SIMD2<Int>) {
        let view = SkyView(scene)
        let camera = scene.viewCamera ?? Camera()
        let fov = camera.fieldOfView?.value(at: time) ?? view.fieldOfView
        let width = Double(max(pixelSize.x, 1)), height = Double(max(pixelSize.y, 1))
        let defaultPitch = (view.horizon - 0.5) * height * view.fieldOfView / width
        self.init(projection: camera.projection, yaw: camera.yaw?.value(at: time) ?? view.azimuth,
                  pitch: camera.pitch?.value(at: time) ?? defaultPitch, fieldOfView: fov)
    }
}
