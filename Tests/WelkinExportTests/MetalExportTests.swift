// `welkin export-code --package`'s Metal layers: every SPIR-V passes spirv-val, and the SPIR-V turned
// back into GLSL, drawn by Welkin's GL path in place of the program it came from, draws the same
// picture within 1/255 (so the Metal made from that SPIR-V is the shader Welkin draws).

import Foundation
import XCTest
import WelkinCore
import WelkinAstronomy
import WelkinGL
import WelkinImage
@testable import WelkinExport
import WelkinTestSupport

final class MetalExportTests: XCTestCase {
    /// The scenes of issue #25's Metal part ("" is the built-in default scene) and the Milky Way's
    /// night (its map a texture of the track), each at one time.
    static let scenes: [(file: String, time: Double)] = [
        ("snowy-night.json", 2), ("text-clock.json", 20), ("shader-aurora.json", 1.5), ("", 10), ("milky-way.json", 0),
    ]

    static func scene(_ file: String) throws -> Scene {
        file.isEmpty ? Scene.defaultScene : try SceneLoader.load(path: Repository.scenes.appendingPathComponent(file).path)
    }

    /// The Metal layers of `scene` for the one sample at `time` (a track of one sample).
    static func layers(_ scene: Scene, at time: Double, renderer: GLRenderer) throws -> [MetalExport.Layer] {
        try MetalExport.layers(scene: scene, options: MetalExport.Options(duration: 0, rate: 1)) { _ in
            let frame = Frame(scene: scene, time: time)
            return (try renderer.capture(frame, package: true), frame)
        }
    }

