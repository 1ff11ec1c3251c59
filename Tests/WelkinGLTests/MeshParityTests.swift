// Mesh gradients on the GPU: parity with the CPU reference on every mesh scene, and cairo's Coons patches.

import CCairo
import Foundation
import XCTest
import WelkinCore
import WelkinGL
import WelkinReference

final class MeshParityTests: XCTestCase {
    static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes").path

    /// Every Scenes/mesh-*.json.
    static func meshScenes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenes).filter { $0.hasPrefix("mesh-") && $0.hasSuffix(".json") }.sorted()
    }

    func checkParity(_ scene: Scene, _ label: String, times: [Double], sizes: [SIMD2<Int>?] = [nil]) throws {
        let renderer = try TestGL.renderer()
        defer { renderer.fusesLastLayer = true }
        for time in times {
            for size in sizes {
                let frame = Frame(scene: scene, time: time, pixelSize: size)
                let cpu = try ReferenceRenderer().render(frame)
                // The default (last layer resolves itself) and the plain way (a separate resolve pass).
                for fused in [true, false] {
                    renderer.fusesLastLayer = fused
                    let gpu = try renderer.render(frame)
                    let difference = ImageDifference(gpu, cpu)
                    let name = "\(label) t=\(time) \(frame.pixelSize.x)×\(frame.pixelSize.y)\(fused ? "" : " plain")"
                    print("mesh parity \(name): \(difference)")
                    XCTAssertTrue(difference.passes, "\(name): \(difference)")
                    if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
                        let base = "\(directory)/\(label)-t\(time)-\(frame.pixelSize.x)x\(frame.pixelSize.y)"
                        try PNG.write(gpu, to: base + "-gpu.png")
                        try PNG.write(cpu, to: base + "-cpu.png")
                    }
                }
            }
        }
    }

    func testEveryMeshSceneAtZeroOneAndAHalfAndSevenSeconds() throws {
        let names = try Self.meshScenes()
        XCTAssertGreaterThanOrEqual(names.count, 3)
        for name in names {
            let scene = try SceneLoader.load(path: Self.scenes + "/" + name)
            try checkParity(scene, name, times: [0, 1.5, 7])
        }
    }

    func testOddSizesSpacesAndTranslucency() throws {
        for (space, smooth) in [("srgb", true), ("linearSRGB", false), ("oklab", true)] {
            let scene = try SceneLoader.decode("""
                {"size": [320, 180], "background": "#20304080", "colorSpace": "\(space)",
                 "layers": [{"type": "radialGradient", "stops": ["#FF950080", "#00000000"]},
                            {"type": "meshGradient", "width": 3, "height": 3, "smoothsColors": \(smooth), "opacity": 0.8,
                             "background": "#FFFFFF30",
                             "points": [[0.05, 0.1], [0.5, 0], [0.95, 0.05], [0, 0.5], [0.6, 0.45], [1, 0.6], [0.1, 0.9], [0.4, 1], [0.9, 0.95]],
                             "colors": ["#FF3B30", "#FFCC0080", "#34C759", "#007AFF", "white", "#AF52DE40", "black", "#00C7BE", "#FF2D55"]},
                            {"type": "linearGradient", "stops": ["#00000000", "#00000040"]}]}
                """, file: "\(space).json")
            try checkParity(scene, "translucent-\(space)", times: [0], sizes: [nil, SIMD2(97, 61)])
        }
    }

    func testFoldedMesh() throws {
        let scene = try SceneLoader.decode("""
            {"size": [200, 200], "background": "black",
             "layers": [{"type": "meshGradient", "width": 2, "height": 2, "smoothsColors": false, "opacity": 0.7,
              "bezierPoints": [
               {"position": [0.1, 0.1], "leading": [0.1, 0.1], "top": [0.1, 0.1], "trailing": [0.4, 0.1], "bottom": [0.1, 0.9]},
               {"position": [0.9, 0.1], "leading": [0.6, 0.1], "top": [0.9, 0.1], "trailing": [0.9, 0.1], "bottom": [0.9, 0.9]},
               {"position": [0.1, 0.5], "leading": [0.1, 0.5], "top": [0.1, 0.9], "trailing": [0.4, 0.5], "bottom": [0.1, 0.5]},
               {"position": [0.9, 0.5], "leading": [0.6, 0.5], "top": [0.9, 0.9], "trailing": [0.9, 0.5], "bottom": [0.9, 0.5]}],
              "colors": ["#FF0000", "#FF0000", "#0000FF", "#0000FF"]},
              {"type": "linearGradient", "stops": ["#FFFFFF10", "#FFFFFF00"]}]}
            """, file: "folded.json")
        try checkParity(scene, "folded", times: [0])
    }

    /// Explicit bezierPoints, bilinear colours, no dither: the GPU matches cairo's Coons-patch mesh
    /// (PSNR ≥ 40 dB away from a 2-pixel band along the mesh's outer edge).
    func testGPUMatchesCairoCoonsPatches() throws {
        let renderer = try TestGL.renderer()
        var scene = try SceneLoader.load(path: Self.scenes + "/mesh-bezier.json")
        guard let layer = scene.layers.first(where: { if case .mesh = $0.content { return true } else { return false } }),
              case .mesh(var mesh) = layer.content, case .bezier(let vertices) = mesh.vertices else { return XCTFail() }
        mesh.colors = mesh.colors.map { RGBA($0.r, $0.g, $0.b, 1) }
        mesh.background = .clear
        mesh.smoothsColors = false
        mesh.animation = nil
        let size = SIMD2(480, 270)
        scene.layers = [Layer(content: .mesh(mesh))]
        scene.background = .clear
        scene.dither = false
        scene.size = size
        let gpu = try renderer.render(Frame(scene: scene, time: 0))

        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.x), Int32(size.y))!
        defer { cairo_surface_destroy(surface) }
        let patches = MeshGeometry.patches(vertices, width: mesh.width, height: mesh.height) { $0 * SIMD2<Double>(Double(size.x), Double(size.y)) }
        let pattern = cairo_pattern_create_mesh()!
        defer { cairo_pattern_destroy(pattern) }
        for (index, patch) in patches.enumerated() {
            let i = index % (mesh.width - 1), j = index / (mesh.width - 1)
            let p = { (k: Int, l: Int) in patch.points[k * 4 + l] }
            cairo_mesh_pattern_begin_patch(pattern)
            cairo_mesh_pattern_move_to(pattern, p(0, 0).x, p(0, 0).y)
            // Side 0 is our left edge (cairo's C0 (0,0), C1 (0,1), C2 (1,1), C3 (1,0) in our (u, v)).
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
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        // PSNR over pixels more than 2 px from a change of coverage in either picture.
        let w = size.x, h = size.y
        func covered(_ x: Int, _ y: Int) -> (gpu: Bool, cairo: Bool) {
            let v = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
            return (gpu[x, y].w > 0, v >> 24 > 0)
        }
        var sum = 0.0, count = 0
        for y in 0..<h {
            for x in 0..<w {
                let here = covered(x, y)
                var nearEdge = here.gpu != here.cairo
                for dy in -3...3 { for dx in -3...3 where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) && !nearEdge {
                    let there = covered(x + dx, y + dy)
                    if there.gpu != here.gpu || there.cairo != here.cairo { nearEdge = true }
                } }
                if nearEdge { continue }
                let v = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let a = Int(v >> 24)
                func straight(_ c: UInt32) -> Double { a == 0 ? 0 : Double(min(255, (Int(c & 0xFF) * 255 + a / 2) / a)) }
                let d = SIMD4<Double>(gpu[x, y]) - SIMD4(straight(v >> 16), straight(v >> 8), straight(v), Double(a))
                sum += (d * d).sum(); count += 4
            }
        }
        let mse = sum / Double(count)
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        print("mesh vs cairo (GPU): PSNR \(String(format: "%.2f", psnr)) dB over \(count / 4) pixels")
        XCTAssertGreaterThan(count / 4, w * h / 2)
        XCTAssertGreaterThanOrEqual(psnr, 40)
    }
}
