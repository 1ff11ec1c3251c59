// The scene being edited in the viewer: its document text, undo and redo, saving and recovery.
//
// Every edit — a console `set`, a panel widget, an undo — produces a new document text that is
// decoded through the normal loader before it is accepted; a text that does not decode is refused
// and nothing changes. Undo and redo move between whole texts, so they restore the exact bytes.
// Saving writes the text atomically (a temporary file renamed over the original); saving as another
// file (the built-in scene too) writes it there and makes it the scene file.

import Foundation
import WelkinCore

final class SceneEditor {
    /// The scene file; nil for the built-in default scene until `save(as:)` gives it one.
    private(set) var path: String?
    /// The text being edited and shown.
    private(set) var document: SceneDocument
    /// The text last read from or written to the file: the document differs from it after edits.
    private(set) var savedBytes: [UInt8]

    struct Step {
        var bytes: [UInt8]
        /// What the step did, as undo and redo say it ("set layers[0].opacity = 0.5").
        var label: String
    }
    private(set) var undoSteps: [Step] = []
    private(set) var redoSteps: [Step] = []
    /// The label of the edit the document is at (for redo's answer and a panel drag's).
    private(set) var currentLabel = ""
    /// A panel widget being dragged: its edits merge into one undo step while the key is the same.
    private var mergeKey: String?

    /// The most undo steps kept (each a whole text: a 20 KB scene × 200 is 4 MB).
    static let maximumUndoSteps = 200

    init(path: String?, bytes: [UInt8]) throws {
        self.path = path
        document = try SceneDocument(bytes: bytes)
        savedBytes = bytes
    }

    /// Whether the document has edits the file does not.
    var isDirty: Bool { document.bytes != savedBytes }

    /// The file name messages use.
    var displayName: String { path ?? "the built-in scene" }

    /// Decodes `bytes` as the scene (relative paths against the file's folder).
    func decode(_ bytes: [UInt8]) throws -> Scene {
        if let path { return try SceneLoader.decode(bytes, path: path) }
        return try SceneLoader.decode(bytes, file: "<default scene>")
    }

    // MARK: - Editing

    /// What an accepted edit gives the viewer.
    struct Outcome {
        var scene: Scene
        /// The one line the console prints.
        var answer: String
    }

    /// Sets the value at `path` to the JSON `valueText` (adding the key when only it is missing).
    /// Throws with the reason (an edit error or the loader's message) and changes nothing.
    /// `merging`: a key that folds consecutive edits with the same key into one undo step.
    func set(_ path: JSONPath, to valueText: String, merging: String? = nil) throws -> Outcome {
        let bytes = try document.replacing(path, with: valueText)
        let scene = try decode(bytes)
        let newDocument = try SceneDocument(bytes: bytes)
        let shown = (try? newDocument.value(at: path)).flatMap { $0 }.map { Self.oneLine(newDocument, $0) } ?? valueText
        let label = "set \(path) = \(shown)"
        if merging == nil || merging != mergeKey || undoSteps.isEmpty {
            push(Step(bytes: document.bytes, label: currentLabel))
        }
        mergeKey = merging
        redoSteps.removeAll()
        document = newDocument
        currentLabel = label
        return Outcome(scene: scene, answer: label)
    }

    /// Ends a merging run of edits (the panel's drag was released).
    func endMerge() { mergeKey = nil }

    /// Takes back the latest edit without keeping it for redo (its scene was refused when drawn).
    func revertLastEdit() {
        guard let previous = undoSteps.popLast(), let restored = try? SceneDocument(bytes: previous.bytes) else { return }
        document = restored
        currentLabel = previous.label
        mergeKey = nil
    }

    func undo() throws -> Outcome {
        guard let step = undoSteps.last else { throw SceneDocument.EditError("nothing to undo") }
        let scene = try decode(step.bytes)
        undoSteps.removeLast()
        redoSteps.append(Step(bytes: document.bytes, label: currentLabel))
        let answer = "undid \(currentLabel)"
        document = try SceneDocument(bytes: step.bytes)
        currentLabel = step.label
        mergeKey = nil
        return Outcome(scene: scene, answer: answer)
    }

    func redo() throws -> Outcome {
        guard let step = redoSteps.last else { throw SceneDocument.EditError("nothing to redo") }
        let scene = try decode(step.bytes)
        redoSteps.removeLast()
        undoSteps.append(Step(bytes: document.bytes, label: currentLabel))
        document = try SceneDocument(bytes: step.bytes)
        currentLabel = step.label
        mergeKey = nil
        return Outcome(scene: scene, answer: "redid \(step.label)")
    }

