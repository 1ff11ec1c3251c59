// Every layer kind draws on the GPU through its pass file's conformance; GLRenderer builds one pass
// per kind from LayerKinds.all and names no kind. A Frame value without a pass is a clear error.

import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinReference
@testable import WelkinGL

final class KindPassTests: XCTestCase {
    func testEveryDrawTypeHasAPass() throws {
        for type in LayerKinds.drawTypes {
            XCTAssertTrue(type is any GLDrawable.Type, "\(type) has no GPU pass: conform it to GLDrawable in its pass file")
        }
        let passes = try LayerPasses.passTypes()
        XCTAssertEqual(passes.count, LayerKinds.drawTypes.count, "one pass per draw type")
        let renderer = try TestGL.renderer()
        for type in passes {
            XCTAssertFalse(renderer.passes.layers.all.filter { Swift.type(of: $0) == type }.isEmpty, "\(type) is built")
        }
    }

    /// Each kind's fixture draws something over the background, with no layer left out.
    func testEveryKindDrawsOnTheGPU() throws {
        let renderer = try TestGL.renderer()
        for kind in LayerKinds.all {
            guard var scene = try KindFixtures.scene(kind.type) else { XCTFail("\(kind.type): no fixture"); continue }
            let image = try renderer.render(Frame(scene: scene, time: 1.5))
            XCTAssertTrue(renderer.layerFailures.isEmpty, "\(kind.type): \(renderer.layerFailures)")
            scene.layers = []
            let background = try renderer.render(Frame(scene: scene, time: 1.5))
            XCTAssertTrue(image.pixels != background.pixels, "\(kind.type) drew nothing")
        }
    }

    struct Unregistered: LayerDraw, Equatable {}

    /// The other layers draw; a placeholder stands where the unknown one would be, and the error says why.
    func testADrawTypeWithoutAPassIsAClearError() throws {
        let renderer = try TestGL.renderer()
        let scene = try SceneLoader.decode(#"{"size": [8, 8], "layers": [{"type": "linearGradient", "stops": ["red"]}]}"#, file: "t.json")
        var frame = Frame(scene: scene, time: 0)
        frame.layers.insert(Unregistered(), at: 0)
        XCTAssertThrowsError(try renderer.draw(frame)) { XCTAssertTrue("\($0)".contains("Unregistered layers have no GPU pass"), "\($0)") }
        XCTAssertEqual(renderer.layerFailures.map(\.position), [0])
    }
}
