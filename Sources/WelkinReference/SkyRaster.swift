// Sky rows for the reference renderer: SkyDraw's per-pixel maths (WelkinCore), composited the way
// the GPU's one sky pass does it: the parts over transparent first, then over the row.

import WelkinCore

enum SkyRaster {
    static func draw(_ sky: SkyDraw, y: Int, width: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let py = Float(y) + 0.5
        // One part drawn straight, unless it needs SkyDraw.color's panorama mapping or its
        // decoding to linear light.
        if sky.parts.count == 1, sky.projection == nil, !sky.linear {
            let part = sky.parts[0]
            for x in 0..<width { row[x] = sourceOver(part.color(at: SIMD2(Float(x) + 0.5, py)), row[x]) }
            return
        }
        for x in 0..<width {
            row[x] = sourceOver(sky.color(at: SIMD2(Float(x) + 0.5, py)), row[x])
        }
    }
}

extension SkyDraw: CPURasterizable, LayerRowRaster {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster { self }

    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) {
        SkyRaster.draw(self, y: y, width: width, into: row)
    }
}
