// The console's commands, in one table: each row's name, arguments and help make the `help` text
// (and the list `welkin view --help` and H print), and the parser looks commands up in it, refuses
// an argument to a command that takes none, and suggests the nearest name for a misspelt one.
//
// One command a line on standard input, one answer line each on standard output; a command that
// cannot be done says why on standard error, named by its command, and changes nothing.

import CGLFW
import Foundation
import WelkinCore

/// One console command.
struct ConsoleCommand {
    let name: String
    /// As help shows them: "" for none, `[T]`, `PATH VALUE`.
    let arguments: String
    let help: String
    /// Runs the command with the rest of the line (trimmed; empty when `arguments` is).
    let action: @Sendable (Viewer, String) throws -> Void

    /// The help line: name and arguments in a column, then the sentence.
    var helpLine: String {
        let usage = arguments.isEmpty ? name : "\(name) \(arguments)"
        return "  " + usage.padding(toLength: max(usage.count + 1, 18), withPad: " ", startingAt: 0) + help
    }
}

extension Viewer {
    struct CommandError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static let consoleCommands: [ConsoleCommand] = [
        ConsoleCommand(name: "time", arguments: "[T]", help: "jump to scene time T seconds (without T: say the time)") { viewer, argument in
            if !argument.isEmpty {
                let t = try number(argument, "a time in seconds ≥ 0")
                guard t >= 0 && t <= Playback.maximumTime else {
                    throw CommandError("expected a time in 0…\(Int(Playback.maximumTime)) s, got \(argument)")
                }
                viewer.setTime(t)
            }
            print("time t = \(Playback.format(viewer.playback.time)) s")
        },
        ConsoleCommand(name: "framing", arguments: "[fit|fill]",
                       help: "fit: the scene's own framing, letterboxed; fill: re-framed to fill the window (A; without an argument: say which)") { viewer, argument in
            if argument.isEmpty {
                print("framing \(viewer.framing.rawValue)")
                return
            }
            guard let framing = Framing(rawValue: argument) else { throw CommandError("expected fit or fill, got \(argument)") }
            viewer.setFraming(framing)
        },
        ConsoleCommand(name: "play", arguments: "", help: "run the clock") { viewer, _ in
            if viewer.playback.paused { viewer.togglePause() } else { print("resumed") }
        },
        ConsoleCommand(name: "pause", arguments: "", help: "stop the clock") { viewer, _ in
            if !viewer.playback.paused { viewer.togglePause() } else { print("paused at t = \(Playback.format(viewer.playback.time)) s") }
        },
        ConsoleCommand(name: "speed", arguments: "S", help: "playback speed, 0.1 … 2") { viewer, argument in
            let s = try number(argument, "a speed in 0.1…2")
            guard Playback.speedRange.contains(s) else { throw CommandError("expected a speed in 0.1…2, got \(argument)") }
            viewer.setSpeed(s)
        },
        ConsoleCommand(name: "get", arguments: "PATH", help: "print a value (PATH as errors print it: layers[1].stops[0].color)") { viewer, argument in
            print(try viewer.get(argument))
        },
        ConsoleCommand(name: "set", arguments: "PATH VALUE",
                       help: "change a value (VALUE is JSON: strings in quotes); refused with the reason if the scene would not load") { viewer, argument in
            try viewer.set(argument)
        },
        ConsoleCommand(name: "weather", arguments: "NAME", help: "cross-fade to clear, cloudy, overcast, rain, snow, storm or fog") { viewer, argument in
            guard let preset = WeatherPreset(rawValue: argument) else {
                let names = WeatherPreset.allCases.map(\.rawValue)
                var message = argument.isEmpty ? "expected a weather name" : "unknown weather '\(argument)'"
                if let near = nearest(argument, in: names), !argument.isEmpty { message += "; did you mean '\(near)'?" }
                else { message += " (one of: \(names.joined(separator: ", ")))" }
                throw CommandError(message)
            }
            viewer.changeWeather(to: preset)
        },
        ConsoleCommand(name: "screenshot", arguments: "FILE",
                       help: "save the exact picture as a PNG (--window FILE: the window, panel included)") { viewer, argument in
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.first == "--window" {
                guard parts.count == 2 else { throw CommandError("expected a file name, like: screenshot --window panel.png") }
                // Answered when the window is next presented (panel and overlay included).
                viewer.recording.pendingWindowShot = parts[1]
                viewer.needsPresent(frames: 1)
                return
            }
            guard !argument.isEmpty else { throw CommandError("expected a file name, like: screenshot sky.png") }
            try viewer.saveScreenshot(to: argument)
        },
        ConsoleCommand(name: "record", arguments: "[stop]",
                       help: "start / stop recording the window as NAME-rec-N.mp4 beside the scene (Shift-R)") { viewer, argument in
            switch argument {
            case "": try viewer.startRecording()
            case "stop": try viewer.stopRecording()
            default: throw CommandError("expected nothing or 'stop', got '\(argument)'")
            }
        },
        ConsoleCommand(name: "stats", arguments: "", help: "frame rate, frame time, live particles, draw passes") { viewer, _ in
            print(viewer.statsLine)
        },
        ConsoleCommand(name: "passes", arguments: "", help: "draw the next frame with every draw timed and print each (program → target, ms)") { viewer, _ in
            viewer.timesNextFramesPasses = true
            viewer.needsRedraw = true
        },
        ConsoleCommand(name: "resources", arguments: "", help: "resident memory, inotify watches and live GL objects (leak checks)") { viewer, _ in
            print(viewer.resourcesLine)
        },
        ConsoleCommand(name: "save", arguments: "[PATH]",
                       help: "write the scene to its file (PATH: to a new file, which it then edits; the built-in scene too)") { viewer, argument in
            try viewer.saveDocument(as: argument.isEmpty ? nil : argument)
        },
        ConsoleCommand(name: "undo", arguments: "", help: "take back the last edit") { viewer, _ in
            try viewer.edit(command: "undo") { try $0.undo() }
        },
        ConsoleCommand(name: "redo", arguments: "", help: "make the edit undo took back again") { viewer, _ in
            try viewer.edit(command: "redo") { try $0.redo() }
        },
        ConsoleCommand(name: "reload", arguments: "", help: "reload the scene file and every shader") { viewer, _ in
            viewer.reloadEverything()
        },
        ConsoleCommand(name: "quit", arguments: "", help: "quit (unsaved edits are kept in NAME.welkin-recovery)") { viewer, _ in
            print("quitting")
            glfwSetWindowShouldClose(viewer.window, GLFW_TRUE)
        },
        ConsoleCommand(name: "help", arguments: "", help: "print this list") { _, _ in
            print(consoleHelp.split(separator: "\n").joined(separator: " | "))
        },
    ]

