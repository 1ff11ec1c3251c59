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
        guard let s = scene.layers[0].content as? ShaderLayer else { return XCTFail() }
        XCTAssertEqual(s.fragmentPath, directory + "/sky.frag")
        XCTAssertEqual(s.uniforms.map(\.name), ["u_speed", "u_dir", "u_tint", "u_rgba"])
        XCTAssertEqual(s.uniforms[0].value, .floats([2]))
        XCTAssertEqual(s.uniforms[1].value.components, [1, 0])
        XCTAssertEqual(s.uniforms[2].value.components.count, 4)
        let frame = Frame(scene: scene, time: 2.5)
        XCTAssertEqual(frame.frameNumber, 150)
        guard let draw = frame.layers[0] as? ShaderDraw else { return XCTFail() }
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

    // MARK: Shadertoy channels and iDate

    /// A PNG header (signature and IHDR) of `width`×`height`: all that decoding reads.
    func writePNG(_ name: String, width: Int, height: Int) throws {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        bytes += [8, 6, 0, 0, 0]
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func testDecodesChannelsAndAlpha() throws {
        try writePNG("noise.png", width: 64, height: 32)
        let scene = try decode("""
        {"type": "shader", "fragment": "sky.frag", "alpha": "shader", "channels": [
          {"image": "noise.png"},
          {"image": "noise.png", "filter": "nearest", "wrap": "clamp", "vflip": false}]}
        """)
        guard let s = scene.layers[0].content as? ShaderLayer else { return XCTFail() }
        XCTAssertEqual(s.alpha, .shader)
        // Shadertoy's defaults: mipmap, repeat, vflip.
        XCTAssertEqual(s.channels, [
            ShaderChannel(imagePath: directory + "/noise.png", imageSize: SIMD2(64, 32), filter: .mipmap, wrap: .repeat, vflip: true),
            ShaderChannel(imagePath: directory + "/noise.png", imageSize: SIMD2(64, 32), filter: .nearest, wrap: .clamp, vflip: false),
        ])
        guard let plain = try decode(#"{"type": "shader", "fragment": "sky.frag"}"#).layers[0].content as? ShaderLayer else { return XCTFail() }
        XCTAssertEqual(plain.alpha, .opaque)
        XCTAssertEqual(plain.channels, [])
    }

    func testChannelErrors() throws {
        try writePNG("noise.png", width: 64, height: 32)
        try writePNG("huge.png", width: 4097, height: 1)
        try "not a png".write(toFile: directory + "/fake.png", atomically: true, encoding: .utf8)
        func channels(_ json: String) -> String { error(#"{"type": "shader", "fragment": "sky.frag", "channels": "# + json + "}") }
        XCTAssertEqual(channels("[" + Array(repeating: #"{"image": "noise.png"}"#, count: 5).joined(separator: ", ") + "]"),
                       "s.json: layers[0].channels: 5 channels, at most 4")
        XCTAssertEqual(channels("[{}]"), "s.json: layers[0].channels[0]: a channel needs one of image, buffer, noise, keyboard or empty")
        XCTAssertEqual(channels(#"[{"image": "nope.png"}]"#),
                       "s.json: layers[0].channels[0].image: no such image 'nope.png' (looked for \(directory!)/nope.png)")
        XCTAssertEqual(channels(#"[{"image": "fake.png"}]"#), "s.json: layers[0].channels[0].image: 'fake.png' is not a PNG image")
        XCTAssertEqual(channels(#"[{"image": "huge.png"}]"#),
                       "s.json: layers[0].channels[0].image: the image 'huge.png' is 4097×1 pixels; channel images may be at most 4096×4096")
        XCTAssertEqual(channels(#"[{"image": "noise.png", "filter": "bilinear"}]"#),
                       "s.json: layers[0].channels[0].filter: unknown filter 'bilinear'; did you mean 'linear'?")
        XCTAssertEqual(channels(#"[{"image": "noise.png", "wrap": "mirror"}]"#),
                       "s.json: layers[0].channels[0].wrap: unknown wrap 'mirror' (expected one of: clamp, repeat)")
        XCTAssertEqual(channels(#"[{"image": "noise.png", "flip": true}]"#),
                       "s.json: layers[0].channels[0].flip: unknown key 'flip'; did you mean 'vflip'?")
        XCTAssertEqual(error(#"{"type": "shader", "fragment": "sky.frag", "alpha": "straight"}"#),
                       "s.json: layers[0].alpha: unknown alpha 'straight' (expected one of: opaque, shader)")
        // Shadertoy's uniform names are Welkin's to set, like u_time.
        XCTAssertEqual(error(#"{"type": "shader", "fragment": "sky.frag", "uniforms": {"iTime": 1}}"#),
                       "s.json: layers[0].uniforms.iTime: 'iTime' is a built-in uniform that Welkin sets itself")
    }

    /// iDate: year, month − 1, day, seconds of the day, in the sky date's own UTC offset; a fixed
    /// date plus scene time without a dated sky (never the wall clock).
    func testShadertoyDate() throws {
        XCTAssertEqual(Shadertoy.date(sky: nil, time: 0), SIMD4(2000, 0, 1, 0))
        XCTAssertEqual(Shadertoy.date(sky: nil, time: 86_400 * 31 + 3_661.5), SIMD4(2000, 1, 1, 3_661.5))
        let dated = try SceneLoader.decode("""
            {"layers": [{"type": "sky", "date": "2026-06-21T23:59:00+02:00", "latitude": 48.8, "longitude": 2.3, "timeScale": 60}]}
            """)
        // 23:59 + 2 s × 60 = 00:01 the next day, in +02:00.
        XCTAssertEqual(Shadertoy.date(sky: SkyState.of(dated, time: 2), time: 2), SIMD4(2026, 5, 22, 60))
        // A fixed sun has no clock: the fixed date.
        let fixed = try SceneLoader.decode(#"{"layers": [{"type": "sky"}]}"#)
        XCTAssertEqual(Shadertoy.date(sky: SkyState.of(fixed, time: 5), time: 5), SIMD4(2000, 0, 1, 5))
        XCTAssertEqual(Shadertoy.date(sky: nil, time: .infinity), SIMD4(2000, 0, 1, 0))
    }
}

/// Shadertoy's iMouse and keyboard texture as the viewer makes them.
final class ShadertoyInputTests: XCTestCase {
    func testIMouseFollowsShadertoysSigns() {
        var m = ShadertoyMouse()
        m.update(position: [10, 20], down: false)
        XCTAssertEqual(m.value, .zero, "no click yet")
        m.update(position: [10, 20], down: true)
        XCTAssertEqual(m.value, SIMD4(10, 20, 10, 20), "the press frame: zw the click, w positive")
        m.update(position: [15, 25], down: true)
        XCTAssertEqual(m.value, SIMD4(15, 25, 10, -20), "dragging: xy follow, w negative after the press frame")
        m.update(position: [40, 40], down: false)
        XCTAssertEqual(m.value, SIMD4(15, 25, -10, -20), "released: xy stay, z negative")
        m.update(position: [40, 40], down: true)
        XCTAssertEqual(m.value, SIMD4(40, 40, 40, 40), "a new click")
    }

    func testTheKeyboardTextureRows() {
        var k = ShadertoyKeyboard()
        k.update(held: [32, 65])
        XCTAssertEqual([k.texels[32], k.texels[256 + 32], k.texels[512 + 32]], [255, 255, 255])
        k.update(held: [65])
        XCTAssertEqual([k.texels[32], k.texels[256 + 32], k.texels[512 + 32]], [0, 0, 255], "released: the toggle stays")
        XCTAssertEqual([k.texels[65], k.texels[256 + 65], k.texels[512 + 65]], [255, 0, 255], "held on: pressed only on its first frame")
        k.update(held: [32])
        XCTAssertEqual(k.texels[512 + 32], 0, "a second press toggles off")
        XCTAssertTrue(k.isHeld(32))
        XCTAssertFalse(k.isHeld(65))
    }
}
