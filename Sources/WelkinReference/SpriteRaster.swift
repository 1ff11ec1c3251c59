// SpriteRaster: the CPU reference's particle drawing — the same instances, the same sprite
// functions (WelkinCore's SpriteShape ↔ Shaders/sprite.glsl), the same order as the GPU.
//
// Before the rows are drawn, every sprite is bucketed by the bands of rows its quad overlaps, so a
// row visits only the sprites that can touch it (in drawing order, which the buckets keep).

import Foundation
import WelkinCore
import WelkinImage

/// One emitter layer made ready for row-by-row drawing.
struct PreparedParticles {
    /// A sprite's quad bounds in pixels (inclusive rows and columns).
    struct Item {
        var batch: Int32
        var instance: Int32
        var x0: Int32, x1: Int32, y0: Int32, y1: Int32
    }
    static let bandHeight = 8

    let draw: ParticleDraw
    let items: [Item]
    /// For each band of rows, indices into `items` in drawing order.
    let bands: [[Int32]]
    /// Per batch, its image when it draws one.
    let images: [SpriteImage?]

    init(_ draw: ParticleDraw, width: Int, height: Int) throws {
        self.draw = draw
        images = try draw.batches.map { b in try b.sprite == .image ? b.imagePath.map(SpriteImages.load) : nil }
        var items: [Item] = []
        items.reserveCapacity(draw.instanceCount)
        let bandCount = (height + Self.bandHeight - 1) / Self.bandHeight
        var bands = [[Int32]](repeating: [], count: bandCount)
        for (b, batch) in draw.batches.enumerated() {
            for (i, s) in batch.instances.enumerated() {
                let h = SpriteShape.support(batch.sprite, size: s.size, blur: batch.blur(s))
                let ex = abs(s.axis.x) * h.x + abs(s.axis.y) * h.y
                let ey = abs(s.axis.y) * h.x + abs(s.axis.x) * h.y
                // Pixels whose centre (x + 0.5) can lie inside the support; bounds are clamped to the
                // frame while still floats, so a sprite far outside it (or a NaN) never reaches Int(_:).
                let x0 = max(Self.pixelIndex((s.center.x - ex - 0.5).rounded(.down), below: width), 0)
                let x1 = min(Self.pixelIndex((s.center.x + ex - 0.5).rounded(.up), below: width), width - 1)
                let y0 = max(Self.pixelIndex((s.center.y - ey - 0.5).rounded(.down), below: height), 0)
                let y1 = min(Self.pixelIndex((s.center.y + ey - 0.5).rounded(.up), below: height), height - 1)
                guard x0 <= x1, y0 <= y1 else { continue }
                let index = Int32(items.count)
                items.append(Item(batch: Int32(b), instance: Int32(i), x0: Int32(x0), x1: Int32(x1), y0: Int32(y0), y1: Int32(y1)))
                for band in (y0 / Self.bandHeight)...(y1 / Self.bandHeight) { bands[band].append(index) }
            }
        }
        self.items = items
        self.bands = bands
    }

    /// A whole float as a pixel index clamped to −1…n (NaN gives −1, which no range includes).
    @inline(__always) static func pixelIndex(_ v: Float, below n: Int) -> Int {
        v >= Float(n) ? n : (v > -1 ? Int(v) : -1)
    }

    /// Composites every sprite that touches row y into `row`.
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let additive = draw.additive
        let py = Float(y) + 0.5
        for index in bands[y / Self.bandHeight] {
            let item = items[Int(index)]
            guard y >= item.y0 && y <= item.y1 else { continue }
            let batch = draw.batches[Int(item.batch)]
            let s = batch.instances[Int(item.instance)]
            let blur = batch.blur(s)
            let image = images[Int(item.batch)]
            // Once a sprite and row: the stored half-precision colour converts in software here.
            let color = s.color
            for x in Int(item.x0)...Int(item.x1) {
                let q = SpriteShape.local(SIMD2(Float(x) + 0.5, py), s)
                let src: SIMD4<Float>
                if let image {
                    src = color * image.sample(q, size: s.size)
                } else {
                    let c = SpriteShape.coverage(batch.sprite, q, size: s.size, blur: blur)
                    if c <= 0 { continue }
                    src = color * c
                }
                row[x] = additive ? row[x] + src : src + row[x] * (1 - src.w)
            }
        }
    }
}

extension ParticleDraw: CPURasterizable {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster {
        try PreparedParticles(self, width: width, height: height)
    }
}

extension PreparedParticles: LayerRowRaster {
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) { drawRow(y: y, into: row) }
}
