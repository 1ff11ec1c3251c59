// A mesh gradient resolved to pixel space at one instant: the triangles both renderers rasterise
// and the colour polynomials they evaluate at (u, v).
//
// The colour maths is mirrored line for line in Shaders/mesh.glsl; keep names and constants in step.

import Foundation

/// A mesh layer at time t in pixel space. Both renderers draw exactly these triangles, in index
/// order (a later triangle wins where triangles overlap), and colour each covered pixel centre
/// from (u, v) interpolated linearly across its triangle.
public struct MeshDraw: Sendable, Equatable {
    /// Vertices per row and per column of the mesh.
    public var width: Int, height: Int
    /// Tessellation vertex positions in pixels (y down), snapped to 1/256 pixel like GL's rasteriser.
    public var positions: [SIMD2<Float>]
    /// (u, v) of each tessellation vertex within its patch, 0…1.
    public var parameters: [SIMD2<Float>]
    /// The patch (row-major cell index) of each tessellation vertex.
    public var patches: [Int32]
    /// Triangles, three vertex indices each, in drawing order.
    public var indices: [UInt32]
    /// 16 per patch: `coefficients[patch * 16 + a * 4 + b]` multiplies u^a v^b. Premultiplied, in `space`.
    public var coefficients: [SIMD4<Float>]
    public var space: ColorSpace
    /// Bicubic colour (true) or bilinear (false; only a, b ∈ {0, 1} are non-zero).
    public var smooth: Bool
    public var opacity: Float
    /// The lowest and highest straight sRGB channel values of the mesh's colours, widened to 0…1:
    /// a bicubic's overshoot is clamped to them (0…1 for sRGB colours; an extended-sRGB colour
    /// written in Display P3 widens them, so wide colours pass through to the output transform).
    public var channelLow: SIMD3<Float>, channelHigh: SIMD3<Float>
    public var channelRange: (low: SIMD3<Float>, high: SIMD3<Float>) { (channelLow, channelHigh) }
    /// Premultiplied sRGB, drawn where no triangle covers (opacity not yet applied).
    public var background: SIMD4<Float>
    /// The mesh's outer edges lie on the frame's edges, so every pixel is covered (the background never shows).
    public var coversFrame: Bool
    /// Every colour opaque and opacity 1 (overlapping triangles may simply overwrite).
    public var isOpaque: Bool
    /// Tessellation knots per patch column (u values, 0 first, 1 last) and per patch row (v values).
    public var columnKnots: [[Double]], rowKnots: [[Double]]
    /// Tessellation steps per patch column (u) and per patch row (v).
    public var columnSteps: [Int] { columnKnots.map { $0.count - 1 } }
    public var rowSteps: [Int] { rowKnots.map { $0.count - 1 } }

    public var patchCount: Int { (width - 1) * (height - 1) }

    /// Geometric tolerance: the tessellated surface stays within this many pixels of the true one.
    public static let tolerance = 0.25
    /// The tessellation targets 0.245 px, leaving 0.005 px for 1/256-px snapping (at most
    /// √2/512 ≈ 0.0028 px) and float rounding (double-precision evaluation: far below that).
    static let target = 0.245
    /// Caps against pathological meshes (the error bound no longer holds beyond them).
    public static let maximumStepsPerPatch = 256
    public static let maximumQuads = 1 << 21

    /// `springSteps`: this layer's share of the frame's `MeshRandomWalk.maximumSpringSteps`.
    public init(_ mesh: MeshGradient, opacity: Double, sceneColorSpace: ColorSpace, seed: UInt64, time: Double,
                pixelSize: SIMD2<Int>, springSteps: Int = MeshRandomWalk.maximumSpringSteps) {
        width = mesh.width; height = mesh.height
        space = mesh.colorSpace ?? sceneColorSpace
        smooth = mesh.smoothsColors
        self.opacity = Float(opacity)
        background = mesh.background.premultiplied
        let vertices = Self.vertices(mesh, seed: seed, time: time, springSteps: springSteps)
        coversFrame = MeshGeometry.coversFrame(vertices, width: width, height: height)
        let size = SIMD2<Double>(Double(pixelSize.x), Double(pixelSize.y))
        let patchList = MeshGeometry.patches(vertices, width: width, height: height) { $0 * size }
        let colors = Self.colors(mesh, space: space, time: time)
        (channelLow, channelHigh) = Self.channelRange(mesh.colors + mesh.colorKeyframes.flatMap(\.colors))
        isOpaque = opacity == 1 && colors.allSatisfy { $0.w == 1 }
        coefficients = Self.coefficients(colors, width: width, height: height, smooth: smooth)
        (columnKnots, rowKnots) = Self.knots(patchList, columns: width - 1, rows: height - 1)
        positions = []; parameters = []; patches = []; indices = []
        tessellate(patchList)
    }

