// Box-filter downsampling for supersampled renders (`welkin export --samples K`).
//
// Integer arithmetic only, so the same input gives the same bytes on every machine. Colour is
// averaged weighted by alpha (the premultiplied average, turned back into straight alpha), so a
// transparent pixel's meaningless colour never bleeds into its neighbours; alpha is the plain mean.

extension Image {
    /// The image shrunk by `factor` on each side, each output pixel the mean of a `factor`×`factor`
    /// block (rounded to nearest). `width` and `height` must be multiples of `factor`.
    public func boxDownsampled(by factor: Int) -> Image {
        precondition(factor >= 1 && width % factor == 0 && height % factor == 0,
                     "\(width)×\(height) is not a multiple of \(factor)")
        guard factor > 1 else { return self }
        let outWidth = width / factor, outHeight = height / factor
        let count = factor * factor
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    for ox in 0..<outWidth {
                        // Sums of alpha × colour (≤ 255² × 64² for factor 64: fits easily in Int).
                        var r = 0, g = 0, b = 0, a = 0
                        for y in (oy * factor)..<((oy + 1) * factor) {
                            var i = (y * width + ox * factor) * 4
                            for _ in 0..<factor {
                                let alpha = Int(src[i + 3])
                                r += Int(src[i]) * alpha
                                g += Int(src[i + 1]) * alpha
                                b += Int(src[i + 2]) * alpha
                                a += alpha
                                i += 4
                            }
                        }
                        let o = (oy * outWidth + ox) * 4
                        if a > 0 {
                            // Σ(c·α) / Σα, rounded: the colour of the premultiplied mean.
                            dst[o] = UInt8((r + a / 2) / a)
                            dst[o + 1] = UInt8((g + a / 2) / a)
                            dst[o + 2] = UInt8((b + a / 2) / a)
                        }
                        dst[o + 3] = UInt8((a + count / 2) / count)
                    }
                }
            }
        }
        return Image(width: outWidth, height: outHeight, pixels: out)
    }
}
