import Foundation
import XCTest
import WelkinImage

/// `--projection cubemap` (six faces or `--cross`) and `fisheye` on render, reference and export:
/// the files, their sizes, and that both renderers write the same faces.
final class PanoramaCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-panorama-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testCubeMapWritesSixFacesOrOneCross() throws {
        let faces = ["px", "nx", "py", "ny", "pz", "nz"]
        for command in ["render", "reference"] {
            let r = try EndToEndTests.run([command, "Scenes/sunset-clouds.json", "--projection", "cubemap", "--size", "48x48", "-o", path("\(command).png")])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasPrefix("wrote \(path(command))-{px,nx,py,ny,pz,nz}.png (six 48×48 faces"), r.stdout)
            for face in faces {
                let image = try PNG.read(path: path("\(command)-\(face).png"))
                XCTAssertEqual([image.width, image.height], [48, 48], face)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("\(command).png")))
        }
        // Both renderers draw the same faces (within the parity tolerance, compared by `welkin compare --against`'s rule).
        for face in faces {
            let gpu = try PNG.read(path: path("render-\(face).png")), cpu = try PNG.read(path: path("reference-\(face).png"))
            var worst = 0
            for i in 0..<gpu.pixels.count { worst = max(worst, abs(Int(gpu.pixels[i]) - Int(cpu.pixels[i]))) }
            XCTAssertLessThanOrEqual(worst, 3, face)
        }
        let cross = try EndToEndTests.run(["render", "Scenes/sunset-clouds.json", "--projection", "cubemap", "--cross", "--size", "32x32", "-o", path("cross.png")])
        XCTAssertEqual(cross.status, 0, cross.stderr)
        let image = try PNG.read(path: path("cross.png"))
        XCTAssertEqual([image.width, image.height], [128, 96])
        XCTAssertEqual(image[5, 5].w, 0, "the cross's empty cells are transparent")
        XCTAssertEqual(image[48, 5].w, 255, "+y sits above +z")
        // A face of the cross is the face written alone.
        let alone = try EndToEndTests.run(["render", "Scenes/sunset-clouds.json", "--projection", "cubemap", "--size", "32x32", "-o", path("alone.png")])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        let pz = try PNG.read(path: path("alone-pz.png"))
        for y in 0..<32 { for x in 0..<32 { XCTAssertEqual(image[32 + x, 32 + y], pz[x, y]) } }
    }

    func testCubeMapEXRFacesAndFisheye() throws {
        let r = try EndToEndTests.run(["reference", "Scenes/physical-day.json", "--projection", "cubemap", "--size", "16x16", "-o", path("sky.exr")])
        XCTAssertEqual(r.status, 0, r.stderr)
        for face in ["px", "nx", "py", "ny", "pz", "nz"] {
            XCTAssertEqual(try EXR.read(path("sky-\(face).exr")).width, 16)
        }
        let f = try EndToEndTests.run(["render", "Scenes/all-sky.json", "--projection", "fisheye", "--size", "64x64", "-o", path("dome.png")])
        XCTAssertEqual(f.status, 0, f.stderr)
        let dome = try PNG.read(path: path("dome.png"))
        XCTAssertEqual([dome.width, dome.height], [64, 64])
        XCTAssertEqual(dome[0, 0], SIMD4(0, 0, 0, 255), "outside the circle: the background")
    }

    func testExportAPanoramaVideo() throws {
        try FileManager.default.createDirectory(atPath: path("frames"), withIntermediateDirectories: true)
        let r = try EndToEndTests.run(["export", "Scenes/sunset-clouds.json", "--projection", "cubemap", "--size", "32x32",
                                       "--duration", "0.2", "--fps", "10", "-o", path("frames/cube-%02d.png")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let frame = try PNG.read(path: path("frames/cube-00.png"))
        XCTAssertEqual([frame.width, frame.height], [128, 96], "a cube map exports as its cross")
        let bad = try EndToEndTests.run(["export", "Scenes/sunset-clouds.json", "--projection", "equirect", "--size", "64x64", "-o", path("x.mp4")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("welkin: an equirect panorama is twice as wide as it is high; --size 64x64 is not"), bad.stderr)
    }
}
