// The viewer's tables off its render thread (TablesInBackground): an edited atmosphere is drawn
// once its tables are built, the last one drawn until then, and nothing waits on the caller's thread.

import Foundation
import XCTest
import WelkinAtmosphere
import WelkinCore

final class TablesInBackgroundTests: XCTestCase {
    func physicalScene(mieG: Double) throws -> Scene {
        let scene = try SceneLoader.decode("""
            {"size": [64, 36], "layers": [{"type": "sky", "model": "physical", "sunElevation": 12.3,
             "atmosphere": {"mieG": \(mieG)}}]}
            """, file: "s.json")
        return scene
    }

    func atmosphere(_ scene: Scene) -> Atmosphere? {
        guard case .sky(let s)? = scene.layers.first?.content as? SkyContent else { return nil }
        return s.physical.atmosphere
    }

    func testAnEditedAtmosphereIsDrawnOnceItsTablesAreBuiltAndTheLastOneUntilThen() throws {
        let tables = TablesInBackground()
        let built = expectation(description: "the new atmosphere's tables are built")
        tables.onBuilt = { built.fulfill() }
        // Values no other test builds, so nothing is cached.
        let first = try physicalScene(mieG: 0.7123)
        let edited = try physicalScene(mieG: 0.7124)
        // The first frame: nothing drawn before, so its own atmosphere (built as the frame resolves).
        XCTAssertEqual(atmosphere(tables.scene(first, time: 0)), atmosphere(first))
        _ = Frame(scene: first, time: 0)
        XCTAssertEqual(tables.buildCount, 0)
        // Edited: the caller gets the last atmosphere at once, its tables already there.
        let started = Date()
        let stand = tables.scene(edited, time: 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.05, "the caller did not wait for the tables")
        XCTAssertEqual(atmosphere(stand), atmosphere(first))
        XCTAssertFalse(AtmosphereTables.isCached(AtmosphereCoefficients(atmosphere(edited)!)))
        wait(for: [built], timeout: 30)
        XCTAssertEqual(tables.buildCount, 1)
        // Built: the edited atmosphere, its sky-view tables too (the frame resolves without building).
        let now = tables.scene(edited, time: 0)
        XCTAssertEqual(atmosphere(now), atmosphere(edited))
        let c = AtmosphereCoefficients(atmosphere(edited)!)
        XCTAssertTrue(AtmosphereTables.isCached(c))
        for key in SkyViewTable.blendedKeys(for: SkyViewTable.Key(coefficients: c, altitude: 0.001, sunElevation: 12.3)) {
            XCTAssertTrue(SkyViewTable.isCached(key), "sky-view table at \(key.sunElevation)°")
        }
        // The frame drawn from it is the frame of the edited scene itself.
        guard case .physical(let a)? = (Frame(scene: now, time: 0).layers.first as? SkyDraw)?.parts.first,
              case .physical(let b)? = (Frame(scene: edited, time: 0).layers.first as? SkyDraw)?.parts.first else {
            return XCTFail("no physical sky drawn")
        }
        XCTAssertTrue(a.table === b.table || a.table.texels == b.table.texels)
        XCTAssertEqual(a.exposure, b.exposure)
    }

    func testOneSunElevationStepHasOneTableAndBetweenStepsTwo() {
        let key = SkyViewTable.Key(coefficients: AtmosphereCoefficients(Atmosphere()), altitude: 0.001, sunElevation: 10)
        XCTAssertEqual(SkyViewTable.blendedKeys(for: key).map(\.sunElevation), [10])
        var between = key
        between.sunElevation = 10.1
        XCTAssertEqual(SkyViewTable.blendedKeys(for: between).map(\.sunElevation), [10, 10.25])
    }
}
