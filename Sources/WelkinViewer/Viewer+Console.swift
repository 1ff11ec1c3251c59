// The console's commands: one a line on standard input, one answer line each on standard output;
// a command that cannot be done says why on standard error, named by its command, and changes nothing.
//
// Edits (`set`, `undo`, `redo`) replace the document text and decode it through the loader
// (SceneEditor); the new scene draws before the answer is printed and before the next command runs,
// so a `screenshot` after a `set` shows the edit.

import CGLFW
import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension Viewer {
    /// The commands, as `help` prints them.
    public static let consoleHelp = """
    Commands (standard input, one a line):
      time [T]          jump to scene time T seconds (without T: say the time)
      play, pause       run or stop the clock
      speed S           playback speed, 0.1 … 2
      get PATH          print a value (PATH as errors print it: layers[1].stops[0].color)
      set PATH VALUE    change a value (VALUE is JSON); refused with the reason if the scene would not load
      weather NAME      cross-fade to clear, cloudy, overcast, rain, snow or storm
      screenshot FILE   save the exact picture as a PNG (--window FILE: the window, panel included)
      record [stop]     start / stop recording the window as NAME-rec-N.mp4 beside the scene (Shift-R)
      stats             frame rate, frame time, live particles, draw passes
      resources         resident memory, inotify watches and live GL objects (leak checks)
      save              write the edited scene to its file
      undo, redo        step through the edits
      reload            reload the scene file and every shader
      quit              quit (unsaved edits are kept in NAME.welkin-recovery)
      help              print this list
    """

    /// The playback speeds `[` and `]` step through.
    static let speedSteps: [Double] = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2]
    static let speedRange = 0.1...2.0

    struct CommandError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Runs waiting commands until one changes the picture (it is drawn before the next runs).
    func handleConsoleCommands() {
        while !needsRedraw && candidate == nil && pendingWindowShot == nil && glfwWindowShouldClose(window) == GLFW_FALSE,
              let line = console.take() {
            runCommand(line)
        }
    }

    func runCommand(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        do {
            try runCommand(name, rest)
        } catch let e as CommandError {
            printError("\(name): \(e.message)")
        } catch let e as SceneDocument.EditError {
            printError("\(name): \(e.message)")
        } catch {
            printError("\(name): \(error)")
        }
    }

    private func runCommand(_ name: String, _ argument: String) throws {
        func noArgument() throws {
            guard argument.isEmpty else { throw CommandError("takes no argument, got '\(argument)'") }
        }
        func number(_ what: String) throws -> Double {
            guard !argument.isEmpty else { throw CommandError("expected \(what)") }
            guard let n = Double(argument), n.isFinite else { throw CommandError("expected \(what), got '\(argument)'") }
            return n
        }
        switch name {
        case "time":
            if argument.isEmpty { print("time t = \(Self.format(time)) s"); return }
            let t = try number("a time in seconds ≥ 0")
            guard t >= 0 && t <= Self.maximumTime else { throw CommandError("expected a time in 0…\(Int(Self.maximumTime)) s, got \(argument)") }
            setTime(t)
            print("time t = \(Self.format(time)) s")
        case "play":
            try noArgument()
            if paused { togglePause() } else { print("resumed") }
        case "pause":
            try noArgument()
            if !paused { togglePause() } else { print("paused at t = \(Self.format(time)) s") }
        case "speed":
            let s = try number("a speed in 0.1…2")
            guard Self.speedRange.contains(s) else { throw CommandError("expected a speed in 0.1…2, got \(argument)") }
            setSpeed(s)
        case "get":
            print(try get(argument))
        case "set":
            let pathText = String(argument.prefix { !$0.isWhitespace })
            let value = argument.dropFirst(pathText.count).trimmingCharacters(in: .whitespaces)
            guard !pathText.isEmpty, !value.isEmpty else { throw CommandError("expected PATH VALUE, like: set layers[0].opacity 0.5") }
            try edit(command: "set") { try $0.set(JSONPath(parsing: pathText), to: value) }
        case "weather":
            guard let preset = WeatherPreset(rawValue: argument) else {
                let names = WeatherPreset.allCases.map(\.rawValue)
                var message = argument.isEmpty ? "expected a weather name" : "unknown weather '\(argument)'"
                if let near = nearest(argument, in: names), !argument.isEmpty { message += "; did you mean '\(near)'?" }
                else { message += " (one of: \(names.joined(separator: ", ")))" }
                throw CommandError(message)
            }
            changeWeather(to: preset)
        case "screenshot":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.first == "--window" {
                guard parts.count == 2 else { throw CommandError("expected a file name, like: screenshot --window panel.png") }
                // Answered when the window is next presented (panel and overlay included).
                pendingWindowShot = parts[1]
                needsPresent(frames: 1)
                return
            }
            guard !argument.isEmpty else { throw CommandError("expected a file name, like: screenshot sky.png") }
            try saveScreenshot(to: argument)
        case "record":
            switch argument {
            case "": try startRecording()
            case "stop": try stopRecording()
            default: throw CommandError("expected nothing or 'stop', got '\(argument)'")
            }
        case "stats":
            try noArgument()
            print(statsLine)
        case "resources":
            try noArgument()
            print(resourcesLine)
        case "save":
            try noArgument()
            try saveDocument()
        case "undo":
            try noArgument()
            try edit(command: "undo") { try $0.undo() }
        case "redo":
            try noArgument()
            try edit(command: "redo") { try $0.redo() }
        case "reload":
            try noArgument()
            reloadEverything()
        case "quit":
            try noArgument()
            print("quitting")
            glfwSetWindowShouldClose(window, GLFW_TRUE)
        case "help":
            print(Self.consoleHelp.split(separator: "\n").joined(separator: " | "))
        default:
            var message = "unknown command"
            let names = ["time", "play", "pause", "speed", "get", "set", "weather", "screenshot", "record", "stats", "resources", "save", "undo", "redo", "reload",
                         "quit", "help"]
            if let near = nearest(name, in: names) { message += "; did you mean '\(near)'?" } else { message += " (try help)" }
            throw CommandError(message)
        }
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
            return "\(path) = \(SceneEditor.oneLine(document, value))"
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
        candidate = Candidate(scene: prepared(outcome.scene), since: ProcessInfo.processInfo.systemUptime, announce: false,
                              edit: Candidate.Edit(command: command, answer: quiet ? nil : outcome.answer))
        needsRedraw = true
        lastTitleUpdate = 0
    }

    func saveDocument() throws {
        let path = try editor.save()
        watcher.noteWritten(path)
        print("wrote \(path)")
        lastTitleUpdate = 0
        needsRedraw = needsRedraw || paused
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

    static func format(_ t: Double) -> String { String(format: "%.2f", t) }
}
