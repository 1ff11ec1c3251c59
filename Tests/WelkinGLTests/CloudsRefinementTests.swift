// The viewer's clouds (FrameOptions.interactive): marched at the layer's viewer quality while the
// picture changes, refined slice by slice while it stands still, to exactly the picture a render
// draws; never reused half-refined.

import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImage
@testable import WelkinGL

final class CloudsRefinementTests: XCTestCase {
    func scene(_ name: String) throws -> Scene {
        try SceneLoader.load(path: Repository.scenes.appendingPathComponent(name + ".json").path)
    }

    func testAStillViewerFrameBecomesTheFinalRender() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        let size = SIMD2(320, 180)
        let s = try scene("look-around")
        renderer.reusesUnchangedFrames = false
        let final = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size))
        renderer.reusesUnchangedFrames = true
        renderer.forgetLastFrame()
        let viewer = FrameOptions(interactive: true)
        // Playing: each frame another time, marched at the viewer's quality (a quarter of the pixels
        // a side): not the final picture.
        let moving = try renderer.render(Frame(scene: s, time: 1.5 - 1.0 / 60, pixelSize: size, options: viewer))
        let first = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size, options: viewer))
        XCTAssertNotEqual(first.pixels, final.pixels, "the first still frame is the viewer's quick picture")
        XCTAssertNotEqual(moving.pixels, first.pixels)
        // Standing still: the next 16 frames march one slice each and are drawn, not reused.
        let reused = renderer.reusedFrames
        var last = first
        for k in 0..<CloudsPass.sliceCount {
            last = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size, options: viewer))
            if k < CloudsPass.sliceCount - 1 { XCTAssertNotEqual(last.pixels, final.pixels, "slice \(k + 1) of 16: still refining") }
        }
        XCTAssertEqual(renderer.reusedFrames, reused, "refining frames are drawn")
        XCTAssertEqual(last.pixels, final.pixels, "after 16 still frames the viewer shows the final render, byte for byte")
        // Refined: the next still frame is reused, and is the same picture.
        let again = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size, options: viewer))
        XCTAssertEqual(renderer.reusedFrames, reused + 1)
        XCTAssertEqual(again.pixels, final.pixels)
        // Moving again: the quick picture, and a refinement that starts over.
        let resumed = try renderer.render(Frame(scene: s, time: 1.5 + 1.0 / 60, pixelSize: size, options: viewer))
        XCTAssertNotEqual(resumed.pixels, final.pixels)
    }

    func testTheViewerMarchesAQuarterOfThePixelsASide() throws {
        let s = try scene("look-around")
        let size = SIMD2(1280, 720)
        let draw = try XCTUnwrap(Frame(scene: s, time: 0, pixelSize: size, options: FrameOptions(interactive: true)).layers.lazy.compactMap { $0 as? CloudsDraw }.first)
        XCTAssertEqual(draw.gridSize, SIMD2(320, 180))
        XCTAssertEqual(draw.steps, 32)
        let render = try XCTUnwrap(Frame(scene: s, time: 0, pixelSize: size).layers.lazy.compactMap { $0 as? CloudsDraw }.first)
        XCTAssertEqual(render.gridSize, size, "a render marches every pixel")
        XCTAssertEqual(render.steps, Int32(CloudsLayer.finalSteps))
        XCTAssertEqual(draw.atFinalQuality(), render, "the viewer refines to the render's draw")
    }
}
