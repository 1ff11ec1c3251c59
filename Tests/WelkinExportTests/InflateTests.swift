// Inflate (WelkinResources/Inflate.swift, which packages carry to unpack their data files) against
// zlib's own compressor: every kind of block, the shipped data files, and streams that are not whole.

import Foundation
import XCTest
import WelkinResources
@testable import WelkinExport

final class InflateTests: XCTestCase {
    func testInflatesWhatZlibCompresses() throws {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let text = Array(String(repeating: "the sky at dusk, the sky at dawn; ", count: 400).utf8)
        // Empty, one byte (fixed codes), text (dynamic codes, long matches), noise (stored blocks), a mix.
        for input in [[], [7], text, noise, text + noise + text] as [[UInt8]] {
            let packed = try PackageExport.zlibCompressed(Data(input))
            XCTAssertEqual(try Inflate.zlib([UInt8](packed)), input, "\(input.count) bytes")
        }
    }

    func testInflatesTheDataFilesAPackageCarries() throws {
        for (name, packed) in try PackageExport.dataFiles() {
            let raw = try RuntimeFiles.contents(of: name, target: "WelkinAstronomy")
            XCTAssertLessThan(packed.count, raw.count, name)
            XCTAssertEqual(Data(try Inflate.zlib([UInt8](packed))), raw, name)
        }
    }

    func testRefusesAStreamThatIsNotWhole() throws {
        let packed = [UInt8](try PackageExport.zlibCompressed(Data(String(repeating: "cumulus ", count: 300).utf8)))
        var flipped = packed
        flipped[packed.count - 2] ^= 0x40   // the checksum
        var damaged = packed
        damaged[packed.count / 2] ^= 0xFF   // the codes
        for (why, stream) in [("cut short", Array(packed.prefix(packed.count / 2))), ("checksum", flipped), ("damaged", damaged),
                              ("not zlib", [0x1F, 0x8B, 8, 0, 0, 0, 0, 0]), ("empty", [])] {
            XCTAssertThrowsError(try Inflate.zlib(stream), why)
        }
    }

    func testAdler32() {
        // RFC 1950's definition: "Wikipedia" is 0x11E60398.
        XCTAssertEqual(Inflate.adler32(Array("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(Inflate.adler32([]), 1)
    }
}
