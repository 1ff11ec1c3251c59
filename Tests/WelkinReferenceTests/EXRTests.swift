// EXR output through OpenEXRCore: round trips at half and float precision, the files checked by an
// outside reader (Python's OpenEXR module, from PyPI, which bundles its own OpenEXR build), files that
// reader wrote read back by ours, and failed writes that leave nothing behind.

import Foundation
import XCTest
import WelkinImage
import WelkinTestSupport

final class EXRTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-exr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// An odd-sized image of scene-linear values: a few fixed ones that matter (above 1, tiny, half's
    /// largest finite value, negative, zero) in the first pixels, pseudo-random ones in [-1, 7) after them.
    static func sample(width: Int = 37, height: Int = 23, largest: Float = 65504) -> FloatImage {
        let fixed: [Float] = [1000.5, 0.001, largest, 0, 1, -2.25, 0.5, 3.0e-5, 7.75, 12345.678, 0.1, 1.0 / 3.0]
        var state: UInt32 = 20240611
        var values = [Float]()
        for i in 0..<(width * height * 4) {
            state = state &* 1664525 &+ 1013904223
            let random = Float(state >> 8) / Float(1 << 24)
            values.append(i < fixed.count ? fixed[i] : (i % 4 == 3 ? random : random * 8 - 1))
        }
        let pixels = (0..<(width * height)).map { SIMD4(values[4 * $0], values[4 * $0 + 1], values[4 * $0 + 2], values[4 * $0 + 3]) }
        return FloatImage(width: width, height: height, pixels: pixels)
    }

    /// `image` as stored with RGB only: alpha reads back as 1.
    static func opaque(_ image: FloatImage) -> FloatImage {
        FloatImage(width: image.width, height: image.height, pixels: image.pixels.map { SIMD4($0.x, $0.y, $0.z, 1) })
    }

    /// Whether `read` is `written` rounded to half: within half a unit in the last place of half's 11
    /// significant bits (2^-11 relative), or half a subnormal step (2^-25) near zero.
    static func isHalf(of written: Float, _ read: Float) -> Bool {
        abs(read - written) <= max(abs(written) / 2048, 1.0 / Float(1 << 25))
    }

    func assertHalfClose(_ read: FloatImage, _ written: FloatImage, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(read.width, written.width, file: file, line: line)
        XCTAssertEqual(read.height, written.height, file: file, line: line)
        guard read.pixels.count == written.pixels.count else { return XCTFail("pixel counts differ", file: file, line: line) }
        var failures = 0
        for i in read.pixels.indices {
            for c in 0..<4 where !Self.isHalf(of: written.pixels[i][c], read.pixels[i][c]) {
                failures += 1
                if failures <= 5 {
                    XCTFail("pixel \(i % read.width), \(i / read.width) component \(c): wrote \(written.pixels[i][c]), read \(read.pixels[i][c])", file: file, line: line)
                }
            }
        }
        XCTAssertEqual(failures, 0, "components outside half precision", file: file, line: line)
    }

    // MARK: Round trips

    func testFloatRoundTripIsExact() throws {
        let image = Self.sample(largest: 3.0e38)
        try EXR.write(image, to: path("rgba.exr"), channels: .rgba, precision: .float)
        XCTAssertEqual(try EXR.read(path("rgba.exr")), image)
        try EXR.write(image, to: path("rgb.exr"), channels: .rgb, precision: .float)
        XCTAssertEqual(try EXR.read(path("rgb.exr")), Self.opaque(image))
    }

    func testHalfRoundTripIsWithinHalfPrecision() throws {
        let image = Self.sample()
        try EXR.write(image, to: path("rgba.exr"))
        let rgba = try EXR.read(path("rgba.exr"))
        assertHalfClose(rgba, image)
        // Values half holds exactly come back exactly: 1000.5 (11 significant bits), 65504 (half's largest), 0, 1.
        XCTAssertEqual(rgba.pixels[0], SIMD4(1000.5, rgba.pixels[0].y, 65504, 0))
        XCTAssertEqual(rgba.pixels[1].x, 1)
        XCTAssertEqual(rgba.pixels[1].y, -2.25)

        try EXR.write(image, to: path("rgb.exr"), channels: .rgb, precision: .half)
        let rgb = try EXR.read(path("rgb.exr"))
        assertHalfClose(rgb, Self.opaque(image))
        XCTAssertTrue(rgb.pixels.allSatisfy { $0.w == 1 })
    }

    func testNonFiniteValuesAreWrittenAsTheyAre() throws {
        let values = FloatImage(width: 3, height: 1, pixels: [
            SIMD4(.infinity, -.infinity, .nan, 1), SIMD4(1.0e6, -1.0e6, 0, 0.5), SIMD4(2, 3, 4, .nan),
        ])
        for precision in [EXR.Precision.float, .half] {
            try EXR.write(values, to: path("odd.exr"), precision: precision)
            let read = try EXR.read(path("odd.exr"))
            XCTAssertEqual(read.pixels[0].x, .infinity, "\(precision)")
            XCTAssertEqual(read.pixels[0].y, -.infinity, "\(precision)")
            XCTAssertTrue(read.pixels[0].z.isNaN, "\(precision)")
            XCTAssertTrue(read.pixels[2].w.isNaN, "\(precision)")
            // Beyond half's range a finite value becomes infinite, as half precision has it.
            XCTAssertEqual(read.pixels[1].x, precision == .half ? .infinity : 1.0e6, "\(precision)")
            XCTAssertEqual(read.pixels[1].y, precision == .half ? -.infinity : -1.0e6, "\(precision)")
            XCTAssertEqual(read.pixels[2].x, 2)
        }
    }

    /// This image's one ZIP chunk (24 bytes raw) deflates to exactly 24 bytes with Debian 12's zlib.
    /// OpenEXRCore 3.1 stores such a chunk deflated, which every reader takes for raw pixels (equal
    /// sizes mean raw); EXR.write stores it raw. Both readers must see the values written.
    func testAChunkThatDeflatesToItsOwnSizeIsStoredRaw() throws {
        let image = FloatImage(width: 3, height: 1, pixels: [
            SIMD4(.infinity, -.infinity, .nan, 1), SIMD4(1.0e6, -1.0e6, 0, 0.5), SIMD4(2, 3, 4, .nan),
        ])
        let expected: [[Float]] = [[.infinity, -.infinity, .nan, 1], [.infinity, -.infinity, 0, 0.5], [2, 3, 4, .nan]]
        func same(_ a: Float, _ b: Float) -> Bool { a.isNaN ? b.isNaN : a == b }
        let file = path("exact.exr")
        try EXR.write(image, to: file)
        let ours = try EXR.read(file)
        for i in 0..<3 {
            for c in 0..<4 { XCTAssertTrue(same(ours.pixels[i][c], expected[i][c]), "ours: pixel \(i) component \(c) is \(ours.pixels[i][c])") }
        }
        let script = """
        with OpenEXR.File(sys.argv[1], separate_channels=True) as f:
            print(json.dumps({n: [repr(float(v)) for v in c.pixels.reshape(-1)] for n, c in f.channels().items()}))
        """
        guard let seen = try pythonOpenEXR(script, [file]) as? [String: [String]] else { return }
        for (c, name) in ["R", "G", "B", "A"].enumerated() {
            let values = (seen[name] ?? []).compactMap { Float($0) }
            XCTAssertEqual(values.count, 3, "Python: channel \(name) is \(seen[name] ?? [])")
            for (i, value) in values.enumerated() {
                XCTAssertTrue(same(value, expected[i][c]), "Python: pixel \(i) channel \(name) is \(value)")
            }
        }
    }

    func testWriteReplacesAFileAndLeavesNoTemporaryFiles() throws {
        try EXR.write(FloatImage(width: 2, height: 2, fill: SIMD4(1, 2, 3, 1)), to: path("a.exr"))
        try EXR.write(FloatImage(width: 3, height: 1, fill: SIMD4(4, 5, 6, 1)), to: path("a.exr"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["a.exr"])
        XCTAssertEqual(try EXR.read(path("a.exr")), FloatImage(width: 3, height: 1, fill: SIMD4(4, 5, 6, 1)))
    }

    // MARK: An outside reader


    /// What Python's OpenEXR sees in a file: the part's type, compression, line order, windows, each
    /// channel's pixel type, and every channel's pixels row by row as doubles (exact for half and float).
    static let describe = """
    with OpenEXR.File(sys.argv[1], separate_channels=True) as f:
        h = f.header()
        out = {
            "type": h["type"].name, "compression": h["compression"].name, "lineOrder": h["lineOrder"].name,
            "dataWindow": [h["dataWindow"][0].tolist(), h["dataWindow"][1].tolist()],
            "displayWindow": [h["displayWindow"][0].tolist(), h["displayWindow"][1].tolist()],
            "channels": {n: c.type().name for n, c in f.channels().items()},
            "pixels": {n: c.pixels.astype(numpy.float64).reshape(-1).tolist() for n, c in f.channels().items()},
        }
    print(json.dumps(out))
    """

    func checkWithPython(channels: EXR.Channels, precision: EXR.Precision, line: UInt = #line) throws {
        let image = Self.sample(largest: precision == .half ? 65504 : 3.0e38)
        let file = path("python-\(channels)-\(precision).exr")
        try EXR.write(image, to: file, channels: channels, precision: precision)
        guard let seen = try pythonOpenEXR(Self.describe, [file], line: line) else { return }
        let names = channels == .rgba ? ["A", "B", "G", "R"] : ["B", "G", "R"]
        let type = precision == .half ? "HALF" : "FLOAT"
        XCTAssertEqual(seen["type"] as? String, "scanlineimage", line: line)
        XCTAssertEqual(seen["compression"] as? String, "ZIP_COMPRESSION", line: line)
        XCTAssertEqual(seen["lineOrder"] as? String, "INCREASING_Y", line: line)
        XCTAssertEqual(seen["dataWindow"] as? [[Int]], [[0, 0], [36, 22]], line: line)
        XCTAssertEqual(seen["displayWindow"] as? [[Int]], [[0, 0], [36, 22]], line: line)
        XCTAssertEqual(seen["channels"] as? [String: String], Dictionary(uniqueKeysWithValues: names.map { ($0, type) }), line: line)

        // Python's values must be ours exactly: what we wrote at float, what our reader decodes at
        // half (and that within half precision of what we wrote); row 0 is the top in both.
        let ours = try EXR.read(file)
        let pixels = seen["pixels"] as? [String: [Double]] ?? [:]
        for (component, name) in ["R", "G", "B", "A"].enumerated() where names.contains(name) {
            guard let theirs = pixels[name], theirs.count == image.pixels.count else {
                XCTFail("Python gave no full channel \(name)", line: line); continue
            }
            let mismatches = theirs.indices.filter { i in
                let value = Float(theirs[i])
                return precision == .float
                    ? value != image.pixels[i][component]
                    : value != ours.pixels[i][component] || !Self.isHalf(of: image.pixels[i][component], value)
            }
            XCTAssertEqual(mismatches.count, 0, "channel \(name) differs at pixels \(mismatches.prefix(5))", line: line)
        }
        // Spot checks by coordinate: the fixed values at the top-left, and the bottom-right pixel.
        // (Compared as Float: Foundation's JSON parser may miss a double's last bit, never a float's.)
        XCTAssertEqual(pixels["R"]?.first.map(Float.init), 1000.5, line: line)
        XCTAssertEqual(pixels["B"]?.first.map(Float.init), precision == .half ? 65504 : 3.0e38, line: line)
        let last = image.pixels.count - 1
        XCTAssertEqual((pixels["G"]?[last]).map(Float.init), ours.pixels[last].y, line: line)
    }

    func testPythonOpenEXRReadsHalfRGBA() throws { try checkWithPython(channels: .rgba, precision: .half) }
    func testPythonOpenEXRReadsHalfRGB() throws { try checkWithPython(channels: .rgb, precision: .half) }
    func testPythonOpenEXRReadsFloatRGBA() throws { try checkWithPython(channels: .rgba, precision: .float) }
    func testPythonOpenEXRReadsFloatRGB() throws { try checkWithPython(channels: .rgb, precision: .float) }

    /// Files Python's OpenEXR wrote with `channels` ("R:float,G:half,…") and `compression`, the data
    /// window at (10, 5) inside a 100×100 display window: ours reads R G B (and A, else 1) as Float, the
    /// window's corner as pixel (0, 0). Every value is exact in half, float and uint alike.
    func checkReading(channels: String, compression: String, line: UInt = #line) throws {
        let file = path("from-python-\(channels.replacingOccurrences(of: ",", with: "-").replacingOccurrences(of: ":", with: "")).exr")
        let script = """
        w, h = 37, 23
        y, x = numpy.mgrid[0:h, 0:w]
        values = {"R": x * 4 + y * 0.25, "G": x + y * 0.5, "B": x * 16 + y, "A": (x + y) / 64.0, "Z": numpy.full((h, w), 7.0)}
        types = {"float": numpy.float32, "half": numpy.float16, "uint": numpy.uint32}
        planes = {}
        for spec in sys.argv[2].split(","):
            name, kind = spec.split(":")
            planes[name] = values[name].astype(types[kind])
        header = {"compression": getattr(OpenEXR, sys.argv[3]), "type": OpenEXR.scanlineimage,
                  "dataWindow": (numpy.array([10, 5], dtype=numpy.int32), numpy.array([10 + w - 1, 5 + h - 1], dtype=numpy.int32)),
                  "displayWindow": (numpy.array([0, 0], dtype=numpy.int32), numpy.array([99, 99], dtype=numpy.int32))}
        OpenEXR.File(header, planes).write(sys.argv[1])
        print(json.dumps({}))
        """
        guard try pythonOpenEXR(script, [file, channels, compression], line: line) != nil else { return }
        let image = try EXR.read(file)
        XCTAssertEqual(image.width, 37, line: line)
        XCTAssertEqual(image.height, 23, line: line)
        let hasAlpha = channels.contains("A:")
        var wrong = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let expected = SIMD4(Float(x * 4) + Float(y) * 0.25, Float(x) + Float(y) * 0.5, Float(x * 16 + y), hasAlpha ? Float(x + y) / 64 : 1)
                if image[x, y] != expected {
                    wrong += 1
                    if wrong <= 3 { XCTFail("pixel \(x), \(y): read \(image[x, y]), expected \(expected)", line: line) }
                }
            }
        }
        XCTAssertEqual(wrong, 0, "pixels read wrong", line: line)
    }

    func testReadsMixedTypesWithAnExtraChannelAndNoAlpha() throws {
        try checkReading(channels: "R:float,G:half,B:uint,Z:float", compression: "PIZ_COMPRESSION")
    }

    /// OpenEXRCore 3.1's own fast path for this layout returns the channels in reverse order.
    func testReadsHalfRGBAInTheRightOrder() throws {
        try checkReading(channels: "R:half,G:half,B:half,A:half", compression: "ZIP_COMPRESSION")
    }

    /// OpenEXRCore 3.1's own fast path for this layout writes through the skipped channel's null pointer.
    func testReadsHalfRGBBesideASkippedChannel() throws {
        try checkReading(channels: "R:half,G:half,B:half,Z:half", compression: "NO_COMPRESSION")
    }

    func testReadsFloatRGBACompressedWithRLE() throws {
        try checkReading(channels: "R:float,G:float,B:float,A:float", compression: "RLE_COMPRESSION")
    }

    // MARK: Failures

    func testWriteIntoAMissingFolderNamesThePathAndLeavesNothing() throws {
        let target = directory.appendingPathComponent("missing/sky.exr").path
        XCTAssertThrowsError(try EXR.write(Self.sample(), to: target)) { error in
            guard let error = error as? WriteError else { return XCTFail("not a WriteError: \(error)") }
            XCTAssertEqual(error.path, target)
            XCTAssertEqual("\(error)", "cannot write \(target): the folder \(directory.appendingPathComponent("missing").path) does not exist")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testFailedRenameKeepsWhatWasThereAndLeavesNoTemporaryFile() throws {
        // The destination is a non-empty directory: refused before anything is written.
        let target = directory.appendingPathComponent("busy.exr")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: target.appendingPathComponent("keep"))
        XCTAssertThrowsError(try EXR.write(Self.sample(), to: target.path)) { error in
            XCTAssertEqual("\(error)", "cannot write \(target.path): it is a folder")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["busy.exr"])
        XCTAssertEqual(try Data(contentsOf: target.appendingPathComponent("keep")), Data([1, 2, 3]))
    }

    func testEmptyOrMismatchedImagesAreRefused() {
        XCTAssertThrowsError(try EXR.write(FloatImage(width: 0, height: 4), to: path("empty.exr"))) { error in
            XCTAssertEqual("\(error)", "\(path("empty.exr")): cannot write an empty 0×4 image")
        }
        var image = FloatImage(width: 2, height: 2)
        image.pixels.removeLast()
        XCTAssertThrowsError(try EXR.write(image, to: path("short.exr"))) { error in
            XCTAssertEqual("\(error)", "\(path("short.exr")): image has 3 pixels, not 2×2")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testReadingGarbageOrNothingIsAClearError() throws {
        let garbage = path("bad.exr")
        try Data("not an exr".utf8).write(to: URL(fileURLWithPath: garbage))
        XCTAssertThrowsError(try EXR.read(garbage)) { error in
            XCTAssertTrue("\(error)".hasPrefix(garbage + ": not a readable EXR: "), "\(error)")
        }
        // A file cut short after its header: the chunks are missing, and reconstruction is off.
        try EXR.write(Self.sample(), to: path("whole.exr"))
        let whole = try Data(contentsOf: URL(fileURLWithPath: path("whole.exr")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path("cut.exr")))
        XCTAssertThrowsError(try EXR.read(path("cut.exr"))) { error in
            XCTAssertTrue("\(error)".hasPrefix(path("cut.exr") + ": "), "\(error)")
        }
        XCTAssertThrowsError(try EXR.read(path("none.exr"))) { error in
            XCTAssertEqual("\(error)", "\(path("none.exr")): no such file")
        }
    }
}
