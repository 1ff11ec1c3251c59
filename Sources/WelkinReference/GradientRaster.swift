// Gradient rows for the reference renderer: GradientDraw's maths, specialised per kind.

import WelkinCore

enum GradientRaster {
    static func draw(_ g: GradientDraw, y: Int, width: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let py = Float(y) + 0.5
        switch g.kind {
        case .linear where g.vector.x == 0:
            // t is constant along the row: one colour, the same one every pixel would compute.
            let c = g.color(at: SIMD2(0.5, py))
            for x in 0..<width { row[x] = sourceOver(c, row[x]) }
        case .linear:
            let ty = (py - g.origin.y) * g.vector.y
            let ox = g.origin.x, vx = g.vector.x
            let stops = g.stops, opacity = g.opacity
            if stops.space == .srgb && opacity == 1 {
                for x in 0..<width {
                    let t = min(max((Float(x) + 0.5 - ox) * vx + ty, 0), 1)
                    row[x] = sourceOver(stops.interpolate(t), row[x])
                }
            } else {
                for x in 0..<width {
                    let t = min(max((Float(x) + 0.5 - ox) * vx + ty, 0), 1)
                    row[x] = sourceOver(stops.evaluate(t) * opacity, row[x])
                }
            }
        case .radial, .angular:
            for x in 0..<width {
                row[x] = sourceOver(g.color(at: SIMD2(Float(x) + 0.5, py)), row[x])
            }
        }
    }
}

extension GradientDraw: CPURasterizable, LayerRowRaster {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster { self }

    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) {
        GradientRaster.draw(self, y: y, width: width, into: row)
    }

    var constantAlong: (rows: Bool, columns: Bool) {
        kind == .linear ? (vector.x == 0, vector.y == 0) : (false, false)
    }
}
