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

    /// A `size` canvas of `fill` with this image's top-left corner at `offset` (negative: the
    /// image is cropped there); pixels that fall outside the canvas are left out.
    public func placed(on size: SIMD2<Int>, at offset: SIMD2<Int>, fill: SIMD4<UInt8> = .zero) -> Image {
        var out = Image(width: size.x, height: size.y, fill: fill)
        let x0 = max(0, offset.x), x1 = min(size.x, offset.x + width)
        let y0 = max(0, offset.y), y1 = min(size.y, offset.y + height)
        guard x0 < x1, y0 < y1 else { return out }
        let count = (x1 - x0) * 4
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    let s = ((y - offset.y) * width + (x0 - offset.x)) * 4
                    dst.baseAddress!.advanced(by: (y * size.x + x0) * 4).update(from: src.baseAddress!.advanced(by: s), count: count)
                }
            }
        }
        return out
    }
}
