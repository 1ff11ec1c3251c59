// The mesh layer on the CPU: fold rule in pixels, thread independence, and cairo's Coons patches.

import WelkinBaselines
import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImage
@testable import WelkinReference


final class MeshRasterTests: XCTestCase {
    static let scenes = Repository.scenes.path

    /// The mesh of Scenes/mesh-bezier.json, opaque, bilinear, over a clear frame without dither.
    static func cairoScene(size: SIMD2<Int>) throws -> (Scene, MeshGradient) {
        var scene = try SceneLoader.load(path: scenes + "/mesh-bezier.json")
        guard let layer = scene.layers.first(where: { $0.content is MeshGradient }),
              var mesh = layer.content as? MeshGradient else { throw MeshFixtureError.noMeshLayer }
        mesh.colors = mesh.colors.map { RGBA($0.r, $0.g, $0.b, 1) }
        mesh.background = .clear
        mesh.smoothsColors = false
        mesh.animation = nil
        scene.layers = [Layer(content: mesh)]
        scene.background = .clear
        scene.dither = false
        scene.size = size
        return (scene, mesh)
    }

    func testReferenceMatchesCairoCoonsPatches() throws {
        let size = SIMD2(480, 270)
        let (scene, mesh) = try Self.cairoScene(size: size)
        let ours = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        let cairo = CairoBaseline.render(mesh, size: size)
        let (psnr, pixels) = CairoBaseline.psnrAwayFromEdges(ours, cairo)
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
        guard let mesh = scene.layers[0].content as? MeshGradient else { return XCTFail() }
        let ours = try ReferenceRenderer().render(Frame(scene: scene, time: 0))
        let (psnr, pixels) = CairoBaseline.psnrAwayFromEdges(ours, CairoBaseline.render(mesh, size: [200, 200]))
        print("folded mesh vs cairo: PSNR \(String(format: "%.2f", psnr)) dB over \(pixels) pixels")
        XCTAssertGreaterThanOrEqual(psnr, 40)
    }

    func testMeshRowsIndependentOfThreadCount() throws {
        let frame = Frame(scene: try SceneLoader.load(path: Self.scenes + "/mesh-bezier.json"), time: 1.5, pixelSize: SIMD2(301, 173))
        let one = try ReferenceRenderer(threads: 1).render(frame)
        XCTAssertEqual(one, try ReferenceRenderer(threads: 3).render(frame))
        XCTAssertEqual(one, try ReferenceRenderer(threads: 8).render(frame))
    }

    func testOpaqueFullFrameMeshShortcutsMatchCompositing() throws {
        // mesh-seed is opaque and covers the frame. As the last layer it is quantised straight to
        // RGBA8 and the layers below are skipped; with a transparent layer above it, it goes
        // through the float row and the resolve. All three must give the same bytes.
        let scene = try SceneLoader.load(path: Self.scenes + "/mesh-seed.json")
        func gradient(_ color: RGBA) -> Layer {
            Layer(content: Gradient(shape: .linear(start: [0, 0], end: [1, 1]),
                                              stops: [GradientStop(color: color, location: 0)]))
        }
        func render(_ layers: [Layer]) throws -> Image {
            var s = scene
            s.layers = layers
            let frame = Frame(scene: s, time: 1.5, pixelSize: SIMD2(301, 173))
            XCTAssertTrue(frame.dither)
            return try ReferenceRenderer(threads: 2).render(frame)
        }
        let mesh = scene.layers[0]
        let alone = try render([mesh])
        XCTAssertEqual(alone, try render([gradient(RGBA.named("red")!), mesh]), "a layer under an opaque full-frame mesh is hidden")
        XCTAssertEqual(alone, try render([mesh, gradient(RGBA(0, 0, 0, 0))]), "the float row and its resolve give the same bytes")
        XCTAssertNotEqual(alone, try render([mesh, gradient(RGBA(1, 0, 0, 0.5))]))
    }

    func testEdgeClipMatchesIntegerDivision() {
        // Edge.clip's floating-point shortcut against the exact integer formula, on random edges
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
            // E(p) = (b − a) × (p − a); inside when > 0, or = 0 on a top or left edge.
            let dx = b.x - a.x, dy = b.y - a.y
            let includesEdge = dy < 0 || (dy == 0 && dx > 0)
            let slope = -dy, constant = dx * (yc - a.y) + dy * a.x - (includesEdge ? 0 : 1)
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
        guard let m = frame.layers[0] as? MeshDraw else { return XCTFail() }
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

    static let foldedMesh = try! String(contentsOfFile: Repository.fixtures.appendingPathComponent("folded-mesh-layer.json").path, encoding: .utf8)
}

/// Exact integer division rounding down and up: the oracle for Edge.clip's floating-point shortcut.
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

/// A fixture scene without the mesh layer a test needs: a failure, never a skip.
enum MeshFixtureError: Error { case noMeshLayer }
