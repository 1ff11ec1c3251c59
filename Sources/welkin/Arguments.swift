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

/// The parsed arguments of one command: its positionals, and its options' texts, read through
/// their typed declarations.
struct Arguments {
    /// The command parsed for; reading an option it does not list is a bug, reported as one.
    var command: Command
    var positionals: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var wantsHelp = false

    /// The option's value converted (its default when absent); a text that does not convert is a
    /// usage error: `--NAME expects …, got 'TEXT'`.
    subscript<Value>(_ option: Option<Value>) -> Value {
        get throws {
            guard let text = try text(option) else { return option.defaultValue }
            do { return try option.convert(text) } catch let e as OptionValueError {
                throw UsageError(message: "\(option.name) expects \(e.expected), got '\(e.got ?? text)'", command: command)
            }
        }
    }

    /// Whether the flag was given.
    subscript(_ flag: Flag) -> Bool {
        get throws {
            try checkDeclared(flag)
            return flags.contains(flag.name)
        }
    }

    /// The option's text as given, nil when absent (for messages that quote it, and for checks of
    /// other options that come before its conversion).
    func text<Value>(_ option: Option<Value>) throws -> String? {
        try checkDeclared(option)
        return values[option.name]
    }

    /// Whether the option was given, converted or not.
    func contains<Value>(_ option: Option<Value>) throws -> Bool { try text(option) != nil }

    private func checkDeclared(_ option: some CommandOption) throws {
        guard command.options.contains(where: { $0.name == option.spec.name }) else {
            throw Failure(message: "welkin \(command.name): internal error: reads \(option.spec.name), which the command does not declare")
        }
    }

    static func parse(_ args: [String], for command: Command) throws -> Arguments {
        var result = Arguments(command: command)
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

func levenshteinDistance(_ a: Substring, _ b: String) -> Int { levenshtein(String(a), b) }
