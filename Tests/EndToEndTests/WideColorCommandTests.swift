// --color-space and --depth on render, reference, compare and export, run as a user would.

import Foundation
import XCTest
import WelkinCore
import WelkinImage

final class WideColorCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-p3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func run(_ arguments: [String]) throws -> EndToEndTests.Run { try EndToEndTests.run(arguments) }

    /// Runs another program (python3, ffprobe) with ARGUMENTS; its status and output.
    static func runProgram(_ executable: String, _ arguments: [String]) throws -> EndToEndTests.Run {
        try EndToEndTests.runProcess(URL(fileURLWithPath: executable), arguments)
    }

    func scene(_ json: String, _ name: String = "scene.json") throws -> String {
        let file = path(name)
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func pixels(_ image: Image) -> Set<SIMD4<UInt8>> {
        Set((0..<(image.width * image.height)).map { image[$0 % image.width, $0 / image.width] })
    }

    /// The issue's check: P3 red in Display P3 is (255, 0, 0) in a PNG that says Display P3; in
    /// sRGB it is clipped per channel in linear light: linear (1.2249, −0.0421, −0.0196), encoded
    /// (1.0931, −0.2267, −0.1501) → (1, 0, 0) → (255, 0, 0), with the sRGB chunk and cICP (1, 13, 0, 1).
    func testDisplayP3RedInBothOutputs() throws {
        let file = try scene(#"{"size": [32, 16], "background": "color(display-p3 1 0 0)"}"#)
        for command in ["render", "reference"] {
            let p3 = path("\(command)-p3.png"), srgb = path("\(command)-srgb.png")
            var r = try run([command, file, "-o", p3, "--color-space", "display-p3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("(32×16, Display P3, "), r.stdout)
            XCTAssertEqual(pixels(try PNG.read(path: p3)), [SIMD4(255, 0, 0, 255)], command)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: p3)))
            let chunks = try XCTUnwrap(PNGColor.chunks(bytes))
            XCTAssertEqual(chunks.first { $0.type == "cICP" }?.data, [12, 13, 0, 1])
            let iccp = try XCTUnwrap(chunks.first { $0.type == "iCCP" })
            XCTAssertEqual(Array(iccp.data.prefix(11)), Array("Display P3\0".utf8))
            XCTAssertEqual(try PNGColor.colorSpace(ofPNG: bytes), .displayP3)
            XCTAssertLessThan(chunks.firstIndex { $0.type == "iCCP" }!, chunks.firstIndex { $0.type == "IDAT" }!)

            r = try run([command, file, "-o", srgb])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(pixels(try PNG.read(path: srgb)), [SIMD4(255, 0, 0, 255)], command)
            let srgbChunks = try XCTUnwrap(PNGColor.chunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: srgb)))))
            XCTAssertEqual(srgbChunks.first { $0.type == "cICP" }?.data, [1, 13, 0, 1])
            XCTAssertTrue(srgbChunks.contains { $0.type == "sRGB" })
        }
        // The ICC profile is one Pillow (Little CMS underneath) reads, and names Display P3.
        let python = try Self.runProgram("/usr/bin/env", ["python3", "-c", """
            import io, sys
            from PIL import Image, ImageCms
            im = Image.open(sys.argv[1])
            print(ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(im.info['icc_profile']))).strip())
            """, path("render-p3.png")])
        XCTAssertEqual(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "Display P3", python.stderr)
    }

    func testSixteenBitGradientHasMoreThan256LevelsAndBothRenderersAgree() throws {
        let file = try scene("""
            {"size": [1200, 8], "layers": [{"type": "linearGradient", "start": "leading", "end": "trailing",
              "stops": ["color(display-p3 0.05 0.1 0.3)", "color(display-p3 1 0.5 0.1)"]}]}
            """)
        var images: [Image16] = []
        for command in ["render", "reference"] {
            let out = path("\(command)16.png")
            let r = try run([command, file, "-o", out, "--depth", "16", "--color-space", "display-p3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("Display P3, 16-bit"), r.stdout)
            let image = try XCTUnwrap(try PNG16.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))))
            let reds = Set((0..<image.width).map { image[$0, 3].x })
            XCTAssertGreaterThan(reds.count, 256, command)
            images.append(image)
        }
        let largest = zip(images[0].pixels, images[1].pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(largest, 16, "GPU and CPU 16-bit renders, in 65535ths")
    }

    func testUsageErrors() throws {
        var r = try run(["render", "Scenes/gradients.json", "-o", path("x.png"), "--color-space", "p3"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--color-space expects srgb or display-p3, got 'p3'"), r.stderr)
        r = try run(["reference", "Scenes/gradients.json", "-o", path("x.png"), "--depth", "12"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--depth expects 8 or 16, got '12'"), r.stderr)
        r = try run(["reference", "Scenes/gradients.json", "-o", path("x.exr"), "--depth", "16"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--depth applies to PNG output"), r.stderr)
        r = try run(["export", "Scenes/gradients.json", "-o", path("x.gif"), "--color-space", "display-p3", "--duration", "0.1"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("a GIF cannot say its colour space"), r.stderr)
        // A malformed color() names the file and the JSON path, exit 1.
        let bad = try scene(#"{"background": "color(display-p3 1 0)"}"#, "bad.json")
        r = try run(["validate", bad])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("bad.json: background: expected color(SPACE r g b)") || r.stderr.contains("bad.json: background: expected color(SPACE r g b)"),
                      r.stdout + r.stderr)
    }

    /// The video says its primaries: smpte432 for Display P3, bt709 for sRGB, both with the sRGB transfer.
    func testVideoCarriesItsColourSpace() throws {
        for (space, primaries) in [("display-p3", "smpte432"), ("srgb", "bt709")] {
            let out = path("\(space).mp4")
            let r = try run(["export", "Scenes/p3-sunset.json", "-o", out, "--duration", "0.2", "--fps", "10", "--size", "64x36",
                             "--color-space", space])
            XCTAssertEqual(r.status, 0, r.stderr)
            let probe = try Self.runProgram("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                         "stream=color_primaries,color_transfer,color_space", "-of", "default=nw=1", out])
            XCTAssertEqual(probe.status, 0, probe.stderr)
            XCTAssertTrue(probe.stdout.contains("color_primaries=\(primaries)"), probe.stdout)
            XCTAssertTrue(probe.stdout.contains("color_transfer=iec61966-2-1"), probe.stdout)
            XCTAssertTrue(probe.stdout.contains("color_space=bt709"), probe.stdout)
        }
    }

    /// compare --against an image in the other space converts it through linear light first.
    func testCompareAcrossColourSpaces() throws {
        let p3 = path("sunset-p3.png")
        var r = try run(["reference", "Scenes/p3-sunset.json", "-o", p3, "--size", "320x180"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try run(["compare", "Scenes/p3-sunset.json", "--size", "320x180", "--against", p3, "--color-space", "srgb", "-o", path("cmp")])
        print(r.stdout)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("is Display P3 and the render sRGB: compared after converting it to sRGB in linear light"), r.stdout)
        // The same space: no conversion, no line.
        r = try run(["compare", "Scenes/p3-sunset.json", "--size", "320x180", "--against", p3, "-o", path("cmp2")])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertFalse(r.stdout.contains("converting"), r.stdout)
        // A space Welkin does not know is refused.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: p3)))
        let chunks = try XCTUnwrap(PNGColor.chunks(bytes))
        bytes = PNGColor.signature + chunks.flatMap { $0.type == "cICP" ? PNGColor.chunk("cICP", [9, 16, 0, 1]) : PNGColor.chunk($0.type, $0.data) }
        let rec2020 = path("rec2020.png")
        try Data(bytes).write(to: URL(fileURLWithPath: rec2020))
        r = try run(["compare", "Scenes/p3-sunset.json", "--against", rec2020, "-o", path("cmp3")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("rec2020.png: cannot compare: its cICP chunk says primaries 9, transfer 16"), r.stderr)
    }
}
