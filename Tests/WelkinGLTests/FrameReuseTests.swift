// A frame that draws the same picture as the last is not drawn again when the renderer reuses
// unchanged frames (a still scene playing in the viewer): the output it leaves is the full redraw's, byte for byte.

import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinImage
@testable import WelkinGL

final class FrameReuseTests: XCTestCase {
    func scene(_ name: String) throws -> Scene {
        try SceneLoader.load(path: Repository.scenes.appendingPathComponent(name + ".json").path)
    }

    func testAReusedFrameIsTheFullRedraw() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        let size = SIMD2(320, 180)
        for name in ["physical-day", "mesh-text", "snow"] {
            let s = try scene(name)
            renderer.reusesUnchangedFrames = false
            let full = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size))
            let other = try renderer.render(Frame(scene: s, time: 2.5, pixelSize: size))
            renderer.reusesUnchangedFrames = true
            renderer.forgetLastFrame()
            _ = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size))
            let before = renderer.reusedFrames
            // Built anew, as the viewer builds each frame: equal values, not the same storage.
            let again = try renderer.render(Frame(scene: s, time: 1.5, pixelSize: size))
            XCTAssertEqual(renderer.reusedFrames, before + 1, "\(name): the same frame again is reused")
            XCTAssertEqual(again.pixels, full.pixels, "\(name): the reused picture is the full redraw")
            // Another time is another picture: drawn, and equal to its full redraw.
            let moved = try renderer.render(Frame(scene: s, time: 2.5, pixelSize: size))
            XCTAssertEqual(renderer.reusedFrames, before + 1, "\(name): a changed frame is drawn")
            XCTAssertEqual(moved.pixels, other.pixels, name)
        }
    }

    func testNeverForUserShadersAfterReloadsOrBarePasses() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        renderer.reusesUnchangedFrames = true
        renderer.forgetLastFrame()
        let size = SIMD2(160, 90)
        // A user shader may read the clock, the frame number or the mouse: always drawn.
        let shader = try scene("shader-aurora")
        var before = renderer.reusedFrames
        for _ in 0..<2 { try renderer.draw(Frame(scene: shader, time: 1, pixelSize: size)) }
        XCTAssertEqual(renderer.reusedFrames, before)
        // A bare pass overwrites the output; a shader reload may change every pass: drawn again.
        let s = try scene("day-gradient")
        let frame = Frame(scene: s, time: 1, pixelSize: size)
        let picture = try renderer.render(frame)
        try renderer.drawBarePass(pixelSize: size)
        before = renderer.reusedFrames
        XCTAssertEqual(try renderer.render(frame).pixels, picture.pixels)
        XCTAssertEqual(renderer.reusedFrames, before, "after a bare pass the frame is drawn")
        try renderer.reloadShaders()
        _ = try renderer.render(frame)
        XCTAssertEqual(renderer.reusedFrames, before, "after a reload the frame is drawn")
        _ = try renderer.render(frame)
        XCTAssertEqual(renderer.reusedFrames, before + 1)
        // A 16-bit frame never reuses (its own target), and other settings make another picture.
        renderer.fusesLastLayer = false
        defer { renderer.fusesLastLayer = true }
        _ = try renderer.render(frame)
        XCTAssertEqual(renderer.reusedFrames, before + 1, "other settings: drawn")
    }
}
