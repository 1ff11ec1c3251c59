// The mesh layer on the CPU: fold rule in pixels, thread independence, and cairo's Coons patches.

import CCairo
import Foundation
import XCTest
import WelkinCore
@testable import WelkinReference

/// cairo (pixman) drawing a mesh layer's patches as a cairo mesh pattern, for comparison.
enum CairoMesh {
    /// Straight RGBA of the mesh over a transparent surface. Our (u, v) maps to cairo's corners as
    /// C0 = (0, 0), C1 = (0, 1), C2 = (1, 1), C3 = (1, 0): side 0 is our left edge.
    static func render(_ mesh: MeshGradient, size: SIMD2<Int>, seed: UInt64 = 1, time: Double = 0) -> Image {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.x), Int32(size.y))!
        defer { cairo_surface_destroy(surface) }
        paint(mesh, size: size, surface: surface)
        return image(surface, size: size)
    }

    static func paint(_ mesh: MeshGradient, size: SIMD2<Int>, surface: OpaquePointer) {
        let scale = SIMD2<Double>(Double(size.x), Double(size.y))
        let vertices = mesh.vertices.bezierPoints(width: mesh.width, height: mesh.height)
        let patches = MeshGeometry.patches(vertices, width: mesh.width, height: mesh.height) { $0 * scale }
        let pattern = cairo_pattern_create_mesh()!
        defer { cairo_pattern_destroy(pattern) }
        for (index, patch) in patches.enumerated() {
            let i = index % (mesh.width - 1), j = index / (mesh.width - 1)
            let p = { (k: Int, l: Int) in patch.points[k * 4 + l] }
            cairo_mesh_pattern_begin_patch(pattern)
            cairo_mesh_pattern_move_to(pattern, p(0, 0).x, p(0, 0).y)
            for (a, b, c) in [(p(0, 1), p(0, 2), p(0, 3)), (p(1, 3), p(2, 3), p(3, 3)), (p(3, 2), p(3, 1), p(3, 0)), (p(2, 0), p(1, 0), p(0, 0))] {
                cairo_mesh_pattern_curve_to(pattern, a.x, a.y, b.x, b.y, c.x, c.y)
            }
            for (corner, (ci, cj)) in [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)].enumerated() {
                let c = mesh.colors[cj * mesh.width + ci]
                cairo_mesh_pattern_set_corner_color_rgba(pattern, UInt32(corner), c.r, c.g, c.b, c.a)
            }
            cairo_mesh_pattern_end_patch(pattern)
        }
        let cr = cairo_create(surface)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    static func image(_ surface: OpaquePointer, size: SIMD2<Int>) -> Image {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var image = Image(width: size.x, height: size.y)
        for y in 0..<size.y {
            for x in 0..<size.x {
                let v = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let a = Int(v >> 24)
                func straight(_ c: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (Int(c & 0xFF) * 255 + a / 2) / a)) }
                image[x, y] = SIMD4(straight(v >> 16), straight(v >> 8), straight(v), UInt8(a))
            }
        }
        return image
    }

    /// PSNR (dB) over pixels more than `band` pixels from any change of coverage (alpha 0 ↔ non-zero)
    /// in either image, and the number of pixels compared.
    static func psnr(_ a: Image, _ b: Image, band: Int = 2) -> (psnr: Double, pixels: Int) {
        let w = a.width, h = a.height
        var covered = [Bool](repeating: false, count: w * h), edge = covered
        for y in 0..<h { for x in 0..<w { covered[y * w + x] = a[x, y].w > 0 } }
        for y in 0..<h {
            for x in 0..<w {
                let here = covered[y * w + x] || b[x, y].w > 0
                for dy in -1...1 {
                    for dx in -1...1 where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) {
                        if covered[(y + dy) * w + x + dx] != here || (b[x + dx, y + dy].w > 0) != here { edge[y * w + x] = true }
                    }
                }
            }
        }
        var sum = 0.0, count = 0
        for y in 0..<h {
            for x in 0..<w {
                var near = false
                for dy in -band...band { for dx in -band...band where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) {
                    if edge[(y + dy) * w + x + dx] { near = true }
                } }
                if near { continue }
                let d = SIMD4<Double>(a[x, y]) - SIMD4<Double>(b[x, y])
                sum += (d * d).sum(); count += 4
            }
        }
        let mse = sum / Double(max(count, 1))
        return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), count / 4)
    }
}

