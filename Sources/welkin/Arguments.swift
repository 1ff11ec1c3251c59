// Hand-written argument parsing with the usual conventions:
// `--flag value`, `--flag=value`, `-o value`, `--` ends options, `--help` anywhere.

import WelkinCore

/// A usage mistake: printed with the command's usage line, exit status 2.
struct UsageError: UserFacingError {
    var message: String
    /// The command whose usage line is printed; main.swift fills in the command that was run.
    var command: Command?
    var exitCode: Int32 { 2 }
    var description: String {
        "welkin: \(message)\n" + (command.map { "Usage: \($0.usage)\n" } ?? "") + "Run 'welkin help' for more."
    }
}

/// A runtime failure the command line itself finds: printed as a sentence, exit status 1.
struct Failure: UserFacingError {
    var message: String
    var description: String { message }
}

/// An option a command accepts.
struct OptionSpec: Sendable {
    var name: String          // "--time"
    var short: String? = nil  // "-o"
    var value: String? = nil  // placeholder for the value, nil for a flag
    var help: String
}

/// The parsed arguments of one command.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    static func parse(_ args: [String], for command: Command) throws -> Arguments {
        var result = Arguments()
        var i = 0
        var optionsEnded = false
        func spec(_ name: String) throws -> OptionSpec {
            if let s = command.options.first(where: { $0.name == name || $0.short == name }) { return s }
            var message = "unknown option '\(name)'"
            if let near = nearestOption(name, command) { message += "; did you mean '\(near)'?" }
            throw UsageError(message: message, command: command)
        }
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            if arg == "--help" || arg == "-h" { result.wantsHelp = true; continue }
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            let option = try spec(name)
            if let placeholder = option.value {
                let v: String
                if let inlineValue { v = inlineValue }
                else if i < args.count { v = args[i]; i += 1 }
                else { throw UsageError(message: "option '\(option.name)' needs a value \(placeholder)", command: command) }
                if result.values[option.name] != nil {
                    throw UsageError(message: "option '\(option.name)' given twice", command: command)
                }
                result.values[option.name] = v
            } else {
                if inlineValue != nil {
                    throw UsageError(message: "option '\(option.name)' takes no value", command: command)
                }
                result.flags.insert(option.name)
            }
        }
        return result
    }

    static func nearestOption(_ name: String, _ command: Command) -> String? {
        let bare = name.drop(while: { $0 == "-" })
        let candidates = command.options.map { String($0.name.dropFirst(2)) } + ["help"]
        return candidates.min(by: { levenshteinDistance(bare, $0) < levenshteinDistance(bare, $1) })
            .flatMap { levenshteinDistance(bare, $0) <= 2 ? "--" + $0 : nil }
    }
}

// Parsing of common option values.
extension Arguments {
    /// `--time T`: seconds, finite; default 0.
    func time() throws -> Double {
        guard let text = value("--time") else { return 0 }
        guard let t = Double(text), t.isFinite else {
            throw UsageError(message: "--time expects a number of seconds, got '\(text)'", command: nil)
        }
        // One rule with the viewer's console (`time -1` is refused there too).
        guard Scene.timeRange.contains(t) else {
            throw UsageError(message: "--time expects a time in 0…\(Int(Scene.timeRange.upperBound)) s, got '\(text)'", command: nil)
        }
        return t
    }

    /// `--size WxH`: pixels, each 1…16384; nil when absent.
    func size() throws -> SIMD2<Int>? {
        guard let text = value("--size") else { return nil }
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...16384).contains(w), (1...16384).contains(h) else {
            throw UsageError(message: "--size expects WIDTHxHEIGHT with each side in 1…16384, got '\(text)'", command: nil)
        }
        return SIMD2(w, h)
    }
}

func levenshteinDistance(_ a: Substring, _ b: String) -> Int { levenshtein(String(a), b) }
