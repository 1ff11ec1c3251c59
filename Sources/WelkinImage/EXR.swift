// OpenEXR: scene-linear float images written (and read back, for tests and tools) through OpenEXR's
// C library, OpenEXRCore. The file is built in memory through the library's custom stream hooks and
// then written with AtomicFile (PNG.swift), so EXR and PNG outputs share one atomic-write path.

import COpenEXR
import Foundation
import WelkinCore

/// A scene-linear float image: RGBA per pixel, straight (not premultiplied) or premultiplied as the caller says, row 0 at the top.
///
/// Values are not clamped: above 1 is ordinary in scene-linear light. Equality is per `Float`, so an
/// image holding a NaN is never equal to anything, itself included.
public struct FloatImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// width × height pixels, rows top to bottom; R G B A in x y z w.
    public var pixels: [SIMD4<Float>]

    public init(width: Int, height: Int, pixels: [SIMD4<Float>]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel buffer does not match \(width)×\(height)")
        self.width = width; self.height = height; self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: SIMD4<Float> = .zero) {
        precondition(width >= 0 && height >= 0, "negative size \(width)×\(height)")
        self.width = width; self.height = height
        self.pixels = [SIMD4<Float>](repeating: fill, count: width * height)
    }

    /// The pixel in column `x` of row `y` (row 0 at the top).
    public subscript(x: Int, y: Int) -> SIMD4<Float> {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// A failure writing or reading an EXR file; `message` carries OpenEXR's own words where it gave some.
public struct EXRError: UserFacingError, Sendable {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
    public var filePath: String? { path }

    public init(path: String, message: String) {
        self.path = path; self.message = message
    }
}

public enum EXR {
    /// Which channels a file gets: R G B, or R G B A.
    public enum Channels: Sendable { case rgb, rgba }
    /// How each channel is stored: 16-bit half (largest finite 65504, about 3 significant digits) or 32-bit float.
    public enum Precision: Sendable { case half, float }

    /// The most pixels on a side `read` accepts (guards memory against hostile files), as PNG's.
    public static let maximumDimension = 16384

    /// The largest EXR file `read` accepts, in bytes (the file is read into memory whole).
    public static let maximumFileSize = 1 << 30

    /// Writes `image` to `path` (ZIP compression, scanline, increasing-Y, channels named R G B [A] — EXR's convention is premultiplied alpha, so callers pass premultiplied colour), atomically: a temporary file in the same folder renamed over `path` only on success; on failure nothing is left behind and the error names the file.
    ///
    /// Values go in as they are, with no clamping: NaN and ±infinity are stored as such (EXR holds
    /// them, and hiding a renderer's NaN would hide its bug). With `.half`, a finite value beyond
    /// ±65504 rounds to ±infinity and one below about 6e-8 to zero, as half precision does. The data
    /// and display windows are both (0, 0)–(width − 1, height − 1).
    public static func write(_ image: FloatImage, to path: String, channels: Channels = .rgba, precision: Precision = .half) throws {
        guard image.width > 0, image.height > 0 else {
            throw EXRError(path: path, message: "cannot write an empty \(image.width)×\(image.height) image")
        }
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw EXRError(path: path, message: "image is \(image.width)×\(image.height), too large for EXR's 32-bit coordinates")
        }
        guard image.pixels.count == image.width * image.height else {
            throw EXRError(path: path, message: "image has \(image.pixels.count) pixels, not \(image.width)×\(image.height)")
        }
        let bytes = try encode(image, path: path, channels: channels, precision: precision)
        try AtomicFile.write(bytes, to: path)
    }

    /// Reads an EXR's R, G, B (and A when present; 1 otherwise) as Float (any of half/float/uint channels), for tests and tools.
    ///
    /// Reads the first part of a scanline file; its data window becomes the image (the window's
    /// top-left corner is pixel (0, 0)). Other channels are ignored. Tiled and deep files are refused.
    /// The file is read into memory first, so a FIFO or device at `path` is refused, not read without end.
    public static func read(_ path: String) throws -> FloatImage {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: maximumFileSize) } catch {
            throw EXRError(path: path, message: error == .missing ? "no such file" : "the file \(error)")
        }
        return try decode(bytes, path: path)
    }

    // MARK: Writing

    /// The EXR file for `image`, built in memory by OpenEXRCore.
    private static func encode(_ image: FloatImage, path: String, channels: Channels, precision: Precision) throws -> [UInt8] {
        let stream = CoreStream(path: path, bytes: [])
        var initializer = stream.initializer()
        initializer.write_fn = { _, user, buffer, size, offset, _ in
            guard let user else { return -1 }
            return Unmanaged<CoreStream>.fromOpaque(user).takeUnretainedValue().write(buffer, size: size, at: offset)
        }
        return try withExtendedLifetime(stream) {
            var handle: exr_context_t?
            // With a custom write_fn the name is only used in OpenEXR's messages, and the write mode is ignored.
            try stream.check("cannot start an EXR file") { exr_start_write(&handle, path, EXR_WRITE_FILE_DIRECTLY, &initializer) }
            defer { CoreStream.finish(&handle) }
            guard let context = handle else { throw EXRError(path: path, message: "OpenEXR returned no context") }

            var part: Int32 = 0
            // No part name: a single unnamed part is written as a plain (not multi-part) file, which every reader opens.
            try stream.check("cannot add the image part") { exr_add_part(context, nil, EXR_STORAGE_SCANLINE, &part) }
            let width = Int32(image.width), height = Int32(image.height)
            var window = exr_attr_box2i_t()
            window.min.x = 0; window.min.y = 0
            window.max.x = width - 1; window.max.y = height - 1
            var center = exr_attr_v2f_t()
            center.x = 0; center.y = 0
            // Every required attribute at once (data and display windows, pixel aspect, screen window,
            // line order, compression): exr_write_header refuses a part missing any of them.
            try stream.check("cannot set the required attributes") {
                exr_initialize_required_attr(context, part, &window, &window, 1, &center, 1, EXR_LINEORDER_INCREASING_Y, EXR_COMPRESSION_ZIP)
            }
            let type = precision == .half ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT
            for name in channels == .rgba ? ["R", "G", "B", "A"] : ["R", "G", "B"] {
                // "Perceptually logarithmic" is OpenEXR's usual hint for colour (and only lossy codecs read it).
                try stream.check("cannot add channel \(name)") {
                    exr_add_channel(context, part, name, type, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1)
                }
            }
            try stream.check("cannot write the EXR header") { exr_write_header(context) }

            var linesPerChunk: Int32 = 0
            try stream.check("cannot size the scanline chunks") { exr_get_scanlines_per_chunk(context, part, &linesPerChunk) }
            guard linesPerChunk > 0 else { throw EXRError(path: path, message: "OpenEXR reported \(linesPerChunk) scanlines per chunk") }

            // The pipeline keeps a pointer into itself (its small channel table), so it lives at a fixed address.
            let pipeline = UnsafeMutablePointer<exr_encode_pipeline_t>.allocate(capacity: 1)
            pipeline.initialize(to: exr_encode_pipeline_t())
            defer { exr_encoding_destroy(context, pipeline); pipeline.deallocate() }

            try image.pixels.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                let rowBytes = image.width * MemoryLayout<SIMD4<Float>>.stride
                var y: Int32 = 0
                while y < height {
                    var chunk = exr_chunk_info_t()
                    try stream.check("cannot start the chunk at line \(y)") { exr_write_scanline_chunk_info(context, part, y, &chunk) }
                    if y == 0 {
                        try stream.check("cannot start encoding") { exr_encoding_initialize(context, part, &chunk, pipeline) }
                    } else {
                        try stream.check("cannot continue encoding at line \(y)") { exr_encoding_update(context, part, &chunk, pipeline) }
                    }
                    // The part's channels come back sorted by name (A B G R); each reads its component
                    // straight out of the interleaved SIMD4 pixels, the library converting to half as it packs.
                    let table = pipeline.pointee.channels!
                    for index in 0..<Int(pipeline.pointee.channel_count) {
                        let name = String(cString: table[index].channel_name)
                        guard let component = componentIndex(name) else {
                            throw EXRError(path: path, message: "OpenEXR asked for an unexpected channel \(name)")
                        }
                        table[index].user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
                        table[index].user_bytes_per_element = Int16(MemoryLayout<Float>.size)
                        table[index].user_pixel_stride = Int32(MemoryLayout<SIMD4<Float>>.stride)
                        table[index].user_line_stride = Int32(rowBytes)
                        let start = Int(chunk.start_y) * rowBytes + component * MemoryLayout<Float>.stride
                        table[index].encode_from_ptr = UnsafePointer((base + start).assumingMemoryBound(to: UInt8.self))
                    }
                    if y == 0 {
                        try stream.check("cannot choose the encoder") { exr_encoding_choose_default_routines(context, part, pipeline) }
                        // The library's compressor, kept where the wrapper below can find it (a C callback captures nothing).
                        pipeline.pointee.encoding_user_data = unsafeBitCast(pipeline.pointee.compress_fn, to: UnsafeMutableRawPointer?.self)
                        pipeline.pointee.compress_fn = { pipeline in EXR.compressNoLargerThanRaw(pipeline) }
                    }
                    try stream.check("cannot encode the chunk at line \(y)") { exr_encoding_run(context, part, pipeline) }
                    y += linesPerChunk
                }
            }
            // Finishing writes the chunk offset table, so its failure is the file's failure.
            var finishing = handle
            handle = nil
            try stream.check("cannot finish the EXR file") { exr_finish(&finishing) }
            return stream.bytes
        }
    }

    /// OpenEXRCore 3.1's compressor, then the format's rule that a chunk is stored raw unless
    /// compression made it smaller. The library falls back to raw only when deflate made it larger,
    /// so a chunk that deflates to exactly its own size went out as a deflate stream that readers,
    /// seeing equal sizes, take for raw pixels: garbage (a 3×1 half image with infinities does it).
    private static func compressNoLargerThanRaw(_ pipeline: UnsafeMutablePointer<exr_encode_pipeline_t>?) -> exr_result_t {
        typealias Compress = @convention(c) (UnsafeMutablePointer<exr_encode_pipeline_t>?) -> exr_result_t
        guard let pipeline, let saved = pipeline.pointee.encoding_user_data else { return exr_result_t(EXR_ERR_INVALID_ARGUMENT.rawValue) }
        let code = unsafeBitCast(saved, to: Compress.self)(pipeline)
        guard code == 0 else { return code }
        let raw = Int(pipeline.pointee.packed_bytes)
        // The compressed buffer holds at least the raw size: the library copies raw data into it itself when deflate grows it.
        if pipeline.pointee.compressed_bytes >= raw, let packed = pipeline.pointee.packed_buffer,
           let compressed = pipeline.pointee.compressed_buffer, pipeline.pointee.compressed_alloc_size >= raw {
            if compressed != packed { compressed.copyMemory(from: packed, byteCount: raw) }
            pipeline.pointee.compressed_bytes = raw
        }
        return code
    }

    /// Where channel `name` lives in a SIMD4 pixel (R G B A → 0 1 2 3).
    private static func componentIndex(_ name: String) -> Int? {
        switch name {
        case "R": return 0
        case "G": return 1
        case "B": return 2
        case "A": return 3
        default: return nil
        }
    }

    // MARK: Reading

    private static func decode(_ bytes: [UInt8], path: String) throws -> FloatImage {
        let stream = CoreStream(path: path, bytes: bytes)
        var initializer = stream.initializer()
        initializer.read_fn = { _, user, buffer, size, offset, _ in
            guard let user else { return -1 }
            return Unmanaged<CoreStream>.fromOpaque(user).takeUnretainedValue().read(into: buffer, size: size, at: offset)
        }
        initializer.size_fn = { _, user in
            guard let user else { return -1 }
            return Int64(Unmanaged<CoreStream>.fromOpaque(user).takeUnretainedValue().bytes.count)
        }
        initializer.max_image_width = Int32(maximumDimension)
        initializer.max_image_height = Int32(maximumDimension)
        // A damaged file is an error here, not an image OpenEXR pieced together from what it found.
        initializer.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION
        return try withExtendedLifetime(stream) {
            var handle: exr_context_t?
            try stream.check("not a readable EXR") { exr_start_read(&handle, path, &initializer) }
            defer { CoreStream.finish(&handle) }
            guard let context = handle else { throw EXRError(path: path, message: "OpenEXR returned no context") }

            let part: Int32 = 0
            var storage = EXR_STORAGE_LAST_TYPE
            try stream.check("cannot read the part's storage type") { exr_get_storage(context, part, &storage) }
            guard storage == EXR_STORAGE_SCANLINE else {
                let kind = storage == EXR_STORAGE_TILED ? "tiled" : "deep"
                throw EXRError(path: path, message: "is a \(kind) EXR; only scanline images are read")
            }
            var window = exr_attr_box2i_t()
            try stream.check("cannot read the data window") { exr_get_data_window(context, part, &window) }
            let width = Int(window.max.x) - Int(window.min.x) + 1, height = Int(window.max.y) - Int(window.min.y) + 1
            guard width > 0, height > 0, width <= maximumDimension, height <= maximumDimension else {
                throw EXRError(path: path, message: "data window is \(width)×\(height), outside 1×1 to \(maximumDimension)×\(maximumDimension)")
            }

            var list: UnsafePointer<exr_attr_chlist_t>?
            try stream.check("cannot read the channel list") { exr_get_channels(context, part, &list) }
            var present = Set<String>()
            if let list {
                for index in 0..<Int(list.pointee.num_channels) {
                    let entry = list.pointee.entries[index]
                    let name = String(cString: entry.name.str)
                    guard componentIndex(name) != nil else { continue }
                    guard entry.x_sampling == 1, entry.y_sampling == 1 else {
                        throw EXRError(path: path, message: "channel \(name) is subsampled (\(entry.x_sampling)×\(entry.y_sampling)); only full-resolution R G B A are read")
                    }
                    present.insert(name)
                }
            }
            let missing = ["R", "G", "B"].filter { !present.contains($0) }
            guard missing.isEmpty else {
                throw EXRError(path: path, message: "has no \(missing.joined(separator: " ")) channel\(missing.count > 1 ? "s" : "")")
            }

            var linesPerChunk: Int32 = 0
            try stream.check("cannot size the scanline chunks") { exr_get_scanlines_per_chunk(context, part, &linesPerChunk) }
            guard linesPerChunk > 0 else { throw EXRError(path: path, message: "OpenEXR reported \(linesPerChunk) scanlines per chunk") }

            // OpenEXRCore 3.1 picks a fast unpacker from the pointer layout it is given, and two of them
            // are wrong: four half channels interleaved (A B G R in the file, R G B A in memory) come
            // out in reverse order, and the three- and four-channel ones write through every channel's
            // pointer even when one is null (a skipped channel, such as Z beside half R G B), which
            // crashes. So each chunk is decoded into a scratch layout none of them matches (components
            // two floats apart in eight-float pixels), leaving the library its general unpacker, and
            // copied into place from there.
            let slot = 2 * MemoryLayout<Float>.stride, scratchPixel = 4 * slot
            let lineBytes = width * scratchPixel
            var scratch = [UInt8](repeating: 0, count: lineBytes * Int(linesPerChunk))
            let components = present.compactMap(componentIndex).sorted()
            // Alpha is 1 unless the file has an A channel to decode over it.
            var pixels = [SIMD4<Float>](repeating: SIMD4(0, 0, 0, 1), count: width * height)
            let pipeline = UnsafeMutablePointer<exr_decode_pipeline_t>.allocate(capacity: 1)
            pipeline.initialize(to: exr_decode_pipeline_t())
            defer { exr_decoding_destroy(context, pipeline); pipeline.deallocate() }

            try scratch.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                var y = window.min.y
                var first = true
                while y <= window.max.y {
                    var chunk = exr_chunk_info_t()
                    try stream.check("cannot find the chunk at line \(y)") { exr_read_scanline_chunk_info(context, part, y, &chunk) }
                    if first {
                        try stream.check("cannot start decoding") { exr_decoding_initialize(context, part, &chunk, pipeline) }
                    } else {
                        try stream.check("cannot continue decoding at line \(y)") { exr_decoding_update(context, part, &chunk, pipeline) }
                    }
                    // Chunks are counted from the window's top line, so this holds for any file OpenEXR accepted.
                    let row = Int(chunk.start_y) - Int(window.min.y), lines = Int(chunk.height)
                    guard row >= 0, lines <= Int(linesPerChunk), row + lines <= height else {
                        throw EXRError(path: path, message: "chunk at line \(y) covers lines \(chunk.start_y)…\(Int(chunk.start_y) + lines - 1), outside the data window")
                    }
                    let table = pipeline.pointee.channels!
                    for index in 0..<Int(pipeline.pointee.channel_count) {
                        // Channels other than R G B A keep a null pointer, which the general unpacker skips.
                        guard let component = componentIndex(String(cString: table[index].channel_name)) else {
                            table[index].decode_to_ptr = nil
                            continue
                        }
                        table[index].user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
                        table[index].user_bytes_per_element = Int16(MemoryLayout<Float>.size)
                        table[index].user_pixel_stride = Int32(scratchPixel)
                        table[index].user_line_stride = Int32(lineBytes)
                        table[index].decode_to_ptr = (base + component * slot).assumingMemoryBound(to: UInt8.self)
                    }
                    if first {
                        try stream.check("cannot choose the decoder") { exr_decoding_choose_default_routines(context, part, pipeline) }
                    }
                    try stream.check("cannot decode the chunk at line \(y)") { exr_decoding_run(context, part, pipeline) }
                    pixels.withUnsafeMutableBufferPointer { out in
                        for line in 0..<lines {
                            for x in 0..<width {
                                let from = base + line * lineBytes + x * scratchPixel
                                for c in components {
                                    out[(row + line) * width + x][c] = from.load(fromByteOffset: c * slot, as: Float.self)
                                }
                            }
                        }
                    }
                    first = false
                    y += linesPerChunk
                }
            }
            return FloatImage(width: width, height: height, pixels: pixels)
        }
    }
}

