import XCTest
import WelkinCore
@testable import WelkinViewer

/// The console's one table of commands, and the panel's notes on hidden sky parts.
final class ConsoleAndSkyNotesTests: XCTestCase {
    /// The help text is the table's: one line per command, in its order, names unique.
    func testTheHelpComesFromTheCommandTable() {
        let names = Viewer.consoleCommands.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "one row per name")
        let lines = Viewer.consoleHelp.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Commands (standard input, one a line):")
        XCTAssertEqual(Array(lines.dropFirst()), Viewer.consoleCommands.map(\.helpLine))
        XCTAssertTrue(lines.contains("  set PATH VALUE    change a value (VALUE is JSON: strings in quotes); refused with the reason if the scene would not load"),
                      Viewer.consoleHelp)
        XCTAssertTrue(lines.contains("  quit              quit (unsaved edits are kept in NAME.welkin-recovery)"), Viewer.consoleHelp)
        for command in ["time", "play", "pause", "speed", "get", "set", "weather", "screenshot", "record", "stats", "resources",
                        "save", "undo", "redo", "reload", "quit", "help"] {
            XCTAssertTrue(names.contains(command), command)
        }
    }

    func testABareWordIsAStringWithoutQuotes() {
        XCTAssertTrue(Viewer.isBareWord("orange"))
        XCTAssertTrue(Viewer.isBareWord("top leading"))
        XCTAssertFalse(Viewer.isBareWord("\"orange\""))
        XCTAssertFalse(Viewer.isBareWord("[0.5,"))
        XCTAssertFalse(Viewer.isBareWord("0.5"))
        XCTAssertFalse(Viewer.isBareWord("{a: 1}"))
    }

    func sky(_ json: String) throws -> (Scene, SkyLayer) {
        let scene = try SceneLoader.decode("{\"layers\": [\(json)]}")
        guard case .sky(let layer)? = scene.layers[0].content as? SkyContent else {
            XCTFail("not a sky layer: \(json)")
            throw CocoaError(.coderInvalidValue)
        }
        return (scene, layer)
    }

    /// Stars show only with the sun below −6° (palette sky): the note says so, with the sun now.
    func testStarsSayTheyWaitForTheSunBelowMinusSix() throws {
        let (day, dayLayer) = try sky(#"{"type": "sky", "sunElevation": 10}"#)
        XCTAssertEqual(SkyNotes.notes(for: dayLayer, in: day, time: 0), ["Stars: only with the sun below −6° (now 10.0°)"])
        let (night, nightLayer) = try sky(#"{"type": "sky", "sunElevation": -10}"#)
        XCTAssertEqual(SkyNotes.notes(for: nightLayer, in: night, time: 0), [])
        let (off, offLayer) = try sky(#"{"type": "sky", "sunElevation": 10, "stars": false}"#)
        XCTAssertEqual(SkyNotes.notes(for: offLayer, in: off, time: 0), [], "no stars asked for: nothing to explain")
    }

    /// A dated sky over a day: the stars' note by day only, the Moon's whenever it is below the horizon.
    func testADatedSkysStarsAndMoonOverADay() throws {
        let (scene, layer) = try sky(#"{"type": "sky", "date": "2024-03-20T00:00:00+01:00", "latitude": 48.8566, "longitude": 2.3522, "timeScale": 1440}"#)
        var moonDown = 0, moonUp = 0
        for step in 0..<24 {
            let time = Double(step) * 2.5   // an hour of sky clock
            let state = SkyState(layer: layer, time: time, weather: WeatherState(scene.weather, time: time, seed: scene.seed), night: true)
            let notes = SkyNotes.notes(for: layer, in: scene, time: time)
            XCTAssertEqual(notes.contains { $0.hasPrefix("Stars: only with the sun below −6°") }, state.sunElevation >= -6, "t \(time)")
            let moon = try XCTUnwrap(state.night?.moon)
            let below = moon.elevation < -moon.radius
            XCTAssertEqual(notes.contains { $0.hasPrefix("Moon: below the horizon (") }, below, "t \(time)")
            if below { moonDown += 1 } else { moonUp += 1 }
        }
        XCTAssertTrue(moonDown > 0 && moonUp > 0, "the Moon rises or sets during the day: \(moonDown) hours down")
        // 12:00 in Paris (11:00 UT) at the equinox: the sun about an hour before its 41° transit.
        let noon = SkyNotes.notes(for: layer, in: scene, time: 30)
        let elevation = noon.first.flatMap { Double($0.split(separator: "(now ").last?.dropLast(2) ?? "") }
        XCTAssertTrue(elevation.map { $0 > 33 && $0 < 41 } ?? false, "\(noon)")
    }
}
