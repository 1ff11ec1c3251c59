// Clouds for the reference renderer: CloudsDraw's march over its grid (the whole-frame pre-pass,
// in bands on every thread), then each output row upsampled from the grid as the GPU's second
// pass does it (Shaders/clouds-upsample.frag).

import WelkinCore

extension CloudsDraw: CPURasterizable {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster {
        CloudsRaster(self, threads: threads)
    }
}

final class CloudsRaster: LayerRowRaster, @unchecked Sendable {
    let draw: CloudsDraw
    /// The grid's premultiplied colours, row by row.
    let grid: UnsafeMutableBufferPointer<SIMD4<Float>>

    init(_ draw: CloudsDraw, threads: Int) {
        self.draw = draw
        let size = draw.gridSize
        grid = .allocate(capacity: size.x * size.y)
        grid.initialize(repeating: .zero)
        nonisolated(unsafe) let grid = self.grid
        CloudNoise.weather.withUnsafeBufferPointer { weather in
            CloudNoise.shape.withUnsafeBufferPointer { shape in
                let w = weather.baseAddress!, s = shape.baseAddress!
                nonisolated(unsafe) let (wp, sp) = (w, s)
                LayerRasters.forEachBand(height: size.y, threads: threads) { rows in
                    for y in rows {
                        for x in 0..<size.x { grid[y * size.x + x] = draw.cloudsColor(x, y, wp, sp) }
                    }
                }
            }
        }
    }

    deinit { grid.deallocate() }

    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) {
        let columns = draw.gridSize.x
        let grid = self.grid
        for x in 0..<width {
            let c = draw.upsampled(x, y) { gx, gy in grid[gy * columns + gx] }
            row[x] = sourceOver(c, row[x])
        }
    }
}
