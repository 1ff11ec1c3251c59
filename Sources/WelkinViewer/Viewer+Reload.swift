// The viewer's hot reload and failures: what an edit reloads, and what a failure leaves on screen.
//
// The rules (docs/viewer.md, "Hot reload"): the last good picture stays, every layer that still works is
// still drawn, each failure is said once with its file name, the title's ⚠ mark clears only when
// everything is fixed, and `reloaded FILE in N ms` is printed only for a reload that took.
//
// - A scene file that does not load keeps the last good scene.
// - A scene file that loads becomes a candidate; its first frame decides. A frame in which the scene
//   and a shader disagree (ShaderLayerError: a uniform of the wrong type, `file: json.path: sentence`)
//   refuses it: the last good scene is drawn instead (in the same frame) and keeps animating.
// - A shader that does not compile keeps its last good program; one that never compiled is a
//   layer the renderer leaves out (a hatched placeholder), every other layer still drawn.
// - A sprite image that does not read keeps its last good copy; R forgets every image.

import CGLFW
import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

/// Hot reload's state: the scene waiting for its first frame, what is broken, and the reloads
/// whose save-to-screen time is said once they have drawn.
struct Reload {
    /// A scene that loaded (a reload or an edit) but has not drawn yet: its first frame decides
    /// whether it replaces the viewer's scene.
    var candidate: Candidate?
    /// What is broken now; the title shows a mark while any is.
    var failures = Failures()
    /// Reloads waiting for their first frame, to report save-to-screen time.
    var awaitingFrame: [(path: String, since: TimeInterval)] = []
    /// Time spent compiling in the latest reload, reported with it.
    var lastCompileSeconds: TimeInterval?
    /// The viewer opened on a scene file with errors: the first scene that draws sizes the window.
    var awaitingFirstScene = false

    /// `reloaded FILE in N ms (compiling M ms)` for each reload a frame drawn at `drawn` showed.
    mutating func drawnLines(at drawn: TimeInterval) -> [String] {
        defer { lastCompileSeconds = nil; awaitingFrame.removeAll() }
        return awaitingFrame.map { reload in
            var line = "reloaded \(reload.path) in \(Int(((drawn - reload.since) * 1000).rounded())) ms"
            if let compile = lastCompileSeconds { line += " (compiling \(Int((compile * 1000).rounded())) ms)" }
            return line
        }
    }
}

/// What may replace the drawn scene once it has drawn a frame.
struct Candidate {
    var scene: Scene
    var since: TimeInterval
    /// False for a reload nobody asked about (a sprite image changed size) and for edits.
    var announce: Bool
    /// An edit waiting for its scene to draw: its answer is printed then, or it is taken back.
    var edit: Edit?

    struct Edit {
        var command: String
        /// Printed when the edit's scene has drawn; nil for a panel drag (said on release).
        var answer: String?
    }
}

/// What is broken now, each with its message, by what it is: a file, `shaders`, a layer of the
/// frame, the frame. Each message is printed once, when it first appears.
struct Failures {
    private(set) var messages: [String: String] = [:]

    var isEmpty: Bool { messages.isEmpty }

    /// Records `message` for `key`, printing it unless it is already showing (for this or another key).
    mutating func set(_ key: String, _ message: String) {
        if !messages.values.contains(message) { printError(message) }
        messages[key] = message
    }

    mutating func clear(_ key: String) { messages[key] = nil }

    mutating func clear(where shouldClear: (String) -> Bool) {
        for key in messages.keys where shouldClear(key) { messages[key] = nil }
    }
}

extension Viewer {
    static let layerKeyPrefix = "layer "

