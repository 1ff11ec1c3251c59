// A group on the CPU: its whole picture made before any row is drawn, the same steps as the GPU's
// GroupPass (GroupDraw's maths ↔ Shaders/group.glsl): the layers into a transparent buffer, the
// mask into another, the content multiplied by the mask factor and read through the transform
// (LayerAffine), the shadow's alpha blurred
// horizontally then vertically, and content over shadow with the opacity. Rows then composite it.

import WelkinCore

final class GroupRaster: @unchecked Sendable {
    let width: Int, height: Int
    /// The group's premultiplied picture, row-major, row 0 at the top.
    private var pixels: [SIMD4<Float>]

    init(_ g: GroupDraw, width: Int, height: Int, threads: Int) throws {
        self.width = width; self.height = height
        let count = width * height
        var content = [SIMD4<Float>](repeating: .zero, count: count)
        let children = try LayerRasters(g.layers, width: width, height: height, threads: threads)
        content.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let base = buffer.baseAddress!   // bands write disjoint rows
            LayerRasters.forEachBand(height: height, threads: threads) { rows in
                for y in rows { children.drawRow(y: y, into: base + y * width, width: width) }
            }
        }
        if let mask = g.mask {
            let maskRasters = try LayerRasters([mask], width: width, height: height, threads: threads)
            let invert = g.invertsMask
            content.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let base = buffer.baseAddress!
                LayerRasters.forEachBand(height: height, threads: threads) { rows in
                    let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                    defer { row.deallocate() }
                    for y in rows {
                        row.update(repeating: .zero, count: width)
                        maskRasters.drawRow(y: y, into: row, width: width)
                        let c = base + y * width
                        for x in 0..<width { c[x] = GroupDraw.masked(c[x], row[x].w, invert) }
                    }
                }
            }
        }
        if let transform = g.transform {
            // Read the masked picture through the transform (LayerAffine, as group-inputs.glsl does).
            let picture = content
            let size = SIMD2(width, height)
            content.withUnsafeMutableBufferPointer { buffer in
                picture.withUnsafeBufferPointer { source in
                    nonisolated(unsafe) let (base, source) = (buffer.baseAddress!, source.baseAddress!)
                    LayerRasters.forEachBand(height: height, threads: threads) { rows in
                        for y in rows {
                            for x in 0..<width {
                                base[y * width + x] = LayerAffine.maskedContent(SIMD2(x, y), transform, size: size) { source[$1 * width + $0] }
                            }
                        }
                    }
                }
            }
        }
        let opacity = g.opacity
        guard let shadow = g.shadow else {
            pixels = content.map { GroupDraw.withShadow($0, 0, .zero, opacity) }
            return
        }
        // The blur: alpha → horizontal → vertical, taps outside the frame reading 0. Only the box
        // around the non-zero alpha, grown by the kernel's reach, can come out non-zero; outside it
        // every sum is of zeros, so it is left at 0 (the same numbers, less work for small text).
        var alpha = content.map(\.w)
        let h = shadow.horizontalWeights, v = shadow.verticalWeights
        guard let box = Self.nonZeroBox(alpha, width: width, height: height) else {
            pixels = content.map { GroupDraw.withShadow($0, 0, shadow.color, opacity) }
            return
        }
        let xs = max(0, box.x.lowerBound - (h.count - 1))..<min(width, box.x.upperBound + (h.count - 1))
        let ys = max(0, box.y.lowerBound - (v.count - 1))..<min(height, box.y.upperBound + (v.count - 1))
        var horizontal = [Float](repeating: 0, count: count)
        alpha.withUnsafeMutableBufferPointer { a in
            horizontal.withUnsafeMutableBufferPointer { out in
                h.withUnsafeBufferPointer { weights in
                    nonisolated(unsafe) let (a, out, weights) = (a.baseAddress!, out.baseAddress!, weights.baseAddress!)
                    LayerRasters.forEachBand(height: height, threads: threads) { rows in
                        for y in rows where box.y.contains(y) {
                            for x in xs {
                                out[y * width + x] = GroupDraw.blurred(a + y * width, x, width, 1, weights, h.count - 1)
                            }
                        }
                    }
                }
            }
        }
        alpha = [Float](repeating: 0, count: count)
        horizontal.withUnsafeMutableBufferPointer { hb in
            alpha.withUnsafeMutableBufferPointer { out in
                v.withUnsafeBufferPointer { weights in
                    nonisolated(unsafe) let (hb, out, weights) = (hb.baseAddress!, out.baseAddress!, weights.baseAddress!)
                    LayerRasters.forEachBand(height: height, threads: threads) { rows in
                        for y in rows where ys.contains(y) {
                            for x in xs {
                                out[y * width + x] = GroupDraw.blurred(hb + x, y, height, width, weights, v.count - 1)
                            }
                        }
                    }
                }
            }
        }
        let blurred = alpha
        let offset = SIMD2<Int>(Int(shadow.offset.x), Int(shadow.offset.y))
        pixels = content
        for y in 0..<height {
            let sy = y - offset.y
            for x in 0..<width {
                let sx = x - offset.x
                let a: Float = sx >= 0 && sx < width && sy >= 0 && sy < height ? blurred[sy * width + sx] : 0
                pixels[y * width + x] = GroupDraw.withShadow(content[y * width + x], a, shadow.color, opacity)
            }
        }
    }

    /// The columns and rows holding every non-zero value, nil when all are zero.
    static func nonZeroBox(_ values: [Float], width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>)? {
        var x0 = width, x1 = -1, y0 = height, y1 = -1
        for y in 0..<height {
            let row = y * width
            guard let first = (0..<width).first(where: { values[row + $0] != 0 }) else { continue }
            let last = (0..<width).last(where: { values[row + $0] != 0 })!
            x0 = min(x0, first); x1 = max(x1, last); y0 = min(y0, y); y1 = y
        }
        return x1 < 0 ? nil : (x0..<(x1 + 1), y0..<(y1 + 1))
    }

    /// Composites the group's picture over row y.
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        pixels.withUnsafeBufferPointer { p in
            let line = p.baseAddress! + y * width
            for x in 0..<width { row[x] = sourceOver(line[x], row[x]) }
        }
    }
}

extension GroupDraw: CPURasterizable {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster {
        try GroupRaster(self, width: width, height: height, threads: threads)
    }
}

extension GroupRaster: LayerRowRaster {
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) { drawRow(y: y, into: row) }
}
