// Glyph coverage against FreeType as Pillow's ImageFont draws it (PyPI's Pillow bundles its own
// FreeType 2.14 and HarfBuzz, through libraqm): the same font file and size, overlapping glyphs
// combined source-over as both Pillow and Welkin's renderers do, compared pixel for pixel.
// WELKIN_COVERAGE_DIFFS=1 prints every pixel that differs by more than 1.

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinText

final class GlyphCoverageTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    static let microHei = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

    /// A coverage image in the pen's space: pixel (x, y) is at `origin + (x, y)`, the pen starting at (0, 0) on the baseline.
    struct Coverage {
        var origin: SIMD2<Int>, width: Int, height: Int
        var pixels: [UInt8]
        func at(_ x: Int, _ y: Int) -> Int {
            let lx = x - origin.x, ly = y - origin.y
            guard lx >= 0, ly >= 0, lx < width, ly < height else { return 0 }
            return Int(pixels[ly * width + lx])
        }
    }

    /// Our layout of `text` at the origin (leading, baseline), glyph coverage composited source-over.
    static func welkin(_ text: String, font: String, index: Int = 0, size: Double) throws -> Coverage {
        let style = TextStyle(font: FontRequest(.file(path: font, index: index)), pixelsPerEm: SIMD2(size, size),
                              horizontal: .leading, vertical: .baseline)
        let layout = try TextLayout.make(text, style: style, origin: .zero)
        let x0 = layout.quads.map { Int($0.origin.x) }.min() ?? 0, y0 = layout.quads.map { Int($0.origin.y) }.min() ?? 0
        let x1 = layout.quads.map { Int($0.origin.x + $0.size.x) }.max() ?? 0, y1 = layout.quads.map { Int($0.origin.y + $0.size.y) }.max() ?? 0
        var c = Coverage(origin: SIMD2(x0, y0), width: x1 - x0, height: y1 - y0, pixels: [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0)))
        for q in layout.quads {
            for y in 0..<Int(q.size.y) {
                for x in 0..<Int(q.size.x) {
                    let v = layout.atlas.pixels[(Int(q.atlasOrigin.y) + y) * layout.atlas.width + Int(q.atlasOrigin.x) + x]
                    let i = (Int(q.origin.y) + y - y0) * c.width + Int(q.origin.x) + x - x0
                    c.pixels[i] = UInt8((Float(v) + Float(c.pixels[i]) * (1 - Float(v) / 255)).rounded())
                }
            }
        }
        return c
    }

    /// Pillow's `ImageFont.getmask2(text, "L", anchor="ls")`: the same pen space.
    static func pillow(_ text: String, font: String, index: Int = 0, size: Double) throws -> Coverage {
        let script = """
        import sys, json
        from PIL import ImageFont, features
        font = ImageFont.truetype(sys.argv[1], float(sys.argv[3]), index=int(sys.argv[2]), layout_engine=ImageFont.Layout.RAQM)
        mask, offset = font.getmask2(sys.argv[4], mode="L", anchor="ls")
        sys.stdout.write(json.dumps({"origin": offset, "size": mask.size, "pixels": list(bytes(mask))}))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, font, String(index), String(size), text]
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // A failure, not a skip: `make deps` installs Pillow, as it installs the fonts.
            struct PillowFailed: Error, CustomStringConvertible { var description: String }
            throw PillowFailed(description: "python3 with Pillow did not run ('make deps' installs Pillow from PyPI): \(errorText)")
        }
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let origin = json["origin"] as! [Int], size = json["size"] as! [Int]
        return Coverage(origin: SIMD2(origin[0], origin[1]), width: size[0], height: size[1],
                        pixels: (json["pixels"] as! [Int]).map(UInt8.init))
    }

    /// The share of pixels (over both images' bounds) within `tolerance`, and the largest difference.
    static func agreement(_ a: Coverage, _ b: Coverage, tolerance: Int = 1) -> (share: Double, max: Int, pixels: Int) {
        let x0 = min(a.origin.x, b.origin.x), y0 = min(a.origin.y, b.origin.y)
        let x1 = max(a.origin.x + a.width, b.origin.x + b.width), y1 = max(a.origin.y + a.height, b.origin.y + b.height)
        var within = 0, largest = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let d = abs(a.at(x, y) - b.at(x, y))
                largest = max(largest, d)
                if d <= tolerance { within += 1 }
            }
        }
        let count = max(1, (x1 - x0) * (y1 - y0))
        return (Double(within) / Double(count), largest, count)
    }

    func check(_ text: String, font: String, index: Int = 0, size: Double, line: UInt = #line) throws {
        let ours = try Self.welkin(text, font: font, index: index, size: size)
        let theirs = try Self.pillow(text, font: font, index: index, size: size)
        let (share, largest, pixels) = Self.agreement(ours, theirs)
        if ProcessInfo.processInfo.environment["WELKIN_COVERAGE_DIFFS"] != nil {
            for y in min(ours.origin.y, theirs.origin.y)..<max(ours.origin.y + ours.height, theirs.origin.y + theirs.height) {
                for x in min(ours.origin.x, theirs.origin.x)..<max(ours.origin.x + ours.width, theirs.origin.x + theirs.width)
                where abs(ours.at(x, y) - theirs.at(x, y)) > 1 { print("  (\(x), \(y)): ours \(ours.at(x, y)), Pillow \(theirs.at(x, y))") }
            }
        }
        print("coverage vs Pillow: \"\(text)\" \((font as NSString).lastPathComponent) \(size) px: \(String(format: "%.3f", share * 100)) % of \(pixels) pixels within 1/255, max difference \(largest)")
        XCTAssertGreaterThanOrEqual(share, 0.99, "\(text)", line: line)
    }

    func testLatinMatchesPillow() throws {
        try check("Welkin: AV To fi ffl 42!", font: Self.dejaVu, size: 32)
        try check("Hello Panda", font: Self.dejaVuBold, size: 108)
        try check("Sky, 7:05", font: Self.dejaVu, size: 13)
    }

    func testChineseMatchesPillow() throws {
        try check("天空你好熊猫", font: Self.microHei, size: 48)
        try check("你好熊猫 Sky", font: Self.microHei, size: 27.5)
    }

    func testRightToLeftMatchesPillow() throws {
        try check("שלום עולם", font: Self.dejaVu, size: 40)
        try check("سماء", font: Self.dejaVu, size: 40)
    }
}
