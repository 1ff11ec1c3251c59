// Shadertoy as it is: buffers A…D (a counter, a buffer reading its own last frame, the order of
// passes), a Common file used by two passes, the uniforms buffers see, determinism (the same picture
// from a fresh renderer, after a jump back, along an export's frames), WebGL's zero-initialised
// variables and GL_ES, Welkin's names kept out of a user's shader, mainImage by macro, includes in
// comments, noise and keyboard channels. Every expected byte is worked out by hand in its comment.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinGL
import WelkinImage

final class ShadertoyMultipassTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("welkin-multipass").path
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    func scene(_ json: String) throws -> Scene {
        try SceneLoader.decode(json, file: directory + "/scene.json", directory: directory)
    }

    /// Buffer A adds 1/255 to what it held last frame; the image shows it.
    func counter() throws -> Scene {
        try write("count.frag", "void mainImage(out vec4 o, in vec2 u) { o = texelFetch(iChannel0, ivec2(u), 0) + vec4(1.0 / 255.0); }\n")
        try write("show.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(texelFetch(iChannel0, ivec2(u), 0).rgb, 1.0); }\n")
        return try scene("""
            {"size": [4, 2], "dither": false, "layers": [{"type": "shader", "fragment": "show.frag", "channels": [{"buffer": "A"}],
              "buffers": {"A": {"fragment": "count.frag", "channels": [{"buffer": "A", "filter": "nearest"}]}}}]}
            """)
    }

    /// At time t the buffer has run frames 0…floor(60t): 60t + 1 of them.
    func testACounterBufferCountsEveryFrameFromZero() throws {
        let s = try counter()
        let fresh = try TestGL.renderer()
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 0))[1, 1], SIMD4(1, 1, 1, 255), "frame 0 ran once")
        XCTAssertEqual(try TestGL.renderer().render(Frame(scene: s, time: 1.5))[1, 1], SIMD4(91, 91, 91, 255), "frames 0…90")
        // The same renderer: on from frame 0 (one frame more per frame), back (from 0 again), on.
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 1.0 / 60))[1, 1], SIMD4(2, 2, 2, 255))
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 1.5))[1, 1], SIMD4(91, 91, 91, 255), "caught up from frame 1")
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 1.5))[1, 1], SIMD4(91, 91, 91, 255), "the same frame again runs nothing")
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 0.5))[1, 1], SIMD4(31, 31, 31, 255), "a jump back starts from frame 0")
        XCTAssertEqual(try fresh.render(Frame(scene: s, time: 1.0))[2, 0], SIMD4(61, 61, 61, 255))
    }

    /// An export's frames (every 1/30 s) end on the picture a single render at that time gives.
    func testExportFramesMatchASingleRender() throws {
        try write("walk.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                vec4 last = texelFetch(iChannel0, ivec2(u), 0);
                o = fract(last * 1.37 + vec4(0.013, 0.029, 0.047, 0.0) + vec4(iTime * 0.01));
            }
            """)
        try write("show.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(texelFetch(iChannel0, ivec2(u), 0).rgb, 1.0); }\n")
        let s = try scene("""
            {"size": [8, 4], "dither": false, "layers": [{"type": "shader", "fragment": "show.frag", "channels": [{"buffer": "A"}],
              "buffers": {"A": {"fragment": "walk.frag", "channels": [{"buffer": "A", "filter": "nearest"}]}}}]}
            """)
        let stepping = try TestGL.renderer()
        var last: Image?
        for k in 0...60 { last = try stepping.render(Frame(scene: s, time: Double(k) / 30)) }
        let once = try TestGL.renderer().render(Frame(scene: s, time: 2))
        XCTAssertEqual(last?.pixels, once.pixels)
        XCTAssertEqual(try TestGL.renderer().render(Frame(scene: s, time: 2)).pixels, once.pixels, "every run")
    }

    /// A buffer reading itself reads its last frame; iFrame and iTime are the buffer frame's.
    func testABufferReadsItsOwnLastFrame() throws {
        try write("frames.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                o = vec4(float(iFrame) / 255.0, iTime * 60.0 / 255.0, texelFetch(iChannel0, ivec2(u), 0).r, 1.0);
            }
            """)
        try write("show.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                o = u.x < 1.0 ? vec4(texelFetch(iChannel0, ivec2(u), 0).rgb, 1.0)
                              : vec4(iTime * 60.0 / 255.0, float(iFrame) / 255.0, iTimeDelta * 60.0, 1.0);
            }
            """)
        let s = try scene("""
            {"size": [2, 1], "dither": false, "layers": [{"type": "shader", "fragment": "show.frag", "channels": [{"buffer": "A"}],
              "buffers": {"A": {"fragment": "frames.frag", "channels": [{"buffer": "A", "filter": "nearest"}]}}}]}
            """)
        // t = 1.51: buffer frame 90 (floor(90.6)) at iTime 1.5; the image at the frame's own time.
        let image = try TestGL.renderer().render(Frame(scene: s, time: 1.51))
        XCTAssertEqual(image[0, 0], SIMD4(90, 90, 89, 255), "iFrame 90, iTime × 60 = 90, last frame's iFrame 89")
        XCTAssertEqual(image[1, 0], SIMD4(91, 90, 255, 255), "the image pass: iTime 1.51 (90.6 → 91), iFrame 90, iTimeDelta 1/60")
    }

    /// Buffers run A, B, …: B reads A's picture of this frame, A reads B's of the last.
    func testBuffersRunInOrder() throws {
        try write("a.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(float(iFrame) / 255.0, texelFetch(iChannel0, ivec2(u), 0).r, 0.0, 1.0); }\n")
        try write("b.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(texelFetch(iChannel0, ivec2(u), 0).r, 0.0, 0.0, 1.0); }\n")
        try write("show.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                o = vec4(texelFetch(iChannel0, ivec2(u), 0).g, texelFetch(iChannel1, ivec2(u), 0).r,
                         iChannelResolution[0].x / 255.0, 1.0);
            }
            """)
        let s = try scene("""
            {"size": [3, 2], "dither": false, "layers": [{"type": "shader", "fragment": "show.frag",
              "channels": [{"buffer": "A"}, {"buffer": "B"}],
              "buffers": {"B": {"fragment": "b.frag", "channels": [{"buffer": "A"}]},
                          "A": {"fragment": "a.frag", "channels": [{"buffer": "B"}]}}}]}
            """)
        // Frame 90: A = (90, B₈₉.r = A₈₉.r = 89); B = (A₉₀.r = 90). Buffers are the frame's size: 3.
        XCTAssertEqual(try TestGL.renderer().render(Frame(scene: s, time: 1.5))[2, 1], SIMD4(89, 90, 3, 255))
        let plan = FramePlan(Frame(scene: s, time: 1.5))
        XCTAssertEqual(plan.passes.map(\.name).prefix(2), ["buffer A", "buffer B"])
        XCTAssertEqual(plan.passes[0].reads, ["shader.0.buffer.B.previous"], "A reads B's last frame")
        XCTAssertEqual(plan.passes[1].reads, ["shader.0.buffer.A"], "B reads A's picture of this frame")
    }

    /// A Common file reaches every pass: a function, a struct and a PI of its own (Welkin's
    /// constants do not reach a shader that includes none of Welkin's files).
    func testACommonFileServesTwoPasses() throws {
        try write("common.glsl", """
            const float PI = 3.0;
            struct Cell { float a; vec2 b; float c[2]; };
            vec4 tint(float x) { return vec4(x, 2.0 * x, PI / 12.0, 1.0); }
            """)
        try write("a.frag", "void mainImage(out vec4 o, in vec2 u) { o = tint(10.0 / 255.0); }\n")
        try write("show.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                Cell cell;   // WebGL zero-fills it; so does Welkin
                o = tint(texelFetch(iChannel0, ivec2(u), 0).r) + vec4(cell.a + cell.b.x + cell.b.y + cell.c[1]);
                o.a = 1.0;
            }
            """)
        let s = try scene("""
            {"size": [2, 2], "dither": false, "layers": [{"type": "shader", "fragment": "show.frag", "common": "common.glsl",
              "channels": [{"buffer": "A", "filter": "nearest"}], "buffers": {"A": {"fragment": "a.frag"}}}]}
            """)
        // A: (10, 20, 64, 255)/255; the image: tint(10/255) = (10, 20, 64).
        XCTAssertEqual(try TestGL.renderer().render(Frame(scene: s, time: 0))[1, 1], SIMD4(10, 20, 64, 255))
    }

    /// GL_ES is defined, variables without initialisers are zero, a shader's own PI and TAU compile,
    /// mainImage may be defined by a macro, and an #include inside a comment is no include.
    func testAShaderReadsAsWebGLReadsIt() throws {
        try write("webgl.frag", """
            const float PI = 3.0;                 // Welkin's PI would make this a syntax error
            #define TAU (2.0 * PI)                // and this a redefinition
            /*
            #include "not-there.glsl"
            */
            float g;
            struct Ray { vec3 o; vec3 d; };
            void paint(out vec4 o, in vec2 u) {
                float x, y = 0.5; vec3 v; int n; bool b; float a[3]; mat2 m; Ray r;
                o = vec4(x + v.x + float(n) + a[2] + m[1][1] + (b ? 1.0 : 0.0) + g + r.d.z, y, TAU / 24.0, 1.0);
            #ifdef GL_ES
                o.a = 1.0;
            #else
                o = vec4(1.0, 0.0, 1.0, 1.0);
            #endif
            }
            #define mainImage(O, U) paint(O, U)
            """)
        let s = try scene(#"{"size": [2, 2], "dither": false, "layers": [{"type": "shader", "fragment": "webgl.frag"}]}"#)
        XCTAssertEqual(try TestGL.renderer().render(Frame(scene: s, time: 0))[0, 0], SIMD4(0, 128, 64, 255))
    }

    /// The rewrite itself: what goes where, and what is left alone.
    func testTheRewriteZeroInitialisesWhatWebGLDoes() {
        let text = """
            #define N 4
            #ifdef GL_ES
            precision highp float;
            #endif
            struct S { vec2 p; float w[N]; };
            uniform float u_keep;
            const int K = 2;
            vec3 g, h = vec3(1);
            void f(out float q) {
                float a; // float b;
                vec2 c[K], d = vec2(0);
                S s;
                for (int i; i < 2; i++) { int j; }
                mat3 m = mat3(1.0); float e[n];
            }
            """
        XCTAssertEqual(ShadertoyRewrite.rewrite(text), """
            #define N 4
            #ifdef WELKIN_GL_ES
            precision highp float;
            #endif
            struct S { vec2 p; float w[N]; };
            uniform float u_keep;
            const int K = 2;
            vec3 g = vec3(0), h = vec3(1);
            void f(out float q) {
                float a = float(0); // float b;
                vec2 c[K] = vec2[2](vec2(0), vec2(0)), d = vec2(0);
                S s = S(vec2(0), float[4](float(0), float(0), float(0), float(0)));
                for (int i; i < 2; i++) { int j = int(0); }
                mat3 m = mat3(1.0); float e[n];
            }
            """)
    }

    /// Noise channels: the generated bytes, in 2D, as a volume and as a cube map; the keyboard texture.
    func testNoiseAndKeyboardChannels() throws {
        try write("channels.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                int x = int(u.x);
                if (x == 0) o = texelFetch(iChannel0, ivec2(3, 5), 0);
                if (x == 1) o = texelFetch(iChannel1, ivec3(1, 2, 3), 0);
                if (x == 2) o = vec4(texelFetch(iChannel3, ivec2(65, 0), 0).r, texelFetch(iChannel3, ivec2(65, 1), 0).r,
                                     texelFetch(iChannel3, ivec2(65, 2), 0).r, 1.0);
                if (x == 5) o = vec4(texelFetch(iChannel3, ivec2(66, 0), 0).r, texelFetch(iChannel3, ivec2(66, 1), 0).r,
                                     texelFetch(iChannel3, ivec2(66, 2), 0).r, 1.0);
                if (x == 3) o = vec4(iChannelResolution[0].x, iChannelResolution[1].z, iChannelResolution[3].y, 255.0) / 255.0;
                if (x == 4) o = vec4(texture(iChannel2, vec3(1.0, 0.0, 0.0)).rgb, 1.0);
            }
            """)
        let s = try scene("""
            {"size": [6, 1], "dither": false, "layers": [{"type": "shader", "fragment": "channels.frag",
              "channels": [{"noise": "image", "size": 16, "filter": "nearest"}, {"noise": "volume", "size": 8, "filter": "nearest"},
                           {"noise": "cube", "size": 4, "filter": "nearest"}, {"keyboard": true}]}]}
            """)
        let renderer = try TestGL.renderer()
        var frame = Frame(scene: s, time: 0)
        frame.keyboard.update(held: [65])
        let image = try renderer.render(frame)
        // Alpha is 1 (an opaque mainImage): the texels' red, green and blue bytes come through as they are.
        XCTAssertEqual(image[0, 0], SIMD4(ShaderNoise.byte(3, 5, 0, 0), ShaderNoise.byte(3, 5, 0, 1), ShaderNoise.byte(3, 5, 0, 2), 255), "2D noise texel (3, 5)")
        XCTAssertEqual(image[1, 0], SIMD4(ShaderNoise.byte(1, 2, 3, 0), ShaderNoise.byte(1, 2, 3, 1), ShaderNoise.byte(1, 2, 3, 2), 255), "volume texel (1, 2, 3)")
        XCTAssertEqual(image[2, 0], SIMD4(255, 255, 255, 255), "A held, pressed this frame, toggled on")
        XCTAssertEqual(image[5, 0], SIMD4(0, 0, 0, 255), "B not")
        XCTAssertEqual(image[3, 0], SIMD4(16, 8, 3, 255), "iChannelResolution: 16², 8³, the keyboard's 256×3")
        XCTAssertNotEqual(image[4, 0], SIMD4(0, 0, 0, 255), "the cube map reads noise")
        frame.keyboard.update(held: [65])
        XCTAssertEqual(try renderer.render(frame)[2, 0], SIMD4(255, 0, 255, 255), "still held: no longer pressed this frame")
        XCTAssertEqual(try renderer.render(Frame(scene: s, time: 0))[2, 0], SIMD4(0, 0, 0, 255), "headless: no keys")
    }

    /// Scene errors name the JSON path; a buffer's shader must be a Shadertoy shader.
    func testMistakesAreNamed() throws {
        try write("a.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(1.0); }\n")
        let cases: [(String, String)] = [
            (#"{"type": "shader", "fragment": "a.frag", "channels": [{"buffer": "B"}], "buffers": {"A": {"fragment": "a.frag"}}}"#,
             "layers[0].channels[0]: reads buffer B, but the layer has no buffer B (it has A)"),
            (#"{"type": "shader", "fragment": "a.frag", "channels": [{"buffer": "A"}]}"#,
             "layers[0].channels[0]: reads buffer A, but the layer has no buffer A (it has none)"),
            (#"{"type": "shader", "fragment": "a.frag", "buffers": {"E": {"fragment": "a.frag"}}}"#,
             "layers[0].buffers.E: 'E' is not a buffer name; buffers are A, B, C and D (Shadertoy's Buffer A…D)"),
            (#"{"type": "shader", "fragment": "a.frag", "channels": [{"buffer": "A", "noise": "image"}], "buffers": {"A": {"fragment": "a.frag"}}}"#,
             "layers[0].channels[0]: a channel has one of image, buffer, noise, keyboard or empty, not buffer and noise"),
            (#"{"type": "shader", "fragment": "a.frag", "buffers": {"A": {"fragment": "missing.frag"}}}"#,
             "layers[0].buffers.A.fragment: no such shader file 'missing.frag'"),
        ]
        for (layer, message) in cases {
            XCTAssertThrowsError(try scene(#"{"size": [2, 2], "layers": ["# + layer + "]}")) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)\nexpected: \(message)")
            }
        }
        try write("main.frag", "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n")
        let s = try scene(#"{"size": [2, 2], "layers": [{"type": "shader", "fragment": "a.frag", "buffers": {"A": {"fragment": "main.frag"}}}]}"#)
        XCTAssertThrowsError(try TestGL.renderer().render(Frame(scene: s, time: 0))) { error in
            XCTAssertTrue("\(error)".contains("main.frag:3: a buffer's shader, and a shader with a Common file, must be a Shadertoy shader"), "\(error)")
        }
    }

    /// Cube A: mainCubemap runs once per face with the direction GL's lookup takes to each texel (a
    /// lookup of the finished map returns what the pass wrote for that direction), it can read its
    /// own last frame, and it runs after the buffers.
    func testCubeAIsACubeMapOfItsDirections() throws {
        try write("a.frag", "void mainImage(out vec4 o, in vec2 u) { o = vec4(float(iFrame) / 255.0); }\n")
        try write("cube.frag", """
            void mainCubemap(out vec4 o, in vec2 fragCoord, in vec3 rayOri, in vec3 rayDir) {
                float count = texture(iChannel0, rayDir).a + 1.0 / 255.0;       // its own last frame, plus one
                float fromA = texelFetch(iChannel1, ivec2(0), 0).r;              // Buffer A, this frame
                o = vec4(rayDir * 0.5 + 0.5, u_unused(count, fromA));
            }
            """)
        try write("common.glsl", "float u_unused(float count, float a) { return count + 0.0 * a; }\n")
        try write("look.frag", """
            void mainImage(out vec4 o, in vec2 u) {
                vec3 d = normalize(u.x < 1.0 ? vec3(1.0, 0.3, -0.2) : u.x < 2.0 ? vec3(-0.3, 0.3, -1.0) : vec3(0.1, -1.0, 0.4));
                vec4 c = texture(iChannel0, d);
                o = u.y < 1.0 ? vec4(c.rgb, 1.0) : vec4(c.a, iChannelResolution[0].x / 255.0, texelFetch(iChannel1, ivec2(0), 0).r, 1.0);
            }
            """)
        let s = try scene("""
            {"size": [3, 2], "dither": false, "layers": [{"type": "shader", "fragment": "look.frag", "common": "common.glsl",
              "channels": [{"buffer": "cube", "filter": "nearest"}, {"buffer": "A"}],
              "buffers": {"A": {"fragment": "a.frag"}},
              "cube": {"fragment": "cube.frag", "size": 64, "channels": [{"buffer": "cube", "filter": "nearest"}, {"buffer": "A"}]}}]}
            """)
        let image = try TestGL.renderer().render(Frame(scene: s, time: 0.5))
        // The nearest texel's direction: within one texel (2/64 of the face) of d, so each byte is
        // (d × 0.5 + 0.5) × 255 ± 2.
        for (x, d) in [(0, SIMD3<Double>(1, 0.3, -0.2)), (1, SIMD3(-0.3, 0.3, -1)), (2, SIMD3(0.1, -1, 0.4))] {
            let n = d / (d * d).sum().squareRoot()
            let expected = (n * 0.5 + 0.5) * 255
            let got = image[x, 1]   // the bottom row (y up in the shader)
            for c in 0..<3 { XCTAssertEqual(Double(got[c]), expected[c], accuracy: 2.5, "direction \(d), channel \(c)") }
        }
        XCTAssertEqual(image[0, 0], SIMD4(31, 64, 30, 255), "frames 0…30 counted by the cube; 64-texel faces; Buffer A's last iFrame")
        let plan = FramePlan(Frame(scene: s, time: 0.5))
        XCTAssertEqual(plan.passes.map(\.name).prefix(2), ["buffer A", "cube A (six faces)"])
        XCTAssertEqual(plan.passes[1].reads, ["shader.0.buffer.cube.previous", "shader.0.buffer.A"])
    }

    /// A layer's buffers are freed once it has not been drawn for a while (an edited or removed
    /// layer does not keep its float targets for as long as the viewer runs).
    func testBuffersOfALayerNoLongerDrawnAreFreed() throws {
        let renderer = try TestGL.renderer()
        _ = try renderer.render(Frame(scene: try counter(), time: 0))
        let pass = renderer.pass(UserShaderPass.self)
        XCTAssertGreaterThanOrEqual(pass.buffers.count, 1, "the counter's (and any an earlier test left on this shared renderer)")
        let plain = try scene(#"{"size": [4, 2], "layers": [{"type": "linearGradient", "stops": ["red", "blue"]}]}"#)
        for k in 0...UserShaderPass.buffersKeptFrames { _ = try renderer.render(Frame(scene: plain, time: Double(k) / 60)) }
        XCTAssertEqual(pass.buffers.count, 0)
    }
}
