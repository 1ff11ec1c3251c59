// PNG reading and writing through libpng's simplified API (no setjmp), written atomically, tagged
// with their colour space (PNGColor: cICP and iCCP or sRGB). 16-bit PNGs (PNG16) are written and
// read by Welkin itself over zlib: libpng's simplified API takes 16-bit data as linear light.

import CPNG
import Foundation
import WelkinCore

/// A failure reading or writing an image file.
public struct ImageFileError: UserFacingError, Sendable {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
    public var filePath: String? { path }

    public init(path: String, message: String) {
        self.path = path; self.message = message
    }
}

public enum PNG {
    /// The most pixels on a side Welkin will read (guards memory against hostile files).
    public static let maximumDimension = 16384

    /// The largest PNG file Welkin reads, in bytes.
    public static let maximumFileSize = 512 << 20

    /// Reads a PNG as straight-alpha RGBA8 (any PNG colour type is converted). The file is read
    /// into memory first, so a FIFO or device at `path` is refused rather than read without end.
    public static func read(path: String) throws -> Image {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: maximumFileSize) } catch {
            throw ImageFileError(path: path, message: error == .missing ? "no such file" : "the file \(error)")
        }
        return try bytes.withUnsafeBytes { raw in try decode(raw, path: path) }
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, path: String) throws -> Image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard let base = raw.baseAddress, png_image_begin_read_from_memory(&image, base, raw.count) != 0 else {
            throw ImageFileError(path: path, message: "not a readable PNG: \(message(of: &image))")
        }
        guard Int(image.width) <= maximumDimension, Int(image.height) <= maximumDimension else {
            png_image_free(&image)
            throw ImageFileError(path: path, message: "image is \(image.width)×\(image.height), larger than \(maximumDimension)×\(maximumDimension)")
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            let text = message(of: &image)
            png_image_free(&image)
            throw ImageFileError(path: path, message: "cannot decode PNG: \(text)")
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Encodes an image to PNG bytes in memory, tagged as `colorSpace` (PNGColor).
    public static func encode(_ img: Image, colorSpace: OutputColorSpace = .srgb) throws -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        if colorSpace != .srgb { image.flags |= UInt32(PNG_IMAGE_FLAG_COLORSPACE_NOT_sRGB) }
        image.width = UInt32(img.width)
        image.height = UInt32(img.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size = 0
        // First call measures, second writes.
        let measured = img.pixels.withUnsafeBytes { px in
            png_image_write_to_memory(&image, nil, &size, 0, px.baseAddress, Int32(img.width * 4), nil)
        }
        guard measured != 0, size > 0 else {
            throw ImageFileError(path: "<memory>", message: "cannot encode PNG: \(message(of: &image))")
        }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { buffer in
            img.pixels.withUnsafeBytes { px in
                png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, px.baseAddress, Int32(img.width * 4), nil)
            }
        }
        guard ok != 0 else { throw ImageFileError(path: "<memory>", message: "cannot encode PNG: \(message(of: &image))") }
        return PNGColor.tagging(Array(out.prefix(size)), colorSpace)
    }

    /// Writes a PNG through a temporary file renamed into place, so a failure never leaves a
    /// truncated image and never clobbers an existing good file.
    public static func write(_ img: Image, to path: String, colorSpace: OutputColorSpace = .srgb) throws {
        let bytes: [UInt8]
        do { bytes = try encode(img, colorSpace: colorSpace) } catch let e as ImageFileError {
            throw ImageFileError(path: path, message: e.message)
        }
        try AtomicFile.write(bytes, to: path)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix(while: { $0 != 0 })
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// Whole-file writes that either fully succeed or leave the destination untouched; a failure is a
/// `WriteError` (`cannot write PATH: REASON`).
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = OutputFile.folder(of: path)
        try OutputFile.checkWritable(path)
        let temporary = directory + "/." + (path as NSString).lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: OutputFile.reason(errno, folder: directory)) }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                written += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw WriteError(path: path, reason: OutputFile.reason(failure, folder: directory))
        }
    }
}
