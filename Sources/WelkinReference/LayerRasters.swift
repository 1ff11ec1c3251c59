// The layers of a frame, or of a group, made ready for drawing a row at a time: each layer's
// per-frame pre-pass (mesh triangles filed by rows, particles bucketed, a group's whole picture
// drawn offscreen), made sequentially before any row so rows stay independent of the thread count.

import Dispatch
import WelkinCore

final class LayerRasters: @unchecked Sendable {
    let layers: [DrawLayer]
    private(set) var meshes: [Int: MeshRaster] = [:]
    private(set) var particles: [Int: PreparedParticles] = [:]
    private(set) var texts: [Int: TextRaster] = [:]
    private(set) var groups: [Int: GroupRaster] = [:]

    init(_ layers: [DrawLayer], width: Int, height: Int, threads: Int) throws {
        self.layers = layers
        for (index, layer) in layers.enumerated() {
            switch layer {
            case .mesh(let m): meshes[index] = MeshRaster(m, pixelSize: SIMD2(width, height))
            case .particles(let p): particles[index] = try PreparedParticles(p, width: width, height: height)
            case .text(let t): texts[index] = try TextRaster(t)
            case .group(let g): groups[index] = try GroupRaster(g, width: width, height: height, threads: threads)
            case .gradient, .sky, .shader: break
            }
        }
    }

    /// Composites layers `from…` over the first `width` pixels of row y.
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, from: Int = 0) {
        for (index, layer) in layers.enumerated() where index >= from {
            switch layer {
            case .gradient(let g): GradientRaster.draw(g, y: y, width: width, into: row)
            case .particles: particles[index]!.drawRow(y: y, into: row)
            case .shader: preconditionFailure("checked by render(_:)")
            case .mesh: meshes[index]!.drawRow(y: y, into: row)
            case .sky(let sky): SkyRaster.draw(sky, y: y, width: width, into: row)
            case .text: texts[index]!.drawRow(y: y, width: width, into: row)
            case .group: groups[index]!.drawRow(y: y, into: row)
            }
        }
    }

    /// Runs `body` over the rows 0..<height in bands, on up to `threads` threads.
    static func forEachBand(height: Int, threads: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) {
        let bandCount = threads == 1 ? 1 : min(height, threads * 8)
        guard bandCount > 1 else { body(0..<height); return }
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var band = worker
            while band < bandCount {
                body((band * height / bandCount)..<((band + 1) * height / bandCount))
                band += threads
            }
        }
    }
}

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
