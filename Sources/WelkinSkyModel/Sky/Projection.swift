// The sky camera's projections: how the sky-space layers (sky, clouds, cloud cover, stars,
// Moon) are seen. Screen-space layers do not move with it.
//
// Every sky-space part is drawn for a panorama view (equal degrees per pixel, the sky layer's
// `viewAzimuth`/`fieldOfView`/`horizon` of old). A projection other than that panorama maps each
// output pixel to its direction, then to the panorama pixel that looks the same way
// (SkyProjection, mirrored by Shaders/camera.glsl), so every projection of a sky is the same sky.

import Foundation

/// How the sky camera maps directions to the picture (the scene's `camera.projection`).
public enum CameraProjection: String, Sendable, CaseIterable, Codable {
    /// Equal degrees per pixel on both axes (the sky layer's view; the default).
    case panorama
    /// A pinhole camera: straight lines stay straight, `fieldOfView` across the width (< 180°).
    case rectilinear
    /// Equidistant fisheye: angle from the centre ∝ distance, `fieldOfView` across the shorter side
    /// (180° with pitch 90 is the all-sky dome a planetarium uses).
    case fisheye

    /// The next projection (the viewer's C).
    public var next: CameraProjection {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The widest field a pinhole camera takes (its edges run to infinity at 180°).
    public static let rectilinearLimit = 170.0
    /// The widest fisheye (beyond a full sphere nothing is left to see).
    public static let fisheyeLimit = 360.0

    /// The field of view this projection can show.
    public var fieldRange: ClosedRange<Double> {
        switch self {
        case .panorama: return 1...360
        case .rectilinear: return 1...Self.rectilinearLimit
        case .fisheye: return 1...Self.fisheyeLimit
        }
    }
}

/// The panorama the sky's parts are drawn for: where it looks, how wide, where its horizon sits
/// (the first sky layer's `viewAzimuth`, `fieldOfView`, `horizon`). The camera does not move it:
/// it only maps output pixels into it, so the sky's colours stay functions of direction alone.
public struct SkyView: Sendable, Equatable {
    public var azimuth: Double
    public var fieldOfView: Double
    /// Unit y of the horizon line.
    public var horizon: Double

    public init(azimuth: Double, fieldOfView: Double, horizon: Double) {
        self.azimuth = azimuth; self.fieldOfView = fieldOfView; self.horizon = horizon
    }
}

/// The camera at one instant: its numbers resolved, and what they make of a frame.
public struct CameraState: Sendable, Equatable, Codable {
    public var projection: CameraProjection
    public var yaw: Double
    public var pitch: Double
    public var fieldOfView: Double

    public init(projection: CameraProjection, yaw: Double, pitch: Double, fieldOfView: Double) {
        self.projection = projection; self.yaw = yaw; self.pitch = pitch
        self.fieldOfView = min(max(fieldOfView, projection.fieldRange.lowerBound), projection.fieldRange.upperBound)
    }

    /// Degrees per pixel at the frame's centre.
    public func centreDegreesPerPixel(pixelSize: SIMD2<Int>) -> Double {
        let width = Double(max(pixelSize.x, 1)), side = Double(max(min(pixelSize.x, pixelSize.y), 1))
        switch projection {
        case .panorama: return fieldOfView / width
        case .rectilinear: return 180 / .pi / focalLength(width: width)
        case .fisheye: return fieldOfView / side
        }
    }

    /// A pinhole camera's focal length in pixels.
    func focalLength(width: Double) -> Double { width / 2 / tan(fieldOfView / 2 * .pi / 180) }

    /// The camera's axes in the sky's frame (x east, y north, z up): where the centre looks, and
    /// the directions of screen right and screen up there.
    public var basis: (right: SIMD3<Double>, up: SIMD3<Double>, forward: SIMD3<Double>) {
        let a = yaw * .pi / 180, e = pitch * .pi / 180
        let forward = SIMD3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
        let right = SIMD3(cos(a), -sin(a), 0)
        let up = SIMD3(-sin(a) * sin(e), -cos(a) * sin(e), cos(e))
        return (right, up, forward)
    }

    /// The pixel a direction (x east, y north, z up) lands on, for a rectilinear camera; nil behind
    /// the camera. The pinhole maths the sun test checks against.
    public func rectilinearPixel(of direction: SIMD3<Double>, pixelSize: SIMD2<Int>) -> SIMD2<Double>? {
        let (right, up, forward) = basis
        let z = (direction * forward).sum()
        guard z > 0 else { return nil }
        let f = focalLength(width: Double(pixelSize.x))
        return SIMD2(Double(pixelSize.x) / 2 + f * (direction * right).sum() / z,
                     Double(pixelSize.y) / 2 - f * (direction * up).sum() / z)
    }
}

/// A cube map's faces in the OpenGL (Khronos) order and convention: a right-handed world with +x
/// east, +y up and −z north; face pixel (x, y) of an N-pixel face has s = (x + ½)/N, t = (y + ½)/N
/// (the first row is t = 0), and looks along the table of the GL specification (§8.13, "Cube Map
/// Texture Selection"): +x: (1, −tc, −sc), −x: (−1, −tc, sc), +y: (sc, 1, tc), −y: (sc, −1, −tc),
/// +z: (sc, −tc, 1), −z: (−sc, −tc, −1) with sc = 2s − 1, tc = 2t − 1.
public enum CubeFace: Int, Sendable, CaseIterable {
    case px, nx, py, ny, pz, nz

