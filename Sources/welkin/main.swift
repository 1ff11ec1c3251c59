// welkin: the command line. Parses the command, runs it, maps errors to exit codes.

@preconcurrency import Foundation
import WelkinCore
import WelkinReference

// Line-buffered standard output, so results reach pipes as they happen. C's `stdout` is a global
// variable, which Swift 6 reads only through a @preconcurrency import (this file's only use).
setvbuf(stdout, nil, _IOLBF, 0)

func printError(_ text: String) {
    FileHandle.standardError.write((text.hasSuffix("\n") ? text : text + "\n").data(using: .utf8)!)
}

func runMain(_ argv: [String]) -> Int32 {
    var args = Array(argv.dropFirst())
    let name: String
    if args.isEmpty {
        name = Commands.defaultCommand
    } else if args[0] == "--help" || args[0] == "-h" {
        name = "help"; args.removeFirst(); args = []
    } else if args[0] == "--version" {
        print("welkin \(welkinVersion)"); return 0
    } else {
        name = args.removeFirst()
    }
    do {
        guard let command = Commands.named(name) else { throw Commands.unknownCommand(name) }
        let parsed = try Arguments.parse(args, for: command)
        if parsed.wantsHelp {
            print(command.helpText, terminator: "")
            return 0
        }
        return try command.run(parsed)
    } catch let e as UsageError {
        printError("welkin: \(e.message)")
        if let c = e.command ?? Commands.named(name) { printError("Usage: \(c.usage)") }
        printError("Run 'welkin help' for more.")
        return 2
    } catch let e as Failure {
        printError(e.message)
        return 1
    } catch let e as SceneError {
        printError(e.description)
        return 1
    } catch {
        printError("\(error)")
        return 1
    }
}

exit(runMain(CommandLine.arguments))
