// The sky camera and the panoramas (issue 24): a rectilinear camera puts the sun where the pinhole
// maths says; a cube map's faces meet without seams and find the sun in its direction; the all-sky
// fisheye; and GPU = CPU under every projection (assertParity's tolerance). Fails, never skips, without GL.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class CameraTests: XCTestCase {
    func scene(_ json: String) throws -> Scene { try SceneLoader.decode(json, file: "camera-test.json") }

    /// The centre of the pixels at full white (the palette sun's flat disc), pixel-centre coordinates.
    func whiteCentroid(_ image: Image) -> SIMD2<Double>? {
        var sum = SIMD2<Double>.zero, count = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if min(p.x, p.y, p.z) >= 254 { sum += SIMD2(Double(x) + 0.5, Double(y) + 0.5); count += 1 }
            }
        }
        return count > 0 ? sum / count : nil
    }

    /// Sun 40° up at azimuth 205°; camera yaw 190°, pitch 30°, 60° across 640 px. The pinhole maths,
    /// written out here independently: turn the sun into the camera's frame (yaw about the vertical,
    /// then pitch about the camera's x axis) and divide by depth: x = cx + f·X/Z, y = cy − f·Y/Z with
    /// f = (W/2)/tan(30°).
    func testRectilinearPutsTheSunWhereThePinholeMathsSays() throws {
        let s = try scene("""
            {"size": [640, 360], "camera": {"projection": "rectilinear", "yaw": 190, "pitch": 30, "fieldOfView": 60},
             "layers": [{"type": "sky", "sunElevation": 40, "sunAzimuth": 205, "stars": false}]}
            """)
        let rad = Double.pi / 180
        let e = 40 * rad, da = (205.0 - 190) * rad, pitch = 30 * rad
        let right = cos(e) * sin(da), ahead = cos(e) * cos(da), up = sin(e)
        let depth = ahead * cos(pitch) + up * sin(pitch)
        let height = -ahead * sin(pitch) + up * cos(pitch)
        let f = 320 / tan(30 * rad)
        let expected = SIMD2(320 + f * right / depth, 180 - f * height / depth)
        let frame = Frame(scene: s, time: 0)
        let (gpu, cpu) = try assertParity(frame, label: "rectilinear sun")
        for (name, image) in [("gpu", gpu), ("cpu", cpu)] {
            let found = try XCTUnwrap(whiteCentroid(image), "\(name): no sun disc in the picture")
            print("rectilinear sun \(name): at \(found), pinhole maths \(expected)")
            XCTAssertLessThan(((found - expected) * (found - expected)).sum().squareRoot(), 1, "\(name): the sun is not where the pinhole maths puts it")
        }
        // CameraState's own pinhole projection says the same.
        let camera = CameraState(s, time: 0, pixelSize: SIMD2(640, 360))
        let sun = try XCTUnwrap(frame.sky).sunDirection
        let own = try XCTUnwrap(camera.rectilinearPixel(of: sun, pixelSize: SIMD2(640, 360)))
        XCTAssertEqual(own.x, expected.x, accuracy: 1e-9); XCTAssertEqual(own.y, expected.y, accuracy: 1e-9)
        // And so does the frame (user shaders' u_sunPosition under a camera).
        let framed = try XCTUnwrap(frame.skySetup.pixel(of: sun, state: try XCTUnwrap(frame.sky)))
        XCTAssertEqual(framed.x, expected.x, accuracy: 1e-3); XCTAssertEqual(framed.y, expected.y, accuracy: 1e-3)
    }

    static let faceSize = 96

    /// The six faces of `scene`, rendered on both renderers (which must agree).
    func cubeFaces(_ scene: Scene, label: String) throws -> [Image] {
        try CubeFace.allCases.map { face in
            let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(repeating: Self.faceSize),
                              options: FrameOptions(projection: .cubeFace(face)))
            return try assertParity(frame, label: "\(label) \(face.name)").gpu
        }
    }

    /// Face pixel (x, y) → its GL direction by the specification's table (CubeFace's doc comment).
    func direction(_ face: CubeFace, _ x: Double, _ y: Double) -> SIMD3<Double> {
        let sc = 2 * (x + 0.5) / Double(Self.faceSize) - 1, tc = 2 * (y + 0.5) / Double(Self.faceSize) - 1
        switch face {
        case .px: return SIMD3(1, -tc, -sc)
        case .nx: return SIMD3(-1, -tc, sc)
        case .py: return SIMD3(sc, 1, tc)
        case .ny: return SIMD3(sc, -1, -tc)
        case .pz: return SIMD3(sc, -tc, 1)
        case .nz: return SIMD3(-sc, -tc, -1)
        }
    }

    /// Every border pixel of every face against the pixel of the neighbouring face just across the
    /// edge (the direction half a pixel outward, looked up by the specification's selection rule):
    /// within 2/255 on every channel, on a physical day sky and a palette sky.
    func testCubeMapFacesMeetWithoutSeams() throws {
        let physical = try scene("""
            {"size": [640, 360], "layers": [{"type": "sky", "model": "physical", "date": "2024-06-21T10:30:00+02:00",
             "latitude": 46.95, "longitude": 7.45, "viewAzimuth": 120}]}
            """)
        let palette = try scene(#"{"layers": [{"type": "sky", "sunElevation": 12, "sunAzimuth": 250, "stars": false}]}"#)
        for (label, s) in [("physical", physical), ("palette", palette)] {
            let faces = try cubeFaces(s, label: "cube \(label)")
            let n = Self.faceSize
            var worst = 0, pairs = 0
            for face in CubeFace.allCases {
                for i in 0..<n {
                    for (x, y, out) in [(0, i, SIMD2(-1.0, 0)), (n - 1, i, SIMD2(1.0, 0)), (i, 0, SIMD2(0, -1.0)), (i, n - 1, SIMD2(0, 1.0))] {
                        let v = direction(face, Double(x) + out.x, Double(y) + out.y)
                        let hit = CubeFace.lookup(gl: v)
                        XCTAssertNotEqual(hit.face, face, "\(face.name) (\(x), \(y)): outward should leave the face")
                        let nx = min(max(Int(hit.s * Double(n)), 0), n - 1), ny = min(max(Int(hit.t * Double(n)), 0), n - 1)
                        let a = faces[face.rawValue][x, y], b = faces[hit.face.rawValue][nx, ny]
                        for c in 0..<4 { worst = max(worst, abs(Int(a[c]) - Int(b[c]))) }
                        pairs += 1
                    }
                }
            }
            print("cube map \(label): \(pairs) border pixel pairs, largest channel difference \(worst)/255")
            XCTAssertLessThanOrEqual(worst, 2, "\(label): a seam between faces")
        }
    }

    /// The sun's direction, turned into GL's frame and looked up in the faces, lands on the sun's disc.
    func testCubeMapFindsTheSunInItsDirection() throws {
        let s = try scene(#"{"layers": [{"type": "sky", "sunElevation": 35, "sunAzimuth": 130, "sunSize": 4, "stars": false}]}"#)
        let faces = try cubeFaces(s, label: "cube sun")
        let sun = try XCTUnwrap(Frame(scene: s, time: 0).sky).sunDirection
        let hit = CubeFace.lookup(gl: CubeFace.glDirection(sky: sun))
        let n = Double(Self.faceSize)
        let pixel = faces[hit.face.rawValue][Int(hit.s * n), Int(hit.t * n)]
        print("cube map sun: face \(hit.face.name), s \(hit.s), t \(hit.t): \(pixel)")
        XCTAssertEqual(pixel, SIMD4(255, 255, 255, 255), "the sun's direction should sample the sun's white disc")
        // And only there: the opposite direction is sky.
        let away = CubeFace.lookup(gl: -CubeFace.glDirection(sky: sun))
        XCTAssertLessThan(Int(faces[away.face.rawValue][Int(away.s * n), Int(away.t * n)].z) + Int(faces[away.face.rawValue][Int(away.s * n), Int(away.t * n)].x), 500)
    }

    /// The all-sky fisheye: the zenith at the centre, the horizon on the inscribed circle with the
    /// camera's yaw at the bottom, nothing drawn outside the circle.
    func testAllSkyFisheye() throws {
        let s = try scene(#"{"size": [640, 360], "layers": [{"type": "sky", "sunElevation": 30, "sunAzimuth": 200, "viewAzimuth": 200, "stars": false}]}"#)
        let size = SIMD2(256, 256)
        let setup = Frame.SkySetup(scene: s, time: 0, pixelSize: size, scale: SIMD2(1, 1), projection: .fisheye)
        let projection = try XCTUnwrap(setup.projection)
        let centre = try XCTUnwrap(projection.projectionAngles(SIMD2(128, 128)))
        XCTAssertEqual(centre.y, 90, accuracy: 1e-3)
        let bottom = try XCTUnwrap(projection.projectionAngles(SIMD2(128, 255.999)))
        XCTAssertEqual(bottom.y, 0, accuracy: 0.01)
        func azimuth(_ a: Float) -> Float { a - 360 * (a / 360).rounded(.down) }
        XCTAssertEqual(azimuth(bottom.x), 200, accuracy: 0.01)
        let left = try XCTUnwrap(projection.projectionAngles(SIMD2(0.001, 128)))
        XCTAssertEqual(azimuth(left.x), 110, accuracy: 0.01, "looking up with the yaw at the bottom, the left edge is 90° counter-clockwise")
        XCTAssertNil(projection.projectionAngles(SIMD2(2, 2)), "the corners lie outside the sky's circle")
        let frame = Frame(scene: s, time: 0, pixelSize: size, options: FrameOptions(projection: .fisheye))
        let (gpu, _) = try assertParity(frame, label: "all-sky fisheye")
        XCTAssertEqual(gpu[1, 1], SIMD4(0, 0, 0, 255), "outside the circle only the scene's background shows")
        XCTAssertNotEqual(gpu[128, 128], SIMD4(0, 0, 0, 255))
        // The sun (30° up, at the yaw) sits on the vertical through the centre, below it, 60/90 of the radius out.
        let found = try XCTUnwrap(whiteCentroid(gpu))
        XCTAssertEqual(found.x, 128, accuracy: 1)
        XCTAssertEqual(found.y, 128 + 128 * 60 / 90, accuracy: 1)
        let sun = try XCTUnwrap(frame.skySetup.pixel(of: try XCTUnwrap(frame.sky).sunDirection, state: try XCTUnwrap(frame.sky)))
        XCTAssertEqual(sun.x, 128, accuracy: 1e-3); XCTAssertEqual(sun.y, 128 + 128 * 60 / 90, accuracy: 1e-3)
    }

    /// GPU = CPU under each projection with every sky-space kind: a physical sky with clouds through a
    /// rectilinear camera, a dated night sky (stars, Moon, planets) through a fisheye dome, a palette
    /// sky with cloud cover and sprites through a rectilinear camera, and an equirect of the clouds.
    func testEveryProjectionAgreesOnBothRenderers() throws {
        let clouds = try scene("""
            {"size": [320, 180], "weather": "cloudy",
             "camera": {"projection": "rectilinear", "yaw": 120, "pitch": 20, "fieldOfView": 80},
             "layers": [{"type": "sky", "model": "physical", "date": "2024-06-21T10:30:00+02:00", "latitude": 46.95, "longitude": 7.45},
                        {"type": "clouds", "cloudType": "cumulus", "coverage": 0.4}]}
            """)
        try assertParity(Frame(scene: clouds, time: 1.5), label: "rectilinear physical + clouds")
        let night = try scene("""
            {"size": [240, 240], "camera": {"projection": "fisheye", "pitch": 90, "yaw": 180, "fieldOfView": 180},
             "layers": [{"type": "sky", "date": "2024-03-10T21:00:00+01:00", "latitude": 48.86, "longitude": 2.35}]}
            """)
        try assertParity(Frame(scene: night, time: 0), label: "fisheye night")
        let palette = try scene("""
            {"size": [320, 180], "weather": "cloudy", "camera": {"projection": "rectilinear", "yaw": 250, "pitch": 10, "fieldOfView": 90},
             "layers": [{"type": "sky", "sunElevation": 8, "sunAzimuth": 255},
                        {"type": "cloudCover", "coverage": 0.5}, {"type": "cloudSprites", "count": 6}]}
            """)
        try assertParity(Frame(scene: palette, time: 2), label: "rectilinear palette + cover + sprites")
        try assertParity(Frame(scene: palette, time: 2), label: "rectilinear palette plain", plain: true)
        try assertParity(Frame(scene: clouds, time: 0, pixelSize: SIMD2(256, 128), options: FrameOptions(projection: .equirect)),
                         label: "equirect physical + clouds")
    }

    /// An animated camera: yaw keyframes turn the view; the same time gives the same picture.
    func testAnimatedCameraTurns() throws {
        let s = try scene("""
            {"size": [160, 90], "camera": {"projection": "rectilinear", "yaw": {"keyframes": [[0, 150], [10, 250]]}, "pitch": 15, "fieldOfView": 70},
             "layers": [{"type": "sky", "sunElevation": 20, "sunAzimuth": 200, "stars": false}]}
            """)
        XCTAssertEqual(CameraState(s, time: 5, pixelSize: SIMD2(160, 90)).yaw, 200, accuracy: 1e-9)
        let a = try assertParity(Frame(scene: s, time: 5), label: "animated camera t5").gpu
        let b = try TestGL.renderer().render(Frame(scene: s, time: 5))
        XCTAssertEqual(a, b)
        let found = try XCTUnwrap(whiteCentroid(a))
        XCTAssertEqual(found.x, 80, accuracy: 1, "at t = 5 the camera looks straight at the sun's azimuth")
    }
}
