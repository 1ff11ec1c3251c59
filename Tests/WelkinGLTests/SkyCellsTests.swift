// SkyPass.cells: the scissored cells the sky pass draws. They must cover the frame exactly once,
// and each sprite or disc reach must cover a cell wholly or not at all (a cell's program holds
// only the sprites that reach it), with inner edges on llvmpipe's 4×4 blocks.

import XCTest
@testable import WelkinGL

final class SkyCellsTests: XCTestCase {
    func check(size: SIMD2<Int>, areas: [SIMD4<Float>], line: UInt = #line) {
        let rows = SkyPass.cells(pixelSize: size, around: areas)
        var covered = [Int](repeating: 0, count: size.x * size.y)
        for row in rows {
            XCTAssertFalse(row.isEmpty, line: line)
            for cell in row {
                XCTAssertGreaterThan(cell.z, 0, line: line)
                XCTAssertGreaterThan(cell.w, 0, line: line)
                for y in cell.y..<(cell.y + cell.w) {
                    for x in cell.x..<(cell.x + cell.z) { covered[y * size.x + x] += 1 }
                }
                // Inner edges on the block grid: x from the left, y from the bottom (GL's origin).
                for x in [cell.x, cell.x + cell.z] where x != 0 && x != size.x {
                    XCTAssertEqual(x % 4, 0, "x edge \(x)", line: line)
                }
                for y in [cell.y, cell.y + cell.w] where y != 0 && y != size.y {
                    XCTAssertEqual((size.y - y) % 4, 0, "y edge \(y)", line: line)
                }
                // Each area holds every pixel centre of the cell or none of them.
                for a in areas {
                    var inside = 0
                    for y in cell.y..<(cell.y + cell.w) {
                        for x in cell.x..<(cell.x + cell.z) {
                            let px = Float(x) + 0.5, py = Float(y) + 0.5
                            if abs(px - a.x) <= a.z && abs(py - a.y) <= a.w { inside += 1 }
                        }
                    }
                    // A cell is "reached" by the area when it overlaps the area's open box.
                    let reached = a.x + a.z > Float(cell.x) && a.x - a.z < Float(cell.x + cell.z)
                        && a.y + a.w > Float(cell.y) && a.y - a.w < Float(cell.y + cell.w)
                    if !reached { XCTAssertEqual(inside, 0, "cell \(cell) area \(a)", line: line) }
                    if reached && inside == 0 {
                        // Reached without a centre inside: only a cell of the rounding band (under 4 pixels).
                        XCTAssertLessThanOrEqual(min(cell.z, cell.w), 4, "cell \(cell) area \(a)", line: line)
                    }
                }
            }
        }
        XCTAssertEqual(covered.min(), 1, line: line)
        XCTAssertEqual(covered.max(), 1, line: line)
    }

    func testNoAreasIsOneCell() {
        XCTAssertEqual(SkyPass.cells(pixelSize: SIMD2(1280, 720), around: []), [[SIMD4(0, 0, 1280, 720)]])
    }

    func testCellsPartitionTheFrameAndFollowTheAreas() {
        // Boxes inside, across an edge, beyond the frame, overlapping; odd frame sizes.
        let areas: [SIMD4<Float>] = [
            SIMD4(100.3, 50.7, 40.2, 20.1), SIMD4(-10, 90, 30, 15), SIMD4(310, 170, 25, 30),
            SIMD4(120, 60, 10, 10), SIMD4(500, 500, 10, 10), SIMD4(160, 90, 0.5, 0.5),
        ]
        check(size: SIMD2(320, 180), areas: areas)
        check(size: SIMD2(317, 179), areas: areas)
    }

    func testSpriteCellsHugTheirBoxes() {
        // A sprite's program runs only on its box, rounded out to the block grid.
        let areas: [SIMD4<Float>] = [SIMD4(640, 360, 80, 40), SIMD4(900, 100, 60, 30)]
        let rows = SkyPass.cells(pixelSize: SIMD2(1280, 720), around: areas)
        let inSprites = rows.joined().filter { cell in
            areas.contains { a in a.x + a.z > Float(cell.x) && a.x - a.z < Float(cell.x + cell.z)
                && a.y + a.w > Float(cell.y) && a.y - a.w < Float(cell.y + cell.w) }
        }
        let area = inSprites.reduce(0) { $0 + $1.z * $1.w }
        // 160×80 and 120×60 boxes, rounded out to the block grid: at most 4 pixels more on each side.
        XCTAssertLessThanOrEqual(area, 168 * 88 + 128 * 68)
        XCTAssertGreaterThanOrEqual(area, 160 * 80 + 120 * 60)
    }
}
