// Every layer kind draws on the CPU reference through its raster file's conformance, and a Frame
// value without one is a clear error, not a crash.

import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinReference

final class KindRasterTests: XCTestCase {
    func testEveryDrawTypeHasARaster() {
        for type in LayerKinds.drawTypes {
            XCTAssertTrue(type is any CPURasterizable.Type, "\(type) has no CPU raster: conform it to CPURasterizable in its raster file")
        }
    }

    /// Each kind's fixture draws something over the background (a user shader is refused, with
    /// a sentence saying what to do instead).
    func testEveryKindDrawsOnTheCPU() throws {
        for kind in LayerKinds.all {
            guard var scene = try KindFixtures.scene(kind.type) else { XCTFail("\(kind.type): no fixture"); continue }
            let frame = Frame(scene: scene, time: 1.5)
            if kind.type == "shader" {
                XCTAssertThrowsError(try ReferenceRenderer(threads: 1).render(frame)) { error in
                    XCTAssertTrue(error is ReferenceUnsupportedError && "\(error)".contains("cannot run arbitrary GLSL"), "\(error)")
                }
                continue
            }
            let image = try ReferenceRenderer(threads: 1).render(frame)
            scene.layers = []
            let background = try ReferenceRenderer(threads: 1).render(Frame(scene: scene, time: 1.5))
            XCTAssertTrue(image.pixels != background.pixels, "\(kind.type) drew nothing")
        }
    }

    struct Unregistered: LayerDraw, Equatable {}

    func testADrawTypeWithoutARasterIsAClearError() {
        var frame = Frame(scene: Scene(), time: 0, pixelSize: SIMD2(4, 4))
        frame.layers = [Unregistered()]
        XCTAssertThrowsError(try ReferenceRenderer.checkSupported(frame)) { XCTAssertTrue("\($0)".contains("no raster for Unregistered"), "\($0)") }
        XCTAssertThrowsError(try ReferenceRenderer(threads: 1).render(frame)) { XCTAssertTrue($0 is ReferenceUnsupportedError, "\($0)") }
    }
}
