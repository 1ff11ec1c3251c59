// cairo drawing a mesh gradient as the same Coons patches (PDF shading type 6): the outside
// baseline for the mesh tests and `welkin bench`'s `cairo.mesh4x4.1080p`.

import CCairo
import Foundation
import WelkinCore
import WelkinImage

extension CairoBaseline {
    /// Paints `mesh`'s patches over a `size` surface with cairo's mesh pattern, corner colours
    /// bilinear (cairo's rule; compare with `smoothsColors: false`).
    /// Side 0 is our left edge; cairo's corners C0…C3 are our (0, 0), (0, 1), (1, 1), (1, 0) in (u, v).
    public static func paint(_ mesh: MeshGradient, size: SIMD2<Int>, surface: OpaquePointer) {
        let scale = SIMD2<Double>(Double(size.x), Double(size.y))
        let vertices: [MeshBezierPoint]
        switch mesh.vertices {
        case .points(let p): vertices = MeshGeometry.automaticHandles(p, width: mesh.width, height: mesh.height)
        case .bezier(let b): vertices = b
        }
        let patches = MeshGeometry.patches(vertices, width: mesh.width, height: mesh.height) { $0 * scale }
        let pattern = cairo_pattern_create_mesh()!
        defer { cairo_pattern_destroy(pattern) }
        for (index, patch) in patches.enumerated() {
            let i = index % (mesh.width - 1), j = index / (mesh.width - 1)
            let p = { (k: Int, l: Int) -> SIMD2<Double> in patch.points[k * 4 + l] }
            cairo_mesh_pattern_begin_patch(pattern)
            cairo_mesh_pattern_move_to(pattern, p(0, 0).x, p(0, 0).y)
            // The four sides as cubic segments, starting with side 0 (our left edge).
            let sides: [[(Int, Int)]] = [[(0, 1), (0, 2), (0, 3)], [(1, 3), (2, 3), (3, 3)],
                                         [(3, 2), (3, 1), (3, 0)], [(2, 0), (1, 0), (0, 0)]]
            for side in sides {
                let a = p(side[0].0, side[0].1), b = p(side[1].0, side[1].1), c = p(side[2].0, side[2].1)
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

    /// A mesh gradient drawn by cairo, as a straight-alpha Image.
    public static func render(_ mesh: MeshGradient, size: SIMD2<Int>) -> Image {
        let surface = makeSurface(width: size.x, height: size.y)
        defer { cairo_surface_destroy(surface) }
        paint(mesh, size: size, surface: surface)
        return image(of: surface)
    }

    /// PSNR (dB) over pixels more than `band` pixels from any change of coverage (alpha 0 ↔ non-zero)
    /// in either image, and the number of pixels compared.
    public static func psnrAwayFromEdges(_ a: Image, _ b: Image, band: Int = 2) -> (psnr: Double, pixels: Int) {
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
