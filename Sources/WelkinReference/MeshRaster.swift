// Mesh layers for the reference renderer: GL's rasterisation rules, in Swift.
//
// A pre-pass (once per frame, sequential) sets up each triangle's fixed-point edges and (u, v)
// plane and files the triangles, in drawing order, into buckets of 8 rows. Each row (rows run on
// all cores, independently) then walks its bucket's triangles in drawing order, finds the pixels
// of the row each one covers — edge functions on the 1/256-pixel grid, the top-left fill rule,
// pixel centres at +0.5 — and colours them from (u, v) interpolated across that triangle,
// overwriting what an earlier triangle wrote: a later triangle wins, which is the fold rule.

import WelkinCore

/// One mesh layer prepared for drawing rows.
final class MeshRaster: @unchecked Sendable {
    let draw: MeshDraw
    let width: Int, height: Int
    /// Triangles that may cover bucket b's rows: bucketTriangles[bucketStart[b]..<bucketStart[b + 1]].
    private var bucketStart: [Int32] = [], bucketTriangles: [Int32] = []
    /// Per triangle: (u, v) at pixel (0, 0) and their x and y derivatives, and the patch.
    private(set) var planes: [Plane] = []
    /// Per triangle: counter-clockwise fixed-point corners and the pixel rows and columns it may cover
    /// (rows y0 > y1 when it covers none).
    private var triangles: [Triangle] = []

    struct Plane {
        var origin: SIMD2<Float>, dx: SIMD2<Float>, dy: SIMD2<Float>
        var patch: Int32
    }

    struct Triangle {
        var e0: Edge, e1: Edge, e2: Edge
        var y0: Int64, y1: Int64, xLow: Int64, xHigh: Int64
    }

    init(_ draw: MeshDraw, pixelSize: SIMD2<Int>) {
        self.draw = draw
        width = pixelSize.x
        height = pixelSize.y
        let triangleCount = draw.indices.count / 3
        planes.reserveCapacity(triangleCount)
        triangles.reserveCapacity(triangleCount)
        let width = self.width, height = self.height
        // Fixed point, 8 sub-pixel bits: positions are already on that grid (a float multiple of
        // 1/256 times 256 is a whole number), so the conversion is exact.
        let fixed = draw.positions.map { SIMD2(Int64(Double($0.x) * 256), Int64(Double($0.y) * 256)) }
        fixed.withUnsafeBufferPointer { fixed in
        draw.indices.withUnsafeBufferPointer { indices in
            for t in 0..<triangleCount {
                let i0 = Int(indices[3 * t]), i1 = Int(indices[3 * t + 1]), i2 = Int(indices[3 * t + 2])
                planes.append(Self.plane(draw, i0, i1, i2))
                var a = fixed[i0], b = fixed[i1], c = fixed[i2]
                let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                if area < 0 { swap(&b, &c) }
                // Pixel rows and columns whose centre 256y + 128 lies within the triangle's extent.
                let minY = min(a.y, b.y, c.y), maxY = max(a.y, b.y, c.y)
                // (÷ 256 rounding down or up, as shifts.)
                var y0 = max(0, -((128 - minY) >> 8)), y1 = min(Int64(height - 1), (maxY - 128) >> 8)
                let minX = min(a.x, b.x, c.x), maxX = max(a.x, b.x, c.x)
                let xLow = max(0, -((128 - minX) >> 8)), xHigh = min(Int64(width - 1), (maxX - 128) >> 8)
                if area == 0 || xLow > xHigh { y0 = 1; y1 = 0 }
                triangles.append(Triangle(e0: Edge(a, b), e1: Edge(b, c), e2: Edge(c, a), y0: y0, y1: y1, xLow: xLow, xHigh: xHigh))
            }
        }
        }
        // Buckets of `bucketRows` rows: the triangles that may cover them, in drawing order (CSR).
        let bucketCount = (height + Self.bucketRows - 1) / Self.bucketRows
        var start = [Int32](repeating: 0, count: bucketCount + 1)
        for tri in triangles where tri.y0 <= tri.y1 {
            for bucket in Int(tri.y0) / Self.bucketRows...Int(tri.y1) / Self.bucketRows { start[bucket + 1] += 1 }
        }
        for bucket in 0..<bucketCount { start[bucket + 1] += start[bucket] }
        var next = start
        var members = [Int32](repeating: 0, count: Int(start[bucketCount]))
        for (t, tri) in triangles.enumerated() where tri.y0 <= tri.y1 {
            for bucket in Int(tri.y0) / Self.bucketRows...Int(tri.y1) / Self.bucketRows {
                members[Int(next[bucket])] = Int32(t); next[bucket] += 1
            }
        }
        bucketStart = start
        bucketTriangles = members
    }

    /// Rows per bucket of triangles.
    static let bucketRows = 8

