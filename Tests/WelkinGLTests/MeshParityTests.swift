// Mesh gradients on the GPU: parity with the CPU reference on every mesh scene, and cairo's Coons patches.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinBaselines
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class MeshParityTests: XCTestCase {
    static let scenes = Repository.scenes.path

    /// Every Scenes/mesh-*.json but mesh-text.json (a group masked by text: TextParityTests checks it).
    static func meshScenes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenes)
            .filter { $0.hasPrefix("mesh-") && $0.hasSuffix(".json") && $0 != "mesh-text.json" }.sorted()
    }

    func checkParity(_ scene: Scene, _ label: String, times: [Double], sizes: [SIMD2<Int>?] = [nil],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        for time in times {
            for size in sizes {
                let frame = Frame(scene: scene, time: time, pixelSize: size)
                let name = "mesh \(label) \(frame.pixelSize.x)×\(frame.pixelSize.y)"
                // The default (last layer resolves itself) and the plain way (a separate resolve pass), one CPU render for both.
                let (_, cpu) = try assertParity(frame, label: name, file: file, line: line)
                try assertParity(frame, label: name, plain: true, cpu: cpu, file: file, line: line)
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
        guard let layer = scene.layers.first(where: { $0.content is MeshGradient }),
              var mesh = layer.content as? MeshGradient, case .bezier = mesh.vertices else { return XCTFail() }
        mesh.colors = mesh.colors.map { RGBA($0.r, $0.g, $0.b, 1) }
        mesh.background = .clear
        mesh.smoothsColors = false
        mesh.animation = nil
        let size = SIMD2(480, 270)
        scene.layers = [Layer(content: mesh)]
        scene.background = .clear
        scene.dither = false
        scene.size = size
        let gpu = try renderer.render(Frame(scene: scene, time: 0))

        let (psnr, pixels) = CairoBaseline.psnrAwayFromEdges(gpu, CairoBaseline.render(mesh, size: size))
        print("mesh vs cairo (GPU): PSNR \(String(format: "%.2f", psnr)) dB over \(pixels) pixels")
        XCTAssertGreaterThan(pixels, size.x * size.y / 2)
        XCTAssertGreaterThanOrEqual(psnr, 40)
    }
}
