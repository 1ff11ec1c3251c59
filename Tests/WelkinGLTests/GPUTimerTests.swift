// GPUTimer: GL_TIME_ELAPSED queries in a ring, read without waiting.

import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL

final class GPUTimerTests: XCTestCase {
    private func frame() throws -> Frame {
        let scene = try SceneLoader.decode("""
            {"size": [320, 180], "layers": [
              {"type": "linearGradient", "start": "top", "end": "bottom", "stops": ["blue", "red"]},
              {"type": "radialGradient", "center": [0.5, 0.5], "startRadius": 0, "endRadius": 100, "stops": [[1, 1, 1, 0.5], [1, 1, 1, 0]]}]}
            """, file: "timer.json")
        return Frame(scene: scene, time: 0)
    }

    /// A 3.3 core context has timer queries; after glFinish the frame's result is there, and where
    /// the driver times frames it is a duration under the wall time the frame took. (llvmpipe's
    /// per-tile answer is not: for this two-layer frame it read 10,403,652 ms, a thread's end
    /// minus a start it never set.)
    func testFinishedFrameHasAResult() throws {
        let renderer = try TestGL.renderer()
        let timer = renderer.gpuTimer
        XCTAssertTrue(timer.isAvailable, "GL_TIME_ELAPSED is core in OpenGL 3.3 (\(renderer.context.version))")
        XCTAssertEqual(timer.measuresFrames, timer.isAvailable && !renderer.context.renderer.contains("llvmpipe"))
        let f = try frame()
        let start = DispatchTime.now().uptimeNanoseconds
        try renderer.draw(f)
        renderer.finish()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let ms = try XCTUnwrap(timer.waitForLast(), "the finished frame's query had no result")
        if timer.measuresFrames {
            XCTAssertGreaterThan(ms, 0)
            XCTAssertLessThan(ms, wall + 1, "GPU time \(ms) ms against \(wall) ms of wall time")
        }
        XCTAssertEqual(timer.collect(), ms, "collect() returns the newest result read")
    }

    /// Frames drawn back to back without waiting never block on a query: every frame is either
    /// timed or counted as skipped, and the results come back once the GPU catches up.
    func testRingNeverWaits() throws {
        let renderer = try TestGL.renderer()
        let timer = renderer.gpuTimer
        let f = try frame()
        let skippedBefore = timer.skippedFrames
        for _ in 0..<12 {
            try renderer.draw(f)
            timer.collect()
        }
        renderer.finish()
        XCTAssertNotNil(timer.waitForLast() ?? timer.collect(), "no result after 12 frames and glFinish")
        XCTAssertLessThanOrEqual(timer.skippedFrames - skippedBefore, 12)
        // Once finished, every query is free again: the next frame is timed.
        try renderer.draw(f)
        renderer.finish()
        XCTAssertNotNil(timer.waitForLast(), "a frame after glFinish went untimed")
    }

    func testSoftwareRasterisersAreNamed() {
        XCTAssertTrue(GPUTimer.isSoftwareRasteriser("llvmpipe (LLVM 15.0.6, 256 bits)"))
        XCTAssertTrue(GPUTimer.isSoftwareRasteriser("softpipe"))
        XCTAssertFalse(GPUTimer.isSoftwareRasteriser("NVIDIA H200/PCIe/SSE2"))
    }
}
