import Foundation
import XCTest
@testable import WelkinCore

final class ShaderLayerTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-shader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n"
            .write(toFile: directory + "/sky.frag", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func decode(_ layer: String) throws -> Scene {
        try SceneLoader.decode("{\"layers\": [\(layer)]}", file: "s.json", directory: directory)
    }

    func error(_ layer: String) -> String {
        do { _ = try decode(layer); return "no error" } catch { return "\(error)" }
    }

    func testDecodesPathAndUniforms() throws {
        let scene = try decode("""
        {"type": "shader", "fragment": "sky.frag", "opacity": 0.5,
         "uniforms": {"u_speed": 2, "u_dir": [1, 0], "u_tint": "orange", "u_rgba": [0.1, 0.2, 0.3, 0.4]}}
        """)
        guard case .shader(let s) = scene.layers[0].content else { return XCTFail() }
        XCTAssertEqual(s.fragmentPath, directory + "/sky.frag")
        XCTAssertEqual(s.uniforms.map(\.name), ["u_speed", "u_dir", "u_tint", "u_rgba"])
        XCTAssertEqual(s.uniforms[0].value, .floats([2]))
        XCTAssertEqual(s.uniforms[1].value.components, [1, 0])
        XCTAssertEqual(s.uniforms[2].value.components.count, 4)
        let frame = Frame(scene: scene, time: 2.5)
        XCTAssertEqual(frame.frameNumber, 150)
        guard case .shader(let draw) = frame.layers[0] else { return XCTFail() }
        XCTAssertEqual(draw.opacity, 0.5)
    }

    func testErrors() {
        XCTAssertEqual(error("{\"type\": \"shader\"}"), "s.json: layers[0]: missing key 'fragment'")
        XCTAssertTrue(error("{\"type\": \"shader\", \"fragment\": \"nope.frag\"}")
            .hasPrefix("s.json: layers[0].fragment: no such shader file 'nope.frag'"))
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniforms\": {\"2x\": 1}}"),
                       "s.json: layers[0].uniforms.2x: '2x' is not a valid GLSL uniform name")
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniforms\": {\"u_time\": 1}}"),
                       "s.json: layers[0].uniforms.u_time: 'u_time' is a built-in uniform that Welkin sets itself")
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniforms\": {\"u_v\": [1, 2, 3, 4, 5]}}"),
                       "s.json: layers[0].uniforms.u_v: expected 1 to 4 numbers (float, vec2, vec3, vec4), got 5")
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniforms\": {\"u_v\": true}}"),
                       "s.json: layers[0].uniforms.u_v: expected a number, an array of 1 to 4 numbers, or a colour, got true")
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniforms\": {\"u_v\": \"blu\"}}"),
                       "s.json: layers[0].uniforms.u_v: unknown colour name 'blu'; did you mean 'blue'?")
        XCTAssertEqual(error("{\"type\": \"shader\", \"fragment\": \"sky.frag\", \"uniform\": {}}"),
                       "s.json: layers[0].uniform: unknown key 'uniform'; did you mean 'uniforms'?")
    }
}
