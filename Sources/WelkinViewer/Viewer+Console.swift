// The console's edits and answers (its table of commands is ConsoleCommands.swift).
//
// Edits (`set`, `undo`, `redo`, the panel's widgets, looking around) replace the document text and
// decode it through the loader (SceneEditor); the new scene draws before the answer is printed and
// before the next command runs, so a `screenshot` after a `set` shows the edit.

import Foundation
import WelkinCore
import WelkinGL

extension Viewer {
    /// `set PATH VALUE`: VALUE is JSON; a bare word is a string without its quotes, and says so.
    func set(_ argument: String) throws {
        let pathText = String(argument.prefix { !$0.isWhitespace })
        let value = argument.dropFirst(pathText.count).trimmingCharacters(in: .whitespaces)
        guard !pathText.isEmpty, !value.isEmpty else { throw CommandError("expected PATH VALUE, like: set layers[0].opacity 0.5") }
        let path = try JSONPath(parsing: pathText)
        if (try? JSONParser.parse(value)) == nil, Self.isBareWord(value) {
            throw CommandError("'\(value)' is not JSON; strings need quotes: set \(pathText) \"\(value)\"")
        }
        try edit(command: "set") { try $0.set(path, to: value) }
    }

    /// Whether `text` reads as a string someone forgot to quote: letters first, no JSON punctuation.
    static func isBareWord(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter else { return false }
        return !text.contains { "\"[]{}:,".contains($0) }
    }

    /// `resources: resident 81234 KiB, 1 inotify watches, GL: 12 textures, …`: what a long session
    /// must not let grow (the reload stress test samples it).
    var resourcesLine: String {
        var resident = 0
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = text.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { resident = pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 }
        }
        return "resources: resident \(resident) KiB, \(watcher.watchCount) inotify watches, GL: \(GLObjectCount.live())"
    }

    /// `PATH = VALUE` as the file spells it, or `PATH = DEFAULT (default)` for a key not in the file.
    func get(_ pathText: String) throws -> String {
        guard !pathText.isEmpty else { throw CommandError("expected a path, like: get layers[0].opacity") }
        let path = try JSONPath(parsing: pathText)
        let document = editor.document
        if let value = try document.value(at: path) {
            let written = "\(path) = \(SceneEditor.oneLine(document, value))"
            // An animated property also says what it is now.
            if let track = try? PropertyTrack(document: document, path: path, file: editor.displayName), track.isAnimated {
                return written + " (now \(track.value(at: playback.time).jsonText) at t = \(Playback.format(playback.time)) s)"
            }
            return written
        }
        guard let lookup = SceneFormat.lookup(path, in: document.root), let property = lookup.property else {
            throw CommandError("\(path): no such key in the file, and the scene format has no key by that name there")
        }
        return "\(path) = \(property.defaultValue.displayText) (default)"
    }

    /// Runs an edit of the document; its scene becomes the candidate, and the answer is printed
    /// once that scene has drawn (or the edit is taken back with the reason). `quiet`: no answer
    /// (a panel drag, answered when it is released).
    func edit(command: String, quiet: Bool = false, _ body: (SceneEditor) throws -> SceneEditor.Outcome) throws {
        let outcome: SceneEditor.Outcome
        do {
            outcome = try body(editor)
        } catch let e as SceneError {
            throw CommandError(e.description)
        }
        reload.candidate = Candidate(scene: playback.prepared(outcome.scene), since: ProcessInfo.processInfo.systemUptime, announce: false,
                                     edit: Candidate.Edit(command: command, answer: quiet ? nil : outcome.answer))
        needsRedraw = true
        refreshTitle()
    }

    /// `save [PATH]`: the scene file, or PATH, which becomes the scene file (watched and reloaded
    /// from then on, as one opened with `welkin view PATH`).
    func saveDocument(as target: String? = nil) throws {
        if editor.path == nil, let file = options.scenePath {
            throw CommandError("\(file) is not JSON yet: nothing to save until it loads")
        }
        let path = try target.map { try editor.save(as: $0) } ?? editor.save()
        if options.scenePath != editor.path {
            options.scenePath = editor.path
            updateWatches()
        }
        watcher.noteWritten(path)
        print("wrote \(path)")
        refreshTitle()
        needsRedraw = needsRedraw || playback.paused
    }

    /// On the way out: unsaved edits are said on standard error and kept in a recovery copy.
    func keepUnsavedEdits() {
        guard editor.isDirty else { return }
        do {
            let copy = try editor.writeRecovery()
            printError("quitting with unsaved edits to \(editor.displayName): kept them in \(copy)")
        } catch {
            printError("quitting with unsaved edits to \(editor.displayName), and they could not be kept: \(error)")
        }
    }
}
