// Comparing two images: the figures `welkin compare` prints, and the diff heat map.

import Foundation
import WelkinCore
import WelkinImage

/// How two same-sized RGBA8 images differ. Differences are in 0…255 units.
public struct Comparison: Sendable {
    /// Largest difference in any channel (R, G, B or A) of any pixel.
    public var maxDifference: Int
    /// Mean absolute difference over the R, G and B channels of every pixel.
    public var meanAbsoluteDifference: Double
    /// Root-mean-square difference over R, G and B.
    public var rmse: Double
    /// Peak signal-to-noise ratio over R, G and B, in dB; +∞ when the images are identical.
    public var psnr: Double
    /// Mean SSIM (Wang et al. 2004) on Rec. 601 luma: Gaussian window σ = 1.5 (11×11), K1 0.01, K2 0.03.
    public var ssim: Double
    /// Pixels whose largest channel difference exceeds `threshold`.
    public var pixelsOverThreshold: Int
    public var percentOverThreshold: Double
    public var threshold: Int
    public var pixelCount: Int

    public func passed(maxFailingPercent: Double) -> Bool { percentOverThreshold <= maxFailingPercent }

    public struct SizeMismatch: UserFacingError {
        public var first: (Int, Int), second: (Int, Int)
        public var description: String { message }
        public var message: String { "images differ in size: \(first.0)×\(first.1) and \(second.0)×\(second.1)" }
    }

