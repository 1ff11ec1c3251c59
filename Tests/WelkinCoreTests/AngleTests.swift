// Angles (issue 27): CSS's angle strings for every angle property, converted to its unit, and a
// warning for a plain number of radians beyond a full turn (it was probably meant in degrees).

import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class AngleTests: XCTestCase {
    func emitter(_ cell: String) throws -> Scene {
        try SceneLoader.decode("{\"layers\": [{\"type\": \"emitter\", \"cells\": [{\(cell)}]}]}", file: "Scenes/x.json")
    }

    func testAngleStringsConvertToTheUnitOfTheProperty() throws {
        XCTAssertEqual(AngleUnit.radians("90deg")!, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(AngleUnit.radians("-1.5rad"), -1.5)
        XCTAssertEqual(AngleUnit.radians("0.25turn")!, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(AngleUnit.radians("100grad")!, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(AngleUnit.radians(".5turn")!, .pi, accuracy: 1e-12)
        for bad in ["90", "deg", "90 deg", "90DEG", "90°", "infdeg", "nandeg", "1e999deg", "0x10deg", "90degs", ""] {
            XCTAssertNil(AngleUnit.radians(bad), bad)
        }
        // Radians properties (emitter cells), degrees properties (gradients, skies, the camera).
        let cell = try emitter("\"emissionLongitude\": \"90deg\", \"emissionRange\": \"0.5turn\", \"rotation\": \"-45deg\"")
        guard let e = cell.layers[0].content as? EmitterLayer else { return XCTFail() }
        XCTAssertEqual(e.cells[0].emissionLongitude, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(e.cells[0].emissionRange, .pi, accuracy: 1e-12)
        XCTAssertEqual(e.cells[0].rotation, -.pi / 4, accuracy: 1e-12)
        XCTAssertEqual(cell.warnings.count, 0)
        let gradient = try SceneLoader.decode(#"{"layers": [{"type": "angularGradient", "stops": ["red", "blue"], "startAngle": "0.5turn", "endAngle": "3.14159265358979rad"}]}"#)
        guard let g = gradient.layers[0].content as? Gradient, case .angular(_, let start, let end) = g.shape else { return XCTFail("\(gradient.layers[0].content)") }
        XCTAssertEqual(start, 180, accuracy: 1e-9); XCTAssertEqual(end, 180, accuracy: 1e-6)
        let camera = try SceneLoader.decode(#"{"camera": {"yaw": "0.25turn", "pitch": {"keyframes": [[0, "10deg"], [1, "0.5rad"]]}}, "layers": [{"type": "sky", "sunElevation": "0.1turn"}]}"#)
        XCTAssertEqual(camera.camera?.yaw?.value(at: 0) ?? 0, 90, accuracy: 1e-9)
        XCTAssertEqual(camera.camera?.pitch?.value(at: 1) ?? 0, 0.5 * 180 / .pi, accuracy: 1e-9)
    }

    func testAngleStringErrorsNameThePath() {
        XCTAssertEqual(sceneError(#"{"layers": [{"type": "emitter", "cells": [{"emissionLongitude": "90 degrees"}]}]}"#),
                       #"Scenes/x.json: layers[0].cells[0].emissionLongitude: expected a number in -10000…10000 or an angle like "90deg", "1.5rad" or "0.25turn", got "90 degrees""#)
        XCTAssertEqual(sceneError(#"{"layers": [{"type": "sky", "sunElevation": "0.5turn"}]}"#),
                       #"Scenes/x.json: layers[0].sunElevation: expected an elevation in −90…90 degrees, got "0.5turn" (180 °)"#)
        XCTAssertEqual(sceneError(#"{"layers": [{"type": "emitter", "cells": [{"rotation": true}]}]}"#),
                       #"Scenes/x.json: layers[0].cells[0].rotation: expected a number in -10000…10000 or an angle like "90deg", got true"#)
        // Not an angle: a string is still refused as before.
        XCTAssertEqual(sceneError(#"{"layers": [{"type": "emitter", "cells": [{"velocity": "90deg"}]}]}"#),
                       #"Scenes/x.json: layers[0].cells[0].velocity: expected a number in -1000000…1000000, got "90deg""#)
    }

    func testRadiansBeyondAFullTurnWarn() throws {
        let scene = try emitter("\"emissionLongitude\": 90, \"emissionRange\": 6.28, \"rotation\": -7")
        XCTAssertEqual(scene.warnings.map(\.description), [
            #"Scenes/x.json: layers[0].cells[0].emissionLongitude: warning: 90 rad is more than a full turn (2π ≈ 6.283 rad); Core Animation's angles are radians: write "90deg" if you meant degrees"#,
            #"Scenes/x.json: layers[0].cells[0].rotation: warning: -7 rad is more than a full turn (2π ≈ 6.283 rad); Core Animation's angles are radians: write "-7deg" if you meant degrees"#,
        ])
        XCTAssertEqual(try emitter("\"emissionLongitude\": \"400deg\"").warnings.count, 0, "a string says its unit")
        XCTAssertEqual(try SceneLoader.decode(#"{"layers": [{"type": "angularGradient", "stops": ["red"], "endAngle": 720}]}"#).warnings.count, 0,
                       "degrees properties do not warn")
    }
}
