// The command table and help text. Each command lists the declarations of its options (Option.swift,
// Options.swift) and reads them through those: `try args[Options.time]`.

/// One `welkin` subcommand.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var discussion: String = ""
    /// What help, the man page and the completions list; reading any other option is a bug.
    var options: [OptionSpec]
    var run: @Sendable (Arguments) throws -> Int32

    init(name: String, summary: String, usage: String, discussion: String = "", options: [any CommandOption] = [],
         run: @escaping @Sendable (Arguments) throws -> Int32) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.run = run
    }

    var helpText: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        if !options.isEmpty {
            text += "\nOptions:\n"
            let rows = options.map { o -> (String, String) in
                var left = o.short.map { "\($0), " } ?? "    "
                left += o.name
                if let v = o.value { left += " \(v)" }
                return (left, o.help)
            } + [("    --help", "Show this help.")]
            let width = rows.map(\.0.count).max() ?? 0
            for (left, right) in rows {
                text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
            }
        }
        return text
    }
}

enum Commands {
    static var all: [Command] {
        [view, render, reference, compare, export, exportCode, exportWeb, importEffect, new, validate, schema, particles, values, sun, ephemeris, bench, soak, help]
    }

    static func named(_ name: String) -> Command? { all.first(where: { $0.name == name }) }

    static var overview: String {
        var text = """
        welkin — preview animated sky scenes and prove they are drawn right.

        Usage: welkin COMMAND [OPTIONS] [ARGUMENTS]

        Commands:

        """
        let width = all.map(\.name.count).max() ?? 0
        for c in all {
            text += "  " + c.name + String(repeating: " ", count: width - c.name.count + 2) + c.summary + "\n"
        }
        text += "\nRun 'welkin help COMMAND' or 'welkin COMMAND --help' for a command's options.\n"
        text += "Exit status: 0 success, 1 failure, 2 usage error.\n"
        return text
    }

    static let help = Command(
        name: "help", summary: "Show help for welkin or one of its commands.",
        usage: "welkin help [COMMAND | --man | --completions SHELL]",
        discussion: """
        --man and --completions print the same help in other forms; make install writes them to
        PREFIX/share/man/man1/welkin.1 and to the shells' completion folders (docs/command-line.md).
        """,
        options: [Options.Help.man, Options.Help.completions],
        run: { args in
            if let text = try helpInOtherForm(args) { print(text, terminator: ""); return 0 }
            guard let name = args.positionals.first else { print(overview, terminator: ""); return 0 }
            guard args.positionals.count == 1 else { throw UsageError(message: "help takes at most one command", command: nil) }
            guard let command = named(name) else { throw unknownCommand(name) }
            print(command.helpText, terminator: "")
            return 0
        })

    /// `welkin help --man` or `--completions SHELL`: the man page or a completion script; nil for plain help.
    static func helpInOtherForm(_ args: Arguments) throws -> String? {
        let man = try args[Options.Help.man], completions = try args.contains(Options.Help.completions)
        guard man || completions else { return nil }
        guard args.positionals.isEmpty, !(man && completions) else {
            throw UsageError(message: "--man and --completions take no command and not each other", command: help)
        }
        guard let shell = try args[Options.Help.completions] else { return ManPage.roff }
        return CompletionScripts.script(for: shell)
    }

    static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let near = all.map(\.name).min(by: { levenshteinDistance(Substring(name), $0) < levenshteinDistance(Substring(name), $1) }),
           levenshteinDistance(Substring(name), near) <= 2 {
            message += "; did you mean '\(near)'?"
        }
        return UsageError(message: message, command: nil)
    }
}

extension Options {
    /// `welkin help`'s own options.
    enum Help {
        static let man = Flag("--man", help: "Print this help for every command as the manual page welkin.1 (roff).")
        static let completions = Option<CompletionShell?>("--completions", value: "SHELL", help: "Print a completion script for bash, zsh or fish.",
                                                          convert: OptionConversion.choice(CompletionShell.self))
    }
}
