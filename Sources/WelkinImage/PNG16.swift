// 16-bit RGBA PNGs (`--depth 16`), written and read over zlib: IHDR, the colour chunks
// (PNGColor), one IDAT, IEND. libpng's simplified API would take 16-bit samples as linear light
// (and premultiplied), which these are not: they are the output space's encoded values.

import CZlib
import Foundation
import WelkinCore

public enum PNG16 {
    /// Encodes `img` as a 16-bit RGBA PNG tagged as `colorSpace`. Each row takes the filter
    /// (None, Sub, Up, Average, Paeth) with the smallest sum of absolute values, libpng's heuristic.
    public static func encode(_ img: Image16, colorSpace: OutputColorSpace) throws -> [UInt8] {
        let bpp = 8, stride = img.width * bpp
        var raw = [UInt8](repeating: 0, count: img.height * (stride + 1))
        var previous = [UInt8](repeating: 0, count: stride), current = previous, candidate = previous, best = previous
        for y in 0..<img.height {
            for i in 0..<(img.width * 4) {
                let v = img.pixels[y * img.width * 4 + i]
                current[2 * i] = UInt8(v >> 8); current[2 * i + 1] = UInt8(v & 0xFF)
            }
            var bestFilter: UInt8 = 0, bestCost = Int.max
            for filter in UInt8(0)...4 {
                var cost = 0
                for i in 0..<stride {
                    let a = i >= bpp ? Int(current[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
                    let predictor: Int
                    switch filter {
                    case 0: predictor = 0
                    case 1: predictor = a
                    case 2: predictor = b
                    case 3: predictor = (a + b) / 2
                    default: predictor = paeth(a, b, c)
                    }
                    let out = UInt8(truncatingIfNeeded: Int(current[i]) - predictor)
                    candidate[i] = out
                    cost += out < 128 ? Int(out) : 256 - Int(out)
                }
                if cost < bestCost { bestCost = cost; bestFilter = filter; swap(&best, &candidate) }
            }
            let base = y * (stride + 1)
            raw[base] = bestFilter
            raw.replaceSubrange((base + 1)...(base + stride), with: best)
            swap(&previous, &current)
        }
        let header = PNGColor.bigEndian(UInt32(img.width)) + PNGColor.bigEndian(UInt32(img.height)) + [16, 6, 0, 0, 0]
        return PNGColor.signature + PNGColor.chunk("IHDR", header) + PNGColor.colorChunks(colorSpace)
            + PNGColor.chunk("IDAT", try PNGColor.deflate(raw, level: 6)) + PNGColor.chunk("IEND", [])
    }

    /// Writes a 16-bit PNG through a temporary file renamed into place (as PNG.write).
    public static func write(_ img: Image16, to path: String, colorSpace: OutputColorSpace) throws {
        let bytes: [UInt8]
        do { bytes = try encode(img, colorSpace: colorSpace) } catch let e as PNGColorError {
            throw ImageFileError(path: path, message: "cannot encode PNG: \(e.message)")
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Reads a 16-bit RGBA, non-interlaced PNG (what `encode` writes) as its samples; nil for any other PNG.
    public static func decode(_ bytes: [UInt8]) throws -> Image16? {
        guard let chunks = PNGColor.chunks(bytes), let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count == 13 else {
            throw ImageFileError(path: "<memory>", message: "not a readable PNG")
        }
        let d = ihdr.data
        func be(_ i: Int) -> Int { Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3]) }
        let width = be(0), height = be(4)
        guard d[8] == 16, d[9] == 6, d[12] == 0 else { return nil }
        guard width > 0, height > 0, width <= PNG.maximumDimension, height <= PNG.maximumDimension else {
            throw ImageFileError(path: "<memory>", message: "image is \(width)×\(height), larger than \(PNG.maximumDimension)×\(PNG.maximumDimension)")
        }
        let stride = width * 8
        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var size = uLong(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { o in
            compressed.withUnsafeBufferPointer { uncompress(o.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(size) == raw.count else { throw ImageFileError(path: "<memory>", message: "cannot decode PNG: bad image data") }
        var previous = [UInt8](repeating: 0, count: stride), current = previous
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let base = y * (stride + 1), filter = raw[base]
            for i in 0..<stride {
                let x = Int(raw[base + 1 + i])
                let a = i >= 8 ? Int(current[i - 8]) : 0, b = Int(previous[i]), c = i >= 8 ? Int(previous[i - 8]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4: predictor = paeth(a, b, c)
                default: throw ImageFileError(path: "<memory>", message: "cannot decode PNG: unknown filter \(filter)")
                }
                current[i] = UInt8(truncatingIfNeeded: x + predictor)
            }
            for i in 0..<(width * 4) { pixels[y * width * 4 + i] = UInt16(current[2 * i]) << 8 | UInt16(current[2 * i + 1]) }
            swap(&previous, &current)
        }
        return Image16(width: width, height: height, pixels: pixels)
    }

    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
}
