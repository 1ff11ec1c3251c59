// 16-bit frames (`--depth 16`): every layer composited into a float row as for 8 bits, then each
// pixel through the output transform and quantised to 16 bits without dither (Dither.resolve16).
// GLRenderer.render16 does the same on the GPU (composite.glsl built with WELKIN_QUANTIZE_16).
// The 8-bit path's copying and fused fast paths are left out: they exist for the dither's period
// and the 8-bit store.

import Dispatch
import Foundation
import WelkinCore
import WelkinImage

extension ReferenceRenderer {
    /// Renders `frame` to straight-alpha RGBA16 in the frame's output colour space.
    public func render16(_ frame: Frame) throws -> Image16 {
        try Self.checkSupported(frame)
        let width = frame.pixelSize.x, height = frame.pixelSize.y
        let threadCount = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        let prepared = try LayerRasters(frame.layers, width: width, height: height, threads: threadCount)
        let hidden = Self.hiddenLayers(frame, prepared: prepared)
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        let space = frame.outputColorSpace
        pixels.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let base = buffer.baseAddress!
            let bandCount = threadCount == 1 ? 1 : min(height, threadCount * 8)
            DispatchQueue.concurrentPerform(iterations: threadCount) { worker in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { row.deallocate() }
                var band = worker
                while band < bandCount {
                    for y in band * height / bandCount..<(band + 1) * height / bandCount {
                        drawRow(frame, y: y, into: row, prepared: prepared, from: hidden ?? 0)
                        let out = base + y * width * 4
                        for x in 0..<width {
                            let q = Dither.resolve16(row[x], space: space)
                            out[4 * x] = q.x; out[4 * x + 1] = q.y; out[4 * x + 2] = q.z; out[4 * x + 3] = q.w
                        }
                    }
                    band += threadCount
                }
            }
        }
        return Image16(width: width, height: height, pixels: pixels)
    }
}
