// `shader` layers: user GLSL over the frame, its uniforms, errors, reloads and the example scene.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class UserShaderTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "welkin-user-shaders-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/lib", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    func scene(_ json: String) throws -> Scene {
        try SceneLoader.decode(json, file: directory + "/scene.json", directory: directory)
    }

    static let flat = """
        #version 330 core
        uniform vec4 u_color;
        out vec4 fragColor;
        void main() { fragColor = u_color; }
        """

    /// A shader writing one straight colour matches a gradient of that colour on the CPU, with
    /// opacity, over a gradient below it, and as the last layer or not.
    func testFlatShaderMatchesTheReference() throws {
        let renderer = try TestGL.renderer()
        try write("flat.frag", Self.flat)
        let below = """
            {"type": "linearGradient", "start": [0, 0], "end": [1, 1], "stops": ["#FF3B30", "#007AFF"]}
            """
        for (opacity, color) in [(1.0, "#FF950080"), (0.6, "#34C759"), (0.35, "#5856D6C0")] {
            let shaderLayer = """
                {"type": "shader", "fragment": "flat.frag", "opacity": \(opacity), "uniforms": {"u_color": "\(color)"}}
                """
            let gradientLayer = """
                {"type": "linearGradient", "opacity": \(opacity), "stops": ["\(color)", "\(color)"]}
                """
            for last in [true, false] {
                let after = last ? "" : ", {\"type\": \"radialGradient\", \"stops\": [\"#FFFFFF40\", \"#00000000\"]}"
                let gpuScene = try scene("""
                    {"size": [160, 90], "background": "#102030", "layers": [\(below), \(shaderLayer)\(after)]}
                    """)
                let cpuScene = try scene("""
                    {"size": [160, 90], "background": "#102030", "layers": [\(below), \(gradientLayer)\(after)]}
                    """)
                for size in [nil, SIMD2(97, 61)] {
                    let gpu = try renderer.render(Frame(scene: gpuScene, time: 0, pixelSize: size))
                    let cpu = try ReferenceRenderer().render(Frame(scene: cpuScene, time: 0, pixelSize: size))
                    let difference = ImageDifference(gpu, cpu)
                    print("parity user flat \(color) opacity \(opacity) last \(last) \(gpu.width)×\(gpu.height): \(difference)")
                    XCTAssertTrue(difference.passes, "\(color) opacity \(opacity): \(difference)")
                }
            }
        }
    }

    func testAuroraSceneMovesAndListsItsFiles() throws {
        let renderer = try TestGL.renderer()
        let library = try ShaderLibrary.locate()
        let path = URL(fileURLWithPath: library.directory).deletingLastPathComponent().appendingPathComponent("Scenes/shader-aurora.json").path
        let aurora = try SceneLoader.load(path: path)
        let size = SIMD2(320, 180)
        let a = try renderer.render(Frame(scene: aurora, time: 0, pixelSize: size))
        let b = try renderer.render(Frame(scene: aurora, time: 2, pixelSize: size))
        let difference = ImageDifference(a, b)
        XCTAssertGreaterThan(difference.pixelsDiffering, a.width * a.height / 20, "the aurora moves: \(difference)")
        if let out = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
            try PNG.write(try renderer.render(Frame(scene: aurora, time: 0)), to: out + "/shader-aurora-t0.png")
            try PNG.write(b, to: out + "/shader-aurora-t2.png")
        }
        let files = renderer.shaderFiles(for: Frame(scene: aurora, time: 0))
        XCTAssertTrue(files.contains { $0.hasSuffix("Scenes/aurora.frag") }, "\(files)")
        XCTAssertTrue(files.contains(library.path("colorspace.glsl")), "the library include is listed: \(files)")
        XCTAssertTrue(files.contains(library.path("gradient.glsl")), "Welkin's own files too")
    }

    func testUniformTypeMismatchNamesLayerAndUniform() throws {
        let renderer = try TestGL.renderer()
        try write("tint.frag", """
            #version 330 core
            uniform vec3 u_tint;
            uniform float u_amount;
            out vec4 fragColor;
            void main() { fragColor = vec4(u_tint * u_amount, 1.0); }
            """)
        let cases: [(String, String)] = [
            ("\"u_tint\": [1, 0, 0, 1]", "layers[1].uniforms.u_tint: tint.frag declares vec3 but the scene gives 4 numbers"),
            ("\"u_tint\": \"red\"", "layers[1].uniforms.u_tint: tint.frag declares vec3 but the scene gives a colour (a vec4)"),
            ("\"u_amount\": [1, 2, 3]", "layers[1].uniforms.u_amount: tint.frag declares float but the scene gives 3 numbers"),
        ]
        for (uniforms, message) in cases {
            let s = try scene("""
                {"size": [8, 8], "layers": [{"type": "linearGradient", "stops": ["red", "blue"]},
                  {"type": "shader", "fragment": "tint.frag", "uniforms": {\(uniforms)}}]}
                """)
            XCTAssertThrowsError(try renderer.render(Frame(scene: s, time: 0))) { error in
                XCTAssertEqual((error as? ShaderLayerError)?.description, message)
            }
        }
    }

    func testUndeclaredUniformWarnsOnceAndMissingOnesAreZero() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.warningHandler = { FileHandle.standardError.write(Data(("warning: " + $0 + "\n").utf8)) } }
        var warnings: [String] = []
        renderer.warningHandler = { warnings.append($0) }
        // Declares no built-ins at all, and a user uniform the scene does not give (stays 0).
        try write("plain.frag", """
            #version 330 core
            uniform vec4 u_given;
            uniform vec4 u_missing;
            out vec4 fragColor;
            void main() { fragColor = u_given + u_missing; }
            """)
        let s = try scene("""
            {"size": [8, 8], "dither": false, "layers": [{"type": "shader", "fragment": "plain.frag",
              "uniforms": {"u_given": [0, 1, 0, 1], "u_unused": 3}}]}
            """)
        let image = try renderer.render(Frame(scene: s, time: 0))
        XCTAssertEqual(image[3, 3], SIMD4(0, 255, 0, 255))
        _ = try renderer.render(Frame(scene: s, time: 1))
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.hasPrefix("layers[0].uniforms.u_unused: plain.frag does not use this uniform") ?? false, "\(warnings)")
    }

    func testCompileErrorsNameTheUserFileAndKeepTheLastGoodProgram() throws {
        let renderer = try TestGL.renderer()
        try write("lib/helper.glsl", "vec4 helper() {\n    return vec4(1.0, 0.0, 0.0, 1.0);\n}\n")
        try write("sky.frag", """
            #version 330 core
            #include "lib/helper.glsl"
            #include "colorspace.glsl"
            uniform float u_time;
            out vec4 fragColor;
            void main() { fragColor = helper() * vec4(vec3(linearToSRGB(0.5)), 1.0); }
            """)
        let s = try scene("""
            {"size": [8, 8], "dither": false, "layers": [{"type": "shader", "fragment": "sky.frag"}]}
            """)
        let path = directory + "/sky.frag"
        let before = try renderer.render(Frame(scene: s, time: 0))
        XCTAssertTrue(renderer.shaderFiles(for: Frame(scene: s, time: 0)).contains(directory + "/lib/helper.glsl"))

        // An error in the user's own file.
        try write("sky.frag", """
            #version 330 core
            #include "lib/helper.glsl"
            out vec4 fragColor;
            void main() { fragColor = helper() + oops; }
            """)
        XCTAssertThrowsError(try renderer.loadUserShader(at: path)) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .compileFailed)
            XCTAssertEqual(e.diagnostics.first?.file, path, e.description)
            XCTAssertEqual(e.diagnostics.first?.line, 4, e.description)
        }
        XCTAssertNotNil(renderer.userShaderError(at: path))
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0)), before, "the last good program still draws")

        // An error inside an included file, through reloadShaders.
        try write("sky.frag", "#version 330 core\n#include \"lib/helper.glsl\"\nout vec4 fragColor;\nvoid main() { fragColor = helper(); }\n")
        try write("lib/helper.glsl", "vec4 helper() {\n    return vec4(1.0) * nope;\n}\n")
        XCTAssertThrowsError(try renderer.reloadShaders()) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.diagnostics.first?.file, self.directory + "/lib/helper.glsl", e.description)
            XCTAssertEqual(e.diagnostics.first?.line, 2, e.description)
        }
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0)), before)

        // Fixed: the reload takes.
        try write("lib/helper.glsl", "vec4 helper() {\n    return vec4(0.0, 0.0, 1.0, 1.0);\n}\n")
        try renderer.reloadShaders()
        XCTAssertNil(renderer.userShaderError(at: path))
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[0, 0], SIMD4(0, 0, 255, 255))
    }

    func testBuiltInsAreFed() throws {
        let renderer = try TestGL.renderer()
        try write("builtins.frag", """
            #version 330 core
            uniform float u_time;
            uniform vec2 u_resolution;
            uniform int u_frame;
            out vec4 fragColor;
            void main() {
                fragColor = vec4(u_time / 4.0, u_resolution.x / 255.0, float(u_frame) / 255.0, 1.0);
            }
            """)
        let s = try scene("""
            {"size": [20, 10], "dither": false, "layers": [{"type": "shader", "fragment": "builtins.frag"}]}
            """)
        let image = try renderer.render(Frame(scene: s, time: 2))
        XCTAssertEqual(image[5, 5], SIMD4(128, 20, 120, 255))
    }

    func testAShaderThatDoesNotCompileAtFirstIsAnError() throws {
        let renderer = try TestGL.renderer()
        try write("bad.frag", "#version 330 core\nout vec4 c;\nvoid main() { c = nothing; }\n")
        let s = try scene("""
            {"size": [8, 8], "layers": [{"type": "shader", "fragment": "bad.frag"}]}
            """)
        XCTAssertThrowsError(try renderer.render(Frame(scene: s, time: 0))) { error in
            XCTAssertEqual((error as? ShaderError)?.diagnostics.first?.description.hasPrefix(self.directory + "/bad.frag:3: "), true, "\(error)")
        }
    }
}
