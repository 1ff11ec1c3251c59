// The clouds' sharpness (#37): a render marches every pixel with the final steps, so its detail is
// the detail the layer's highest quality has — measured as the high-frequency energy (the sum of
// the squared Laplacian of luminance) over the pixels the clouds cover.

import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImage
@testable import WelkinGL

final class CloudsSharpnessTests: XCTestCase {
    func testTheDefaultRenderIsAsSharpAsTheHighestQuality() throws {
        let renderer = try TestGL.renderer()
        let size = SIMD2(1920, 1080)
        let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("look-around.json").path)
        let index = try XCTUnwrap(scene.layers.firstIndex { $0.content is CloudsLayer })
        var highest = scene
        var layer = try XCTUnwrap(scene.layers[index].content as? CloudsLayer)
        layer.steps = CloudsLayer.maximumSteps
        layer.resolution = 1
        highest.layers[index].content = layer
        var clear = scene
        clear.layers.remove(at: index)

        let render = try renderer.render(Frame(scene: scene, time: 0, pixelSize: size))
        let best = try renderer.render(Frame(scene: highest, time: 0, pixelSize: size))
        let viewer = try renderer.render(Frame(scene: scene, time: 0, pixelSize: size, options: FrameOptions(interactive: true)))
        let sky = try renderer.render(Frame(scene: clear, time: 0, pixelSize: size))

        // Cloud pixels: where the clouds change the picture by more than 8/255 (the render's).
        var mask = [Bool](repeating: false, count: size.x * size.y)
        for i in mask.indices {
            mask[i] = (0..<3).contains { abs(Int(render.pixels[i * 4 + $0]) - Int(sky.pixels[i * 4 + $0])) > 8 }
        }
        let covered = mask.filter { $0 }.count
        XCTAssertGreaterThan(covered, size.x * size.y / 5, "look-around's clouds cover a good part of the frame")
        let e = energy(render, mask), eBest = energy(best, mask), eViewer = energy(viewer, mask)
        print("clouds' high-frequency energy at 1920×1080: render \(e), highest quality \(eBest) (\(e / eBest * 100) %), viewer while moving \(eViewer)")
        XCTAssertGreaterThanOrEqual(e, 0.9 * eBest, "the default render has ≥ 90 % of the highest quality's detail")
        // The metric sees sharpness: the viewer's quick picture (a quarter of the pixels a side) has far less.
        XCTAssertLessThan(eViewer, 0.75 * e)
    }

    /// Σ (∇² Y)² over the masked interior pixels, Y the Rec. 709 luminance of the 8-bit values.
    func energy(_ image: Image, _ mask: [Bool]) -> Double {
        let w = image.width, h = image.height
        func y(_ x: Int, _ yy: Int) -> Double {
            let i = (yy * w + x) * 4
            return 0.2126 * Double(image.pixels[i]) + 0.7152 * Double(image.pixels[i + 1]) + 0.0722 * Double(image.pixels[i + 2])
        }
        var sum = 0.0
        for row in 1..<(h - 1) {
            for x in 1..<(w - 1) where mask[row * w + x] {
                let l = y(x - 1, row) + y(x + 1, row) + y(x, row - 1) + y(x, row + 1) - 4 * y(x, row)
                sum += l * l
            }
        }
        return sum
    }
}