extension MeshGradient.Vertices {
    func bezierPoints(width: Int, height: Int) -> [MeshBezierPoint] {
        switch self {
        case .points(let p): return MeshGeometry.automaticHandles(p, width: width, height: height)
        case .bezier(let b): return b
        }
    }
}

final class MeshRasterTests: XCTestCase {
    static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes").path

    /// The mesh of Scenes/mesh-bezier.json, opaque, bilinear, over a clear frame without dither.
    static func cairoScene(size: SIMD2<Int>) throws -> (Scene, MeshGradient) {
        var scene = try SceneLoader.load(path: scenes + "/mesh-bezier.json")
        guard let layer = scene.layers.first(where: { if case .mesh = $0.content { return true } else { return false } }),
              case .mesh(var mesh) = layer.content else { throw XCTSkip("no mesh") }
        mesh.colors = mesh.colors.map { RGBA($0.r, $0.g, $0.b, 1) }
        mesh.background = .clear
        mesh.smoothsColors = false
        mesh.animation = nil
        scene.layers = [Layer(content: .mesh(mesh))]
        scene.background = .clear
        scene.dither = false
        scene.size = size
        return (scene, mesh)
    }

    func testReferenceMatchesCairoCoonsPatches() throws {
        let size = SIMD2(480, 270)
        let (scene, mesh) = try Self.cairoScene(size: size)
        let ours = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        let cairo = CairoMesh.render(mesh, size: size)
        let (psnr, pixels) = CairoMesh.psnr(ours, cairo)
        print("mesh vs cairo (CPU reference): PSNR \(String(format: "%.2f", psnr)) dB over \(pixels) pixels")
        XCTAssertGreaterThan(pixels, size.x * size.y / 2)
        XCTAssertGreaterThanOrEqual(psnr, 40)
    }

