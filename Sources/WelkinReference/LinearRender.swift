// Scene-linear frames for EXR (FrameOptions.linearLight): each layer drawn over transparent as the
// display path draws it, decoded from sRGB to linear light (a SkyDraw in linear mode already is:
// the physical sky writes radiance × 2^exposure), and composited source-over in linear light in
// float. No dither, no quantisation, no clamp. GLRenderer.renderLinear does the same on the GPU.

import Dispatch
import Foundation
import WelkinCore
import WelkinImage

extension ReferenceRenderer {
    /// Renders `frame` (built with `linearLight`) to premultiplied scene-linear float pixels.
    public func renderLinear(_ frame: Frame) throws -> FloatImage {
        try Self.checkSupported(frame)
        let width = frame.pixelSize.x, height = frame.pixelSize.y
        let threadCount = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        let prepared = try LayerRasters(frame.layers, width: width, height: height, threads: threadCount)
        let alreadyLinear = frame.layers.map { ($0 as? SkyDraw)?.linear ?? false }
        var pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
        let background = ColorMath.linearizePremultiplied(frame.background)
        pixels.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let base = buffer.baseAddress!
            let bandCount = min(height, threadCount * 8)
            DispatchQueue.concurrentPerform(iterations: threadCount) { worker in
                let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { scratch.deallocate() }
                var band = worker
                while band < bandCount {
                    for y in band * height / bandCount..<(band + 1) * height / bandCount {
                        let row = base + y * width
                        row.update(repeating: background, count: width)
                        for (index, raster) in prepared.rasters.enumerated() {
                            scratch.update(repeating: .zero, count: width)
                            raster.drawRow(y: y, into: scratch, width: width)
                            let linear = alreadyLinear[index]
                            for x in 0..<width {
                                let s = linear ? scratch[x] : ColorMath.linearizePremultiplied(scratch[x])
                                row[x] = s + row[x] * (1 - s.w)
                            }
                        }
                    }
                    band += threadCount
                }
            }
        }
        return FloatImage(width: width, height: height, pixels: pixels)
    }
}