    /// The pixel columns of row y that triangle t covers, by the fill rule alone (ignoring later
    /// triangles); empty when none.
    func span(triangle t: Int, row y: Int) -> Range<Int> {
        let tri = triangles[t]
        guard Int64(y) >= tri.y0, Int64(y) <= tri.y1 else { return 0..<0 }
        var lo = tri.xLow, hi = tri.xHigh
        let yc = 256 * Int64(y) + 128
        tri.e0.clip(yc, &lo, &hi); tri.e1.clip(yc, &lo, &hi); tri.e2.clip(yc, &lo, &hi)
        return lo <= hi ? Int(lo)..<Int(hi + 1) : 0..<0
    }

    var triangleCount: Int { triangles.count }

    /// One edge a → b of a counter-clockwise (in y-down pixel space: interior on the left of
    /// travel as drawn on screen) triangle: E(p) = (b − a) × (p − a) > 0 inside. Points exactly on
    /// the edge count when it is a top edge (horizontal, interior below) or a left edge.
    struct Edge {
        /// E(xc, yc) = slope·xc + dx·yc + offset; inside where E ≥ 0 (offset holds the fill rule's −1).
        let slope: Int64, dx: Int64, offset: Int64
        /// 1 / (256·slope), for a first guess at the boundary column.
        let reciprocal: Double
        init(_ a: SIMD2<Int64>, _ b: SIMD2<Int64>) {
            let dx = b.x - a.x, dy = b.y - a.y
            // Points exactly on the edge count when it is a top edge (horizontal, interior below) or a left edge.
            let includesEdge = dy < 0 || (dy == 0 && dx > 0)
            self.dx = dx
            slope = -dy
            // (b − a) × (p − a) = −dy·xc + dx·yc + (dy·a.x − dx·a.y); strictly positive unless top-left.
            offset = dy * a.x - dx * a.y - (includesEdge ? 0 : 1)
            reciprocal = slope != 0 ? 1 / Double(256 * slope) : 0
        }
        /// Narrows lo…hi to pixel columns whose centre (256x + 128, yc) is inside this edge.
        @inline(__always)
        func clip(_ yc: Int64, _ lo: inout Int64, _ hi: inout Int64) {
            let constant = dx * yc + offset
            // Inside: slope·xc + constant ≥ 0, with xc = 256x + 128. The first (last) column inside is
            // ceil((−c − 128s)/256s) for s > 0 (floor((c + 128s)/−256s) for s < 0). A double product with
            // the reciprocal (exact operands below 2⁵³, relative error ~2⁻⁵²) lands on it or one off, and
            // one integer test settles it: far cheaper than a 64-bit integer division.
            if slope > 0 {
                var x = ceilToInt(Double(-constant - 128 * slope) * reciprocal)
                if slope * (256 * x + 128) + constant < 0 { x += 1 } else if slope * (256 * x - 128) + constant >= 0 { x -= 1 }
                lo = max(lo, x)
            } else if slope < 0 {
                var x = floorToInt(Double(-constant - 128 * slope) * reciprocal)
                if slope * (256 * x + 128) + constant < 0 { x -= 1 } else if slope * (256 * x + 384) + constant >= 0 { x += 1 }
                hi = min(hi, x)
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
        // Every pixel covered by an opaque colour: source-over is a plain write into the row.
        let direct = draw.isOpaque && draw.coversFrame
        let layer = direct ? row : UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { if !direct { layer.deallocate() } }
        if !direct { layer.update(repeating: draw.background * draw.opacity, count: width) }
        shade(y, FloatRow(pixels: layer))
        if !direct { for x in 0..<width { row[x] = sourceOver(layer[x], row[x]) } }
    }

    /// Whether `drawRow(y:biases:into:)` may stand for the whole frame: this layer hides everything below.
    var hidesBelow: Bool { draw.isOpaque && draw.coversFrame }

    /// For an opaque mesh that covers the frame and is the frame's last layer: its colours go
    /// straight to RGBA8 with the frame's dither (the same numbers as drawing into a float row and
    /// resolving it, without the float row).
    func drawRow(y: Int, biases: UnsafePointer<Float>, into bytes: UnsafeMutablePointer<UInt8>) {
        precondition(hidesBelow)
        let sink = ByteRow(bytes: bytes, biases: biases)
        // sRGB needs no conversion, and for opaque colours at opacity 1 finish's clamps to 0…1 change
        // nothing the quantiser's clamp to 0…255 would not: skip them.
        if draw.space == .srgb {
            let py = Float(y) + 0.5
            if draw.smooth {
                shadeSpans(y, py: py, into: sink, smooth: true, space: .srgb, raw: true)
            } else {
                shadeSpans(y, py: py, into: sink, smooth: false, space: .srgb, raw: true)
            }
        } else {
            shade(y, sink)
        }
    }

    /// Constant arguments let the compiler build one loop per common case, with no per-pixel branches.
    @inline(__always)
    private func shade<Sink: SpanSink>(_ y: Int, _ sink: Sink) {
        let py = Float(y) + 0.5
        switch (draw.smooth, draw.space) {
        case (false, .srgb): shadeSpans(y, py: py, into: sink, smooth: false, space: .srgb)
        case (true, .srgb): shadeSpans(y, py: py, into: sink, smooth: true, space: .srgb)
        default: shadeSpans(y, py: py, into: sink, smooth: draw.smooth, space: draw.space)
        }
    }

    /// Colours the pixels of row y that the bucket's triangles cover into `out`, in drawing order
    /// (a later triangle overwrites an earlier one), each span from its triangle's plane.
    @inline(__always)
    /// `raw`: write the interpolated colour as it is (only for opaque sRGB into `ByteRow`).
    private func shadeSpans<Sink: SpanSink>(_ y: Int, py: Float, into out: Sink, smooth: Bool, space: ColorSpace, raw: Bool = false) {
        let opacity = draw.opacity, range = draw.channelRange
        let bucket = y / Self.bucketRows
        let yc = 256 * Int64(y) + 128, row = Int64(y)
        triangles.withUnsafeBufferPointer { triangles in
        bucketTriangles.withUnsafeBufferPointer { members in
        planes.withUnsafeBufferPointer { planes in
        draw.coefficients.withUnsafeBufferPointer { coefficients in
            for m in Int(bucketStart[bucket])..<Int(bucketStart[bucket + 1]) {
                let t = Int(members[m])
                let tri = triangles[t]
                if row < tri.y0 || row > tri.y1 { continue }
                var lo = tri.xLow, hi = tri.xHigh
                tri.e0.clip(yc, &lo, &hi); tri.e1.clip(yc, &lo, &hi); tri.e2.clip(yc, &lo, &hi)
                if lo > hi { continue }
                let x = Int(lo), end = Int(hi) + 1
                let plane = planes[t]
                let k = coefficients.baseAddress! + Int(plane.patch) * 16
                let rowOrigin = plane.origin + plane.dy * py
                if !smooth {
                    // Bilinear colour is quadratic along a span ((u, v) is linear in x): forward
                    // differences, exact but for float rounding (far below 1/255 over a span).
                    let uv0 = rowOrigin + plane.dx * (Float(x) + 0.5), step = plane.dx
                    var c = MeshDraw.interpolate(k, u: uv0.x, v: uv0.y, smooth: false)
                    let d2 = k[5] * (step.x * step.y)
                    let d1 = k[1] * step.y + k[4] * step.x + k[5] * (uv0.x * step.y + step.x * uv0.y)
                    var delta = d1 + d2
                    let delta2 = d2 + d2
                    for px in x..<end {
                        out.write(px, raw ? c : MeshDraw.finish(c, space: space, opacity: opacity, range: range))
                        c += delta; delta += delta2
                    }
                } else {
                    for px in x..<end {
                        let uv = rowOrigin + plane.dx * (Float(px) + 0.5)
                        let c = MeshDraw.interpolate(k, u: uv.x, v: uv.y, smooth: smooth)
                        out.write(px, raw ? c : MeshDraw.finish(c, space: space, opacity: opacity, range: range))
                    }
                }
            }
        }
        }
        }
        }
    }
}

/// Where shaded pixels go.
protocol SpanSink {
    func write(_ x: Int, _ color: SIMD4<Float>)
}

/// A row of premultiplied float colour.
struct FloatRow: SpanSink {
    let pixels: UnsafeMutablePointer<SIMD4<Float>>
    @inline(__always) func write(_ x: Int, _ color: SIMD4<Float>) { pixels[x] = color }
}

/// A row of RGBA8, each colour quantised as soon as it is made (ReferenceRenderer.store, the
/// resolve's own per-pixel step).
struct ByteRow: SpanSink {
    let bytes: UnsafeMutablePointer<UInt8>
    /// The dither bias of columns x & 7.
    let biases: UnsafePointer<Float>
    @inline(__always) func write(_ x: Int, _ color: SIMD4<Float>) {
        ReferenceRenderer.store(color, bias: biases[x & 7], at: bytes + 4 * x)
    }
}

/// ⌊q⌋ and ⌈q⌉ without a libm call (the baseline x86-64 target has no rounding instruction);
/// |q| is far below 2⁶³ here (pixel coordinates × 256).
@inline(__always) func floorToInt(_ q: Double) -> Int64 {
    let t = Int64(q)
    return Double(t) > q ? t - 1 : t
}

@inline(__always) func ceilToInt(_ q: Double) -> Int64 {
    let t = Int64(q)
    return Double(t) < q ? t + 1 : t
}

extension MeshDraw: CPURasterizable {
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster {
        MeshRaster(self, pixelSize: SIMD2(width, height))
    }
}

extension MeshRaster: ResolvingRowRaster {
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int) { drawRow(y: y, into: row) }
}
