// Images in different colour spaces, made comparable: `welkin compare --against` converts the
// reference into the render's space through linear light before comparing (docs/compare.md).

import Foundation
import WelkinCore
import WelkinImage

extension Comparison {
    /// `welkin compare`'s default threshold across colour spaces: each image's dither (up to one
    /// level) goes through the matrix between the primaries (rows summing to 1.45 in absolute
    /// value) and the rounding of the conversion; Scenes/p3-sunset.json (320×180, Display P3
    /// against the sRGB render) differs by 5 at most.
    public static let convertedThreshold = 6

    /// `image` (8-bit, encoded in `source`) re-encoded in `target`: each channel decoded to linear
    /// light (the sRGB transfer, both spaces' own), the 3×3 matrix between the primaries, clipped
    /// per channel to 0…1 in linear light (as the output transform clips), encoded, rounded to
    /// the nearest 8-bit level. Alpha is kept. The same space returns `image` unchanged.
    public static func converting(_ image: Image, from source: OutputColorSpace, to target: OutputColorSpace) -> Image {
        guard source != target else { return image }
        let matrix = source == .displayP3 ? ColorMath.linearDisplayP3ToSRGB : ColorMath.linearSRGBToDisplayP3
        // The 256 decoded levels, once.
        let linear = (0..<256).map { i -> Double in
            let c = Double(i) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        var out = image
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let l = SIMD3(linear[Int(image.pixels[i])], linear[Int(image.pixels[i + 1])], linear[Int(image.pixels[i + 2])])
            let m = matrix * l
            for c in 0..<3 {
                let encoded = ColorMath.encodeExtended(min(max(m[c], 0), 1))
                out.pixels[i + c] = UInt8((encoded * 255).rounded())
            }
        }
        return out
    }
}
