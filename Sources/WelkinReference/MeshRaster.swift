// Mesh layers for the reference renderer: GL's rasterisation rules, in Swift.
//
// A pre-pass (once per frame, sequential, so the result never depends on the thread count) walks
// MeshDraw's triangles in drawing order and records, for every pixel row, the spans of pixel
// centres each triangle covers: fixed-point edge functions on the 1/256-pixel grid, the top-left
// fill rule, pixel centres at +0.5. Rows then replay their spans in order (a later span overwrites
// an earlier one: the fold rule) and colour each pixel from (u, v) interpolated across its triangle.

import WelkinCore

/// One mesh layer prepared for drawing rows.
final class MeshRaster: @unchecked Sendable {
    let draw: MeshDraw
    let width: Int
    /// Spans of row y are spans[rowStart[y]..<rowStart[y + 1]], in drawing order.
    private(set) var rowStart: [Int32]
    private(set) var spanStart: [Int32] = [], spanEnd: [Int32] = [], spanTriangle: [Int32] = []
    /// Per triangle: (u, v) at pixel (0, 0) and their x and y derivatives, and the patch.
    private(set) var planes: [Plane] = []

    struct Plane {
        var origin: SIMD2<Float>, dx: SIMD2<Float>, dy: SIMD2<Float>
        var patch: Int32
    }

    init(_ draw: MeshDraw, pixelSize: SIMD2<Int>) {
        self.draw = draw
        width = pixelSize.x
        let height = pixelSize.y
        rowStart = [Int32](repeating: 0, count: height + 1)
        var rows: [Int32] = [], starts: [Int32] = [], ends: [Int32] = [], triangles: [Int32] = []
        let triangleCount = draw.indices.count / 3
        planes.reserveCapacity(triangleCount)
        draw.positions.withUnsafeBufferPointer { positions in
        draw.indices.withUnsafeBufferPointer { indices in
            for t in 0..<triangleCount {
                let i0 = Int(indices[3 * t]), i1 = Int(indices[3 * t + 1]), i2 = Int(indices[3 * t + 2])
                planes.append(Self.plane(draw, i0, i1, i2))
                // Fixed point, 8 sub-pixel bits; positions are already on that grid.
                func fixed(_ i: Int) -> SIMD2<Int64> {
                    SIMD2(Int64((Double(positions[i].x) * 256).rounded()), Int64((Double(positions[i].y) * 256).rounded()))
                }
                var a = fixed(i0), b = fixed(i1), c = fixed(i2)
                let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                if area == 0 { continue }
                if area < 0 { swap(&b, &c) }
                // Pixel rows whose centre 256y + 128 lies within the triangle's extent.
                let minY = min(a.y, b.y, c.y), maxY = max(a.y, b.y, c.y)
                let y0 = max(0, ceilDiv(minY - 128, 256)), y1 = min(Int64(height - 1), floorDiv(maxY - 128, 256))
                if y0 > y1 { continue }
                let minX = min(a.x, b.x, c.x), maxX = max(a.x, b.x, c.x)
                let xLow = max(0, ceilDiv(minX - 128, 256)), xHigh = min(Int64(width - 1), floorDiv(maxX - 128, 256))
                if xLow > xHigh { continue }
                let e0 = Edge(a, b), e1 = Edge(b, c), e2 = Edge(c, a)
                for y in y0...y1 {
                    let yc = 256 * y + 128
                    var lo = xLow, hi = xHigh
                    e0.clip(yc, &lo, &hi); e1.clip(yc, &lo, &hi); e2.clip(yc, &lo, &hi)
                    if lo <= hi {
                        rows.append(Int32(y)); starts.append(Int32(lo)); ends.append(Int32(hi + 1)); triangles.append(Int32(t))
                    }
                }
            }
        }
        }
        // Stable counting sort by row keeps each row's spans in drawing order.
        for y in rows { rowStart[Int(y) + 1] += 1 }
        for y in 0..<height { rowStart[y + 1] += rowStart[y] }
        var next = rowStart
        spanStart = [Int32](repeating: 0, count: rows.count)
        spanEnd = spanStart; spanTriangle = spanStart
        for (n, y) in rows.enumerated() {
            let slot = Int(next[Int(y)]); next[Int(y)] += 1
            spanStart[slot] = starts[n]; spanEnd[slot] = ends[n]; spanTriangle[slot] = triangles[n]
        }
    }

