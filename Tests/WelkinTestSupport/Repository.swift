// Helpers every test target shares: where the checkout is, scene errors as users see them, and
// temporary folders that clean up after themselves.

import Foundation
import XCTest
import WelkinCore

/// Paths inside the checkout the tests run from.
public enum Repository {
    /// The checkout's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Scenes/`, the example scenes.
    public static let scenes = root.appendingPathComponent("Scenes")
    /// `Tests/Fixtures/`.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures")

    /// The path of `relative` inside the checkout.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Every example scene file name in `Scenes/`, sorted.
    public static func sceneFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scenes.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// The error decoding `json` gives, as the command line prints it ("no error" when it decodes).
public func sceneError(_ json: String, file: String = "Scenes/x.json", directory: String? = nil) -> String {
    do {
        _ = try SceneLoader.decode(json, file: file, directory: directory)
        return "no error"
    } catch let e as SceneError {
        return e.description
    } catch {
        return "unexpected \(error)"
    }
}

extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    public func makeTemporaryDirectory(_ prefix: String = "welkin-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
