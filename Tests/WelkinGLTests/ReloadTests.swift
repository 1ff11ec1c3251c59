// Shader reload keeps the last good programs when the new sources do not compile.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference
import WelkinImage

final class ReloadTests: XCTestCase {
    func testFailedReloadKeepsTheLastGoodPrograms() throws {
        let context = try GLContext.headless()
        let good = try ShaderLibrary.locate()
        let renderer = try GLRenderer(context: context, shaders: good)
        let scene = try SceneLoader.decode("""
            {"size": [40, 20], "layers": [{"type": "radialGradient", "stops": ["#FFCC00", "#007AFF"]}]}
            """, file: "reload.json")
        let frame = Frame(scene: scene, time: 0)
        let before = try renderer.render(frame)

        // A copy of the shaders with an error in an included file.
        let copy = NSTemporaryDirectory() + "welkin-reload-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: good.directory, toPath: copy)
        let broken = copy + "/gradient.glsl"
        var text = try String(contentsOfFile: broken, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let target = try XCTUnwrap(lines.firstIndex { $0.contains("return d.x + d.y;") })
        text = lines.enumerated().map { $0.offset == target ? "        return d.x + d.y + oops;" : String($0.element) }.joined(separator: "\n")
        try text.write(toFile: broken, atomically: true, encoding: .utf8)

        XCTAssertThrowsError(try renderer.reloadShaders(from: ShaderLibrary(directory: copy))) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .compileFailed)
            XCTAssertEqual(e.diagnostics.first?.file, broken, e.description)
            XCTAssertEqual(e.diagnostics.first?.line, target + 1, e.description)
        }
        XCTAssertEqual(renderer.shaders.directory, good.directory, "the library is unchanged after a failed reload")
        XCTAssertEqual(try renderer.render(frame), before, "the last good programs still draw")
        XCTAssertTrue(renderer.shaderFiles.contains(good.path("gradient.glsl")))
        XCTAssertTrue(renderer.shaderFiles.contains(good.path("colorspace.glsl")), "included files are listed too")

        try renderer.reloadShaders()
        XCTAssertEqual(try renderer.render(frame), before)
    }

    func testReloadRebuildsOnlyWhatTheChangedFilesFeed() throws {
        // A private copy of the shaders, so the test can break one.
        let copy = NSTemporaryDirectory() + "welkin-partial-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: try ShaderLibrary.locate().directory, toPath: copy)
        let library = ShaderLibrary(directory: copy)
        let renderer = try GLRenderer(context: try GLContext.headless(), shaders: library)
        let frame = Frame(scene: try SceneLoader.decode("""
            {"size": [40, 20], "layers": [{"type": "radialGradient", "stops": ["#FFCC00", "#007AFF"]}]}
            """, file: "partial.json"), time: 0)
        let before = try renderer.render(frame)
        let gradient = copy + "/gradient.glsl"
        try (try String(contentsOfFile: gradient, encoding: .utf8) + "\nfloat broken(\n").write(toFile: gradient, atomically: true, encoding: .utf8)
        // A save of bare.frag does not touch the gradient programs: no error, the picture is the same.
        try renderer.reloadShaders(changedFiles: [copy + "/bare.frag"])
        XCTAssertEqual(try renderer.render(frame), before)
        // A save of gradient.glsl rebuilds them: the error names gradient.glsl, the last good programs stay.
        XCTAssertThrowsError(try renderer.reloadShaders(changedFiles: [gradient])) { error in
            XCTAssertTrue("\(error)".contains("gradient.glsl:") || "\(error)".contains(".glsl:"), "\(error)")
        }
        XCTAssertEqual(try renderer.render(frame), before)
    }

    func testDefinesGoRightAfterVersion() throws {
        let source = try ShaderSource(text: "// banner\n#version 330 core\nfloat x;\n", path: "d.frag",
                                      defines: [("WELKIN_RESOLVE", "1")])
        // The constants prelude first, then the program's own defines, then the file from line 3.
        XCTAssertEqual(source.text, "// banner\n#version 330 core\n" + ShaderConstants.prelude + "#define WELKIN_RESOLVE 1\n#line 3 0\nfloat x;\n")
    }

    func testEditedSpriteImagesReloadKeepTheLastGoodOneAndRForgetsThem() throws {
        let renderer = try TestGL.renderer()
        let directory = NSTemporaryDirectory() + "welkin-sprites-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sprite = directory + "/sprite.png"
        func paint(_ color: SIMD4<UInt8>) throws { try PNG.write(Image(width: 4, height: 4, fill: color), to: sprite) }
        try paint(SIMD4(255, 0, 0, 255))
        // Particles that sit still at the centre, each bigger than the frame.
        let scene = try SceneLoader.decode("""
            {"size": [20, 12], "dither": false, "layers": [{"type": "emitter", "position": [0.5, 0.5], "prewarm": 1,
              "cells": [{"image": "sprite.png", "spriteSize": 100, "birthRate": 5, "lifetime": 100, "velocity": 0}]}]}
            """, file: directory + "/scene.json", directory: directory)
        let frame = Frame(scene: scene, time: 1)
        func centre() throws -> SIMD4<UInt8> { try renderer.render(frame)[10, 6] }
        XCTAssertEqual(try centre(), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(GLRenderer.imageFiles(for: scene), [sprite])

        try paint(SIMD4(0, 0, 255, 255))
        XCTAssertEqual(try centre(), SIMD4(255, 0, 0, 255), "read once and kept until told")
        try renderer.reloadImages([sprite])
        XCTAssertEqual(try centre(), SIMD4(0, 0, 255, 255), "the edited image")

        try "not a PNG".write(toFile: sprite, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try renderer.reloadImages([sprite])) { error in
            XCTAssertEqual("\(error)", "\(sprite): not a readable PNG: Not a PNG file")
        }
        XCTAssertEqual(try centre(), SIMD4(0, 0, 255, 255), "a broken edit keeps the last good image")

        // R: every image is forgotten and read again.
        try paint(SIMD4(0, 255, 0, 255))
        renderer.forgetImages()
        XCTAssertEqual(try centre(), SIMD4(0, 255, 0, 255))
    }
}
