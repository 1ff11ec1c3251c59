import Foundation
import XCTest

/// Runs `welkin view` in a real window under Xvfb with a shell script beside it, for the viewer's
/// end-to-end tests (ViewerTests, ViewerConsoleTests, ViewerPanelTests).
///
/// The script runs in `directory` and may use:
/// - `$OUT` and `$ERR`: the viewer's output so far;
/// - `$pid`: a shell that exits when the viewer does (`wait $pid`); `$viewer`: the viewer's process;
/// - `waitfor FILE PATTERN [SECONDS] [COUNT]`: waits until FILE has COUNT (default 1) lines matching
///   the grep PATTERN, at most SECONDS (default 5), polling every 20 ms, and says so on stderr when
///   it gives up. Wait for the viewer's lines with it rather than sleeping.
/// - `ask COMMAND`: sends one console command on the viewer's standard input and waits (at most
///   10 s) for its one answer line, on stdout or stderr.
/// - `$wid`: the viewer's window (found by its class `welkin`), once the viewer is up.
///
/// `setup` runs in the same shell before the viewer starts (X resources, say).
/// Configuration and state go to folders inside `directory` (XDG_CONFIG_HOME, XDG_STATE_HOME).
enum ViewerDriver {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], in directory: URL, screen: String = "1280x800x24", setup: String = "",
                    script: String) throws -> Result {
        let out = directory.appendingPathComponent("viewer.out").path, err = directory.appendingPathComponent("viewer.err").path
        let statusFile = directory.appendingPathComponent("viewer.status").path
        let quoted = ([EndToEndTests.welkin.path, "view"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let driver = """
        #!/bin/bash
        OUT='\(out)'; ERR='\(err)'
        export XDG_CONFIG_HOME='\(directory.path)/config' XDG_STATE_HOME='\(directory.path)/state'
        waitfor() {
          local deadline=$(( $(date +%s%N) + ${3:-5} * 1000000000 ))
          while [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -lt "${4:-1}" ]; do
            if [ "$(date +%s%N)" -gt "$deadline" ]; then echo "waitfor: no '$2' in $1 after ${3:-5} s" >&2; return 1; fi
            sleep 0.02
          done
        }
        answers() { echo $(( $(wc -l < "$OUT") + $(wc -l < "$ERR") )); }
        ask() {
          local before=$(answers) deadline=$(( $(date +%s%N) + 10000000000 ))
          printf '%s\\n' "$1" >&3
          while [ "$(answers)" -le "$before" ]; do
            if [ "$(date +%s%N)" -gt "$deadline" ]; then echo "ask: no answer to '$1' after 10 s" >&2; return 1; fi
            sleep 0.02
          done
        }
        \(setup)
        rm -f console; mkfifo console
        ( \(quoted) < console > "$OUT" 2> "$ERR" & echo $! > viewer.pid; wait $!; echo $? > '\(statusFile)' ) &
        pid=$!
        exec 3> console
        # Wait until the viewer says it is up (its first line), at most 30 s.
        waitfor "$OUT" '^viewing ' 30
        viewer=$(cat viewer.pid)
        wid=$(xdotool search --sync --classname '^welkin$' | head -1)
        \(script)
        exec 3>&-
        wait $pid
        """
        let driverPath = directory.appendingPathComponent("driver.sh").path
        try driver.write(toFile: driverPath, atomically: true, encoding: .utf8)
        chmod(driverPath, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        // -noreset: the server keeps root window properties (X resources set by `setup`) when
        // the last client before the viewer disconnects.
        process.arguments = ["-a", "-s", "-noreset -screen 0 \(screen)", driverPath]
        process.currentDirectoryURL = directory
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let driverOutput = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if !driverOutput.isEmpty { print("viewer test driver said:\n\(driverOutput)") }
        let status = (try? String(contentsOfFile: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return Result(status: status ?? -1, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