    /// Reloads what the changed files feed (everything, and every sprite image forgotten, when
    /// `force`: the R key); on failure keeps the last good scene, programs or images.
    func applyChanges(_ changes: [FileWatcher.Change], force: Bool = false) {
        guard !changes.isEmpty || force else { return }
        let sceneFile = options.scenePath.map(FileWatcher.absolute)
        // Watcher paths (directory symlinks resolved) → the scene's own spelling of each image.
        var images: [String: String] = [:]
        for path in GLRenderer.imageFiles(for: scene) { images[GLRenderer.canonical(path)] = path }
        let imageChanges = changes.filter { images[$0.path] != nil }
        let shaderChanges = changes.filter { $0.path != sceneFile && images[$0.path] == nil }
        let sceneChanged = force || changes.contains { $0.path == sceneFile }
        var imageResized = false
        let since = changes.map(\.firstEvent).min() ?? ProcessInfo.processInfo.systemUptime

        if force {
            renderer.forgetImages()
            reload.failures.clear { images.values.contains($0) }
        }
        for change in imageChanges {
            let path = images[change.path]!
            do {
                try renderer.reloadImages([path])
                reload.failures.clear(path)
                reload.awaitingFrame.append((change.path, since))
                // The scene took the image's size from its header: a new size needs the scene again.
                imageResized = imageResized || imageSizeChanged(path)
            } catch {
                reload.failures.set(path, "\(error)")
            }
        }
        if sceneChanged || imageResized, let path = options.scenePath {
            do {
                // The file's text becomes the document; edits not saved stay one undo away.
                let bytes = try SceneLoader.readFile(path: path)
                // Opened on text that was not JSON: the file is the document from now on.
                if editor.path == nil { editor = try SceneEditor(path: path, bytes: bytes) }
                let loaded = try editor.decode(bytes)
                if try editor.adoptFileContent(bytes) {
                    printError("\(path) changed on disk while it had unsaved edits: showing the file; undo brings the edits back")
                }
                reload.candidate = Candidate(scene: playback.prepared(loaded), since: since, announce: sceneChanged && !force)
            } catch {
                reload.failures.set(path, "\(error)")
            }
        }
        if force || !shaderChanges.isEmpty {
            let names = shaderChanges.map(\.path)
            let compileStart = ProcessInfo.processInfo.systemUptime
            defer { reload.lastCompileSeconds = ProcessInfo.processInfo.systemUptime - compileStart }
            do {
                try renderer.reloadShaders(changedFiles: force ? nil : Set(names))
                reload.failures.clear("shaders")
                for name in names { reload.awaitingFrame.append((name, since)) }
                if force { reload.awaitingFrame.append((options.scenePath.map { "\($0) and every shader" } ?? "every shader", since)) }
            } catch {
                reload.failures.set("shaders", "\(error)")
            }
        }
        updateWatches()
        needsRedraw = true
    }

    /// Whether the scene's cells that draw `path` were decoded for another image size.
    func imageSizeChanged(_ path: String) -> Bool {
        guard let image = try? SpriteImages.load(path) else { return false }
        for layer in scene.layers {
            guard let e = layer.content as? EmitterLayer else { continue }
            for cell in e.cells where cell.imagePath == path && cell.imageSize != SIMD2(image.width, image.height) { return true }
        }
        return false
    }

    /// Every file whose edit should reload something: the scene, its shaders (includes too) and
    /// its sprite images.
    func watchedFiles() -> [String] {
        var files = renderer.files(for: scene)
        if let path = options.scenePath { files.append(path) }
        return files
    }

    func updateWatches() {
        do { try watcher.watch(watchedFiles()) } catch { printError("\(error)") }
    }

    /// Decides the candidate scene from its first frame: refused (false) when the scene and a
    /// shader disagree in a way the current scene does not, else it becomes the scene. An edit
    /// that is refused is taken back, and its command says why; one that is taken prints its answer.
    func settleCandidate(_ outcome: DrawOutcome) -> Bool {
        guard let candidate = reload.candidate else { return true }
        reload.candidate = nil
        let path = options.scenePath ?? "<default scene>"
        let sceneErrors = outcome.layerFailures.compactMap { $0.error as? ShaderLayerError }
            .map { $0.inFile(path).description }
            .filter { !reload.failures.messages.values.contains($0) || reload.failures.messages[path] == $0 }
        if let first = sceneErrors.first {
            if let edit = candidate.edit {
                switch edit.command {
                case "undo": _ = try? editor.redo()
                case "redo": _ = try? editor.undo()
                default: editor.revertLastEdit()
                }
                printError("\(edit.command): \(first)")
                refreshTitle()
            } else {
                reload.failures.set(path, first)
            }
            return false
        }
        scene = candidate.scene
        if reload.awaitingFirstScene {
            reload.awaitingFirstScene = false
            let scale = contentScale()
            let size = GLContext.fittingScreen(SIMD2(Int((Double(scene.size.x) * scale.x).rounded()), Int((Double(scene.size.y) * scale.y).rounded())))
            glfwSetWindowSize(window, Int32(size.x), Int32(size.y))
        }
        reload.failures.clear(path)
        if candidate.announce { reload.awaitingFrame.append((path, candidate.since)) }
        if let answer = candidate.edit?.answer { print(answer) }
        report(outcome)
        updateWatches()
        return true
    }

    /// R and `reload`: the scene file and every shader, now; every sprite image read again.
    func reloadEverything() {
        applyChanges([], force: true)
    }

    /// Records what a drawn frame left out (replacing the last frame's), or why none was drawn.
    func report(_ outcome: DrawOutcome) {
        if let error = outcome.frameError {
            reload.failures.set("frame", "\(error)")
            return
        }
        reload.failures.clear("frame")
        var layers: [String: String] = [:]
        for failure in outcome.layerFailures {
            var message = "\(failure.error)"
            if let e = failure.error as? ShaderLayerError { message = e.inFile(scene.sourcePath ?? options.scenePath).description }
            layers[Self.layerKeyPrefix + String(failure.position)] = message
        }
        // Fixed layers go; the rest are set again (printed only if their message is new).
        reload.failures.clear { $0.hasPrefix(Self.layerKeyPrefix) && layers[$0] == nil }
        for (key, message) in layers.sorted(by: { $0.key < $1.key }) { reload.failures.set(key, message) }
    }
}
