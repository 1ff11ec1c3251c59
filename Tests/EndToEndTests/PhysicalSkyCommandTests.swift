import Foundation
import XCTest
import WelkinTestSupport
import WelkinImage

/// `welkin render` and `welkin reference` with `-o OUT.exr` and `--projection equirect`: the sun
/// where `welkin sun` says it is (read by an outside reader, Python's OpenEXR), the CPU's panorama
/// against the GPU's, usage errors word for word, the panorama's warning, and a failed write.
final class PhysicalSkyCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: EndToEndTests.welkin.path),
                      "build the welkin executable first (make test does): \(EndToEndTests.welkin.path)")
        directory = try makeTemporaryDirectory("welkin-physical")
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    // MARK: The sun in an equirect panorama

    /// physical-day.json as a 4096×2048 half-float panorama: the sun's disc (the centroid of the G
    /// channel's pixels above half its maximum, found by Python's OpenEXR) lies within one pixel on
    /// each axis of the azimuth and elevation `welkin sun` prints for the scene's date and place.
    func testEquirectSunIsWhereTheSunCommandPutsIt() throws {
        let scene = "Scenes/physical-day.json"
        let sky = try Self.firstLayer(of: scene)
        guard let date = sky["date"] as? String, let latitude = sky["latitude"] as? Double, let longitude = sky["longitude"] as? Double else {
            return XCTFail("\(scene) has no date, latitude and longitude on its first layer: \(sky)")
        }

        let out = path("day.exr")
        let r = try EndToEndTests.run(["render", scene, "--projection", "equirect", "--size", "4096x2048", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.hasPrefix("wrote \(out) (4096×2048 scene-linear, GPU: "), r.stdout)

        guard let seen = try pythonOpenEXR(Self.findSun, [out]) else { return }
        // Opaque → R G B only; half unless --float.
        XCTAssertEqual(seen["channels"] as? [String: String], ["R": "HALF", "G": "HALF", "B": "HALF"])
        XCTAssertEqual(seen["size"] as? [Int], [4096, 2048])
        XCTAssertEqual(seen["nonFinite"] as? Int, 0, "NaN or infinite values in the panorama")
        guard let x = seen["x"] as? Double, let y = seen["y"] as? Double, let count = seen["count"] as? Int else {
            return XCTFail("Python found no sun: \(seen)")
        }
        // The disc is 0.533° ≈ 6 pixels across here: a few dozen pixels, not a bright region of sky.
        XCTAssertTrue((1...200).contains(count), "\(count) pixels above half the maximum \(seen["max"] ?? "?")")

        let sun = try EndToEndTests.run(["sun", "--date", date, "--lat", "\(latitude)", "--lon", "\(longitude)", "--json"])
        XCTAssertEqual(sun.status, 0, sun.stderr)
        let printed = try JSONSerialization.jsonObject(with: Data(sun.stdout.utf8)) as? [String: Any] ?? [:]
        guard let elevation = printed["elevation"] as? Double, let azimuth = printed["azimuth"] as? Double else {
            return XCTFail("welkin sun printed no elevation and azimuth: \(sun.stdout)")
        }

        let (width, height) = (4096.0, 2048.0)
        let foundAzimuth = 360 * (x + 0.5) / width
        let foundElevation = 90 - 180 * (y + 0.5) / height
        var azimuthError = (foundAzimuth - azimuth).truncatingRemainder(dividingBy: 360)
        if azimuthError > 180 { azimuthError -= 360 } else if azimuthError < -180 { azimuthError += 360 }
        let message = "sun found at azimuth \(foundAzimuth)°, elevation \(foundElevation)° (pixel \(x), \(y)); welkin sun: \(azimuth)°, \(elevation)°"
        print("physical-day equirect: \(message)")
        XCTAssertLessThanOrEqual(abs(azimuthError), 360 / width, message)
        XCTAssertLessThanOrEqual(abs(foundElevation - elevation), 180 / height, message)

        // The same pixel as Blender reads it (docs/export.md): Cycles' Environment Texture maps a
        // direction to u = ½ − atan2(y, x)/2π, v = 1 − acos(z)/π (v = 0 the bottom row), so the pixel
        // looks along φ = π − 2πu, θ = π − πv; the Mapping node's Z rotation of +90° the docs give
        // turns texture directions back to Blender's world by −90° about Z: north = +Y, east = +X.
        let u = (x + 0.5) / width, v = 1 - (y + 0.5) / height
        let phi = Double.pi - 2 * .pi * u, theta = Double.pi - .pi * v
        let texture = SIMD3(sin(theta) * cos(phi), sin(theta) * sin(phi), cos(theta))
        let world = SIMD3(texture.y, -texture.x, texture.z)
        let blenderAzimuth = atan2(world.x, world.y) * 180 / .pi, blenderElevation = asin(world.z) * 180 / .pi
        var blenderError = (blenderAzimuth - azimuth).truncatingRemainder(dividingBy: 360)
        if blenderError > 180 { blenderError -= 360 } else if blenderError < -180 { blenderError += 360 }
        print("physical-day equirect in Blender: azimuth \(blenderAzimuth)°, elevation \(blenderElevation)° (north +Y, east +X)")
        XCTAssertLessThanOrEqual(abs(blenderError), 360 / width, "Blender: \(blenderAzimuth)°, welkin sun \(azimuth)°")
        XCTAssertLessThanOrEqual(abs(blenderElevation - elevation), 180 / height, "Blender: \(blenderElevation)°, welkin sun \(elevation)°")
    }

    /// `welkin reference` draws the same 512×256 panorama as `welkin render` (both --float, read with
    /// EXR.read): |gpu − cpu| ≤ 1e-3·max(1, |cpu|) + 1e-5 per channel for all but 0.05 % of pixels.
    func testReferencePanoramaAgreesWithTheGPU() throws {
        let gpuPath = path("gpu.exr"), cpuPath = path("cpu.exr")
        for (command, out) in [("render", gpuPath), ("reference", cpuPath)] {
            let r = try EndToEndTests.run([command, "Scenes/physical-day.json", "--projection", "equirect", "--size", "512x256",
                                           "--float", "-o", out])
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", command)
        }
        for file in [gpuPath, cpuPath] {
            guard let seen = try pythonOpenEXR(Self.findSun, [file]) else { return }
            XCTAssertEqual(seen["channels"] as? [String: String], ["R": "FLOAT", "G": "FLOAT", "B": "FLOAT"], file)
        }
        let gpu = try EXR.read(gpuPath), cpu = try EXR.read(cpuPath)
        XCTAssertEqual([gpu.width, gpu.height, cpu.width, cpu.height], [512, 256, 512, 256])
        guard gpu.pixels.count == cpu.pixels.count else { return }

        let relative: Float = 1e-3, absolute: Float = 1e-5
        var failing = 0
        var largest: (difference: Float, x: Int, y: Int, channel: Int, gpu: Float, cpu: Float) = (-1, 0, 0, 0, 0, 0)
        for i in gpu.pixels.indices {
            var fails = false
            for c in 0..<4 {
                let a = gpu.pixels[i][c], b = cpu.pixels[i][c]
                let d = abs(a - b)
                if !(d <= relative * max(1, abs(b)) + absolute) { fails = true }
                if d.isNaN || d > largest.difference { largest = (d, i % gpu.width, i / gpu.width, c, a, b) }
            }
            if fails { failing += 1 }
        }
        let percent = 100 * Double(failing) / Double(gpu.pixels.count)
        let message = "\(failing)/\(gpu.pixels.count) pixels over tolerance (\(String(format: "%.3f", percent)) %); largest |gpu − cpu| "
            + "\(largest.difference) at \(largest.x),\(largest.y) \(["R", "G", "B", "A"][largest.channel]): gpu \(largest.gpu) cpu \(largest.cpu)"
        print("physical-day equirect 512×256, reference vs render: \(message)")
        XCTAssertLessThanOrEqual(percent, 0.05, message)
    }

    // MARK: Usage errors, the panorama's warning, a failed write

    static let usage = [
        "render": "welkin render [SCENE] [-o OUT.png|OUT.exr [--float]] [--time T] [--size WxH [--fit MODE] | --scale K] [--projection P [--cross]] [--shaders DIR]"
            + " [--color-space SPACE] [--depth 16]",
        "reference": "welkin reference [SCENE] [-o OUT.png|OUT.exr [--float]] [--time T] [--size WxH [--fit MODE] | --scale K] [--projection P [--cross]]"
            + " [--color-space SPACE] [--depth 16]",
    ]

    func testUsageErrors() throws {
        let png = path("x.png"), exr = path("x.exr"), tiff = path("x.tiff")
        for command in ["render", "reference"] {
            let cases: [([String], String)] = [
                (["--projection", "mercator", "-o", png], "welkin: --projection expects view, equirect, fisheye or cubemap, got 'mercator'"),
                (["--projection", "cubemap", "--size", "64x32", "-o", png],
                 "welkin: a cube map's faces are square (--size is one face's); --size 64x32 is not"),
                (["--projection", "fisheye", "--size", "64x32", "-o", png], "welkin: an all-sky fisheye is square; --size 64x32 is not"),
                (["--cross", "-o", png], "welkin: --cross lays out a cube map's faces; pass --projection cubemap"),
                (["--projection", "equirect", "--size", "300x200", "-o", png],
                 "welkin: an equirect panorama is twice as wide as it is high; --size 300x200 is not"),
                (["--projection", "equirect", "--scale", "0.5", "-o", exr],
                 "welkin: a panorama takes --size WxH, not --scale or --fit"),
                (["--float", "-o", png], "welkin: --float applies to EXR output; '\(png)' is a PNG"),
                (["-o", tiff], "welkin: '\(tiff)': welkin \(command) writes PNG or OpenEXR, so OUT must end in .png or .exr"
                    + " (for video, GIF or an image sequence use 'welkin export')"),
                (["--size", "100x100", "--fit", "cover", "-o", exr], "welkin: --fit applies to PNG output; an EXR is rendered at exactly --size"),
            ]
            for (arguments, message) in cases {
                let label = "\(command) \(arguments.joined(separator: " "))"
                let r = try EndToEndTests.run([command, "Scenes/physical-day.json"] + arguments)
                XCTAssertEqual(r.status, 2, label)
                XCTAssertEqual(r.stderr, "\(message)\nUsage: \(Self.usage[command]!)\nRun 'welkin help' for more.\n", label)
                XCTAssertEqual(r.stdout, "", label)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "a usage error wrote a file")
    }

    /// Screen-space layers (and the weather's falling snow or rain) are left out of a panorama with
    /// one warning line naming them once each, in order; the panorama is still written.
    func testPanoramaWarnsOnceAboutLeftOutLayers() throws {
        let warning = ": warning: the panorama leaves out the layers that live on the screen, not in the sky: "
        let mixed = path("mixed.json")
        try """
        {"size": [320, 180], "weather": "rain", "layers": [
          {"type": "linearGradient", "stops": ["black", "#203050"]},
          {"type": "sky", "model": "physical", "sunElevation": 20},
          {"type": "text", "string": "Sky", "size": 20, "position": [0.5, 0.5]},
          {"type": "linearGradient", "stops": ["#FFFFFF40", "clear"]},
          {"type": "cloudCover", "coverage": 0.4}]}
        """.write(toFile: mixed, atomically: false, encoding: .utf8)
        let cases = [("render", "Scenes/snowy-night.json", "precipitation"), ("reference", "Scenes/snowy-night.json", "precipitation"),
                     ("render", mixed, "linearGradient, text, precipitation")]
        for (command, scene, left) in cases {
            let out = path("x.png")
            try? FileManager.default.removeItem(atPath: out)
            let r = try EndToEndTests.run([command, scene, "--projection", "equirect", "--size", "256x128", "-o", out])
            XCTAssertEqual(r.status, 0, "\(command) \(scene): \(r.stderr)")
            XCTAssertEqual(r.stderr, "\(scene)\(warning)\(left)\n", "\(command) \(scene)")
            XCTAssertTrue(r.stdout.hasPrefix("wrote \(out) (256×128, "), r.stdout)
            let image = try PNG.read(path: out)
            XCTAssertEqual([image.width, image.height], [256, 128], "\(command) \(scene)")
        }
    }

    /// An EXR into a folder that does not exist: exit 1, the path named, nothing left behind.
    func testFailedEXRWriteNamesThePathAndLeavesNothing() throws {
        let missing = path("missing")
        let out = "\(missing)/day.exr"
        for command in ["render", "reference"] {
            let r = try EndToEndTests.run([command, "Scenes/physical-day.json", "--projection", "equirect", "--size", "64x32", "-o", out])
            XCTAssertEqual(r.status, 1, command)
            XCTAssertEqual(r.stderr, "cannot write \(out): the folder \(missing) does not exist\n", command)
            XCTAssertEqual(r.stdout, "", command)
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing), command)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "\(command) left files behind")
        }
    }

    // MARK: Helpers

    /// The first layer of a scene file in the checkout, as JSON.
    static func firstLayer(of scene: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.path(scene)))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["layers"] as? [[String: Any]])?.first ?? [:]
    }

    /// Python's view of an EXR: its channels' types, its size, its non-finite values, and the
    /// centroid (column, row; row 0 at the top) of the G channel's pixels above half its maximum.
    static let findSun = """
    with OpenEXR.File(sys.argv[1], separate_channels=True) as f:
        channels = f.channels()
        g = channels["G"].pixels.astype(numpy.float64)
        finite = numpy.isfinite(g)
        peak = float(g[finite].max())
        ys, xs = numpy.nonzero(finite & (g > peak / 2))
        print(json.dumps({
            "channels": {n: c.type().name for n, c in channels.items()},
            "size": [int(g.shape[1]), int(g.shape[0])],
            "nonFinite": int(sum(int((~numpy.isfinite(c.pixels)).sum()) for c in channels.values())),
            "max": peak, "count": int(len(xs)),
            "x": float(xs.mean()), "y": float(ys.mean()),
        }))
    """

}