    /// The file suffix: sky-px.png …
    public var name: String { ["px", "nx", "py", "ny", "pz", "nz"][rawValue] }

    /// The face's axes in GL coordinates: direction = forward + right·sc + up·(−tc).
    public var glBasis: (right: SIMD3<Double>, up: SIMD3<Double>, forward: SIMD3<Double>) {
        switch self {
        case .px: return (SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(1, 0, 0))
        case .nx: return (SIMD3(0, 0, 1), SIMD3(0, 1, 0), SIMD3(-1, 0, 0))
        case .py: return (SIMD3(1, 0, 0), SIMD3(0, 0, -1), SIMD3(0, 1, 0))
        case .ny: return (SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, -1, 0))
        case .pz: return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        case .nz: return (SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, -1))
        }
    }

    /// GL (x east, y up, z south) → the sky's frame (x east, y north, z up).
    public static func skyDirection(gl v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x, -v.z, v.y) }
    /// The sky's frame → GL.
    public static func glDirection(sky v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x, v.z, -v.y) }

    /// The face and (s, t) a GL direction samples, by the specification's selection rule.
    public static func lookup(gl v: SIMD3<Double>) -> (face: CubeFace, s: Double, t: Double) {
        let a = SIMD3(Swift.abs(v.x), Swift.abs(v.y), Swift.abs(v.z))
        let face: CubeFace, sc: Double, tc: Double, ma: Double
        if a.x >= a.y && a.x >= a.z {
            face = v.x >= 0 ? .px : .nx; ma = a.x; sc = v.x >= 0 ? -v.z : v.z; tc = -v.y
        } else if a.y >= a.z {
            face = v.y >= 0 ? .py : .ny; ma = a.y; sc = v.x; tc = v.y >= 0 ? v.z : -v.z
        } else {
            face = v.z >= 0 ? .pz : .nz; ma = a.z; sc = v.z >= 0 ? v.x : -v.x; tc = -v.y
        }
        return (face, (sc / ma + 1) / 2, (tc / ma + 1) / 2)
    }
}

/// Output pixels → the panorama view's pixels looking the same way. Mirrored by camera.glsl.
public struct SkyProjection: Sendable, Equatable {
    public enum Kind: Int32, Sendable, CaseIterable {
        /// Column x at azimuth origin + x·scale.x, row y at elevation 90° − y·scale.y.
        case equirect = 0
        /// A pinhole camera: direction = forward + right·(x − cx)·scale.x + up·(cy − y)·scale.y.
        case rectilinear = 1
        /// Equidistant: the angle from forward is the distance from the centre × scale.x (radians).
        case fisheye = 2
        /// A panorama: azimuth = azimuth + (x − cx)·scale.x, elevation = (cy − y)·scale.y.
        case panorama = 3
    }
    public var kind: Kind
    /// The output pixel on the optical axis.
    public var center: SIMD2<Float>
    /// Equirect: degrees per pixel; rectilinear: 1 / focal length; fisheye: radians per pixel.
    public var scale: SIMD2<Float>
    /// The fisheye's widest angle from its axis (radians); beyond it nothing is drawn.
    public var limit: Float
    /// A panorama's azimuth at the centre column (degrees).
    public var azimuth: Float
    public var right: SIMD3<Float>
    public var up: SIMD3<Float>
    public var forward: SIMD3<Float>
    /// The panorama the parts were resolved for (SkyView in pixels).
    public var viewAzimuth: Float
    public var viewCenter: SIMD2<Float>
    public var inverseViewDegreesPerPixel: Float
    /// Degrees an output pixel spans at the centre (stars' and the sun's antialiasing).
    public var pixelAngle: Float

    init(kind: Kind, center: SIMD2<Double>, scale: SIMD2<Double>, limit: Double = 0, azimuth: Double = 0,
         basis: (right: SIMD3<Double>, up: SIMD3<Double>, forward: SIMD3<Double>),
         view: SkyView, viewSize: SIMD2<Int>, pixelAngle: Double) {
        self.kind = kind
        self.center = SIMD2<Float>(center); self.scale = SIMD2<Float>(scale); self.limit = Float(limit); self.azimuth = Float(azimuth)
        right = SIMD3<Float>(basis.right); up = SIMD3<Float>(basis.up); forward = SIMD3<Float>(basis.forward)
        viewAzimuth = Float(view.azimuth)
        viewCenter = SIMD2(Float(viewSize.x) / 2, Float(view.horizon * Double(viewSize.y)))
        inverseViewDegreesPerPixel = Float(Double(viewSize.x) / view.fieldOfView)
        self.pixelAngle = Float(pixelAngle)
    }

