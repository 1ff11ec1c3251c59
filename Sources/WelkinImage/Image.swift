// Image: 8-bit straight-alpha RGBA pixels, rows top to bottom.

/// An RGBA8 image with straight (not premultiplied) alpha; row 0 is the top.
public struct Image: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// width × height × 4 bytes, R G B A per pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)×\(height)")
        self.width = width; self.height = height; self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: SIMD4<UInt8> = .zero) {
        self.width = width; self.height = height
        var p = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .zero {
            for i in 0..<(width * height) {
                p[4 * i] = fill.x; p[4 * i + 1] = fill.y; p[4 * i + 2] = fill.z; p[4 * i + 3] = fill.w
            }
        }
        self.pixels = p
    }

    public subscript(x: Int, y: Int) -> SIMD4<UInt8> {
        get {
            let i = (y * width + x) * 4
            return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.x; pixels[i + 1] = newValue.y; pixels[i + 2] = newValue.z; pixels[i + 3] = newValue.w
        }
    }

    /// The same image flipped top to bottom (OpenGL reads rows bottom-up).
    public func flippedVertically() -> Image {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let row = width * 4
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let s = (height - 1 - y) * row
                    dst.baseAddress!.advanced(by: y * row).update(from: src.baseAddress!.advanced(by: s), count: row)
                }
            }
        }
        return Image(width: width, height: height, pixels: out)
    }
}
