// SpriteRaster: the CPU reference's particle drawing — the same instances, the same sprite
// functions (WelkinCore's SpriteShape ↔ Shaders/sprite.glsl), the same order as the GPU.
//
// Before the rows are drawn, every sprite is bucketed by the bands of rows its quad overlaps, so a
// row visits only the sprites that can touch it (in drawing order, which the buckets keep).

import Foundation
import WelkinCore

/// A sprite PNG as premultiplied sRGB-encoded float texels: what the GPU's texture holds too.
public struct SpriteImage: Sendable {
    public var width: Int
    public var height: Int
    /// Row 0 at the top.
    public var texels: [SIMD4<Float>]

    public init(_ image: Image) {
        width = image.width; height = image.height
        texels = (0..<(image.width * image.height)).map { i in
            let p = image.pixels
            let a = Float(p[4 * i + 3]) / 255
            return SIMD4(Float(p[4 * i]) / 255 * a, Float(p[4 * i + 1]) / 255 * a, Float(p[4 * i + 2]) / 255 * a, a)
        }
    }

    /// Bilinear sample at local point q of a sprite of `size` pixels, edges clamped; 0 outside.
    /// Mirrors sampleImage in Shaders/sprite.glsl.
    @inline(__always) public func sample(_ q: SIMD2<Float>, size: SIMD2<Float>) -> SIMD4<Float> {
        // Written as "not inside" so a NaN point samples nothing (and never reaches Int(_:)).
        if !(abs(q.x) < size.x * 0.5 && abs(q.y) < size.y * 0.5) { return .zero }
        let u = (q.x / size.x + 0.5) * Float(width) - 0.5
        let v = (q.y / size.y + 0.5) * Float(height) - 0.5
        let x0f = u.rounded(.down), y0f = v.rounded(.down)
        let fx = u - x0f, fy = v - y0f
        let x0 = min(max(Int(x0f), 0), width - 1), x1 = min(max(Int(x0f) + 1, 0), width - 1)
        let y0 = min(max(Int(y0f), 0), height - 1), y1 = min(max(Int(y0f) + 1, 0), height - 1)
        let top = texels[y0 * width + x0] * (1 - fx) + texels[y0 * width + x1] * fx
        let bottom = texels[y1 * width + x0] * (1 - fx) + texels[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
    }
}

/// Sprite PNGs read once per process (through libpng), shared by both renderers.
public enum SpriteImages {
    nonisolated(unsafe) private static var loaded: [String: SpriteImage] = [:]
    private static let lock = NSLock()

    public static func load(_ path: String) throws -> SpriteImage {
        lock.lock(); defer { lock.unlock() }
        if let image = loaded[path] { return image }
        let image = SpriteImage(try PNG.read(path: path))
        guard image.width <= EmitterLayer.maximumImageDimension, image.height <= EmitterLayer.maximumImageDimension else {
            throw ImageFileError(path: path, message: "a sprite image may be at most \(EmitterLayer.maximumImageDimension)×\(EmitterLayer.maximumImageDimension) pixels")
        }
        loaded[path] = image
        return image
    }
}

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
            for x in Int(item.x0)...Int(item.x1) {
                let q = SpriteShape.local(SIMD2(Float(x) + 0.5, py), s)
                let src: SIMD4<Float>
                if let image {
                    src = s.color * image.sample(q, size: s.size)
                } else {
                    let c = SpriteShape.coverage(batch.sprite, q, size: s.size, blur: blur)
                    if c <= 0 { continue }
                    src = s.color * c
                }
                row[x] = additive ? row[x] + src : src + row[x] * (1 - src.w)
            }
        }
    }
}
