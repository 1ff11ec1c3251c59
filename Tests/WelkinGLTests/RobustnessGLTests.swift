// The GPU path takes the same Frames as the CPU reference: every input the mutation harness and the
// fuzzer kept (Tests/Fuzz/regressions) draws on the GPU too, at ordinary and huge scene times,
// without trapping (cloud sprite boxes at NaN positions trapped in SkyPass.cells).

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinGL
import WelkinReference

final class RobustnessGLTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    // The same budget the CPU robustness tests use: budgeted histories stay quick in a debug build.
    override func setUp() { SimulationCache.shared.workBudget = SimulationPlan.workBudget / 50 }
    override func tearDown() { SimulationCache.shared.workBudget = SimulationPlan.workBudget }

    func testRegressionFilesDrawOnTheGPU() throws {
        let renderer = try TestGL.renderer()
        let folder = Self.repository.appendingPathComponent("Tests/Fuzz/regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThan(files.count, 10)
        for name in files {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            guard let scene = try? SceneLoader.decode([UInt8](bytes), file: name,
                                                      directory: Self.repository.appendingPathComponent("Scenes").path) else { continue }
            for t in PipelineProbe.times + [1e9, 1e306] {
                let image = try renderer.render(Frame(scene: scene, time: t, pixelSize: PipelineProbe.size))
                XCTAssertEqual(image.width, PipelineProbe.size.x, "\(name) at t = \(t)")
            }
            SimulationCache.shared.removeAll()
        }
    }

    /// Areas at NaN or infinite places (an axis that is off the frame adds no cut on that axis):
    /// the cells still tile the frame, and no edge reaches Int(_:) unclamped.
    func testSkyCellsSurviveAreasPastFloatRange() {
        let size = SIMD2(64, 36)
        for area in [SIMD4<Float>(.nan, 10, 5, 5), SIMD4<Float>(.infinity, 10, 5, 5), SIMD4<Float>(10, -.infinity, 5, .infinity),
                     SIMD4<Float>(-3e38, 3e38, 3e38, 3e38), SIMD4<Float>(.nan, .nan, .nan, .nan)] {
            let cells = SkyPass.cells(pixelSize: size, around: [area]).joined()
            XCTAssertEqual(cells.reduce(0) { $0 + $1.z * $1.w }, size.x * size.y, "\(area)")
            XCTAssertTrue(cells.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.z <= size.x && $0.y + $0.w <= size.y }, "\(area)")
        }
        XCTAssertEqual(SkyPass.cells(pixelSize: size, around: [SIMD4(.nan, .nan, .nan, .nan)]), [[SIMD4(0, 0, 64, 36)]])
    }
}