    public init(_ a: Image, _ b: Image, threshold: Int = 2) throws {
        guard a.width == b.width, a.height == b.height else {
            throw SizeMismatch(first: (a.width, a.height), second: (b.width, b.height))
        }
        self.threshold = threshold
        let pixelCount = a.width * a.height
        self.pixelCount = pixelCount
        var maxDifference = 0, over = 0
        var sumAbs = 0, sumSquares = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<pixelCount {
                    var largest = 0
                    for c in 0..<4 {
                        let d = abs(Int(pa[4 * i + c]) - Int(pb[4 * i + c]))
                        largest = max(largest, d)
                        if c < 3 { sumAbs += d; sumSquares += d * d }
                    }
                    maxDifference = max(maxDifference, largest)
                    if largest > threshold { over += 1 }
                }
            }
        }
        self.maxDifference = maxDifference
        pixelsOverThreshold = over
        percentOverThreshold = pixelCount > 0 ? 100 * Double(over) / Double(pixelCount) : 0
        let samples = Double(max(1, pixelCount * 3))
        meanAbsoluteDifference = Double(sumAbs) / samples
        rmse = (Double(sumSquares) / samples).squareRoot()
        psnr = rmse == 0 ? .infinity : 20 * log10(255 / rmse)
        ssim = Self.meanSSIM(Self.luma(a), Self.luma(b), width: a.width, height: a.height)
    }

    /// Rec. 601 luma, 0…255.
    static func luma(_ image: Image) -> [Double] {
        (0..<(image.width * image.height)).map { i -> Double in
            let r = Double(image.pixels[4 * i]), g = Double(image.pixels[4 * i + 1]), b = Double(image.pixels[4 * i + 2])
            return 0.299 * r + 0.587 * g + 0.114 * b
        }
    }

    /// The normalised 11-tap Gaussian, σ = 1.5.
    static let gaussian: [Double] = {
        let w = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let sum = w.reduce(0, +)
        return w.map { $0 / sum }
    }()

    /// Mean of the SSIM map over every window that lies wholly inside the image ("valid" filtering,
    /// as in Wang et al.'s reference code); images under 11 px on a side use one window over the whole image.
    static func meanSSIM(_ x: [Double], _ y: [Double], width: Int, height: Int) -> Double {
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        func ssim(_ mx: Double, _ my: Double, _ vx: Double, _ vy: Double, _ cxy: Double) -> Double {
            ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
        }
        guard width >= 11, height >= 11 else {
            let n = Double(max(1, x.count))
            let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
            var vx = 0.0, vy = 0.0, cxy = 0.0
            for i in 0..<x.count {
                vx += (x[i] - mx) * (x[i] - mx); vy += (y[i] - my) * (y[i] - my); cxy += (x[i] - mx) * (y[i] - my)
            }
            return ssim(mx, my, vx / n, vy / n, cxy / n)
        }
        // Separable filtering of x, y, x², y², xy: horizontal pass into (w − 10) columns, then vertical.
        let ow = width - 10, oh = height - 10
        var horizontal = [[Double]](repeating: [Double](repeating: 0, count: ow * height), count: 5)
        for row in 0..<height {
            for col in 0..<ow {
                var s = (0.0, 0.0, 0.0, 0.0, 0.0)
                for k in 0..<11 {
                    let i = row * width + col + k, g = gaussian[k]
                    let a = x[i], b = y[i]
                    s.0 += g * a; s.1 += g * b; s.2 += g * a * a; s.3 += g * b * b; s.4 += g * a * b
                }
                let o = row * ow + col
                horizontal[0][o] = s.0; horizontal[1][o] = s.1; horizontal[2][o] = s.2; horizontal[3][o] = s.3; horizontal[4][o] = s.4
            }
        }
        var total = 0.0
        for row in 0..<oh {
            for col in 0..<ow {
                var s = (0.0, 0.0, 0.0, 0.0, 0.0)
                for k in 0..<11 {
                    let i = (row + k) * ow + col, g = gaussian[k]
                    s.0 += g * horizontal[0][i]; s.1 += g * horizontal[1][i]; s.2 += g * horizontal[2][i]
                    s.3 += g * horizontal[3][i]; s.4 += g * horizontal[4][i]
                }
                total += ssim(s.0, s.1, s.2 - s.0 * s.0, s.3 - s.1 * s.1, s.4 - s.0 * s.1)
            }
        }
        return total / Double(ow * oh)
    }

    /// The heat map's colour scale: (largest channel difference at least, colour). Documented in
    /// docs/compare.md; a difference of 0 shows the reference image's luma at a quarter brightness.
    public static let heatScale: [(difference: Int, color: SIMD4<UInt8>)] = [
        (1, SIMD4(0, 0, 190, 255)),       // 1: blue
        (2, SIMD4(0, 150, 255, 255)),     // 2: sky blue
        (3, SIMD4(0, 210, 0, 255)),       // 3–4: green
        (5, SIMD4(255, 230, 0, 255)),     // 5–8: yellow
        (9, SIMD4(255, 130, 0, 255)),     // 9–16: orange
        (17, SIMD4(255, 0, 0, 255)),      // 17–64: red
        (65, SIMD4(255, 0, 255, 255)),    // 65–255: magenta
    ]

    /// A heat map of the per-pixel largest channel difference between `a` and `reference`.
    public static func heatMap(_ a: Image, _ reference: Image) throws -> Image {
        guard a.width == reference.width, a.height == reference.height else {
            throw SizeMismatch(first: (a.width, a.height), second: (reference.width, reference.height))
        }
        var out = Image(width: a.width, height: a.height)
        for i in 0..<(a.width * a.height) {
            var largest = 0
            for c in 0..<4 { largest = max(largest, abs(Int(a.pixels[4 * i + c]) - Int(reference.pixels[4 * i + c]))) }
            let color: SIMD4<UInt8>
            if largest == 0 {
                let r = Int(reference.pixels[4 * i]), g = Int(reference.pixels[4 * i + 1]), b = Int(reference.pixels[4 * i + 2])
                let y = (299 * r + 587 * g + 114 * b) / 4000
                color = SIMD4(UInt8(y), UInt8(y), UInt8(y), 255)
            } else {
                color = heatScale.last(where: { largest >= $0.difference })!.color
            }
            out.pixels[4 * i] = color.x; out.pixels[4 * i + 1] = color.y
            out.pixels[4 * i + 2] = color.z; out.pixels[4 * i + 3] = color.w
        }
        return out
    }
}