    // MARK: time

    /// The Bézier vertices at time t (random walk applied; automatic handles follow moved points).
    static func vertices(_ mesh: MeshGradient, seed: UInt64, time: Double,
                         springSteps: Int = MeshRandomWalk.maximumSpringSteps) -> [MeshBezierPoint] {
        let start = mesh.startPositions
        let moved = mesh.animation?.positions(start: start, seed: seed, at: time, springSteps: springSteps) ?? start
        switch mesh.vertices {
        case .points:
            return MeshGeometry.automaticHandles(moved, width: mesh.width, height: mesh.height)
        case .bezier(let b):
            return zip(b, zip(moved, start)).map { $0.offset(by: $1.0 - $1.1) }
        }
    }

    /// Vertex colours at time t, premultiplied in `space`: linear between keyframes, held after the last.
    static func colors(_ mesh: MeshGradient, space: ColorSpace, time: Double) -> [SIMD4<Double>] {
        func convert(_ c: [RGBA]) -> [SIMD4<Double>] { c.map { SIMD4<Double>(ColorMath.toInterpolationSpace($0, space)) } }
        var before = (time: 0.0, colors: mesh.colors)
        for key in mesh.colorKeyframes {
            if time < key.time {
                let f = max(0, (time - before.time) / (key.time - before.time))
                return zip(convert(before.colors), convert(key.colors)).map { $0 + ($1 - $0) * f }
            }
            before = (key.time, key.colors)
        }
        return convert(before.colors)
    }

    // MARK: colour

    /// 0…1 per channel, widened to take in every colour of `colors`.
    public static func channelRange(_ colors: [RGBA]) -> (low: SIMD3<Float>, high: SIMD3<Float>) {
        var low = SIMD3<Float>(repeating: 0), high = SIMD3<Float>(repeating: 1)
        for c in colors {
            let v = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
            low = pointwiseMin(low, v); high = pointwiseMax(high, v)
        }
        return (low, high)
    }

