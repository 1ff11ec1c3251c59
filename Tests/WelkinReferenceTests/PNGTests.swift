import Foundation
import XCTest
@testable import WelkinReference
import WelkinImage

final class PNGTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testRoundTripKeepsEveryPixel() throws {
        var image = Image(width: 37, height: 23)
        var state: UInt32 = 12345
        for i in 0..<image.pixels.count {
            state = state &* 1664525 &+ 1013904223
            image.pixels[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        let path = directory.appendingPathComponent("round.png").path
        try PNG.write(image, to: path)
        XCTAssertEqual(try PNG.read(path: path), image)
    }

    func testWriteLeavesNoTemporaryFiles() throws {
        try PNG.write(Image(width: 2, height: 2), to: directory.appendingPathComponent("a.png").path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["a.png"])
    }

    func testFailedWriteKeepsTheOldFileAndLeavesNothingBehind() throws {
        // The destination is a non-empty directory: refused before anything is written.
        let target = directory.appendingPathComponent("busy.png")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: target.appendingPathComponent("keep"))
        XCTAssertThrowsError(try PNG.write(Image(width: 2, height: 2), to: target.path)) { error in
            XCTAssertEqual("\(error)", "cannot write \(target.path): it is a folder")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["busy.png"])
        XCTAssertEqual(try Data(contentsOf: target.appendingPathComponent("keep")), Data([1, 2, 3]))
    }

    func testMissingDirectoryIsAClearError() {
        XCTAssertThrowsError(try PNG.write(Image(width: 1, height: 1), to: "/nonexistent-dir/x.png")) { error in
            XCTAssertEqual("\(error)", "cannot write /nonexistent-dir/x.png: the folder /nonexistent-dir does not exist")
        }
    }

    func testReadingGarbageIsAClearError() throws {
        let path = directory.appendingPathComponent("bad.png").path
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PNG.read(path: path)) { error in
            XCTAssertTrue("\(error)".hasPrefix(path + ": not a readable PNG"), "\(error)")
        }
        XCTAssertThrowsError(try PNG.read(path: directory.appendingPathComponent("none.png").path)) { error in
            XCTAssertTrue("\(error)".hasSuffix(": no such file"))
        }
    }

    func testFlipVertically() {
        var image = Image(width: 1, height: 2)
        image[0, 0] = SIMD4(1, 2, 3, 4)
        XCTAssertEqual(image.flippedVertically()[0, 1], SIMD4(1, 2, 3, 4))
    }
}
