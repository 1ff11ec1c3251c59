// Progress of an export on stderr: one line that rewrites itself (`\r`) on a terminal, a plain
// line every few seconds otherwise (logs and CI get no control characters).

import Foundation

final class ExportProgress {
    let total: Int
    let isTerminal: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastPrint: UInt64 = 0
    private var printedOnTerminal = false

    /// Seconds between lines when stderr is not a terminal.
    static let plainInterval = 5.0
    /// Seconds between redraws of the terminal line (10 a second is smooth and costs nothing).
    static let terminalInterval = 0.1

    init(total: Int, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.isTerminal = isTerminal
    }

    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Reports `done` frames written; prints when a line is due (always for the last frame on a terminal).
    func update(done: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let since = Double(now - lastPrint) / 1e9
        if isTerminal {
            guard done == total || done == 1 || since >= Self.terminalInterval else { return }
            lastPrint = now
            printedOnTerminal = true
            emit("\r" + line(done: done) + "\u{1B}[K")
        } else {
            guard lastPrint == 0 ? elapsed >= Self.plainInterval : since >= Self.plainInterval, done < total else { return }
            lastPrint = now
            emit("export: " + line(done: done) + "\n")
        }
    }

    /// Ends the terminal line (the summary goes to stdout after it).
    func finish() {
        if isTerminal && printedOnTerminal { emit("\n") }
    }

    /// `frame 12/60 (20%), 14.3 fps, elapsed 0:01, ETA 0:03`
    func line(done: Int) -> String {
        let seconds = elapsed
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let percent = total > 0 ? 100 * done / total : 100
        return "frame \(done)/\(total) (\(percent)%), \(String(format: "%.1f", rate)) fps, elapsed \(Self.clock(seconds)), "
            + (done > 0 ? "ETA \(Self.clock(eta))" : "ETA –")
    }

    /// m:ss, or h:mm:ss past an hour.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
