import XCTest
@testable import WelkinCore

final class DitherTests: XCTestCase {
    func testBayerIsAPermutationWithTheClassicFirstRow() {
        var seen = Set<Int>()
        for y in 0..<8 { for x in 0..<8 { seen.insert(Dither.bayer8(x, y)) } }
        XCTAssertEqual(seen, Set(0..<64))
        XCTAssertEqual((0..<8).map { Dither.bayer8($0, 0) }, [0, 32, 8, 40, 2, 34, 10, 42])
        XCTAssertEqual((0..<8).map { Dither.bayer8(0, $0) }, [0, 48, 12, 60, 3, 51, 15, 63])
        // The multiply-and-mask form equals the spelled-out bit interleaving everywhere.
        for y in 0..<8 {
            for x in 0..<8 {
                let xy = x ^ y
                let spelled = ((xy & 1) << 5) | ((y & 1) << 4) | ((xy & 2) << 2) | ((y & 2) << 1) | ((xy & 4) >> 1) | ((y & 4) >> 2)
                XCTAssertEqual(Dither.bayer8(x, y), spelled, "(\(x), \(y))")
            }
        }
    }

    func testOffsetsStayWithinHalfAStep() {
        for y in 0..<8 {
            for x in 0..<8 {
                let offset = Dither.bias(x: x, y: y, enabled: true) - 0.5
                XCTAssertGreaterThanOrEqual(offset, -0.5)
                XCTAssertLessThan(offset, 0.5)
            }
        }
    }

    func testDitherDependsOnlyOnIntegerCoordinates() {
        XCTAssertEqual(Dither.bias(x: 3, y: 5, enabled: true), Dither.bias(x: 3 + 8 * 97, y: 5 + 8 * 13, enabled: true))
    }

    func testQuantisationRoundsToNearestWhenOff() {
        XCTAssertEqual(Dither.quantize(0.5 / 255 - 1e-4, bias: 0.5), 0)
        XCTAssertEqual(Dither.quantize(0.5 / 255 + 1e-4, bias: 0.5), 1)
        XCTAssertEqual(Dither.quantize(1, bias: 0.5), 255)
        XCTAssertEqual(Dither.quantize(2, bias: 0.5), 255)
        XCTAssertEqual(Dither.quantize(-1, bias: 0.5), 0)
    }

    func testPureColoursStayPureWithDither() {
        for y in 0..<8 {
            for x in 0..<8 {
                let bias = Dither.bias(x: x, y: y, enabled: true)
                XCTAssertEqual(Dither.quantize(0, bias: bias), 0)
                XCTAssertEqual(Dither.quantize(1, bias: bias), 255)
            }
        }
    }

    func testDitheredMeanMatchesTheValue() {
        // Over one 8×8 tile the mean of the dithered result equals v·255 within 1/64.
        for v: Float in [0.1, 0.3337, 0.5, 0.77, 0.9] {
            var sum = 0
            for y in 0..<8 { for x in 0..<8 { sum += Int(Dither.quantize(v, bias: Dither.bias(x: x, y: y, enabled: true))) } }
            XCTAssertEqual(Float(sum) / 64, v * 255, accuracy: 1.0 / 64 + 1e-3)
        }
    }

    func testResolveUnpremultiplies() {
        XCTAssertEqual(Dither.resolve(SIMD4(0.25, 0.5, 0, 0.5), bias: 0.5), SIMD4(128, 255, 0, 128))
        XCTAssertEqual(Dither.resolve(SIMD4(0, 0, 0, 0), bias: 0.5), SIMD4(0, 0, 0, 0))
    }
}