    func testEverySPIRVPassesSpirvValAndTheRoundTripDrawsWelkinsPicture() throws {
        let renderer = try TestGL.renderer()
        var report: [String] = []
        for (file, time) in Self.scenes {
            let scene = try Self.scene(file)
            let layers = try Self.layers(scene, at: time, renderer: renderer)
            XCTAssertFalse(layers.isEmpty, "\(file): no Metal layer")
            var substitutes: [String: String] = [:]
            var modules = 0
            for layer in layers {
                for pass in layer.passes {
                    for (glsl, compiled) in [(pass.vertexGLSL, pass.vertex), (pass.fragmentGLSL, pass.fragment)] {
                        XCTAssertNil(try ShaderPipeline.validate(compiled.spirv), "\(file) \(compiled.entryPoint)")
                        substitutes[glsl] = try ShaderPipeline.glsl(fromSPIRV: compiled.spirv)
                        modules += 1
                    }
                }
            }
            // Welkin's own drawing, and the same with every exported program replaced by its round trip,
            // both as the export draws (each layer on its own, the sky's general programs).
            let frame = Frame(scene: scene, time: time)
            let fresh = { try GLRenderer(context: renderer.context, shaders: try ShaderLibrary.locate()) }
            let original = try fresh()
            original.fusesLastLayer = false
            original.exportVariants = true
            original.packageVariants = true
            let welkin = try original.render(frame)
            let replaced = Counter()
            ShaderProgram.sourceFilter = { source, _ in
                guard let s = substitutes[source.text] else { return source.text }
                replaced.texts.insert(source.text)
                return s
            }
            defer { ShaderProgram.sourceFilter = nil }
            let substituted = try fresh()
            substituted.fusesLastLayer = false
            substituted.exportVariants = true
            substituted.packageVariants = true
            let roundTrip = try substituted.render(frame)
            ShaderProgram.sourceFilter = nil
            // Every exported stage is drawn from its round trip (fullscreen.vert's also in Welkin's other passes).
            XCTAssertEqual(replaced.texts, Set(substitutes.keys), "\(file): an exported stage was not drawn from its round trip")
            if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
                let base = "\(directory)/metal-\(file.isEmpty ? "default" : file.replacingOccurrences(of: ".json", with: ""))-\(time)"
                try PNG.write(welkin, to: base + "-welkin.png")
                try PNG.write(roundTrip, to: base + "-round-trip.png")
            }
            var maxDifference = 0
            for (a, b) in zip(welkin.pixels, roundTrip.pixels) { maxDifference = max(maxDifference, abs(Int(a) - Int(b))) }
            report.append("\(file.isEmpty ? "default" : file) t=\(time): \(modules) SPIR-V modules, spirv-val clean; \(replaced.texts.count) distinct stages drawn from their round trip, max difference \(maxDifference)/255")
            XCTAssertLessThanOrEqual(maxDifference, 1, "\(file): the round-trip GLSL draws differently")
        }
        print("MetalExportTests:\n  " + report.joined(separator: "\n  "))
    }

    /// The package draws into a drawable of the screen's size (MetalRuntime): each Metal fragment
    /// stage takes its pixel position through `u_drawScaleDelta` (ShaderPipeline.drawScaled). The
    /// SPIR-V of every layer's last draw (the one into the view), back in GLSL with the delta −½ (a
    /// drawable twice the scene's size on each axis), drawn by Welkin's GL path at the scene's size,
    /// shows the scene's bottom-left quarter at twice the resolution: each 2 × 2 block's mean is
    /// Welkin's pixel there, where the picture has no detail finer than a pixel. Without the
    /// scaling (the delta 0) the same comparison fails.
    func testAMetalStageDrawsAtTheDrawablesResolution() throws {
        let renderer = try TestGL.renderer()
        var report: [String] = []
        for (file, time) in [("", 10.0), ("shader-aurora.json", 1.5)] {
            var scene = try Self.scene(file)
            // The aurora alone: the gradient under it is SwiftUI's in the package, not a Metal draw.
            if !file.isEmpty { scene.layers.removeFirst() }
            let layers = try Self.layers(scene, at: time, renderer: renderer)
            let frame = Frame(scene: scene, time: time)
            func draw(delta: String?) throws -> Image {
                var substitutes: [String: String] = [:]
                for layer in layers {
                    for (i, pass) in layer.passes.enumerated() {
                        var glsl = try ShaderPipeline.glsl(fromSPIRV: pass.fragment.spirv)
                        if i == layer.passes.count - 1, let delta {
                            XCTAssertTrue(glsl.contains("uniform vec2 \(ShaderPipeline.drawScaleUniform);"), "\(file): \(pass.fragment.entryPoint)")
                            glsl = glsl.replacingOccurrences(of: "uniform vec2 \(ShaderPipeline.drawScaleUniform);",
                                                             with: "const vec2 \(ShaderPipeline.drawScaleUniform) = vec2(\(delta));")
                        }
                        substitutes[pass.fragmentGLSL] = glsl
                    }
                }
                ShaderProgram.sourceFilter = { source, _ in substitutes[source.text] ?? source.text }
                defer { ShaderProgram.sourceFilter = nil }
                let r = try GLRenderer(context: renderer.context, shaders: try ShaderLibrary.locate())
                r.fusesLastLayer = false
                r.exportVariants = true
                r.packageVariants = true
                return try r.render(frame)
            }
            let original = try renderer.render(frame)
            let unscaled = try draw(delta: nil)
            let doubled = try draw(delta: "-0.5")
            XCTAssertEqual(unscaled, try draw(delta: "0.0"), "\(file): the delta 0 draws the same picture")
            // The bottom-left quarter (GL's first rows are the picture's last).
            func compare(_ big: Image) -> (mean: Double, within: Double) {
                let w = big.width / 2, h = big.height / 2
                var sum = 0.0, close = 0, count = 0
                for b in 0..<h {
                    for a in 0..<w {
                        for c in 0..<3 {
                            var block = 0
                            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                                block += Int(big.pixels[((big.height - 1 - (2 * b + dy)) * big.width + 2 * a + dx) * 4 + c])
                            }
                            let d = abs(Double(block) / 4 - Double(unscaled.pixels[((unscaled.height - 1 - b) * unscaled.width + a) * 4 + c]))
                            sum += d
                            if d <= 3 { close += 1 }
                            count += 1
                        }
                    }
                }
                return (sum / Double(count), Double(close) / Double(count))
            }
            if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
                let base = "\(directory)/drawable-\(file.isEmpty ? "default" : file.replacingOccurrences(of: ".json", with: ""))"
                try PNG.write(unscaled, to: base + "-scene.png")
                try PNG.write(doubled, to: base + "-doubled.png")
            }
            let scaled = compare(doubled), wrong = compare(original)
            report.append(String(format: "%@ t=%.1f: 2 × 2 means against Welkin's pixels: mean difference %.2f/255, %.2f %% within 3/255 (without the scaling: %.2f/255, %.2f %%)",
                                 file.isEmpty ? "default" : file, time, scaled.mean, 100 * scaled.within, wrong.mean, 100 * wrong.within))
            XCTAssertLessThanOrEqual(scaled.mean, 1.0, "\(file)")
            XCTAssertGreaterThanOrEqual(scaled.within, 0.98, "\(file)")
            XCTAssertTrue(wrong.mean > 1.0 || wrong.within < 0.98, "\(file): the comparison cannot tell a picture that is not scaled")
        }
        print("MetalExportTests (drawable resolution):\n  " + report.joined(separator: "\n  "))
    }

    /// The Milky Way's band in a package: the export program draws it where Welkin's frame does
    /// (the same picture as Welkin's own program, within 1/255), and its track names the map as a
    /// texture the package makes, repeating in longitude and clamped at the poles, as GL samples it.
    func testAPackageDrawsTheMilkyWay() throws {
        let renderer = try TestGL.renderer()
        let scene = try Self.scene("milky-way.json")
        let frame = Frame(scene: scene, time: 0)
        let welkin = try renderer.render(frame)
        let exporting = try GLRenderer(context: renderer.context, shaders: try ShaderLibrary.locate())
        exporting.fusesLastLayer = false
        exporting.exportVariants = true
        exporting.packageVariants = true
        let exported = try exporting.render(frame)
        var worst = 0
        for (a, b) in zip(welkin.pixels, exported.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
        XCTAssertLessThanOrEqual(worst, 1, "the export program draws the band as Welkin does")
        // Without the band the picture differs (the comparison can tell).
        var dark = scene
        guard case .sky(var sky)? = dark.layers[0].content as? SkyContent else { return XCTFail("milky-way.json's layer 0 is a sky") }
        sky.physical.milkyWay = 0
        dark.layers[0].content = SkyContent.sky(sky)
        let bandless = try exporting.render(Frame(scene: dark, time: 0))
        var largest = 0
        for (a, b) in zip(welkin.pixels, bandless.pixels) { largest = max(largest, abs(Int(a) - Int(b))) }
        XCTAssertGreaterThan(largest, 8, "the band shows")

        let layers = try Self.layers(scene, at: 0, renderer: renderer)
        let layer = try XCTUnwrap(layers.first)
        let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: layer.manifest)
        let map = try XCTUnwrap(MilkyWayMap.shared)
        let draw = try XCTUnwrap(manifest.frames[0].last)
        var band: [(input: MetalTrack.TextureInput, content: MetalTrack.Content)] = []
        for input in draw.textures {
            guard let c = input.content else { continue }
            let content = manifest.contents[c]
            if content.width == map.width, content.height == map.height { band.append((input, content)) }
        }
        XCTAssertEqual(band.count, 1, "the map is one of the draw's textures")
        XCTAssertEqual(band.first?.input.repeats, true)
        XCTAssertEqual(band.first?.input.clampsRows, true)
        // A live sky's package makes the map from its own copy of milkyway.bin (no bytes in the track).
        XCTAssertEqual(band.first?.content.live, "u_milkyWay")
        XCTAssertEqual(band.first?.content.length, 0)
        XCTAssertEqual(band.first?.content.format, "rgba8Unorm")
        print("MetalExportTests (Milky Way): the export program within \(worst)/255 of Welkin's; the map \(map.width) × \(map.height) RGBA8 made by the package")
    }

    /// A user shader's `uniform bool` cannot become Metal through OpenGL SPIR-V (spirv-val forbids a
    /// bool among loose uniforms): the export says so and what to write instead; an int goes through.
    func testAUniformBoolIsRefusedWithWhatToWriteInstead() throws {
        func shader(_ type: String) -> String {
            "#version 410 core\nuniform \(type) u_flag;\nout vec4 color;\nvoid main() { color = vec4(\(type == "bool" ? "u_flag" : "u_flag != 0") ? 1.0 : 0.0); }\n"
        }
        XCTAssertThrowsError(try ShaderPipeline.compile(shader("bool"), stage: .fragment, entryPoint: "flagged")) { error in
            XCTAssertTrue("\(error)".hasPrefix("a `uniform bool` cannot go to Metal (SPIR-V allows no bool among loose uniforms): declare it `uniform int` and test it `!= 0`\n"), "\(error)")
        }
        let compiled = try ShaderPipeline.compile(shader("int"), stage: .fragment, entryPoint: "flagged")
        XCTAssertTrue(compiled.msl.contains("flagged("), compiled.msl)
    }
}

/// The stage texts the filter replaced (GL runs on this thread only).
private final class Counter: @unchecked Sendable { var texts: Set<String> = [] }
