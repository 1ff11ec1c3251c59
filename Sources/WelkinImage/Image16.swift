// Image16: 16-bit straight-alpha RGBA pixels, rows top to bottom (`--depth 16`).

/// An RGBA16 image with straight (not premultiplied) alpha; row 0 is the top. Values are whole
/// numbers of 65535ths of the output space's encoded values.
public struct Image16: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// width × height × 4 values, R G B A per pixel.
    public var pixels: [UInt16]

    public init(width: Int, height: Int, pixels: [UInt16]) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)×\(height)")
        self.width = width; self.height = height; self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> SIMD4<UInt16> {
        let i = (y * width + x) * 4
        return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// The same image flipped top to bottom (OpenGL reads rows bottom-up).
    public func flippedVertically() -> Image16 {
        var out = [UInt16](repeating: 0, count: pixels.count)
        let row = width * 4
        for y in 0..<height {
            let s = (height - 1 - y) * row, d = y * row
            out[d..<(d + row)] = pixels[s..<(s + row)]
        }
        return Image16(width: width, height: height, pixels: out)
    }

    /// A `size` canvas of transparent black with this image's top-left corner at `offset`
    /// (Image.placed, for --fit).
    public func placed(on size: SIMD2<Int>, at offset: SIMD2<Int>) -> Image16 {
        var out = [UInt16](repeating: 0, count: size.x * size.y * 4)
        let x0 = max(0, offset.x), x1 = min(size.x, offset.x + width)
        let y0 = max(0, offset.y), y1 = min(size.y, offset.y + height)
        if x0 < x1, y0 < y1 {
            for y in y0..<y1 {
                let s = ((y - offset.y) * width + (x0 - offset.x)) * 4, d = (y * size.x + x0) * 4, n = (x1 - x0) * 4
                out[d..<(d + n)] = pixels[s..<(s + n)]
            }
        }
        return Image16(width: size.x, height: size.y, pixels: out)
    }
}
