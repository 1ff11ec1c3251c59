// Named text positions (issue 27): the text sits inside the frame, `margin` points from the sides
// the name touches, as SwiftUI's frame alignment places it; measured on the CPU raster's ink.

import XCTest
import WelkinCore
import WelkinReference
import WelkinImage

final class TextPositionTests: XCTestCase {
    static let size = SIMD2(320, 180)

    /// The lit pixels' bounds (min x, min y, max x, max y) of white text on black.
    func inkBounds(_ textKeys: String, pixelSize: SIMD2<Int> = size) throws -> SIMD4<Int> {
        let scene = try SceneLoader.decode("""
            {"size": [\(Self.size.x), \(Self.size.y)], "background": "black",
             "layers": [{"type": "text", "string": "Sky", "size": 40, "color": "white", \(textKeys)}]}
            """, file: "positions.json")
        let image = try ReferenceRenderer().render(Frame(scene: scene, time: 0, pixelSize: pixelSize))
        var bounds = SIMD4(Int.max, Int.max, Int.min, Int.min)
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].x > 8 {
                bounds = SIMD4(min(bounds.x, x), min(bounds.y, y), max(bounds.z, x), max(bounds.w, y))
            }
        }
        XCTAssertNotEqual(bounds.x, Int.max, "no ink for \(textKeys)")
        return bounds
    }

    func testNamedPositionsPlaceTheTextInsideTheFrame() throws {
        let (w, h) = (Self.size.x, Self.size.y)
        // The ink lies within the text's box (ascender to descender): within this many pixels of it.
        let slack = 12
        for name in ["topLeading", "top", "topTrailing", "leading", "center", "trailing", "bottomLeading", "bottom", "bottomTrailing"] {
            for margin in [16, 0, 30] {
                let b = try inkBounds("\"position\": \"\(name)\"" + (margin == 16 ? "" : ", \"margin\": \(margin)"))
                let what = "\(name), margin \(margin): ink \(b)"
                XCTAssertGreaterThanOrEqual(b.x, margin - 1, what); XCTAssertGreaterThanOrEqual(b.y, margin - 1, what)
                XCTAssertLessThanOrEqual(b.z, w - margin, what); XCTAssertLessThanOrEqual(b.w, h - margin, what)
                let centre = SIMD2(b.x + b.z, b.y + b.w) &+ 1
                if name.hasSuffix("eading") { XCTAssertLessThanOrEqual(b.x, margin + 4, what) }
                else if name.hasSuffix("railing") { XCTAssertGreaterThanOrEqual(b.z, w - margin - 4, what) }
                else { XCTAssertLessThanOrEqual(abs(centre.x - w), 4, what + ": centred across") }
                if name.hasPrefix("top") { XCTAssertLessThanOrEqual(b.y, margin + slack, what) }
                else if name.hasPrefix("bottom") { XCTAssertGreaterThanOrEqual(b.w, h - margin - slack, what) }
                else { XCTAssertLessThanOrEqual(abs(centre.y - h), slack, what + ": centred down") }
            }
        }
    }

    func testNamedPositionKeepsAnExplicitAlignmentAndScalesTheMargin() throws {
        // At twice the pixels the margin is twice the pixels: the same picture, scaled.
        let one = try inkBounds("\"position\": \"topTrailing\"")
        let two = try inkBounds("\"position\": \"topTrailing\"", pixelSize: Self.size &* 2)
        XCTAssertEqual(Double(two.z), Double(one.z) * 2, accuracy: 3)
        XCTAssertEqual(Double(two.y), Double(one.y) * 2, accuracy: 3)
        // An explicit alignment wins: the text's bottom at the top edge + margin is outside the frame.
        let above = try inkBounds("\"position\": \"top\", \"alignment\": \"bottom\", \"margin\": 30")
        XCTAssertLessThanOrEqual(above.w, 30); XCTAssertEqual(above.y, 0, "cut by the top edge")
        // A point is a point: [0.5, 0] centred on the top edge cuts the text in half, as before.
        let point = try inkBounds("\"position\": [0.5, 0]")
        XCTAssertEqual(point.y, 0)
        XCTAssertLessThanOrEqual(point.w, 24)
    }
}
