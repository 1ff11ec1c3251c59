// Images the exported code loads by name: listed once each (groups included), written into a
// package's Resources/Images and loaded there from Bundle.module, the package's view type-checking
// against the stubs for iOS and macOS.

import Foundation
import XCTest
@testable import WelkinExport
import WelkinCore

final class AssetExportTests: XCTestCase {
    static let features = SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/export-features.json")

    func testTheImagesAreTheEmittersImageSprites() throws {
        let scene = try SceneLoader.load(path: Self.features.path)
        let output = CodeExport.generate(scene, target: .coreAnimation)
        XCTAssertEqual(output.assets.map(\.name), ["shader-aurora-t0.png"])
        XCTAssertEqual(URL(fileURLWithPath: output.assets[0].source).standardizedFileURL,
                       SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/references/shader-aurora-t0.png").standardizedFileURL)
        XCTAssertTrue(output.source.contains("// Images, written beside this file by welkin export-code -o: shader-aurora-t0.png."))
        // A scene without image sprites has none (a shader's channels are drawn from its track).
        for name in ["snowy-night.json", "shader-aurora.json", "fire.json"] {
            let other = try SceneLoader.load(path: SwiftCompiler.repository.appendingPathComponent("Scenes/" + name).path)
            XCTAssertEqual(CodeExport.generate(other).assets, [], name)
        }
    }

    func testAPackageCarriesItsImagesAndLoadsThemFromItsBundle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = try SceneLoader.load(path: Self.features.path)
        let (files, output) = try PackageExport.files(scene, metal: [], sceneFile: "Tests/Fixtures/export-features.json")
        let module = "ExportFeatures"
        let image = try XCTUnwrap(files.first { $0.path == "Sources/\(module)/Resources/Images/shader-aurora-t0.png" })
        XCTAssertEqual(image.data, try Data(contentsOf: URL(fileURLWithPath: output.assets[0].source)))
        let manifest = String(decoding: try XCTUnwrap(files.first { $0.path == "Package.swift" }).data, as: UTF8.self)
        XCTAssertTrue(manifest.contains(".process(\"Resources/Images\")"), manifest)
        let view = String(decoding: try XCTUnwrap(files.first { $0.path == "Sources/\(module)/\(output.typeName).swift" }).data, as: UTF8.self)
        // The fixture's image emitter has cells Core Animation cannot say: a Canvas draws it, with
        // its images from the package's bundle.
        XCTAssertTrue(view.contains(".image(\"shader-aurora-t0\""), view)
        XCTAssertTrue(view.contains("private let welkinImageBundle: Bundle? = .module"))
        XCTAssertFalse(view.contains("welkinImageBundle: Bundle? = nil"))
        XCTAssertFalse(view.contains("UIImage(named: \"shader-aurora-t0\")"))
        XCTAssertTrue(view.contains("// Images, in the package's Resources/Images (loaded from Bundle.module): shader-aurora-t0.png."))

        try PackageExport.write(files, to: directory.appendingPathComponent(module).path)
        let swift = directory.appendingPathComponent("\(module)/Sources/\(module)/\(output.typeName).swift")
        let accessor = directory.appendingPathComponent("BundleModule.swift")
        try MetalPackageTests.bundleModule.write(to: accessor, atomically: true, encoding: .utf8)
        let stubs = try SwiftCompiler.stubs()
        let runs = try SwiftCompiler.run([SwiftCompiler.typecheck([swift, accessor], platform: stubs.ios, stubs: stubs),
                                          SwiftCompiler.typecheck([swift, accessor], platform: stubs.mac, stubs: stubs)], in: directory)
        for (run, platform) in zip(runs, ["iOS", "macOS"]) {
            XCTAssertEqual(run.status, 0, "\(platform):\n" + run.output)
        }
    }
}
