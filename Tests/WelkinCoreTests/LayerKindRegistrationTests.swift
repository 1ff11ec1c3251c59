// A layer kind is one unit registered in one list: `LayerKinds.all` is the only source file that
// names every kind, and each kind resolves to the Frame values it declares (docs/adding-a-layer-kind.md).

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class LayerKindRegistrationTests: XCTestCase {
    /// Each kind's fixture scene (KindFixtures), decoded.
    func fixtureScenes() throws -> [(LayerKind, Scene)] {
        try LayerKinds.all.map { kind in
            guard let scene = try KindFixtures.scene(kind.type) else {
                throw FixtureMissing("\(kind.type): no fixture in Tests/WelkinTestSupport/KindFixtures.swift")
            }
            return (kind, scene)
        }
    }

    struct FixtureMissing: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    func testEveryKindResolvesToTheDrawsItDeclares() throws {
        for (kind, scene) in try fixtureScenes() {
            XCTAssertEqual(scene.layers[0].content.typeName, kind.type)
            let frame = Frame(scene: scene, time: 1.5)
            XCTAssertFalse(frame.layers.isEmpty, kind.type)
            for layer in frame.layers {
                XCTAssertTrue(kind.draws.contains { $0 == type(of: layer) }, "\(kind.type) resolved to \(type(of: layer)), not one of \(kind.draws)")
            }
            XCTAssertTrue(Frame.sameLayers(frame.layers, Frame(scene: scene, time: 1.5).layers), "\(kind.type): the same frame twice")
        }
    }

    /// The kinds, each as the names of its types: its model (what `Layer.content` holds) and the
    /// Frame values it resolves to (`LayerKind.draws`). Gradient kinds share a model and are one family.
    func kindFamilies() throws -> [String: Set<String>] {
        var families: [String: Set<String>] = [:]
        for (kind, scene) in try fixtureScenes() {
            let model = String(describing: type(of: scene.layers[0].content))
            families[model, default: [model]].formUnion(kind.draws.map { String(describing: $0) })
        }
        return families
    }

    /// No source file but the registration list names three or more kinds: the model, Frame
    /// resolution, CPU raster, GPU pass and code export of a kind live in its own files, and shared
    /// code dispatches on protocols (LayerContent, CPURasterizable, GLDrawable, CodeExportable).
    func testOnlyTheRegistrationListNamesEveryKind() throws {
        let families = try kindFamilies()
        XCTAssertGreaterThanOrEqual(families.count, 7, "\(families)")
        let sources = Repository.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50)
        XCTAssertTrue(files.contains("WelkinCore/Scene/LayerKinds.swift"))
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let named = families.filter { _, names in names.contains { Self.containsWord($0, in: text) } }.keys.sorted()
            if file == "WelkinCore/Scene/LayerKinds.swift" { continue }   // the registration list
            XCTAssertLessThan(named.count, 3, "\(file) names the kinds \(named): dispatch on a protocol, in each kind's own file, instead")
        }
    }

    static func containsWord(_ word: String, in text: String) -> Bool {
        var search = text.startIndex..<text.endIndex
        while let r = text.range(of: word, range: search) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            func isIdentifier(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isIdentifier(before) && !isIdentifier(after) { return true }
            search = r.upperBound..<text.endIndex
        }
        return false
    }

    func testTheWordCheckMatchesWholeIdentifiersOnly() {
        XCTAssertTrue(Self.containsWord("Gradient", in: "let g: Gradient = x"))
        XCTAssertTrue(Self.containsWord("Gradient", in: "(Gradient)"))
        XCTAssertFalse(Self.containsWord("Gradient", in: "MeshGradient GradientDraw Gradient_ gradient"))
    }
}
