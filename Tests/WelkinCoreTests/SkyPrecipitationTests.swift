// Precipitation: the weather's rain and snow as emitter particles — when they appear, how they
// fade with a transition, that they are deterministic, and how a scene tunes or turns them off.

import XCTest
@testable import WelkinCore

final class SkyPrecipitationTests: XCTestCase {
    func particles(_ frame: Frame) -> [ParticleDraw] {
        frame.layers.compactMap { $0 as? ParticleDraw }
    }

    func scene(_ weather: String) throws -> Scene {
        try SceneLoader.decode("{\"size\": [320, 180], \"weather\": \(weather), \"layers\": [{\"type\": \"sky\"}, {\"type\": \"cloudCover\"}]}")
    }

    func testRainAndSnowPresetsFall() throws {
        for (preset, sprite) in [("rain", SpriteKind.streak), ("storm", .streak), ("snow", .softDot)] {
            let frame = Frame(scene: try scene("\"\(preset)\""), time: 1.5)
            let draws = particles(frame)
            XCTAssertEqual(draws.count, 1, preset)
            XCTAssertTrue(draws[0].batches.contains { $0.sprite == sprite }, preset)
            XCTAssertGreaterThan(draws[0].instanceCount, 100, preset)
            // In front of the sky: the last layer of the frame.
            guard frame.layers.last is ParticleDraw else { return XCTFail("\(preset): precipitation is not on top") }
        }
        for preset in ["clear", "cloudy", "overcast"] {
            XCTAssertTrue(particles(Frame(scene: try scene("\"\(preset)\""), time: 1.5)).isEmpty, preset)
        }
        // No weather, no precipitation.
        let plain = try SceneLoader.decode("{\"layers\": [{\"type\": \"sky\"}]}")
        XCTAssertTrue(particles(Frame(scene: plain, time: 1)).isEmpty)
    }

    /// Clear → rain at 5 s over 2 s: nothing before, a growing amount during, full after.
    func testRainFadesInWithTheTransition() throws {
        let scene = try scene("{\"preset\": \"clear\", \"transition\": 2, \"schedule\": [{\"at\": 5, \"preset\": \"rain\"}, {\"at\": 12, \"preset\": \"clear\"}]}")
        func count(_ t: Double) -> Int { particles(Frame(scene: scene, time: t)).first?.instanceCount ?? 0 }
        XCTAssertEqual(count(4.9), 0)
        let early = count(5.6), middle = count(6.2), full = count(9)
        XCTAssertGreaterThan(early, 0)
        XCTAssertLessThan(early, middle)
        XCTAssertLessThan(middle, full)
        // Drops already falling finish their fall after the rain stops, then none are left.
        XCTAssertGreaterThan(count(13.5), 0)
        XCTAssertLessThan(count(13.5), full)
        XCTAssertEqual(count(16.5), 0)
    }

    func testDeterministicAndIndependentOfTheCache() throws {
        let scene = try scene("{\"preset\": \"snow\", \"schedule\": [{\"at\": 2, \"preset\": \"storm\"}]}")
        let a = Frame(scene: scene, time: 3.25)
        _ = Frame(scene: scene, time: 9)
        SimulationCache.shared.removeAll()
        let b = Frame(scene: scene, time: 3.25)
        XCTAssertEqual(particles(a), particles(b))
        XCTAssertEqual(particles(a).count, 2)
        // Another seed, other drops.
        var other = scene
        other.seed = 7
        XCTAssertNotEqual(particles(Frame(scene: other, time: 3.25)), particles(a))
    }

    func testWindCarriesTheDrops() throws {
        let calm = particles(Frame(scene: try scene("\"rain\""), time: 1.5))[0]
        let stormy = particles(Frame(scene: try scene("\"storm\""), time: 1.5))[0]
        func slant(_ d: ParticleDraw) -> Float {
            let axes = d.batches.flatMap(\.instances).map(\.axis)
            return axes.map { $0.x / $0.y }.reduce(0, +) / Float(axes.count)
        }
        XCTAssertGreaterThan(slant(calm), 0.05)
        XCTAssertGreaterThan(slant(stormy), slant(calm))
    }

    func testSceneTunesOrTurnsItOff() throws {
        XCTAssertTrue(particles(Frame(scene: try scene("{\"preset\": \"rain\", \"precipitation\": false}"), time: 1)).isEmpty)
        let noRain = try scene("{\"preset\": \"rain\", \"schedule\": [{\"at\": 1, \"preset\": \"snow\"}], \"precipitation\": {\"rain\": 0}}")
        let draws = particles(Frame(scene: noRain, time: 5))
        XCTAssertEqual(draws.count, 1)
        XCTAssertTrue(draws[0].batches.allSatisfy { $0.sprite != .streak })
        let full = particles(Frame(scene: try scene("\"rain\""), time: 1.5))[0].instanceCount
        let half = particles(Frame(scene: try scene("{\"preset\": \"rain\", \"precipitation\": 0.5}"), time: 1.5))[0].instanceCount
        XCTAssertEqual(Double(half), Double(full) / 2, accuracy: Double(full) * 0.1)
        var message = "no error"
        do { _ = try scene("{\"preset\": \"rain\", \"precipitation\": 9}") } catch { message = "\(error)" }
        XCTAssertTrue(message.contains("weather.precipitation"), message)
    }
}
