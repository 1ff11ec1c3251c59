// welkin: the command line. Parses the command, runs it, maps errors to exit codes.

@preconcurrency import Foundation
import WelkinCore
@preconcurrency import CMalloc

// Line-buffered standard output, so results reach pipes as they happen. C's `stdout` is a global
// variable, which Swift 6 reads only through a @preconcurrency import (this file's only use).
setvbuf(stdout, nil, _IOLBF, 0)

// glibc's malloc gives the top of the heap back to the system whenever 128 KiB of it is free and
// takes it again on the next frame: every frame then pays page faults on fresh pages (the driver's
// per-frame buffers, the frame's arrays). Measured here with llvmpipe, alternating runs of
// `welkin bench --filter gpu.scene.mesh-seed-dark.720p --runs 15`: 26.4, 22.7 and 20.6 ms with
// glibc's defaults (7,702 brk calls in a 30-run bench), 17.7, 16.9 and 15.7 ms keeping up to 512 MiB
// free at the top and growing it 64 MiB at a time (4 brk calls); mesh-text and text-clock unchanged
// within the machine's noise.
// A user's own MALLOC_TRIM_THRESHOLD_ or MALLOC_TOP_PAD_ is left as it is.
if ProcessInfo.processInfo.environment["MALLOC_TRIM_THRESHOLD_"] == nil && ProcessInfo.processInfo.environment["MALLOC_TOP_PAD_"] == nil {
    _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
    _ = mallopt(M_TOP_PAD, 64 << 20)
}

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
    } catch {
        // The one place an error becomes a message and an exit status.
        let e = userFacing(error, command: name)
        printError(e.userFacingDescription)
        return e.exitCode
    }
}

/// Any error as the user sees it; a usage mistake names the command that was run when it names none.
func userFacing(_ error: any Error, command name: String) -> any UserFacingError {
    guard let e = error as? any UserFacingError else { return Failure(message: "\(error)") }
    if var usage = e as? UsageError, usage.command == nil {
        usage.command = Commands.named(name)
        return usage
    }
    return e
}

exit(runMain(CommandLine.arguments))
