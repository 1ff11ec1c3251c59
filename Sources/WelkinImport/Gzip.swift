// gzip and zlib streams through the system zlib: Particle Designer embeds its texture as the
// base64 of a gzip-compressed image.

import CZlib

public enum Gzip {
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Whether `data` starts like a gzip member (1F 8B) or a zlib stream (CMF/FLG with a valid check).
    public static func isCompressed(_ data: [UInt8]) -> Bool {
        guard data.count >= 2 else { return false }
        if data[0] == 0x1F && data[1] == 0x8B { return true }
        return data[0] & 0x0F == 8 && (UInt16(data[0]) << 8 | UInt16(data[1])) % 31 == 0
    }

    /// Inflates a gzip or zlib stream (detected from its header), refusing output beyond `limit` bytes.
    public static func inflate(_ data: [UInt8], limit: Int = 256 << 20) throws -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: a window of 2¹⁵ bytes, gzip or zlib header detected automatically.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Error(description: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = data
        return try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = uInt(c.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                out += chunk[0..<(chunk.count - Int(stream.avail_out))]
                guard out.count <= limit else { throw Error(description: "the decompressed data exceeds \(limit >> 20) MiB") }
                switch status {
                case Z_STREAM_END: return out
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw Error(description: "the compressed data is truncated")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw Error(description: "the compressed data is corrupt (\(reason))")
                }
            }
        }
    }

    /// `data` as one gzip member (for tests and tools that write effect files).
    public static func compress(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a gzip header and trailer.
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Error(description: "zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        var input = data
        let written: Int = try input.withUnsafeMutableBufferPointer { inBuffer in
            try out.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { throw Error(description: "zlib could not compress") }
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(out[0..<written])
    }
}
