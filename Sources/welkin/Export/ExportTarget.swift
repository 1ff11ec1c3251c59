// Where `welkin export` writes and in what form: chosen by OUT's extension, checked before any
// frame is rendered, and the temporary names that keep a failed or interrupted export from leaving
// a partial file or clobbering an existing one.

import Foundation
import WelkinImage
import WelkinVideo

/// The kind of file an export writes.
enum ExportFormat: Equatable {
    case mp4, webm, gif
    /// Numbered PNG files: `prefix` + the frame number with at least `digits` digits + `suffix`.
    case pngSequence(prefix: String, digits: Int, suffix: String)

    /// Video formats go through ffmpeg; a PNG sequence uses Welkin's own PNG writer.
    var usesFFmpeg: Bool { if case .pngSequence = self { return false } else { return true } }

    /// What ffmpeg writes for this format (PNG sequences are written by Welkin, not ffmpeg).
    var video: VideoFormat {
        switch self {
        case .mp4: return .mp4
        case .webm: return .webm
        case .gif: return .gif
        case .pngSequence: preconditionFailure("PNG sequences are written by Welkin, not ffmpeg")
        }
    }

    var name: String {
        switch self {
        case .mp4: return "H.264 MP4"
        case .webm: return "VP9 WebM"
        case .gif: return "GIF"
        case .pngSequence: return "PNG sequence"
        }
    }

    /// `--quality` (a constant rate factor): its range and default; nil where it does not apply.
    var qualityRange: (range: ClosedRange<Int>, default: Int)? {
        switch self {
        case .mp4: return (0...51, 18)
        case .webm: return (0...63, 30)
        case .gif, .pngSequence: return nil
        }
    }
}

/// OUT, parsed: the format, the folder, and (for a PNG sequence) how frame k is named.
struct ExportTarget {
    /// OUT as the user wrote it.
    var path: String
    var format: ExportFormat
    /// The folder OUT is in ("." for a bare name).
    var directory: String
    /// OUT's file name (for a PNG sequence, the pattern).
    var fileName: String

    static let extensions = "OUT must end in .mp4, .webm, .gif, or .png with a frame-number pattern such as %04d"

    /// Parses OUT; a name Welkin cannot write is a usage error.
    init(_ path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        fileName = url.lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        directory = folder.isEmpty ? "." : folder
        guard !path.hasSuffix("/"), !fileName.isEmpty else {
            throw UsageError(message: "OUT is a folder ('\(path)'); \(Self.extensions)", command: nil)
        }
        let ext = (fileName as NSString).pathExtension.lowercased()
        switch ext {
        case "mp4": format = .mp4
        case "webm": format = .webm
        case "gif": format = .gif
        case "png": format = try Self.pngPattern(fileName)
        case "": throw UsageError(message: "'\(path)' has no extension; \(Self.extensions)", command: nil)
        default: throw UsageError(message: "unknown output type '.\(ext)'; \(Self.extensions)", command: nil)
        }
        if format.usesFFmpeg && fileName.contains("%") {
            throw UsageError(message: "'\(path)': a frame-number pattern is for PNG sequences only; a video is one file", command: nil)
        }
    }

    /// Splits `sky-%04d.png` into prefix, digits and suffix. Exactly one `%d` or `%0Nd` (N 1…9);
    /// `%%` is a literal percent sign.
    static func pngPattern(_ name: String) throws -> ExportFormat {
        let chars = Array(name)
        var prefix = "", suffix = ""
        var digits: Int?
        var i = 0
        func bad(_ why: String) -> UsageError {
            UsageError(message: "'\(name)': \(why); a PNG sequence is named with one frame-number pattern such as "
                       + "frames/sky-%04d.png (for a single image use 'welkin render')", command: nil)
        }
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else {
                if digits == nil { prefix.append(c) } else { suffix.append(c) }
                i += 1
                continue
            }
            if i + 1 < chars.count, chars[i + 1] == "%" {
                if digits == nil { prefix.append("%") } else { suffix.append("%") }
                i += 2
                continue
            }
            guard digits == nil else { throw bad("more than one frame-number pattern") }
            var j = i + 1
            var width = ""
            while j < chars.count, chars[j].isASCII, chars[j].isNumber { width.append(chars[j]); j += 1 }
            guard j < chars.count, chars[j] == "d" else { throw bad("'%' must start %d or %0Nd") }
            if width.isEmpty {
                digits = 1
            } else {
                guard width.count == 2, width.first == "0", let n = Int(width), (1...9).contains(n) else {
                    throw bad("the pattern must be %d or %0Nd with N in 1…9")
                }
                digits = n
            }
            i = j + 1
        }
        guard let digits else { throw bad("no frame-number pattern") }
        return .pngSequence(prefix: prefix, digits: digits, suffix: suffix)
    }

    /// Frame `index`'s file name in a PNG sequence.
    func frameFileName(_ index: Int) -> String {
        guard case .pngSequence(let prefix, let digits, let suffix) = format else { return fileName }
        let number = String(index)
        return prefix + String(repeating: "0", count: max(0, digits - number.count)) + number + suffix
    }

    /// How many frames the pattern numbers in order (10^digits); nil when unbounded or not a sequence.
    var patternCapacity: Int? {
        guard case .pngSequence(_, let digits, _) = format, digits < 18 else { return nil }
        var n = 1
        for _ in 0..<digits { n *= 10 }
        return n
    }

    /// The temporary file (video) or folder (PNG sequence) next to OUT, for process `pid`: hidden,
    /// and with OUT's extension kept so ffmpeg picks the same muxer.
    func temporaryPath(pid: Int32 = getpid()) -> String {
        switch format {
        case .pngSequence:
            return directory + "/.welkin-export.partial-\(pid)"
        default:
            let ext = (fileName as NSString).pathExtension
            let base = (fileName as NSString).deletingPathExtension
            return directory + "/." + base + ".partial-\(pid)." + ext
        }
    }

    /// Checks, before rendering, that OUT can be written: the folder exists and is writable, and
    /// an existing OUT (or, for a sequence, its first and last frames) is a file that may be replaced.
    func checkWritable(frameCount: Int) throws {
        var files = [path]
        if case .pngSequence = format { files = [0, frameCount - 1].map { directory + "/" + frameFileName($0) } }
        try OutputFile.checkWritable(path)
        for file in files { try OutputFile.checkWritable(file) }
    }
}
