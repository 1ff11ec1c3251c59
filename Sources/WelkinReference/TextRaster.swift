// Text rows for the reference renderer.

import WelkinCore

/// A text layer's rows: each glyph's atlas texels copied to its pixels, composited source-over in
/// drawing order (TextDraw.glyphColor ↔ Shaders/text.glsl).
struct TextRaster {
    let draw: TextDraw

    init(_ draw: TextDraw) throws {
        if let error = draw.error { throw error }
        self.draw = draw
    }

    func drawRow(y: Int, width: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        guard let atlas = draw.atlas else { return }
        let y32 = Int32(y)
        atlas.pixels.withUnsafeBufferPointer { texels in
            for q in draw.quads where y32 >= q.origin.y && y32 < q.origin.y + q.size.y {
                let rowStart = (Int(q.atlasOrigin.y) + y - Int(q.origin.y)) * atlas.width + Int(q.atlasOrigin.x) - Int(q.origin.x)
                let x0 = max(Int(q.origin.x), 0), x1 = min(Int(q.origin.x + q.size.x), width)
                guard x0 < x1 else { continue }
                for x in x0..<x1 {
                    let coverage = texels[rowStart + x]
                    if coverage == 0 { continue }
                    row[x] = sourceOver(draw.glyphColor(coverage), row[x])
                }
            }
        }
    }
}

extension TextDraw: CPURasterizable {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster { try TextRaster(self) }
}

extension TextRaster: LayerRowRaster {
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) { drawRow(y: y, width: width, into: row) }
}
