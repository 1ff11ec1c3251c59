// `welkin export --loop` loops the particles themselves (issue #37: "`--loop` exports that do not
// cross-fade into ghost flakes (loop the simulation instead)"): with FrameOptions.loop = L every
// emitter and the weather's rain and snow repeat their births every L seconds, so the frame at
// t + L holds the particles of the frame at t — the cross-fade at a loop's end blends two frames
// that show the same flakes.

import XCTest
@testable import WelkinCore
import WelkinTestSupport

final class ParticleLoopTests: XCTestCase {
    /// Every particle layer's instances at `time` (emitters and precipitation, in drawing order).
    func instances(_ scene: Scene, time: Double, loop: Double?, size: SIMD2<Int>? = nil) -> [[SpriteInstance]] {
        let frame = Frame(scene: scene, time: time, pixelSize: size, options: FrameOptions(loop: loop))
        return frame.layers.compactMap { $0 as? ParticleDraw }.flatMap { $0.batches.map(\.instances) }
    }

    /// The largest distance (pixels) between matching instances, or nil when the counts differ.
    func largestMove(_ a: [[SpriteInstance]], _ b: [[SpriteInstance]]) -> Float? {
        guard a.count == b.count else { return nil }
        var worst: Float = 0
        for (x, y) in zip(a, b) {
            guard x.count == y.count else { return nil }
            for (p, q) in zip(x, y) {
                let d = p.center - q.center
                worst = max(worst, (d * d).sum().squareRoot(), abs(p.size.x - q.size.x), abs(p.color.w - q.color.w) * 100)
            }
        }
        return worst
    }

    /// The weather's snow at 390×844 (three depths, six cells) looped over 6 s: the particles at
    /// 0.5 s and 6.5 s, and at −0.5 s (a cross-fade's earlier frame) and 5.5 s, are the same
    /// particles in the same places; without the loop they are not.
    func testLoopedSnowRepeatsEveryPeriod() throws {
        let scene = try SceneLoader.load(path: Repository.path("Scenes/phone-snow.json"))
        for (t, later) in [(0.5, 6.5), (-0.5, 5.5), (2.25, 8.25)] {
            let a = instances(scene, time: t, loop: 6), b = instances(scene, time: later, loop: 6)
            XCTAssertGreaterThan(a.reduce(0) { $0 + $1.count }, 100, "snow at \(t) s")
            let move = largestMove(a, b)
            XCTAssertNotNil(move, "looped snow at \(t) s and \(later) s: different particle counts")
            if let move { XCTAssertLessThan(move, 0.01, "looped snow at \(t) s and \(later) s") }
        }
        let a = instances(scene, time: 0.5, loop: nil), b = instances(scene, time: 6.5, loop: nil)
        if let move = largestMove(a, b) { XCTAssertGreaterThan(move, 10, "unlooped snow is not periodic") }
    }

    /// A scene's own emitter (seed 002's CAEmitterLayer snow, and seed 004's Canvas fire) loops the
    /// same way, at a period that is not a whole number of births (the rate is rounded to one).
    func testLoopedEmittersRepeatEveryPeriod() throws {
        for name in ["snow", "fire"] {
            let scene = try SceneLoader.load(path: Repository.path("Scenes/\(name).json"))
            let a = instances(scene, time: 1, loop: 4.5), b = instances(scene, time: 5.5, loop: 4.5)
            XCTAssertGreaterThan(a.reduce(0) { $0 + $1.count }, 10, name)
            let move = largestMove(a, b)
            XCTAssertNotNil(move, "\(name): different particle counts a period apart")
            if let move { XCTAssertLessThan(move, 0.01, name) }
        }
    }

    /// A looping layer makes a whole number of births a period, as near its rate as can be, and
    /// prewarms a lifetime and a period.
    func testALoopMakesAWholeNumberOfBirthsAPeriod() {
        var layer = EmitterLayer()
        var cell = EmitterCell()
        cell.birthRate = 7.3
        cell.lifetime = 4
        layer.cells = [cell]
        layer.prewarm = 1
        XCTAssertEqual(layer.birthRate(of: cell), 7.3)
        XCTAssertEqual(layer.randomBirth(1000, of: cell), 1000)
        let looped = layer.looping(2.5)
        XCTAssertEqual(looped.birthRate(of: cell), 18.0 / 2.5, accuracy: 1e-12)   // 7.3 × 2.5 = 18.25 → 18
        XCTAssertEqual(looped.randomBirth(18 + 5, of: cell), 5)
        XCTAssertEqual(looped.prewarm, 4 + 2.5)
        cell.birthRate = 0.1
        XCTAssertEqual(looped.birthRate(of: cell), 1 / 2.5, "at least one birth a period")
        XCTAssertEqual(layer.looping(nil), layer)
    }
}
