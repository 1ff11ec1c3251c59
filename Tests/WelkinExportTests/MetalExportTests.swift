// `welkin export-code --package`'s Metal layers: every SPIR-V passes spirv-val, and the SPIR-V turned
// back into GLSL, drawn by Welkin's GL path in place of the program it came from, draws the same
// picture within 1/255 (so the Metal made from that SPIR-V is the shader Welkin draws).

import Foundation
import XCTest
import WelkinCore
import WelkinGL
import WelkinImage
@testable import WelkinExport
import WelkinTestSupport

final class MetalExportTests: XCTestCase {
    /// The scenes of issue #25's Metal part ("" is the built-in default scene), each at one time.
    static let scenes: [(file: String, time: Double)] = [
        ("snowy-night.json", 2), ("text-clock.json", 20), ("shader-aurora.json", 1.5), ("", 10),
    ]

    static func scene(_ file: String) throws -> Scene {
        file.isEmpty ? Scene.defaultScene : try SceneLoader.load(path: Repository.scenes.appendingPathComponent(file).path)
    }

    /// The Metal layers of `scene` for the one sample at `time` (a track of one sample).
    static func layers(_ scene: Scene, at time: Double, renderer: GLRenderer) throws -> [MetalExport.Layer] {
        try MetalExport.layers(scene: scene, options: MetalExport.Options(duration: 0, rate: 1)) { _ in
            let frame = Frame(scene: scene, time: time)
            return (try renderer.capture(frame), frame)
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
