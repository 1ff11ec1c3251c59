// Inflate: a zlib stream (RFC 1950) of DEFLATE blocks (RFC 1951) decoded in Swift alone. A package
// that `welkin export-code --package` writes carries this file as it is: the sky's data files (the
// star catalogue, the planets' series, the Milky Way's map) travel zlib-compressed in its bundle and
// are decoded once on the device, with no library beyond Foundation on iOS, macOS or Linux.
//
// Huffman codes are decoded canonically, a bit at a time (RFC 1951 §3.2.2: codes of one length are
// consecutive integers, shorter codes first), which needs no lookup table: about 20 ms a megabyte
// in a release build, done once.

public enum Inflate {
    /// Why a stream cannot be decoded.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The bytes a zlib stream holds, its header and Adler-32 checksum checked.
    public static func zlib(_ stream: [UInt8]) throws(Failure) -> [UInt8] {
        guard stream.count >= 6 else { throw Failure(description: "a zlib stream of \(stream.count) bytes is too short") }
        let cmf = Int(stream[0]), flg = Int(stream[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, (cmf << 8 | flg) % 31 == 0 else { throw Failure(description: "not a zlib stream (header \(cmf), \(flg))") }
        guard flg & 0x20 == 0 else { throw Failure(description: "a zlib stream with a preset dictionary") }
        var reader = BitReader(stream, at: 2)
        let bytes = try deflate(&reader)
        let end = reader.byteAligned
        guard end + 4 <= stream.count else { throw Failure(description: "the zlib stream ends before its checksum") }
        let stored = stream[end..<end + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == adler32(bytes) else { throw Failure(description: "the zlib stream's checksum does not match its bytes") }
        return bytes
    }

    /// Adler-32 (RFC 1950 §8.2).
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < bytes.count {
            // 5552 bytes keep b below 2³² before the reduction (RFC 1950's NMAX).
            let end = min(i + 5552, bytes.count)
            while i < end { a &+= UInt32(bytes[i]); b &+= a; i += 1 }
            a %= 65521; b %= 65521
        }
        return b << 16 | a
    }

    /// Bits least significant first, as DEFLATE packs them.
    struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var buffer: UInt32 = 0
        var count = 0

        init(_ bytes: [UInt8], at position: Int) { self.bytes = bytes; self.position = position }

        mutating func bits(_ n: Int) throws(Failure) -> Int {
            while count < n {
                guard position < bytes.count else { throw Failure(description: "the compressed data ends inside a block") }
                buffer |= UInt32(bytes[position]) << UInt32(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt32(n)) - 1))
            buffer = n == 32 ? 0 : buffer >> UInt32(n)
            count -= n
            return value
        }

        /// The next whole byte's position (the bits left in the current one dropped).
        var byteAligned: Int { position - count / 8 }

        mutating func align() { buffer = 0; position = byteAligned; count = 0 }
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) throws(Failure) {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            // Over-subscribed: more codes of some length than the shorter ones leave room for.
            var left = 1
            for l in 1...15 {
                left = left * 2 - counts[l]
                guard left >= 0 else { throw Failure(description: "an over-subscribed Huffman code") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<15 { offsets[l + 1] = offsets[l] + counts[l] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, l) in lengths.enumerated() where l > 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0, first = 0, index = 0
            for l in 1...15 {
                code |= try reader.bits(1)
                let n = counts[l]
                if code - first < n { return symbols[index + code - first] }
                index += n
                first = (first + n) << 1
                code <<= 1
            }
            throw Failure(description: "a Huffman code that is not in its table")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                               4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order code-length code lengths are stored in (RFC 1951 §3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Every block up to the last one's end.
    static func deflate(_ reader: inout BitReader) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reader.bytes.count * 3)
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.align()
                let at = reader.position
                guard at + 4 <= reader.bytes.count else { throw Failure(description: "a stored block's length is cut off") }
                let length = Int(reader.bytes[at]) | Int(reader.bytes[at + 1]) << 8
                let check = Int(reader.bytes[at + 2]) | Int(reader.bytes[at + 3]) << 8
                guard length ^ 0xFFFF == check else { throw Failure(description: "a stored block's length and its complement disagree") }
                guard at + 4 + length <= reader.bytes.count else { throw Failure(description: "a stored block is cut off") }
                out.append(contentsOf: reader.bytes[(at + 4)..<(at + 4 + length)])
                reader.position = at + 4 + length
            case 1:
                try codes(&reader, &out, literals: fixed.literals, distances: fixed.distances)
            case 2:
                let (literals, distances) = try dynamicCodes(&reader)
                try codes(&reader, &out, literals: literals, distances: distances)
            default:
                throw Failure(description: "a block of the reserved type 3")
            }
        }
        return out
    }

    /// The fixed codes (RFC 1951 §3.2.6).
    static let fixed: (literals: Huffman, distances: Huffman) = {
        let literals = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
        // Both are complete codes: neither can be over-subscribed.
        return (try! Huffman(lengths: literals), try! Huffman(lengths: [Int](repeating: 5, count: 30)))
    }()

    static func dynamicCodes(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Failure(description: "a block with too many codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[codeLengthOrder[i]] = try reader.bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&reader)
            if symbol < 16 { lengths.append(symbol); continue }
            let (value, repeats): (Int, Int)
            switch symbol {
            case 16:
                guard let previous = lengths.last else { throw Failure(description: "a repeat with no length before it") }
                (value, repeats) = (previous, 3 + (try reader.bits(2)))
            case 17: (value, repeats) = (0, 3 + (try reader.bits(3)))
            default: (value, repeats) = (0, 11 + (try reader.bits(7)))
            }
            guard lengths.count + repeats <= literalCount + distanceCount else { throw Failure(description: "code lengths run past their count") }
            lengths.append(contentsOf: repeatElement(value, count: repeats))
        }
        guard lengths[256] > 0 else { throw Failure(description: "a block without an end-of-block code") }
        return (try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }

    static func codes(_ reader: inout BitReader, _ out: inout [UInt8], literals: Huffman, distances: Huffman) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 { out.append(UInt8(symbol)); continue }
            if symbol == 256 { return }
            let l = symbol - 257
            guard l < lengthBase.count else { throw Failure(description: "a length code \(symbol) out of range") }
            let length = lengthBase[l] + (try reader.bits(lengthExtra[l]))
            let d = try distances.decode(&reader)
            guard d < distanceBase.count else { throw Failure(description: "a distance code \(d) out of range") }
            let distance = distanceBase[d] + (try reader.bits(distanceExtra[d]))
            guard distance <= out.count else { throw Failure(description: "a distance of \(distance) before the start") }
            let from = out.count - distance
            for i in 0..<length { out.append(out[from + i]) }
        }
    }
}