    private func push(_ step: Step) {
        undoSteps.append(step)
        if undoSteps.count > Self.maximumUndoSteps { undoSteps.removeFirst(undoSteps.count - Self.maximumUndoSteps) }
    }

    /// The file changed on disk (or was reloaded): `bytes` becomes the document. Unsaved edits stay
    /// one undo step away; returns true when there were some.
    @discardableResult
    func adoptFileContent(_ bytes: [UInt8]) throws -> Bool {
        let newDocument = try SceneDocument(bytes: bytes)
        let hadEdits = isDirty && bytes != document.bytes
        if hadEdits {
            push(Step(bytes: document.bytes, label: "unsaved edits (\(currentLabel))"))
            redoSteps.removeAll()
        } else if bytes != document.bytes {
            // An external edit is a step too: undo goes back to what was shown before it.
            push(Step(bytes: document.bytes, label: currentLabel))
            redoSteps.removeAll()
        }
        document = newDocument
        savedBytes = bytes
        currentLabel = "the file as saved on disk"
        mergeKey = nil
        return hadEdits
    }

    // MARK: - Files

    /// Writes the document to the scene file atomically; returns the path written.
    func save() throws -> String {
        guard let path else {
            throw SceneDocument.EditError("the built-in scene has no file yet: save PATH writes it to one")
        }
        try Self.writeAtomically(document.bytes, to: path)
        savedBytes = document.bytes
        return path
    }

    /// Writes the document to `target` atomically and makes it the scene file (Save as…); returns the
    /// path written. Refused, with nothing written, when `target` is a folder, when a file with other
    /// contents is there (never overwritten: the scene file itself is saved as by `save()`), or when
    /// the scene would not load from there (a relative shader or image path missing beside it).
    func save(as target: String) throws -> String {
        if let path, FileWatcher.absolute(path) == FileWatcher.absolute(target) { return try save() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw SceneDocument.EditError("\(target) is a folder; give a file name, like \(target)/scene.json") }
            guard (try? Data(contentsOf: URL(fileURLWithPath: target))) == Data(document.bytes) else {
                throw SceneDocument.EditError("\(target) already exists with other contents: not overwritten (give another name, or remove it first)")
            }
        }
        do {
            _ = try SceneLoader.decode(document.bytes, path: target)
        } catch let error as SceneError {
            throw SceneDocument.EditError("not saved to \(target): the scene would not load from there: \(error)")
        }
        try Self.writeAtomically(document.bytes, to: target)
        path = target
        savedBytes = document.bytes
        return target
    }

    /// Where quitting with unsaved edits keeps them: next to the scene file, or in the state folder
    /// for the built-in scene.
    var recoveryPath: String {
        if let path { return path + ".welkin-recovery" }
        return ViewerPaths.stateDirectory + "/default-scene.json.welkin-recovery"
    }

    /// Writes the unsaved document to `recoveryPath`; returns it.
    func writeRecovery() throws -> String {
        let target = recoveryPath
        let directory = (target as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try Self.writeAtomically(document.bytes, to: target)
        return target
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader (an
    /// editor, the file watcher) sees the old file or the new one, never half of one. Keeps the
    /// file's permissions.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).welkin-save-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw SceneDocument.EditError("\(path): cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber {
            chmod(temporary, mode_t(mode.intValue))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SceneDocument.EditError("\(path): cannot replace the file: \(reason)")
        }
    }

    /// A value as the answer line shows it: its own spelling on one line.
    static func oneLine(_ document: SceneDocument, _ value: JSONValue) -> String { document.oneLineText(of: value) }
}

/// Where the viewer keeps its files: never in the working folder.
enum ViewerPaths {
    /// `$XDG_CONFIG_HOME/welkin` (default `~/.config/welkin`): the panel's layout.
    static var configDirectory: String {
        folder("XDG_CONFIG_HOME", fallback: ".config")
    }

    /// `$XDG_STATE_HOME/welkin` (default `~/.local/state/welkin`): recovery copies of the built-in scene.
    static var stateDirectory: String {
        folder("XDG_STATE_HOME", fallback: ".local/state")
    }

    private static func folder(_ variable: String, fallback: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment[variable], base.hasPrefix("/") { return base + "/welkin" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/" + fallback + "/welkin"
    }
}