    static let none: (right: SIMD3<Double>, up: SIMD3<Double>, forward: SIMD3<Double>) = (.zero, .zero, .zero)

    /// The whole sphere, width = 2 × height.
    public static func equirect(_ size: SIMD2<Int>, view: SkyView, viewSize: SIMD2<Int>) -> SkyProjection {
        SkyProjection(kind: .equirect, center: .zero, scale: SIMD2(360 / Double(size.x), 180 / Double(size.y)), basis: none,
                      view: view, viewSize: viewSize, pixelAngle: 180 / Double(size.y))
    }

    /// A camera's projection of a frame of `size`.
    public static func camera(_ camera: CameraState, size: SIMD2<Int>, view: SkyView, viewSize: SIMD2<Int>) -> SkyProjection {
        let centre = SIMD2(Double(size.x), Double(size.y)) / 2
        let dpp = camera.centreDegreesPerPixel(pixelSize: size)
        switch camera.projection {
        case .panorama:
            return SkyProjection(kind: .panorama, center: centre + SIMD2(0, camera.pitch / dpp), scale: SIMD2(dpp, dpp), azimuth: camera.yaw,
                                 basis: none, view: view, viewSize: viewSize, pixelAngle: dpp)
        case .rectilinear:
            let k = 1 / camera.focalLength(width: Double(size.x))
            return SkyProjection(kind: .rectilinear, center: centre, scale: SIMD2(k, k), basis: camera.basis,
                                 view: view, viewSize: viewSize, pixelAngle: dpp)
        case .fisheye:
            let k = dpp * .pi / 180
            return SkyProjection(kind: .fisheye, center: centre, scale: SIMD2(k, k), limit: camera.fieldOfView / 2 * .pi / 180,
                                 basis: camera.basis, view: view, viewSize: viewSize, pixelAngle: dpp)
        }
    }

    /// The panorama view itself, for layers that need each pixel's direction (clouds).
    public static func panorama(_ view: SkyView, size: SIMD2<Int>) -> SkyProjection {
        let dpp = view.fieldOfView / Double(max(size.x, 1))
        return SkyProjection(kind: .panorama, center: SIMD2(Double(size.x) / 2, view.horizon * Double(size.y)), scale: SIMD2(dpp, dpp),
                             azimuth: view.azimuth, basis: none, view: view, viewSize: size, pixelAngle: dpp)
    }

    /// One face of a cube map `size` pixels a side.
    public static func cubeFace(_ face: CubeFace, size: Int, view: SkyView, viewSize: SIMD2<Int>) -> SkyProjection {
        let b = face.glBasis
        let basis = (CubeFace.skyDirection(gl: b.right), CubeFace.skyDirection(gl: b.up), CubeFace.skyDirection(gl: b.forward))
        let k = 2 / Double(size)
        return SkyProjection(kind: .rectilinear, center: SIMD2(repeating: Double(size) / 2), scale: SIMD2(k, k), basis: basis,
                             view: view, viewSize: viewSize, pixelAngle: 90 / Double(size))
    }

    /// The direction output pixel p looks at, as (azimuth, elevation) in degrees; nil outside a fisheye's circle.
    @inlinable public func projectionAngles(_ p: SIMD2<Float>) -> SIMD2<Float>? {
        let v: SIMD3<Float>
        switch kind {
        case .equirect:
            return SIMD2(p.x * scale.x, 90 - p.y * scale.y)
        case .panorama:
            return SIMD2(azimuth + (p.x - center.x) * scale.x, (center.y - p.y) * scale.y)
        case .rectilinear:
            v = forward + right * ((p.x - center.x) * scale.x) + up * ((center.y - p.y) * scale.y)
        case .fisheye:
            let q = SIMD2(p.x - center.x, center.y - p.y) * scale.x
            let theta = (q.x * q.x + q.y * q.y).squareRoot()
            if theta > limit { return nil }
            let s = theta > 1e-6 ? sinf(theta) / theta : 1
            v = forward * cosf(theta) + (right * q.x + up * q.y) * s
        }
        let degrees: Float = 180 / .pi
        return SIMD2(atan2f(v.x, v.y) * degrees, atan2f(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * degrees)
    }

    /// The panorama view's pixel looking where output pixel p does; nil where nothing is drawn.
    @inlinable public func projectionViewPixel(_ p: SIMD2<Float>) -> SIMD2<Float>? {
        guard let a = projectionAngles(p) else { return nil }
        var d = a.x - viewAzimuth
        d = d - 360 * (d * (1.0 / 360.0) + 0.5).rounded(.down)
        return SIMD2(viewCenter.x + d * inverseViewDegreesPerPixel, viewCenter.y - a.y * inverseViewDegreesPerPixel)
    }
}
