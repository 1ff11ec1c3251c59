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

    /// While the scene plays, each viewer frame marches one of the grid's four 2×2 phases (a
    /// quarter of the march) and keeps the other three from the frames before (CloudsPass's
    /// phases) while the clouds have moved at most a grid pixel since; a storm's deck in its wind
    /// moves more (1.5 grid pixels a frame): its frame before's grid is moved with the drift
    /// instead (CloudsPass.reprojectLimit), still one phase marched. After 8 playing frames each example's
    /// picture is within 2/255 of marching every pixel of that frame on ≥ 99 % of pixels. A change
    /// beyond the clock (here another scene's clouds in between) marches all four phases: exactly
    /// the full march.
    func testAPlayingViewerFrameMarchesAQuarterOfTheGrid() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        renderer.reusesUnchangedFrames = false
        let size = SIMD2(640, 360)
        let viewer = FrameOptions(interactive: true)
        var quartered: [String] = []
        for name in ["sunset-clouds", "weather-tour", "snowy-night", "storm", "rainy-evening", "phone-snow"] {
            let s = try scene(name)
            var playing: Image?
            var marches: [Int] = []
            for k in 0..<8 {
                let frame = Frame(scene: s, time: 1.5 + Double(k) / 60, pixelSize: size, options: viewer)
                let entries = try renderer.drawTimingPasses(frame)
                marches.append(entries.filter { $0.program == "clouds.frag" }.map(\.draws).reduce(0, +))
                playing = renderer.readImage()
            }
            XCTAssertEqual(marches.first, 4, "\(name): the first frame marches all four phases")
            XCTAssertEqual(Array(marches.dropFirst()), Array(repeating: 1, count: 7), "\(name): \(marches)")
            if marches.dropFirst().allSatisfy({ $0 == 1 }) { quartered.append(name) }
            // The same instant marched whole: another scene's clouds first, so the phases start over.
            _ = try renderer.render(Frame(scene: try scene("look-around"), time: 1.5, pixelSize: size, options: viewer))
            let whole = try renderer.render(Frame(scene: s, time: 1.5 + 7.0 / 60, pixelSize: size, options: viewer))
            let difference = ImageDifference(try XCTUnwrap(playing), whole)
            let fraction = 1 - difference.percentOverThreshold / 100, worst = difference.maxDifference
            print("\(name): marches \(marches), \(fraction * 100) % within 2/255 of the full march (worst \(worst))")
            XCTAssertGreaterThanOrEqual(fraction, 0.99, "\(name): \(fraction * 100) % within 2/255 (worst \(worst))")
        }
        XCTAssertTrue(quartered.contains("sunset-clouds") && quartered.contains("storm"), "a quarter a frame: \(quartered)")
    }

    /// A camera that pans marches one phase a frame and moves the frame before's grid with the
    /// turn (a turn moves every pixel exactly): look-around mid-pan, where its yaw turns fastest
    /// (0.048° a frame, from its keyframes), measured 99.6 % of pixels within 2/255 of the full
    /// march, the worst 7/255 (with the three kept phases left in place, as before: 96.4 %, worst
    /// 10), held here at 99 % and 12/255; the picture is the full march's again four frames after
    /// the camera stops. A drag ten times faster is moved the same way; a whip ten times faster
    /// again marches all four phases every frame.
    func testAPanningCameraMovesTheFrameBeforesGrid() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        renderer.reusesUnchangedFrames = false
        let size = SIMD2(640, 360)
        let viewer = FrameOptions(interactive: true)
        let s = try scene("look-around")
        func marches(_ scene: Scene, from t0: Double) throws -> (counts: [Int], last: Image?) {
            var counts: [Int] = [], last: Image?
            for k in 0..<8 {
                let frame = Frame(scene: scene, time: t0 + Double(k) / 60, pixelSize: size, options: viewer)
                counts.append(try renderer.drawTimingPasses(frame).filter { $0.program == "clouds.frag" }.map(\.draws).reduce(0, +))
                last = renderer.readImage()
            }
            return (counts, last)
        }
        let t0 = 15.0
        let panning = try marches(s, from: t0)
        XCTAssertEqual(panning.counts, [4, 1, 1, 1, 1, 1, 1, 1])
        // The same instant marched whole (another scene's clouds first, so the phases start over).
        _ = try renderer.render(Frame(scene: try scene("sunset-clouds"), time: 1.5, pixelSize: size, options: viewer))
        let whole = try renderer.render(Frame(scene: s, time: t0 + 7.0 / 60, pixelSize: size, options: viewer))
        let difference = ImageDifference(try XCTUnwrap(panning.last), whole)
        let fraction = 1 - difference.percentOverThreshold / 100, worst = difference.maxDifference
        print("look-around panning: \(fraction * 100) % within 2/255 of the full march (worst \(worst))")
        XCTAssertGreaterThanOrEqual(fraction, 0.99, "\(fraction * 100) % within 2/255 (worst \(worst))")
        XCTAssertLessThanOrEqual(worst, 12)
        // A brisk drag: 50° in a second, 3.5 grid pixels a frame at 640 × 360. The kept phases
        // would lag it: the frame before's grid is moved with the turn instead (a turn moves every
        // pixel exactly; clouds-interleave.frag's WELKIN_CLOUDS_REPROJECT), one phase marched a frame.
        var fast = s
        fast.camera?.yaw = .keyframes(Keyframes(times: [0, 1, 2], values: [240, 290, 240], repeats: true))
        let dragged = try marches(fast, from: 0.25)
        XCTAssertEqual(dragged.counts, [4, 1, 1, 1, 1, 1, 1, 1])
        _ = try renderer.render(Frame(scene: try scene("sunset-clouds"), time: 1.5, pixelSize: size, options: viewer))
        let draggedWhole = try renderer.render(Frame(scene: fast, time: 0.25 + 7.0 / 60, pixelSize: size, options: viewer))
        let moved = ImageDifference(try XCTUnwrap(dragged.last), draggedWhole)
        let movedFraction = 1 - moved.percentOverThreshold / 100
        print("look-around dragged: \(movedFraction * 100) % within 2/255 of the full march (worst \(moved.maxDifference))")
        // Measured: 89.9 % within 2/255, the worst 53/255 (the last grid pixels of the strip the
        // turn reveals, filled from this frame's quarter); bilinear reads in place of Catmull-Rom
        // gave 82.2 %, the revealed strip held at the old edge worst 68.
        XCTAssertGreaterThanOrEqual(movedFraction, 0.86, "\(movedFraction * 100) % within 2/255 (worst \(moved.maxDifference))")
        XCTAssertLessThanOrEqual(moved.maxDifference, 64)
        // A whip: 50° in a tenth of a second, 35 grid pixels a frame: every phase marched every frame.
        var whip = s
        whip.camera?.yaw = .keyframes(Keyframes(times: [0, 0.1, 0.2], values: [240, 290, 240], repeats: true))
        XCTAssertEqual(try marches(whip, from: 0.02).counts, [4, 4, 4, 4, 4, 4, 4, 4])
    }

    /// A storm's deck moved from frame to frame for half a second (30 frames, each pixel moved up
    /// to three times between its marches) does not drift or blur away from the full march:
    /// measured 99.6 % of pixels within 2/255, the worst 5/255, as after 8 frames.
    func testAReprojectedStormStaysTheFullMarchsPicture() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.reusesUnchangedFrames = false; renderer.forgetLastFrame() }
        renderer.reusesUnchangedFrames = false
        let size = SIMD2(640, 360)
        let viewer = FrameOptions(interactive: true)
        let s = try scene("storm")
        var playing: Image?, marches: [Int] = []
        for k in 0..<30 {
            let entries = try renderer.drawTimingPasses(Frame(scene: s, time: 1.5 + Double(k) / 60, pixelSize: size, options: viewer))
            marches.append(entries.filter { $0.program == "clouds.frag" }.map(\.draws).reduce(0, +))
            playing = renderer.readImage()
        }
        XCTAssertEqual(Array(marches.dropFirst()), Array(repeating: 1, count: 29))
        _ = try renderer.render(Frame(scene: try scene("look-around"), time: 1.5, pixelSize: size, options: viewer))
        let whole = try renderer.render(Frame(scene: s, time: 1.5 + 29.0 / 60, pixelSize: size, options: viewer))
        let difference = ImageDifference(try XCTUnwrap(playing), whole)
        let fraction = 1 - difference.percentOverThreshold / 100
        print("storm after 30 reprojected frames: \(fraction * 100) % within 2/255 of the full march (worst \(difference.maxDifference))")
        XCTAssertGreaterThanOrEqual(fraction, 0.99)
        XCTAssertLessThanOrEqual(difference.maxDifference, 8)
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
