import XCTest
import WelkinCore
@testable import WelkinViewer

/// What the panel's widgets write: numbers rounded to the widget's precision, colours in the form
/// the file used.
final class PropertyWidgetsTests: XCTestCase {
    func testNumbersAreRoundedToTheWidgetsPrecision() {
        XCTAssertEqual(PropertyWidgets.decimals(for: 0...1, value: 0.5), 3)
        XCTAssertEqual(PropertyWidgets.decimals(for: -90...90, value: 30), 1)
        XCTAssertEqual(PropertyWidgets.decimals(for: -1e6...1e6, value: 1440), 0)
        XCTAssertEqual(PropertyWidgets.numberText(Double(Float(0.4)), decimals: 3), "0.4")
        XCTAssertEqual(PropertyWidgets.numberText(1439.6, decimals: 0), "1440")
        XCTAssertEqual(PropertyWidgets.format(decimals: 2, unit: "pt/s²"), "%.2f pt/s²")
        XCTAssertTrue(PropertyWidgets.slides(-360...720))
        XCTAssertFalse(PropertyWidgets.slides(-1e6...1e6))
    }

    /// An absent endScale shows its rule ("the particle's start scale"), not a 0 it does not mean;
    /// a present one, or a key with a numeric default, shows its number.
    func testAnAbsentKeyWithARuleForADefaultShowsTheRule() throws {
        let cell = try XCTUnwrap(SceneFormat.tables.first { $0["endScale"] != nil })
        let endScale = try XCTUnwrap(cell["endScale"])
        XCTAssertEqual(PropertyWidgets.describedDefault(nil, endScale), "(the particle's start scale)")
        XCTAssertNil(PropertyWidgets.describedDefault(try JSONParser.parse("0.5"), endScale))
        XCTAssertNil(PropertyWidgets.describedDefault(nil, try XCTUnwrap(cell["lifetime"])))
    }

    func testColoursKeepTheirForm() throws {
        func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 1], like: try json("[0.1, 0.2, 0.3]")), "[1, 0.5, 0]")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 0.25], like: try json("[0.1, 0.2, 0.3]")), "[1, 0.5, 0, 0.25]")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 1], like: try json("[0.1, 0.2, 0.3, 1]")), "[1, 0.5, 0, 1]")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 1], like: try json("\"#102030\"")), "\"#FF8000\"")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 1], like: try json("\"#102030FF\"")), "\"#FF8000FF\"")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 0.5], like: try json("\"blue\"")), "\"#FF800080\"")
        XCTAssertEqual(PropertyWidgets.colorText([1, 0.5, 0, 1], like: nil), "\"#FF8000\"")
    }
}

/// The panel offers a key only where it could be added.
final class PropertyAvailabilityTests: XCTestCase {
    func testASkysSunIsEitherComputedOrFixed() throws {
        let sky = try XCTUnwrap(LayerKinds.kind("sky")).properties
        let computed = try JSONParser.parse(#"{"type": "sky", "date": "2024-03-20T00:00:00+01:00", "latitude": 1, "longitude": 2}"#)
        let fixed = try JSONParser.parse(#"{"type": "sky", "sunElevation": 20}"#)
        XCTAssertEqual(PropertyWidgets.unavailable(try XCTUnwrap(sky["sunAzimuth"]), in: computed), "not with date")
        XCTAssertNil(PropertyWidgets.unavailable(try XCTUnwrap(sky["timeScale"]), in: computed))
        XCTAssertEqual(PropertyWidgets.unavailable(try XCTUnwrap(sky["timeScale"]), in: fixed), "needs date")
        XCTAssertNil(PropertyWidgets.unavailable(try XCTUnwrap(sky["sunAzimuth"]), in: fixed))
    }
}