    /// One edge a → b of a counter-clockwise (in y-down pixel space: interior on the left of
    /// travel as drawn on screen) triangle: E(p) = (b − a) × (p − a) > 0 inside. Points exactly on
    /// the edge count when it is a top edge (horizontal, interior below) or a left edge.
    struct Edge {
        let a: SIMD2<Int64>, dx: Int64, dy: Int64
        let includesEdge: Bool
        init(_ a: SIMD2<Int64>, _ b: SIMD2<Int64>) {
            self.a = a; dx = b.x - a.x; dy = b.y - a.y
            includesEdge = dy < 0 || (dy == 0 && dx > 0)
        }
        /// Narrows lo…hi to pixel columns whose centre (256x + 128, yc) is inside this edge.
        func clip(_ yc: Int64, _ lo: inout Int64, _ hi: inout Int64) {
            // E(xc) = −dy·xc + dx·(yc − a.y) + dy·a.x; inside: E > 0, or E ≥ 0 on a top-left edge.
            let slope = -dy
            let constant = dx * (yc - a.y) + dy * a.x - (includesEdge ? 0 : 1)
            // Inside: slope·xc + constant ≥ 0, with xc = 256x + 128.
            if slope > 0 {
                let xc = ceilDiv(-constant, slope)
                lo = max(lo, ceilDiv(xc - 128, 256))
            } else if slope < 0 {
                let xc = floorDiv(constant, -slope)
                hi = min(hi, floorDiv(xc - 128, 256))
            } else if constant < 0 {
                hi = lo - 1
            }
        }
    }

    /// (u, v) as a linear function of the pixel position across triangle i0 i1 i2.
    static func plane(_ d: MeshDraw, _ i0: Int, _ i1: Int, _ i2: Int) -> Plane {
        let p0 = SIMD2<Double>(d.positions[i0]), p1 = SIMD2<Double>(d.positions[i1]), p2 = SIMD2<Double>(d.positions[i2])
        let q0 = SIMD2<Double>(d.parameters[i0]), q1 = SIMD2<Double>(d.parameters[i1]), q2 = SIMD2<Double>(d.parameters[i2])
        let e1 = p1 - p0, e2 = p2 - p0
        let det = e1.x * e2.y - e1.y * e2.x
        let patch = d.patches[i0]
        guard det != 0 else { return Plane(origin: SIMD2<Float>(q0), dx: .zero, dy: .zero, patch: patch) }
        let f1 = q1 - q0, f2 = q2 - q0
        let dx = (f1 * e2.y - f2 * e1.y) / det
        let dy = (f2 * e1.x - f1 * e2.x) / det
        let origin = q0 - dx * p0.x - dy * p0.y
        return Plane(origin: SIMD2<Float>(origin), dx: SIMD2<Float>(dx), dy: SIMD2<Float>(dy), patch: patch)
    }

    /// Composites this layer over one row of premultiplied colour.
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let begin = Int(rowStart[y]), end = Int(rowStart[y + 1])
        let space = draw.space, opacity = draw.opacity, smooth = draw.smooth
        let py = Float(y) + 0.5
        if draw.isOpaque && draw.coversFrame {
            // Every pixel is covered by an opaque colour: source-over is a plain write.
            shadeSpans(begin, end, py: py, smooth: smooth) { x, c in row[x] = MeshDraw.finish(c, space: space, opacity: opacity) }
            return
        }
        let layer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { layer.deallocate() }
        layer.update(repeating: draw.background * opacity, count: width)
        shadeSpans(begin, end, py: py, smooth: smooth) { x, c in layer[x] = MeshDraw.finish(c, space: space, opacity: opacity) }
        for x in 0..<width { row[x] = sourceOver(layer[x], row[x]) }
    }

    @inline(__always)
    private func shadeSpans(_ begin: Int, _ end: Int, py: Float, smooth: Bool, _ write: (Int, SIMD4<Float>) -> Void) {
        let planes = self.planes, spanTriangle = self.spanTriangle, spanStart = self.spanStart, spanEnd = self.spanEnd
        draw.coefficients.withUnsafeBufferPointer { coefficients in
            for s in begin..<end {
                let plane = planes[Int(spanTriangle[s])]
                let k = coefficients.baseAddress! + Int(plane.patch) * 16
                let rowOrigin = plane.origin + plane.dy * py
                for x in Int(spanStart[s])..<Int(spanEnd[s]) {
                    let uv = rowOrigin + plane.dx * (Float(x) + 0.5)
                    write(x, MeshDraw.interpolate(k, u: uv.x, v: uv.y, smooth: smooth))
                }
            }
        }
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }
