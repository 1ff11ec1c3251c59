// Shadertoy shaders in `shader` layers: mainImage wrapping, the uniforms' values, channel images
// (filter, wrap, vflip, hot reload), refused features, errors at the user's lines, the example scene.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinImage

final class ShadertoyTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("welkin-shadertoy").path
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    func scene(_ json: String) throws -> Scene {
        try SceneLoader.decode(json, file: directory + "/scene.json", directory: directory)
    }

    /// A 4×2 image, every texel different: (x, y) is (60x + 20, 100y + 50, 10x + 10y + 5, 255).
    static let texels: Image = {
        var image = Image(width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 { image[x, y] = SIMD4(UInt8(60 * x + 20), UInt8(100 * y + 50), UInt8(10 * x + 10 * y + 5), 255) }
        }
        return image
    }()

    /// Each pixel column shows one group of uniforms, scaled so every expected byte is a whole number.
    func testEveryUniformReachesMainImage() throws {
        let renderer = try TestGL.renderer()
        try PNG.write(Self.texels, to: directory + "/texels.png")
        try write("uniforms.frag", """
            // No #version and no main: Welkin adds both.
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                int column = int(fragCoord.x);
                vec4 c = vec4(0.0);
                if (column == 0) c = vec4(iResolution.x, iResolution.y, iResolution.z * 255.0, 255.0);
                if (column == 1) c = vec4(iTime * 20.0, iTimeDelta * 60.0 * 255.0, iFrameRate, 255.0);
                if (column == 2) c = vec4(float(iFrame), iSampleRate / 44100.0 * 255.0, iMouse.x + iMouse.y * 10.0 + iMouse.z * 20.0 + iMouse.w * 50.0, 255.0);
                if (column == 3) c = vec4(iDate.x - 2000.0, iDate.y, iDate.z, iDate.w * 10.0);
                if (column == 4) c = vec4(iChannelResolution[0].x, iChannelResolution[0].y, iChannelResolution[0].z * 255.0, 255.0);
                if (column == 5) c = vec4(iChannelResolution[1] + vec3(iChannelTime[0] + iChannelTime[3]), 255.0);
                if (column == 6) c = texture(iChannel1, vec2(0.5)) * 255.0;   // not given: black
                if (column == 7) c = texture(iChannel0, vec2(0.1, 0.9)) * 255.0;   // the top-left texel
                fragColor = c / 255.0;
            }
            """)
        let s = try scene("""
            {"size": [8, 3], "dither": false, "layers": [{"type": "shader", "fragment": "uniforms.frag",
              "channels": [{"image": "texels.png", "filter": "nearest"}]}]}
            """)
        var frame = Frame(scene: s, time: 3)
        frame.mouse = SIMD2(3, 2)
        frame.shadertoyMouse = SIMD4(3, 2, 1, 2)   // held since a click at (1, 2) on an earlier frame: w is negative then, but any value reaches the shader
        let image = try renderer.render(frame)
        XCTAssertEqual(image[0, 1], SIMD4(8, 3, 255, 255), "iResolution")
        XCTAssertEqual(image[1, 1], SIMD4(60, 255, 60, 255), "iTime, iTimeDelta, iFrameRate")
        XCTAssertEqual(image[2, 1], SIMD4(180, 255, 143, 255), "iFrame, iSampleRate, iMouse (3 + 2·10 + 1·20 + 2·50)")
        XCTAssertEqual(image[3, 1], SIMD4(0, 0, 1, 255), "iDate: 2000-01-01, 3 s into the day (alpha 1: the shader's is ignored)")
        XCTAssertEqual(image[4, 1], SIMD4(4, 2, 255, 255), "iChannelResolution[0]")
        XCTAssertEqual(image[5, 1], SIMD4(0, 0, 0, 255), "iChannelResolution[1] of no channel, iChannelTime")
        XCTAssertEqual(image[6, 1], SIMD4(0, 0, 0, 255), "an empty channel reads black")
        XCTAssertEqual(image[7, 1], Self.texels[0, 0], "vflip: the PNG's top row is at y = 1")
    }

    /// A channel the layer does not give reads black even after other layers' passes used texture units.
    func testAnEmptyChannelReadsBlackAfterOtherLayers() throws {
        let renderer = try TestGL.renderer()
        try write("empty.frag", "void mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, p / iResolution.xy); }\n")
        let gradient = ##"{"type": "linearGradient", "stops": ["#FF8000", "#0080FF"]}"##
        let shader = #"{"type": "shader", "fragment": "empty.frag"}"#
        for layers in ["\(gradient), \(gradient), \(shader)", "\(gradient), \(gradient), \(shader), \(#"{"type": "shader", "fragment": "empty.frag", "opacity": 0.5}"#)"] {
            let s = try scene(#"{"size": [8, 8], "dither": false, "layers": ["# + layers + "]}")
            XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[4, 4], SIMD4(0, 0, 0, 255), layers)
        }
    }

    func testIDateFollowsADatedSky() throws {
        let renderer = try TestGL.renderer()
        try write("date.frag", """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                fragColor = vec4(iDate.x - 2000.0, iDate.y, iDate.z, iDate.w) / 255.0;
            }
            """)
        let s = try scene("""
            {"size": [4, 4], "dither": false, "layers": [
              {"type": "sky", "date": "2026-06-21T23:59:00+02:00", "latitude": 48.8, "longitude": 2.3, "timeScale": 60},
              {"type": "shader", "fragment": "date.frag"}]}
            """)
        // 23:59 + 2 s × 60: 00:01 on June 22 (month − 1 = 5), 60 s into the day.
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 2))[1, 1], SIMD4(26, 5, 22, 255))
    }

    func testAlphaIsOpaqueUnlessTheSceneAsks() throws {
        let renderer = try TestGL.renderer()
        try write("alpha.frag", "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0, 0.0, 0.0, 0.2); }\n")
        for (alpha, expected) in [("", SIMD4<UInt8>(255, 0, 0, 255)), (#", "alpha": "opaque""#, SIMD4(255, 0, 0, 255)),
                                  (#", "alpha": "shader""#, SIMD4(51, 0, 0, 255))] {
            let s = try scene("""
                {"size": [4, 4], "background": "#000000", "dither": false,
                 "layers": [{"type": "shader", "fragment": "alpha.frag"\(alpha)}]}
                """)
            XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[2, 2], expected, alpha)
        }
    }

    /// texture() at texel centres returns the PNG's bytes exactly (nearest, no sRGB decode), clamp
    /// holds the edge, repeat wraps, and vflip false turns the image upside down.
    func testChannelSamplingFilterWrapAndFlip() throws {
        let renderer = try TestGL.renderer()
        try PNG.write(Self.texels, to: directory + "/texels.png")
        try write("sample.frag", """
            uniform vec2 u_offset;   // a scene uniform, in texels
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                fragColor = texture(iChannel0, (fragCoord + u_offset) / iChannelResolution[0].xy);
            }
            """)
        func render(_ channel: String, offset: SIMD2<Double>) throws -> Image {
            let s = try scene("""
                {"size": [4, 2], "dither": false, "layers": [{"type": "shader", "fragment": "sample.frag",
                  "uniforms": {"u_offset": [\(offset.x), \(offset.y)]}, "channels": [{"image": "texels.png", \(channel)}]}]}
                """)
            return try renderer.render(Frame(scene: s, time: 0))
        }
        func expected(_ texel: (Int, Int) -> (Int, Int)) -> Image {
            var image = Image(width: 4, height: 2)
            for y in 0..<2 { for x in 0..<4 { let (tx, ty) = texel(x, y); image[x, y] = Self.texels[tx, ty] } }
            return image
        }
        // Rows: output row 0 is the top; with vflip the PNG's row 0 is at the top too.
        XCTAssertEqual(try render(#""filter": "nearest", "wrap": "clamp""#, offset: .zero), Self.texels)
        XCTAssertEqual(try render(#""filter": "nearest", "wrap": "clamp""#, offset: SIMD2(2, 0)),
                       expected { x, y in (min(x + 2, 3), y) }, "clamp holds the last column")
        XCTAssertEqual(try render(#""filter": "nearest", "wrap": "repeat""#, offset: SIMD2(2, 0)),
                       expected { x, y in ((x + 2) % 4, y) }, "repeat wraps to the first column")
        // y up in the shader: +1 texel moves towards the top row, and wraps to the bottom one.
        XCTAssertEqual(try render(#""filter": "nearest", "wrap": "repeat""#, offset: SIMD2(0, 1)),
                       expected { x, y in (x, (y + 1) % 2) })
        XCTAssertEqual(try render(#""filter": "nearest", "wrap": "clamp", "vflip": false"#, offset: .zero),
                       expected { x, y in (x, 1 - y) }, "vflip false: the PNG's top row at y = 0")
        // Texel centres read exact texels with linear filtering too; halfway between two, the mean.
        XCTAssertEqual(try render(#""filter": "linear", "wrap": "clamp""#, offset: .zero), Self.texels)
        var means = Self.texels
        for y in 0..<2 { for x in 0..<3 { means[x, y] = SIMD4<UInt8>(truncatingIfNeeded: (SIMD4<Int>(truncatingIfNeeded: Self.texels[x, y]) &+ SIMD4<Int>(truncatingIfNeeded: Self.texels[x + 1, y])) / 2) } }
        XCTAssertEqual(try render(#""filter": "linear", "wrap": "clamp""#, offset: SIMD2(0.5, 0)), means)
    }

    func testChannelImagesAreWatchedAndHotReload() throws {
        let renderer = try TestGL.renderer()
        let path = directory + "/flat.png"
        try PNG.write(Image(width: 2, height: 2, fill: SIMD4(10, 20, 30, 255)), to: path)
        try write("flat.frag", "void mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, vec2(0.5)); }\n")
        let s = try scene("""
            {"size": [4, 4], "dither": false, "layers": [{"type": "shader", "fragment": "flat.frag",
              "channels": [{"image": "flat.png"}]}]}
            """)
        XCTAssertEqual(GLRenderer.imageFiles(for: s), [path])
        XCTAssertTrue(renderer.files(for: s).contains(path))
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[1, 1], SIMD4(10, 20, 30, 255))

        try PNG.write(Image(width: 2, height: 2, fill: SIMD4(200, 100, 50, 255)), to: path)
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[1, 1], SIMD4(10, 20, 30, 255), "kept until reloaded")
        try renderer.reloadImages([path])
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[1, 1], SIMD4(200, 100, 50, 255))

        // A broken save keeps the last good image and says which file.
        try write("flat.png", "not a PNG any more")
        XCTAssertThrowsError(try renderer.reloadImages([path])) { error in
            XCTAssertTrue("\(error)".hasPrefix(path + ": not a readable PNG"), "\(error)")
        }
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[1, 1], SIMD4(200, 100, 50, 255))
    }

    func testUnsupportedFeaturesAreRefusedAtTheirLine() throws {
        let renderer = try TestGL.renderer()
        let cases: [(String, Int, String)] = [
            ("// a sound tab\nvec2 mainSound(int samp, float time) {\n    return vec2(sin(time));\n}\n", 2,
             "Shadertoy sound shaders (mainSound) are not supported: Welkin draws images (mainImage) only"),
            ("void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }\n\nvec2 mainSound(int s, float t) { return vec2(0.0); }\n", 3,
             "Shadertoy sound shaders (mainSound) are not supported: Welkin draws images (mainImage) only"),
            ("/* a comment\n   over two lines */ vec2 mainSound(int s, float t) { return vec2(0.0); }\n", 2,
             "Shadertoy sound shaders (mainSound) are not supported: Welkin draws images (mainImage) only"),
            ("void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(1.0); }\n", 1,
             "a Cube A pass (mainCubemap) runs as a layer's \"cube\" (docs/shaders.md, \"Buffers and the Common tab\"), not as its fragment or a buffer"),
            ("\nvoid mainVR(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(1.0); }\n", 2,
             "Shadertoy's VR entry point (mainVR) is not supported: define mainImage"),
        ]
        for (index, (text, line, message)) in cases.enumerated() {
            let path = directory + "/unsupported\(index).frag"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try renderer.loadUserShader(at: path)) { error in
                let e = error as? ShaderError
                XCTAssertEqual(e?.kind, .unsupportedShadertoyFeature, "\(error)")
                XCTAssertEqual(e?.description, "\(path):\(line): \(message)")
            }
        }
        // Not features in use: comments, mainVR beside mainImage (Shadertoy calls it only in VR), and a
        // function taking a samplerCube (a cube noise channel can feed it).
        try write("fine.frag", """
            vec4 sky(samplerCube s, vec3 d) { return texture(s, d); }
            // vec2 mainSound(int samp, float time) { ... }
            /* samplerCube
               mainCubemap( */
            void mainImage(out vec4 c, in vec2 p) { c = vec4(0.0, 1.0, 0.0, 1.0); }
            void mainVR(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { mainImage(c, p); }
            """)
        XCTAssertNoThrow(try renderer.loadUserShader(at: directory + "/fine.frag"))
    }

    /// A compile error names the user's file and line, whether or not the file has its own
    /// #version, and an error in an include names the include.
    func testCompileErrorsNameTheUserFileAndLine() throws {
        let renderer = try TestGL.renderer()
        try write("helper.glsl", "float helper(vec2 p) {\n    return p.x * nothing;\n}\n")
        for (name, text, file, line) in [
            ("plain.frag", "// clouds\n\nvoid mainImage(out vec4 fragColor, in vec2 fragCoord) {\n    fragColor = vec4(oops);\n}\n", "plain.frag", 4),
            ("versioned.frag", "#version 330 core\nvoid mainImage(out vec4 c, in vec2 p) {\n    c = undefinedThing;\n}\n", "versioned.frag", 3),
            ("including.frag", "#include \"helper.glsl\"\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(helper(p)); }\n", "helper.glsl", 2),
        ] {
            try write(name, text)
            XCTAssertThrowsError(try renderer.loadUserShader(at: directory + "/" + name)) { error in
                let e = error as? ShaderError
                XCTAssertEqual(e?.kind, .compileFailed, "\(error)")
                XCTAssertEqual(e?.diagnostics.first?.file, self.directory + "/" + file, "\(error)")
                XCTAssertEqual(e?.diagnostics.first?.line, line, "\(error)")
            }
        }
    }

    /// A file with its own main() is a complete shader even if it also defines mainImage.
    func testAFileWithItsOwnMainIsNotWrapped() throws {
        let renderer = try TestGL.renderer()
        try write("own.frag", """
            #version 330 core
            uniform vec3 iResolution;
            out vec4 colour;
            void mainImage(out vec4 c, in vec2 p) { c = vec4(p / iResolution.xy, 0.0, 1.0); }
            void main() { mainImage(colour, gl_FragCoord.xy); colour.b = 1.0; }
            """)
        let s = try scene(#"{"size": [4, 4], "dither": false, "layers": [{"type": "shader", "fragment": "own.frag"}]}"#)
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[0, 3], SIMD4(32, 32, 255, 255))
    }

    func testExampleSceneMatchesItsStoredReference() throws {
        let renderer = try TestGL.renderer()
        let scene = try SceneLoader.load(path: Repository.path("Scenes/shadertoy-clouds.json"))
        let image = try renderer.render(Frame(scene: scene, time: 1.5, pixelSize: SIMD2(640, 360)))
        if let out = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
            try PNG.write(image, to: out + "/shadertoy-clouds-t1.5.png")
        }
        let reference = try PNG.read(path: Repository.path("Tests/Fixtures/references/shadertoy-clouds-t1.5.png"))
        let difference = ImageDifference(image, reference)
        XCTAssertTrue(difference.passes, "\(difference)")
        XCTAssertLessThanOrEqual(difference.maxDifference, 2, "\(difference)")
        XCTAssertTrue(renderer.files(for: scene).contains(Repository.path("Scenes/noise-rgba.png")))
        XCTAssertTrue(renderer.shaderFiles(for: Frame(scene: scene, time: 0)).contains(renderer.shaders.path("shadertoy.glsl")),
                      "Welkin's Shadertoy prelude is watched too")
    }
}
