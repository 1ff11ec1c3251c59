import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
@testable import WelkinViewer

/// The viewer's document: edits through the loader, undo and redo to the exact bytes, saving.
final class SceneEditorTests: XCTestCase {
    let original = """
    {
      "name": "editor",
      "size": [320, 180],
      "layers": [
        {"type": "linearGradient", "stops": [[0.10, 0.3, 0.8], "#6699FF"]}
      ]
    }

    """

    func makeEditor() throws -> (SceneEditor, String) {
        let directory = try makeTemporaryDirectory("welkin-editor")
        let path = directory.appendingPathComponent("sky.json").path
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        return (try SceneEditor(path: path, bytes: Array(original.utf8)), path)
    }

    func path(_ s: String) throws -> JSONPath { try JSONPath(parsing: s) }

    func testEditsUndoAndRedoRestoreTheExactBytes() throws {
        let (editor, _) = try makeEditor()
        XCTAssertFalse(editor.isDirty)
        let first = try editor.set(path("layers[0].opacity"), to: "0.5")
        XCTAssertEqual(first.answer, "set layers[0].opacity = 0.5")
        XCTAssertEqual(first.scene.layers[0].opacity, 0.5)
        let afterFirst = editor.document.bytes
        _ = try editor.set(path("background"), to: "\"#102030\"")
        XCTAssertTrue(editor.isDirty)
        XCTAssertEqual(try editor.undo().answer, "undid set background = \"#102030\"")
        XCTAssertEqual(editor.document.bytes, afterFirst)
        XCTAssertEqual(try editor.undo().answer, "undid set layers[0].opacity = 0.5")
        XCTAssertEqual(editor.document.text, original)
        XCTAssertFalse(editor.isDirty)
        XCTAssertThrowsError(try editor.undo()) { XCTAssertEqual("\($0)", "nothing to undo") }
        XCTAssertEqual(try editor.redo().answer, "redid set layers[0].opacity = 0.5")
        XCTAssertEqual(editor.document.bytes, afterFirst)
        // A new edit forgets what could be redone.
        _ = try editor.set(path("dither"), to: "false")
        XCTAssertThrowsError(try editor.redo()) { XCTAssertEqual("\($0)", "nothing to redo") }
    }

    func testARefusedEditChangesNothing() throws {
        let (editor, path) = try makeEditor()
        XCTAssertThrowsError(try editor.set(self.path("layers[0].opacity"), to: "2")) {
            XCTAssertEqual("\($0)", "\(path): layers[0].opacity: expected a number in 0…1, got 2")
        }
        XCTAssertThrowsError(try editor.set(self.path("layers[0].opacityy"), to: "1")) {
            XCTAssertEqual("\($0)", "\(path): layers[0].opacityy: unknown key 'opacityy'; did you mean 'opacity'?")
        }
        XCTAssertEqual(editor.document.text, original)
        XCTAssertThrowsError(try editor.undo())
    }

    func testMergedEditsAreOneUndoStep() throws {
        let (editor, _) = try makeEditor()
        for value in ["0.9", "0.8", "0.7"] { _ = try editor.set(path("layers[0].opacity"), to: value, merging: "opacity") }
        editor.endMerge()
        _ = try editor.set(path("layers[0].opacity"), to: "0.6", merging: "opacity")
        _ = try editor.undo()
        XCTAssertTrue(editor.document.text.contains("\"opacity\": 0.7"))
        _ = try editor.undo()
        XCTAssertEqual(editor.document.text, original)
    }

    func testSavingWritesTheDocumentAndAnExternalEditKeepsUnsavedOnesAsAnUndoStep() throws {
        let (editor, path) = try makeEditor()
        _ = try editor.set(self.path("layers[0].opacity"), to: "0.5")
        XCTAssertEqual(try editor.save(), path)
        XCTAssertFalse(editor.isDirty)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), editor.document.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent), ["sky.json"],
                       "no temporary file is left")
        // Unsaved edits, then the file changes on disk: the file wins, the edits are one undo away.
        _ = try editor.set(self.path("dither"), to: "false")
        let edited = editor.document.bytes
        let external = Array(original.replacingOccurrences(of: "\"editor\"", with: "\"outside\"").utf8)
        XCTAssertTrue(try editor.adoptFileContent(external))
        XCTAssertEqual(editor.document.bytes, external)
        XCTAssertFalse(editor.isDirty)
        _ = try editor.undo()
        XCTAssertEqual(editor.document.bytes, edited)
        XCTAssertEqual(try editor.writeRecovery(), path + ".welkin-recovery")
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path + ".welkin-recovery"))), edited)
    }

    /// Save as…: the built-in scene gets a file; another file is never overwritten (the same bytes
    /// are); a scene whose relative files are missing beside the new name is refused; nothing is
    /// written by a refusal.
    func testSavingAsAnotherFile() throws {
        let directory = try makeTemporaryDirectory("welkin-save-as")
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let builtIn = try SceneEditor(path: nil, bytes: Array(Scene.defaultSceneJSON.utf8))
        XCTAssertThrowsError(try builtIn.save())
        XCTAssertEqual(try builtIn.save(as: file("default.json")), file("default.json"))
        XCTAssertEqual(builtIn.path, file("default.json"))
        XCTAssertFalse(builtIn.isDirty)
        XCTAssertEqual(try String(contentsOfFile: file("default.json"), encoding: .utf8), Scene.defaultSceneJSON)
        XCTAssertEqual(try SceneLoader.load(path: file("default.json")).layers.count, Scene.defaultScene.layers.count)

        try "taken".write(toFile: file("taken.json"), atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try builtIn.save(as: file("taken.json"))) {
            XCTAssertEqual(($0 as? SceneDocument.EditError)?.message,
                           "\(file("taken.json")) already exists with other contents: not overwritten (give another name, or remove it first)")
        }
        XCTAssertEqual(try String(contentsOfFile: file("taken.json"), encoding: .utf8), "taken")
        XCTAssertThrowsError(try builtIn.save(as: directory.path))
        // A copy with the same bytes is no loss: saved over, and it becomes the scene file.
        try Scene.defaultSceneJSON.write(toFile: file("same.json"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try builtIn.save(as: file("same.json")), file("same.json"))

        // A user shader next to the scene: saving it into another folder without the shader is refused.
        let shaderScene = Array(#"{"size": [64, 64], "layers": [{"type": "shader", "fragment": "glow.frag"}]}"#.utf8)
        try "void main() {}\n".write(toFile: file("glow.frag"), atomically: false, encoding: .utf8)
        let editor = try SceneEditor(path: file("shader.json"), bytes: shaderScene)
        try FileManager.default.createDirectory(atPath: file("elsewhere"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try editor.save(as: file("elsewhere/shader.json"))) {
            XCTAssertTrue(($0 as? SceneDocument.EditError)?.message.hasPrefix("not saved to \(file("elsewhere/shader.json")): the scene would not load from there: ") ?? false, "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file("elsewhere")), [])
        XCTAssertEqual(try editor.save(as: file("beside.json")), file("beside.json"))
    }
}