    /// Power-basis coefficients per patch. Bilinear: the four corners. Bicubic: Hermite data at the
    /// corners (value, Catmull-Rom ∂u, ∂v and cross derivative, neighbours clamped at the border),
    /// so that neighbouring patches share value and first derivatives along their common edge.
    static func coefficients(_ c: [SIMD4<Double>], width: Int, height: Int, smooth: Bool) -> [SIMD4<Float>] {
        func at(_ i: Int, _ j: Int) -> SIMD4<Double> {
            c[min(max(j, 0), height - 1) * width + min(max(i, 0), width - 1)]
        }
        func du(_ i: Int, _ j: Int) -> SIMD4<Double> { (at(i + 1, j) - at(i - 1, j)) / 2 }
        func dv(_ i: Int, _ j: Int) -> SIMD4<Double> { (at(i, j + 1) - at(i, j - 1)) / 2 }
        func duv(_ i: Int, _ j: Int) -> SIMD4<Double> {
            (at(i + 1, j + 1) - at(i - 1, j + 1) - at(i + 1, j - 1) + at(i - 1, j - 1)) / 4
        }
        // Cubic Hermite → power basis: p(t) = Σ_a t^a Σ_m hermite[a][m] · (p0, p1, m0, m1)[m].
        let hermite: [[Double]] = [[1, 0, 0, 0], [0, 0, 1, 0], [-3, 3, -2, -1], [2, -2, 1, 1]]
        var out: [SIMD4<Float>] = []
        out.reserveCapacity((width - 1) * (height - 1) * 16)
        for j in 0..<(height - 1) {
            for i in 0..<(width - 1) {
                var k = [SIMD4<Double>](repeating: .zero, count: 16)
                if !smooth {
                    let c00 = at(i, j), c10 = at(i + 1, j), c01 = at(i, j + 1), c11 = at(i + 1, j + 1)
                    k[0] = c00; k[1] = c01 - c00; k[4] = c10 - c00; k[5] = c00 - c10 - c01 + c11
                } else {
                    // f[m][n]: m indexes (value at u=0, value at u=1, ∂u at u=0, ∂u at u=1), n the same in v.
                    let corners = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)]
                    var f = [[SIMD4<Double>]](repeating: [SIMD4<Double>](repeating: .zero, count: 4), count: 4)
                    for (n, (ci, cj)) in corners.enumerated() {
                        let m = n & 1, l = n >> 1   // m: u end, l: v end
                        f[m][l] = at(ci, cj)
                        f[2 + m][l] = du(ci, cj)
                        f[m][2 + l] = dv(ci, cj)
                        f[2 + m][2 + l] = duv(ci, cj)
                    }
                    for a in 0..<4 {
                        for b in 0..<4 {
                            var sum = SIMD4<Double>.zero
                            for m in 0..<4 where hermite[a][m] != 0 {
                                for n in 0..<4 where hermite[b][n] != 0 { sum += hermite[a][m] * hermite[b][n] * f[m][n] }
                            }
                            k[a * 4 + b] = sum
                        }
                    }
                }
                out += k.map { SIMD4<Float>($0) }
            }
        }
        return out
    }

    /// The colour polynomial of `patch` at (u, v): premultiplied, still in the interpolation space.
    @inlinable public func interpolate(patch: Int, u: Float, v: Float) -> SIMD4<Float> {
        coefficients.withUnsafeBufferPointer { k in
            Self.interpolate(k.baseAddress! + patch * 16, u: u, v: v, smooth: smooth)
        }
    }

    /// Horner's rule in v for each power of u, then in u (mesh.glsl does the same operations).
    @inlinable @inline(__always)
    public static func interpolate(_ k: UnsafePointer<SIMD4<Float>>, u: Float, v: Float, smooth: Bool) -> SIMD4<Float> {
        if !smooth {
            let row0 = k[1] * v + k[0]
            let row1 = k[5] * v + k[4]
            return row1 * u + row0
        }
        let row0 = ((k[3] * v + k[2]) * v + k[1]) * v + k[0]
        let row1 = ((k[7] * v + k[6]) * v + k[5]) * v + k[4]
        let row2 = ((k[11] * v + k[10]) * v + k[9]) * v + k[8]
        let row3 = ((k[15] * v + k[14]) * v + k[13]) * v + k[12]
        return ((row3 * u + row2) * u + row1) * u + row0
    }

    /// Interpolated colour → premultiplied sRGB with opacity: alpha clamped to 0…1 (a bicubic may
    /// overshoot), converted from the interpolation space, sRGB channels clamped to
    /// `range` × alpha (`channelRange`: 0…alpha for meshes of sRGB colours).
    @inlinable @inline(__always)
    public static func finish(_ p: SIMD4<Float>, space: ColorSpace, opacity: Float,
                              range: (low: SIMD3<Float>, high: SIMD3<Float>)) -> SIMD4<Float> {
        var q = p
        q.w = min(max(q.w, 0), 1)
        let c = ColorMath.fromInterpolationSpace(q, space)
        let low = range.low * c.w, high = range.high * c.w
        return SIMD4(min(max(c.x, low.x), high.x), min(max(c.y, low.y), high.y), min(max(c.z, low.z), high.z), c.w) * opacity
    }

    /// The layer's premultiplied sRGB colour at (u, v) of `patch`, opacity applied.
    public func color(patch: Int, u: Float, v: Float) -> SIMD4<Float> {
        Self.finish(interpolate(patch: patch, u: u, v: v), space: space, opacity: opacity, range: channelRange)
    }

    // MARK: tessellation

    /// Steps per patch column and row. A column of patches shares one n_u and a row one n_v, so
    /// neighbours share seam vertices. Each patch must satisfy MeshErrorBound.error(n_u, n_v) ≤
    /// `target` (a tight bound), or else have at least the steps of the simple control-net bound
    /// ((A+B)h_u² + (C+B)h_v²)/8 ≤ `target`, which never needs more than those (it is monotone in
    /// both steps; the tight bound, whose diagonal terms may cancel, is not).
    static func steps(_ patches: [MeshPatch], bounds: [MeshErrorBound], columns: Int, rows: Int) -> ([Int], [Int]) {
        func need(_ d: Double) -> Int {
            let n = (d / (4 * target)).squareRoot().rounded(.up)
            return n.isFinite ? Int(min(max(n, 1), Double(maximumStepsPerPatch))) : maximumStepsPerPatch
        }
        // The simple bound's steps for each patch, and the tight bound's.
        let simple: [(u: Int, v: Int)] = patches.map {
            let b = $0.secondDerivativeBounds
            return (need(b.uu + b.uv), need(b.vv + b.uv))
        }
        func fits(_ p: Int, _ nu: Int, _ nv: Int) -> Bool {
            (nu >= simple[p].u && nv >= simple[p].v) || bounds[p].error(nu, nv) <= target
        }
        var u = [Int](repeating: 1, count: columns), v = [Int](repeating: 1, count: rows)
        for p in patches.indices {
            // The smallest fraction of the simple steps (same aspect) that the tight bound accepts.
            let (su, sv) = simple[p]
            func scaled(_ f: Double) -> (Int, Int) {
                (max(1, Int((f * Double(su)).rounded(.up))), max(1, Int((f * Double(sv)).rounded(.up))))
            }
            var low = 0.0, high = 1.0
            for _ in 0..<12 {
                let mid = (low + high) / 2, (a, b) = scaled(mid)
                if bounds[p].error(a, b) <= target { high = mid } else { low = mid }
            }
            let (a, b) = scaled(high)
            u[p % columns] = max(u[p % columns], a)
            v[p / columns] = max(v[p / columns], b)
        }
        // Sharing steps changes a patch's aspect; where the tight bound then fails, fall back to
        // the simple steps (at most once per column and row).
        var changed = true
        while changed {
            changed = false
            for p in patches.indices where !fits(p, u[p % columns], v[p / columns]) {
                u[p % columns] = max(u[p % columns], simple[p].u)
                v[p / columns] = max(v[p / columns], simple[p].v)
                changed = true
            }
        }
        let quads = Double(u.reduce(0, +)) * Double(v.reduce(0, +))
        if quads > Double(maximumQuads) {
            let shrink = (Double(maximumQuads) / quads).squareRoot()
            u = u.map { max(1, Int(Double($0) * shrink)) }
            v = v.map { max(1, Int(Double($0) * shrink)) }
        }
        return (u, v)
    }

    /// Knots per patch column and row: graded where the patches bend most, with the fewest steps
    /// whose bound (MeshErrorBound.error(u:v:)) every patch meets; the uniform `steps` (always
    /// within the bound) when grading does not need fewer quads.
    static func knots(_ patches: [MeshPatch], columns: Int, rows: Int) -> ([[Double]], [[Double]]) {
        let bounds = patches.map { MeshErrorBound($0) }
        let (u0, v0) = steps(patches, bounds: bounds, columns: columns, rows: rows)
        let uniform = (u0.map(uniformKnots), v0.map(uniformKnots))
        let quads0 = u0.reduce(0, +) * v0.reduce(0, +)
        guard quads0 < maximumQuads, quads0 > columns * rows else { return uniform }
        // How much each column (row) bends along u (v): the largest density of its patches.
        let densities = patches.indices.map { p -> (u: [Double], v: [Double]) in
            let n = MeshErrorBound.samples
            let e = bounds[p].errorField(u0[p % columns], v0[p / columns])
            return ((0..<n).map { i in (0..<n).map { e[$0 * n + i] }.max()!.squareRoot() },
                    (0..<n).map { j in (0..<n).map { e[j * n + $0] }.max()!.squareRoot() })
        }
        let columnDensity = (0..<columns).map { c in
            (0..<MeshErrorBound.samples).map { i in (0..<rows).map { densities[$0 * columns + c].u[i] }.max()! }
        }
        let rowDensity = (0..<rows).map { r in
            (0..<MeshErrorBound.samples).map { j in (0..<columns).map { densities[r * columns + $0].v[j] }.max()! }
        }
        func graded(_ f: Double) -> ([[Double]], [[Double]]) {
            (zip(u0, columnDensity).map { gradedKnots($1, count: max(1, Int((f * Double($0)).rounded(.up)))) },
             zip(v0, rowDensity).map { gradedKnots($1, count: max(1, Int((f * Double($0)).rounded(.up)))) })
        }
        func fits(_ k: ([[Double]], [[Double]])) -> Bool {
            patches.indices.allSatisfy { bounds[$0].error(u: k.0[$0 % columns], v: k.1[$0 / columns]) <= target }
        }
        // The smallest fraction of the uniform steps that graded knots meet the bound with.
        var best: ([[Double]], [[Double]])?
        var low = 0.3, high = 1.0
        for _ in 0..<8 {
            let f = best == nil && high == 1.0 ? 1.0 : (low + high) / 2
            let k = graded(f)
            if fits(k) { best = k; high = f } else if f == 1.0 { break } else { low = f }
        }
        guard let best else { return uniform }
        let quads = best.0.reduce(0) { $0 + $1.count - 1 } * best.1.reduce(0) { $0 + $1.count - 1 }
        return quads < quads0 ? best : uniform
    }

    static func uniformKnots(_ n: Int) -> [Double] { (0...n).map { Double($0) / Double(n) } }

    /// `count` steps from 0 to 1 with equal shares of ∫ density (the density floored at a quarter of
    /// its peak, so no step is more than about four times another).
    static func gradedKnots(_ density: [Double], count: Int) -> [Double] {
        let n = density.count, g = 1 / Double(n - 1)
        let peak = density.max() ?? 0
        guard count > 1, peak > 0, peak.isFinite else { return uniformKnots(count) }
        let w = density.map { max($0, peak / 4) }
        var cumulative = [0.0]
        for i in 1..<n { cumulative.append(cumulative[i - 1] + (w[i - 1] + w[i]) / 2 * g) }
        let total = cumulative[n - 1]
        var knots = [0.0], segment = 0
        for k in 1..<count {
            let share = total * Double(k) / Double(count)
            while segment < n - 2 && cumulative[segment + 1] < share { segment += 1 }
            let t = (share - cumulative[segment]) / (cumulative[segment + 1] - cumulative[segment])
            knots.append(min(max((Double(segment) + t) * g, knots[k - 1]), 1))
        }
        knots.append(1)
        return knots
    }

    /// Snaps a pixel coordinate to GL's 1/256-pixel sub-pixel grid.
    @inlinable static func snap(_ x: Double) -> Float { Float((x * 256).rounded() / 256) }

    /// Emits each patch's grid of vertices and its triangles: patches row-major, within a patch rows
    /// of quads by increasing v, then increasing u, each quad as (a, b, c) then (b, d, c). Drawn in
    /// this order with later triangles on top, a fold shows the later patch, then larger v, then larger u.
    mutating func tessellate(_ patchList: [MeshPatch]) {
        let columns = width - 1
        var vertexCount = 0, indexCount = 0
        for (p, _) in patchList.enumerated() {
            let nu = columnKnots[p % columns].count - 1, nv = rowKnots[p / columns].count - 1
            vertexCount += (nu + 1) * (nv + 1); indexCount += 6 * nu * nv
        }
        positions.reserveCapacity(vertexCount); parameters.reserveCapacity(vertexCount)
        patches.reserveCapacity(vertexCount); indices.reserveCapacity(indexCount)
        for (p, patch) in patchList.enumerated() {
            let us = columnKnots[p % columns], vs = rowKnots[p / columns]
            let nu = us.count - 1, nv = vs.count - 1
            let first = UInt32(positions.count)
            // Bernstein weights in u, once per patch; per row, the curve at v (4 points), then each u.
            let weights = us.map { MeshPatch.bernstein($0) }
            for l in 0...nv {
                let v = vs[l]
                let bv = MeshPatch.bernstein(v)
                let curve = (0..<4).map { k -> SIMD2<Double> in
                    var c: SIMD2<Double> = bv[0] * patch.points[k * 4]
                    c += bv[1] * patch.points[k * 4 + 1]
                    c += bv[2] * patch.points[k * 4 + 2]
                    return c + bv[3] * patch.points[k * 4 + 3]
                }
                for k in 0...nu {
                    let u = us[k]
                    let bu = weights[k]
                    var point: SIMD2<Double> = bu[0] * curve[0]
                    point += bu[1] * curve[1]
                    point += bu[2] * curve[2]
                    point += bu[3] * curve[3]
                    positions.append(SIMD2(Self.snap(point.x), Self.snap(point.y)))
                    parameters.append(SIMD2(Float(u), Float(v)))
                    patches.append(Int32(p))
                }
            }
            let stride = UInt32(nu + 1)
            for l in 0..<UInt32(nv) {
                for k in 0..<UInt32(nu) {
                    let a = first + l * stride + k, b = a + 1, c = a + stride, d = c + 1
                    indices.append(a); indices.append(b); indices.append(c)
                    indices.append(b); indices.append(d); indices.append(c)
                }
            }
        }
    }
}

extension MeshDraw: LayerDraw {}

extension MeshGradient: GroupableContent {
    public var typeName: String { Self.kind.type }

    public func resolve(_ layer: Layer, _ r: Frame.Resolution, path: String) -> any LayerDraw {
        // Animated meshes share the frame's spring steps, as emitters share its simulation budget
        // (ParticleDraw): a frame's work does not grow with its number of layers.
        let springSteps = MeshRandomWalk.maximumSpringSteps / max(1, r.scene.animatedMeshCount)
        let mesh = at(r.time, sceneSpace: r.colorSpace)
        return Frame.shadowed(layer, r) {
            MeshDraw(mesh, opacity: $0, sceneColorSpace: r.colorSpace, seed: r.seed, time: r.time, pixelSize: r.pixelSize,
                     springSteps: springSteps)
        }
    }
}

extension Scene {
    /// Mesh layers with a random walk: they share the frame's MeshRandomWalk.maximumSpringSteps.
    public var animatedMeshCount: Int {
        layers.filter { ($0.content as? MeshGradient)?.animation != nil }.count
    }
}
