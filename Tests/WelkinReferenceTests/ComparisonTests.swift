import XCTest
@testable import WelkinReference
import WelkinImage

final class ComparisonTests: XCTestCase {
    func noise(_ w: Int, _ h: Int, seed: UInt32) -> Image {
        var image = Image(width: w, height: h)
        var s = seed
        for i in 0..<image.pixels.count {
            s = s &* 1664525 &+ 1013904223
            image.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: s >> 24)
        }
        return image
    }

    func testIdenticalImages() throws {
        let a = noise(40, 30, seed: 1)
        let c = try Comparison(a, a)
        XCTAssertEqual(c.maxDifference, 0)
        XCTAssertEqual(c.meanAbsoluteDifference, 0)
        XCTAssertEqual(c.psnr, .infinity)
        XCTAssertEqual(c.ssim, 1, accuracy: 1e-12)
        XCTAssertEqual(c.pixelsOverThreshold, 0)
        XCTAssertTrue(c.passed(maxFailingPercent: 0.05))
    }

    func testKnownDifferences() throws {
        let a = Image(width: 20, height: 20, fill: SIMD4(100, 100, 100, 255))
        var b = a
        // Every pixel off by 1 in red; one pixel off by 9 in blue.
        for y in 0..<20 { for x in 0..<20 { b[x, y] = SIMD4(101, 100, 100, 255) } }
        b[3, 4] = SIMD4(101, 100, 109, 255)
        let c = try Comparison(a, b)
        XCTAssertEqual(c.maxDifference, 9)
        XCTAssertEqual(c.pixelsOverThreshold, 1)
        XCTAssertEqual(c.percentOverThreshold, 0.25)
        XCTAssertFalse(c.passed(maxFailingPercent: 0.05))
        XCTAssertTrue(c.passed(maxFailingPercent: 0.25))
        XCTAssertEqual(c.meanAbsoluteDifference, (400.0 + 9) / 1200, accuracy: 1e-12)
        let rmse = ((400.0 + 81) / 1200).squareRoot()
        XCTAssertEqual(c.rmse, rmse, accuracy: 1e-12)
        XCTAssertEqual(c.psnr, 20 * log10(255 / rmse), accuracy: 1e-9)
    }

    func testSSIMFallsWithNoise() throws {
        let a = noise(64, 64, seed: 3)
        var b = a
        for i in stride(from: 0, to: b.pixels.count, by: 4) { b.pixels[i] = b.pixels[i] &+ 40 }
        let c = try Comparison(a, b)
        XCTAssertLessThan(c.ssim, 0.99)
        XCTAssertGreaterThan(c.ssim, -1)
        XCTAssertLessThan(try Comparison(a, noise(64, 64, seed: 4)).ssim, 0.1)
    }

    func testSSIMOfAConstantShiftOnFlatImages() throws {
        // Flat images: σ terms vanish, SSIM is the luminance term (2μxμy + C1)/(μx² + μy² + C1).
        let a = Image(width: 16, height: 16, fill: SIMD4(100, 100, 100, 255))
        let b = Image(width: 16, height: 16, fill: SIMD4(110, 110, 110, 255))
        let c1 = 6.5025
        let expected = (2 * 100.0 * 110 + c1) / (100.0 * 100 + 110 * 110 + c1)
        XCTAssertEqual(try Comparison(a, b).ssim, expected, accuracy: 1e-9)
    }

    func testSizeMismatchIsAnError() {
        XCTAssertThrowsError(try Comparison(Image(width: 2, height: 2), Image(width: 3, height: 2))) { e in
            XCTAssertEqual("\(e)", "images differ in size: 2×2 and 3×2")
        }
    }

    func testHeatMapScale() throws {
        let a = Image(width: 4, height: 1, fill: SIMD4(200, 200, 200, 255))
        var b = a
        b[1, 0] = SIMD4(201, 200, 200, 255)
        b[2, 0] = SIMD4(200, 196, 200, 255)
        b[3, 0] = SIMD4(200, 200, 100, 255)
        let map = try Comparison.heatMap(b, a)
        XCTAssertEqual(map[0, 0], SIMD4(50, 50, 50, 255))   // unchanged: a quarter of the luma
        XCTAssertEqual(map[1, 0], SIMD4(0, 0, 190, 255))    // 1
        XCTAssertEqual(map[2, 0], SIMD4(0, 210, 0, 255))    // 4
        XCTAssertEqual(map[3, 0], SIMD4(255, 0, 255, 255))  // 100
    }
}