    /// The commands, as `help` prints them (and H, and `welkin view --help`).
    public static let consoleHelp = (["Commands (standard input, one a line):"] + consoleCommands.map(\.helpLine)).joined(separator: "\n")

    /// `argument` as a finite number, or a sentence expecting `what`.
    static func number(_ argument: String, _ what: String) throws -> Double {
        guard !argument.isEmpty else { throw CommandError("expected \(what)") }
        guard let n = Double(argument), n.isFinite else { throw CommandError("expected \(what), got '\(argument)'") }
        return n
    }

    /// Runs waiting commands until one changes the picture (it is drawn before the next runs).
    func handleConsoleCommands() {
        while !needsRedraw && reload.candidate == nil && recording.pendingWindowShot == nil && glfwWindowShouldClose(window) == GLFW_FALSE,
              let line = console.take() {
            runCommand(line)
        }
    }

    /// Parses `line` against the table and runs its command; a refusal is one line on standard error.
    func runCommand(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        do {
            guard let command = Self.consoleCommands.first(where: { $0.name == name }) else {
                var message = "unknown command"
                if let near = nearest(name, in: Self.consoleCommands.map(\.name)) { message += "; did you mean '\(near)'?" }
                else { message += " (try help)" }
                throw CommandError(message)
            }
            guard !command.arguments.isEmpty || argument.isEmpty else { throw CommandError("takes no argument, got '\(argument)'") }
            try command.action(self, argument)
        } catch let e as CommandError {
            printError("\(name): \(e.message)")
        } catch let e as SceneDocument.EditError {
            printError("\(name): \(e.message)")
        } catch {
            printError("\(name): \(error)")
        }
    }
}
