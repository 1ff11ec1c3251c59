// Context creation and shader location.

import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
import WelkinReference

final class ContextTests: XCTestCase {
    func testHeadlessContextIsThreeThreeCore() throws {
        let renderer = try TestGL.renderer()
        XCTAssertFalse(renderer.context.renderer.isEmpty)
        XCTAssertGreaterThanOrEqual(renderer.context.versionNumber, 33)
        XCTAssertTrue(renderer.context.isCoreProfile, renderer.context.version)
    }

    /// Each backend either makes a context that renders, or says in a sentence why not.
    func testEveryBackendWorksOrExplains() throws {
        let scene = try SceneLoader.decode("""
            {"size": [16, 8], "layers": [{"type": "linearGradient", "start": [0, 0], "end": [1, 0], "stops": ["red", "blue"]}]}
            """, file: "tiny.json")
        let frame = Frame(scene: scene, time: 0)
        for backend in GLContext.headlessOrder {
            do {
                let context = try GLContext.headless(trying: [backend])
                XCTAssertEqual(context.backend, backend)
                let renderer = try GLRenderer(context: context, shaders: try ShaderLibrary.locate())
                // Linear gradients are interpolated by the rasteriser: a dithered value may round the other way.
                let difference = ImageDifference(try renderer.render(frame), try ReferenceRenderer().render(frame))
                XCTAssertLessThanOrEqual(difference.maxDifference, 1, "\(backend.rawValue): \(difference)")
                print("backend \(backend.rawValue): \(context.renderer), \(context.version)")
            } catch let error as GLContextError {
                XCTAssertTrue(error.description.hasPrefix("could not create an OpenGL 3.3 core context: \(backend.rawValue): "),
                              error.description)
                print("backend \(backend.rawValue): \(error)")
            }
        }
        try TestGL.makeCurrent()
    }

    func testNoBackendsIsAnError() {
        XCTAssertThrowsError(try GLContext.headless(trying: [])) { XCTAssertTrue($0 is GLContextError) }
    }

    func testShaderLibraryPrefersOverrideThenCheckout() throws {
        let checkout = try ShaderLibrary.locate()
        XCTAssertEqual(checkout.origin, .checkout)
        XCTAssertTrue(checkout.directory.hasSuffix("/Shaders"))
        let override = try ShaderLibrary.locate(override: checkout.directory)
        XCTAssertEqual(override.origin, .override)
        XCTAssertThrowsError(try ShaderLibrary.locate(override: "/nonexistent/shaders")) { error in
            XCTAssertEqual((error as! ShaderError).kind, .noShaderDirectory)
        }
    }

    /// The bundled copy is the checkout's files, byte for byte (one source of truth).
    func testBundledShadersMatchTheCheckout() throws {
        let checkout = try ShaderLibrary.locate()
        // The test executable sits inside the checkout, so locate() finds the checkout; look at the bundle directly.
        let executable = try XCTUnwrap(ShaderLibrary.executablePath())
        let bundle = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Welkin_WelkinGL.resources").path
        let names = try FileManager.default.contentsOfDirectory(atPath: checkout.directory).sorted()
        XCTAssertTrue(names.contains("gradient.frag"))
        for name in names {
            let a = FileManager.default.contents(atPath: checkout.path(name))
            let b = FileManager.default.contents(atPath: bundle + "/" + name)
            XCTAssertNotNil(b, "\(name) is not in the bundle \(bundle)")
            XCTAssertEqual(a, b, "\(name) differs between Shaders/ and the bundle")
        }
    }
}