/// One file's worth of OpenEXRCore I/O: the bytes the library writes or reads through its custom
/// stream hooks, and the last message its error handler gave (OpenEXR reports details only there,
/// the return code being just a category).
private final class CoreStream {
    let path: String
    var bytes: [UInt8]
    var lastMessage: String?

    init(path: String, bytes: [UInt8]) {
        self.path = path; self.bytes = bytes
    }

    /// An initializer whose user data is this stream (the caller keeps it alive while the context
    /// lives) and whose error handler keeps OpenEXR's message here instead of printing it to stderr.
    func initializer() -> exr_context_initializer_t {
        var initializer = exr_context_initializer_t()
        initializer.size = MemoryLayout<exr_context_initializer_t>.size
        // EXR_DEFAULT_CONTEXT_INITIALIZER's non-zero defaults (a C macro Swift cannot import):
        // -2 and -1 mean "the library's default ZIP level and DWA quality".
        initializer.zip_level = -2
        initializer.dwa_quality = -1
        initializer.user_data = Unmanaged.passUnretained(self).toOpaque()
        initializer.error_handler_fn = { context, _, message in
            var user: UnsafeMutableRawPointer?
            guard let context, let message, exr_get_user_data(context, &user) == 0, let user else { return }
            let stream = Unmanaged<CoreStream>.fromOpaque(user).takeUnretainedValue()
            // The first message is the specific one; callers up the library's stack may add vaguer ones.
            if stream.lastMessage == nil { stream.lastMessage = String(cString: message) }
        }
        return initializer
    }