    func testFoldShowsLargerV() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 200], "dither": false, "background": "black", "layers": [\(Self.foldedMesh)]}
            """)
        let image = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        // Rows with y in 0.5…0.75 (of 200 px) are covered by two sheets: v ≈ 0.3…0.5 and v ≈ 0.75…1.
        // Red (top) → blue (bottom) bilinearly, so the later (larger v) sheet is mostly blue.
        let y = { (v: Double) -> Double in
            let s = 1 - v
            return 0.1 * s * s * s + 0.9 * 3 * s * s * v + 0.9 * 3 * s * v * v + 0.5 * v * v * v
        }
        for row in [110, 120, 130, 140] {
            let py = (Double(row) + 0.5) / 200
            var high = 1.0, low = 0.5
            for _ in 0..<60 { let mid = (high + low) / 2; if y(mid) > py { low = mid } else { high = mid } }
            let pixel = image[100, row]
            XCTAssertEqual(Double(pixel.z), 255 * low, accuracy: 2, "row \(row): v \(low), got \(pixel)")
            XCTAssertEqual(Double(pixel.x), 255 * (1 - low), accuracy: 2, "row \(row)")
        }
    }

    func testFoldMatchesCairo() throws {
        // cairo paints a folded patch the PDF way; with our corner mapping its picture is ours.
        let scene = try SceneLoader.decode("""
            {"size": [200, 200], "dither": false, "background": "clear", "layers": [\(Self.foldedMesh)]}
            """)
        guard case .mesh(let mesh) = scene.layers[0].content else { return XCTFail() }
        let ours = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        let (psnr, pixels) = CairoMesh.psnr(ours, CairoMesh.render(mesh, size: [200, 200]))
        print("folded mesh vs cairo: PSNR \(String(format: "%.2f", psnr)) dB over \(pixels) pixels")
        XCTAssertGreaterThanOrEqual(psnr, 40)
    }

    func testMeshRowsIndependentOfThreadCount() throws {
        let frame = Frame(scene: try SceneLoader.load(path: Self.scenes + "/mesh-bezier.json"), time: 1.5, pixelSize: SIMD2(301, 173))
        let one = try ReferenceRenderer(threads: 1).render(frame)
        XCTAssertEqual(one, try ReferenceRenderer(threads: 3).render(frame))
        XCTAssertEqual(one, try ReferenceRenderer(threads: 8).render(frame))
    }

    func testEdgeClipMatchesIntegerDivision() {
        // Edge.clip's double-division shortcut against the exact integer formula, on random edges
        // (coordinates up to the ±10-unit scene limit at 2048 px, 8 sub-pixel bits).
        var rng = SystemRandomNumberGenerator()
        let limit: Int64 = 10 * 2048 * 256
        for n in 0..<200_000 {
            let range: ClosedRange<Int64> = n % 2 == 0 ? -limit...limit : -2048...2048
            let a = SIMD2(Int64.random(in: range, using: &rng), Int64.random(in: range, using: &rng))
            var b = SIMD2(Int64.random(in: range, using: &rng), Int64.random(in: range, using: &rng))
            if n % 5 == 0 { b.y = a.y + Int64.random(in: -1...1, using: &rng) }
            let edge = MeshRaster.Edge(a, b)
            let yc = 256 * Int64.random(in: -5000...5000, using: &rng) + 128
            var lo: Int64 = -1 << 40, hi: Int64 = 1 << 40
            edge.clip(yc, &lo, &hi)
            let slope = -edge.dy, constant = edge.dx * (yc - edge.a.y) + edge.dy * edge.a.x - (edge.includesEdge ? 0 : 1)
            if slope > 0 {
                XCTAssertEqual(lo, ceilDiv(-constant - 128 * slope, 256 * slope)); XCTAssertEqual(hi, 1 << 40)
            } else if slope < 0 {
                XCTAssertEqual(hi, floorDiv(constant + 128 * slope, -256 * slope)); XCTAssertEqual(lo, -1 << 40)
            }
        }
    }

    func testTopLeftRuleCoversEachPixelOnce() throws {
        // An axis-aligned 2×2 mesh whose edges pass exactly through pixel centres: with the top-left
        // rule each centre belongs to exactly one triangle, so no pixel is painted twice or missed.
        let scene = try SceneLoader.decode("""
            {"size": [64, 64], "dither": false, "background": "clear",
             "layers": [{"type": "meshGradient", "width": 2, "height": 2, "smoothsColors": false,
                         "points": [[0.2578125, 0.2578125], [0.7578125, 0.2578125], [0.2578125, 0.7578125], [0.7578125, 0.7578125]],
                         "colors": ["white", "white", "white", "white"]}]}
            """)
        let frame = Frame(scene: scene, time: 0)
        guard case .mesh(let m) = frame.layers[0] else { return XCTFail() }
        let raster = MeshRaster(m, pixelSize: frame.pixelSize)
        var painted = [Int](repeating: 0, count: 64 * 64)
        for y in 0..<64 {
            for t in 0..<raster.triangleCount {
                for x in raster.span(triangle: t, row: y) { painted[y * 64 + x] += 1 }
            }
        }
        // Edges at 16.5 and 48.5 px: top/left edges include their centres, bottom/right ones do not.
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = (16...47).contains(x) && (16...47).contains(y)
                XCTAssertEqual(painted[y * 64 + x], inside ? 1 : 0, "pixel \(x), \(y)")
            }
        }
    }

    static let foldedMesh = """
        {"type": "meshGradient", "width": 2, "height": 2, "smoothsColors": false,
         "bezierPoints": [
          {"position": [0.1, 0.1], "leading": [0.1, 0.1], "top": [0.1, 0.1], "trailing": [0.4, 0.1], "bottom": [0.1, 0.9]},
          {"position": [0.9, 0.1], "leading": [0.6, 0.1], "top": [0.9, 0.1], "trailing": [0.9, 0.1], "bottom": [0.9, 0.9]},
          {"position": [0.1, 0.5], "leading": [0.1, 0.5], "top": [0.1, 0.9], "trailing": [0.4, 0.5], "bottom": [0.1, 0.5]},
          {"position": [0.9, 0.5], "leading": [0.6, 0.5], "top": [0.9, 0.9], "trailing": [0.9, 0.5], "bottom": [0.9, 0.5]}],
         "colors": ["#FF0000", "#FF0000", "#0000FF", "#0000FF"]}
        """
}
