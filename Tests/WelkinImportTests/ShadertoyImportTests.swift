// `welkin import SHADER.json`: both JSON forms, buffers matched by output id whatever their names,
// the Common pass, channel settings, media stand-ins, and every refusal naming its pass.

import Foundation
import XCTest
import WelkinCore
import WelkinImport
import WelkinTestSupport

final class ShadertoyImportTests: XCTestCase {
    /// A pass as Shadertoy's JSON writes it.
    static func pass(_ type: String, name: String, output: Any?, inputs: [[String: Any]] = [], code: String = "void mainImage(out vec4 o, in vec2 u) { o = vec4(1.0); }") -> [String: Any] {
        var p: [String: Any] = ["type": type, "name": name, "code": code, "inputs": inputs, "description": ""]
        p["outputs"] = output.map { [["id": $0, "channel": 0]] } ?? []
        return p
    }

    static func json(_ object: Any) -> String {
        String(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!
    }

    func convert(_ object: Any, path: String = "/tmp/shader.json") throws -> ShadertoyImport.Result {
        try ShadertoyImport.convert(Self.json(object), path: path, name: "imported")
    }

    /// The API form, buffers named oddly and listed out of order, matched by their output ids.
    func testTheAPIFormMapsBuffersByOutputID() throws {
        let passes: [[String: Any]] = [
            Self.pass("image", name: "image", output: "4dfGRr", inputs: [
                ["id": "XsXGR8", "ctype": "buffer", "channel": 1, "src": "/media/previz/buffer01.png",
                 "sampler": ["filter": "nearest", "wrap": "clamp", "vflip": "true"]]]),
            Self.pass("buffer", name: "Buffer @", output: "XsXGR8", inputs: [
                ["id": "4dXGR8", "ctype": "buffer", "channel": 0, "sampler": ["filter": "linear", "wrap": "repeat"]]]),
            Self.pass("buffer", name: "Buf A", output: 257, inputs: [
                ["id": 258, "ctype": "buffer", "channel": 0]]),
            Self.pass("common", name: "Common", output: nil, code: "float twice(float x) { return 2.0 * x; }"),
        ]
        let r = try convert(["Shader": ["ver": "0.1", "info": ["id": "abc123", "name": "Two \"buffers\"", "username": "someone", "description": "d"],
                                        "renderpass": passes]])
        XCTAssertEqual(r.files.map(\.fileName), ["imported-image.frag", "imported-common.glsl", "imported-buffer-a.frag", "imported-buffer-b.frag"])
        XCTAssertEqual(r.files[1].text, "float twice(float x) { return 2.0 * x; }\n")
        XCTAssertTrue(r.warnings.isEmpty, "\(r.warnings)")
        let directory = try makeTemporaryDirectory("welkin-import-shadertoy").path
        for f in r.files { try f.text.write(toFile: directory + "/" + f.fileName, atomically: true, encoding: .utf8) }
        let scene = try SceneLoader.decode(r.scene, file: directory + "/imported.json", directory: directory)
        XCTAssertEqual(scene.name, "Two \"buffers\"")
        XCTAssertEqual(scene.size, SIMD2(800, 450))
        let layer = try XCTUnwrap(scene.layers.first?.content as? ShaderLayer)
        XCTAssertEqual(layer.commonPath, directory + "/imported-common.glsl")
        XCTAssertEqual(layer.channels.map(\.source), [.empty, .buffer("B")])
        XCTAssertEqual(layer.channels[1].filter, .nearest)
        XCTAssertEqual(layer.channels[1].wrap, .clamp)
        XCTAssertEqual(layer.buffers.map(\.name), ["A", "B"])
        XCTAssertEqual(layer.buffers[0].channels.map(\.source), [.buffer("B")], "Buf A (257) reads 258: Buffer B")
        XCTAssertEqual(layer.buffers[1].channels.map(\.source), [.buffer("A")])
        XCTAssertEqual(layer.buffers[1].channels[0].filter, .linear)
        XCTAssertTrue(r.scene.contains("https://www.shadertoy.com/view/abc123"))
    }

    /// The bare form (the site's export: type and filepath), alone or as a one-element array; media
    /// not beside the JSON become noise with a warning, and one beside it is used.
    func testTheBareFormAndMedia() throws {
        let directory = try makeTemporaryDirectory("welkin-import-media").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0])
            .write(to: URL(fileURLWithPath: directory + "/here.png"))
        let shader: [String: Any] = ["ver": "0.1", "info": ["id": "x", "name": "media"], "renderpass": [
            Self.pass("image", name: "Image", output: "4dfGRr", inputs: [
                ["id": 16, "type": "texture", "channel": 0, "filepath": "/media/a/missing.png", "sampler": ["filter": "mipmap", "wrap": "repeat", "vflip": "true"]],
                ["id": 17, "type": "volume", "channel": 1, "filepath": "/media/a/noise.bin"],
                ["id": 18, "type": "cubemap", "channel": 2, "filepath": "/media/a/forest.png"],
                ["id": 19, "type": "texture", "channel": 3, "filepath": "/media/a/here.png", "sampler": ["vflip": false]],
            ])]]
        for form in [shader as Any, [shader] as Any] {
            let r = try convert(form, path: directory + "/media.json")
            XCTAssertEqual(r.warnings.count, 3, "\(r.warnings)")
            XCTAssertTrue(r.warnings[0].hasPrefix("Image: iChannel0 is Shadertoy's texture /media/a/missing.png, not in the file: generated noise 256×256"), r.warnings[0])
            XCTAssertTrue(r.scene.contains(#"{"noise": "image", "size": 256, "filter": "mipmap", "wrap": "repeat"}"#), r.scene)
            XCTAssertTrue(r.scene.contains(#"{"noise": "volume", "size": 32}"#), r.scene)
            XCTAssertTrue(r.scene.contains(#"{"noise": "cube", "size": 256}"#), r.scene)
            XCTAssertTrue(r.scene.contains(#"{"image": "here.png", "vflip": false}"#), r.scene)
        }
    }

    /// What Welkin cannot run is refused, naming the pass (and the JSON path).
    func testRefusalsNameThePass() {
        let cases: [(Any, String)] = [
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "music", "channel": 0, "id": 1]])]]],
             "Shader.renderpass[0].inputs[0]: pass \"Image\" reads music on iChannel0: Welkin has no sound inputs"),
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "webcam", "channel": 2, "id": 1]])]]],
             "pass \"Image\" reads the webcam on iChannel2: Welkin has no video inputs"),
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "mic", "channel": 0, "id": 1]])]]],
             "reads the microphone on iChannel0"),
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr"), Self.pass("sound", name: "Sound", output: nil)]]],
             "Shader.renderpass[1]: pass \"Sound\" is a sound shader (mainSound)"),
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "cubemap", "channel": 0, "id": "4dX3Rr"]])]]],
             "pass \"Image\" reads Cube A, which the file does not have"),
            (["Shader": ["renderpass": [Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "buffer", "channel": 0, "id": "4sXGR8"]])]]],
             "pass \"Image\" reads Buffer C, which the file does not have"),
            (["Shader": ["renderpass": [Self.pass("buffer", name: "Buffer Z", output: "zzzzzz")]]],
             "buffer \"Buffer Z\" writes output id zzzzzz, which is none of Buffer A…D's"),
            (["Shader": ["renderpass": [Self.pass("buffer", name: "Buffer A", output: "4dXGR8")]]],
             "Shader.renderpass: no image pass"),
            ([["renderpass": []], ["renderpass": []]], "$: the file holds 2 shaders; welkin import takes one"),
            (["info": [:]], "expected Shadertoy's JSON"),
        ]
        for (object, message) in cases {
            XCTAssertThrowsError(try convert(object)) { error in
                XCTAssertTrue("\(error)".hasPrefix("/tmp/shader.json: "), "\(error)")
                XCTAssertTrue("\(error)".contains(message), "\(error)\nexpected: \(message)")
            }
        }
        XCTAssertThrowsError(try ShadertoyImport.convert("{not json", path: "/tmp/shader.json", name: "x")) { error in
            XCTAssertEqual("\(error)", "/tmp/shader.json: not JSON")
        }
    }

    /// Cube A becomes the layer's cube; an input with its id reads it.
    func testCubeAIsImported() throws {
        let cube = "void mainCubemap(out vec4 o, in vec2 f, in vec3 ro, in vec3 rd) { o = vec4(rd, 1.0); }"
        let r = try convert(["Shader": ["info": ["name": "cube"], "renderpass": [
            Self.pass("image", name: "Image", output: "4dfGRr", inputs: [["type": "cubemap", "channel": 0, "id": "4dX3Rr", "sampler": ["filter": "linear"]]]),
            Self.pass("cubemap", name: "Cube A", output: "4dX3Rr", inputs: [["type": "cubemap", "channel": 1, "id": 41]], code: cube),
        ]]])
        XCTAssertEqual(r.files.map(\.fileName), ["imported-image.frag", "imported-cube-a.frag"])
        XCTAssertTrue(r.scene.contains(#""channels": [{"buffer": "cube", "filter": "linear"}]"#), r.scene)
        XCTAssertTrue(r.scene.contains(#""cube": {"fragment": "imported-cube-a.frag", "channels": [{"empty": true}, {"buffer": "cube"}]}"#), r.scene)
    }
}
