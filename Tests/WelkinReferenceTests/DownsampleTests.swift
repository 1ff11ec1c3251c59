import XCTest
@testable import WelkinReference
import WelkinImage

final class DownsampleTests: XCTestCase {
    func testFactorOneIsTheSameImage() {
        var image = Image(width: 3, height: 2)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8(i * 7 % 256) }
        XCTAssertEqual(image.boxDownsampled(by: 1), image)
    }

    func testOpaqueBlocksAverageAndRoundToNearest() {
        var image = Image(width: 4, height: 2, fill: [0, 0, 0, 255])
        // Left block: red 0, 0, 1, 2 → mean 0.75 → 1; right block: green 10, 20, 30, 41 → 25.25 → 25.
        image[0, 0] = [0, 0, 0, 255]; image[1, 0] = [0, 0, 0, 255]; image[0, 1] = [1, 0, 0, 255]; image[1, 1] = [2, 0, 0, 255]
        image[2, 0] = [0, 10, 0, 255]; image[3, 0] = [0, 20, 0, 255]; image[2, 1] = [0, 30, 0, 255]; image[3, 1] = [0, 41, 0, 255]
        let small = image.boxDownsampled(by: 2)
        XCTAssertEqual(small.width, 2)
        XCTAssertEqual(small.height, 1)
        XCTAssertEqual(small[0, 0], [1, 0, 0, 255])
        XCTAssertEqual(small[1, 0], [0, 25, 0, 255])
    }

    func testTransparentPixelsDoNotTintTheAverage() {
        // Two opaque blue pixels and two transparent "red" ones: the colour stays blue, alpha halves.
        var image = Image(width: 2, height: 2)
        image[0, 0] = [0, 0, 255, 255]; image[1, 1] = [0, 0, 255, 255]
        image[1, 0] = [255, 0, 0, 0]; image[0, 1] = [255, 0, 0, 0]
        XCTAssertEqual(image.boxDownsampled(by: 2)[0, 0], [0, 0, 255, 128])
        XCTAssertEqual(Image(width: 3, height: 3).boxDownsampled(by: 3)[0, 0], [0, 0, 0, 0])
    }
}
