// PNGs that carry their colour space (cICP, iCCP from Little CMS, sRGB), 16-bit PNGs, the CPU's
// 16-bit render, and converting between spaces for `welkin compare`.

import Foundation
import XCTest
import WelkinCore
import WelkinImage
import WelkinReference

final class WideColorPNGTests: XCTestCase {
    func testDisplayP3PNGCarriesCICPAndAnICCProfileNamedDisplayP3BeforeTheImageData() throws {
        let image = Image(width: 3, height: 2, fill: SIMD4(255, 0, 0, 255))
        let bytes = try PNG.encode(image, colorSpace: .displayP3)
        let chunks = try XCTUnwrap(PNGColor.chunks(bytes))
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "cICP", "iCCP", "IDAT", "IEND"])
        XCTAssertEqual(chunks[1].data, [12, 13, 0, 1])
        XCTAssertEqual(try PNGColor.colorSpace(ofPNG: bytes), .displayP3)
        XCTAssertEqual(PNGColor.profileDescription(PNGColor.iccProfile(.displayP3)), "Display P3")
        // The pixels are untouched by the tagging (libpng reads the tagged file back).
        let path = NSTemporaryDirectory() + "/welkin-p3-\(getpid()).png"
        defer { unlink(path) }
        try PNG.write(image, to: path, colorSpace: .displayP3)
        XCTAssertEqual(try PNG.read(path: path), image)
    }

    func testSRGBPNGCarriesCICPAndTheSRGBChunk() throws {
        let bytes = try PNG.encode(Image(width: 2, height: 2, fill: SIMD4(1, 2, 3, 255)))
        let chunks = try XCTUnwrap(PNGColor.chunks(bytes))
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "cICP", "sRGB", "IDAT", "IEND"])
        XCTAssertEqual(chunks[1].data, [1, 13, 0, 1])
        XCTAssertEqual(try PNGColor.colorSpace(ofPNG: bytes), .srgb)
        XCTAssertEqual(PNGColor.profileDescription(PNGColor.iccProfile(.srgb)), "sRGB")
    }

    func testColourSpaceOfOtherPNGs() throws {
        // An ICC profile alone (no cICP) names the space by its description.
        let p3 = try PNG.encode(Image(width: 1, height: 1), colorSpace: .displayP3)
        let withoutCICP = PNGColor.signature + (PNGColor.chunks(p3) ?? []).filter { $0.type != "cICP" }.flatMap { PNGColor.chunk($0.type, $0.data) }
        XCTAssertEqual(try PNGColor.colorSpace(ofPNG: withoutCICP), .displayP3)
        // Untagged: sRGB.
        let untagged = PNGColor.signature + (PNGColor.chunks(p3) ?? []).filter { !["cICP", "iCCP"].contains($0.type) }.flatMap { PNGColor.chunk($0.type, $0.data) }
        XCTAssertEqual(try PNGColor.colorSpace(ofPNG: untagged), .srgb)
        // BT.2020 primaries are refused with a sentence.
        let rec2020 = PNGColor.signature + (PNGColor.chunks(p3) ?? []).flatMap { $0.type == "cICP" ? PNGColor.chunk("cICP", [9, 16, 0, 1]) : PNGColor.chunk($0.type, $0.data) }
        XCTAssertThrowsError(try PNGColor.colorSpace(ofPNG: rec2020)) { error in
            XCTAssertEqual("\(error)", "its cICP chunk says primaries 9, transfer 16; Welkin knows sRGB (1, 13) and Display P3 (12, 13)")
        }
    }

    func testSixteenBitPNGRoundTrip() throws {
        var pixels: [UInt16] = []
        for i in 0..<(37 * 5) { pixels += [UInt16(i * 331 % 65536), UInt16(65535 - i), UInt16(i * 7), UInt16(40000 + i)] }
        let image = Image16(width: 37, height: 5, pixels: pixels)
        let bytes = try PNG16.encode(image, colorSpace: .displayP3)
        let chunks = try XCTUnwrap(PNGColor.chunks(bytes))
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "cICP", "iCCP", "IDAT", "IEND"])
        XCTAssertEqual(chunks[0].data[8], 16, "bit depth")
        XCTAssertEqual(chunks[0].data[9], 6, "RGBA")
        XCTAssertEqual(try PNG16.decode(bytes), image)
        // libpng reads it too (as 8 bits: v × 255 / 65535 rounded).
        let path = NSTemporaryDirectory() + "/welkin-16-\(getpid()).png"
        defer { unlink(path) }
        try PNG16.write(image, to: path, colorSpace: .srgb)
        let eight = try PNG.read(path: path)
        XCTAssertEqual(eight[3, 2].y, UInt8((Double(65535 - (2 * 37 + 3)) * 255 / 65535).rounded()))
    }

    /// A 16-bit render of a gradient has many more than 256 levels in a channel.
    func testSixteenBitGradientHasMoreThan256Levels() throws {
        let scene = try SceneLoader.decode("""
            {"size": [1024, 4], "outputColorSpace": "display-p3",
             "layers": [{"type": "linearGradient", "start": "leading", "end": "trailing",
                         "stops": ["color(display-p3 0.1 0.05 0.3)", "color(display-p3 1 0.45 0.1)"]}]}
            """)
        let image = try ReferenceRenderer().render16(Frame(scene: scene, time: 0))
        let reds = Set((0..<image.width).map { image[$0, 1].x })
        print("16-bit gradient: \(reds.count) distinct red levels over \(image.width) pixels")
        XCTAssertGreaterThan(reds.count, 256)
        // Its 8-bit render has at most 256 by construction, and the 16-bit levels ÷ 257 agree with it within 1.
        let eight = try ReferenceRenderer().render(Frame(scene: { var s = scene; s.dither = false; return s }(), time: 0))
        for x in stride(from: 0, to: image.width, by: 7) {
            XCTAssertLessThanOrEqual(abs(Int(eight[x, 1].x) - Int((Double(image[x, 1].x) / 257).rounded())), 1, "x \(x)")
        }
    }

    func testConvertingBetweenSpacesForComparison() throws {
        let srgbRed = Image(width: 1, height: 1, fill: SIMD4(255, 0, 0, 255))
        XCTAssertEqual(Comparison.converting(srgbRed, from: .srgb, to: .displayP3)[0, 0], SIMD4(234, 51, 35, 255))
        XCTAssertEqual(Comparison.converting(Image(width: 1, height: 1, fill: SIMD4(234, 51, 35, 200)), from: .displayP3, to: .srgb)[0, 0],
                       SIMD4(255, 0, 0, 200))
        // P3 red is outside sRGB: clipped per channel in linear light.
        XCTAssertEqual(Comparison.converting(srgbRed, from: .displayP3, to: .srgb)[0, 0], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(Comparison.converting(srgbRed, from: .srgb, to: .srgb), srgbRed)
    }
}