    /// Runs one OpenEXRCore call; a non-zero result becomes an EXRError naming the step, OpenEXR's
    /// message (or its default text for the code) and the code's name.
    func check(_ step: String, _ call: () -> exr_result_t) throws {
        lastMessage = nil
        let code = call()
        guard code != 0 else { return }
        let detail = lastMessage ?? String(cString: exr_get_default_error_message(code))
        throw EXRError(path: path, message: "\(step): \(detail) (\(String(cString: exr_get_error_code_as_string(code))))")
    }

    /// Closes a context still open after an early exit; its result is of no use then, the bytes being discarded.
    static func finish(_ context: inout exr_context_t?) {
        guard context != nil else { return }
        _ = exr_finish(&context)
        context = nil
    }

    /// The write hook: pwrite into `bytes`, growing it (OpenEXR seeks back to fill in the chunk offset table).
    func write(_ buffer: UnsafeRawPointer?, size: UInt64, at offset: UInt64) -> Int64 {
        guard size > 0 else { return 0 }
        guard let buffer, size < 1 << 40, offset < 1 << 40 else { return -1 }
        let start = Int(offset), end = start + Int(size)
        if bytes.count < end { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
        bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: buffer, byteCount: Int(size)) }
        return Int64(size)
    }

    /// The read hook: pread from `bytes`; a read past the end returns what there is, as pread does.
    func read(into buffer: UnsafeMutableRawPointer?, size: UInt64, at offset: UInt64) -> Int64 {
        guard let buffer else { return -1 }
        guard offset < UInt64(bytes.count) else { return 0 }
        let start = Int(offset), count = Int(min(size, UInt64(bytes.count - start)))
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!.advanced(by: start), byteCount: count) }
        return Int64(count)
    }
}
