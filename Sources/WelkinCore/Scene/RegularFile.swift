// Reading the files a scene names without ever blocking on one.
//
// A scene names files: itself, shader sources and their includes, sprite and channel PNGs, font
// files. Opening a FIFO for reading blocks until something writes to it, and reading a character
// device such as /dev/zero never ends, so every such file is checked to be a regular file first:
// by `stat` (which never blocks) before a library opens the path itself, or, when Welkin reads
// the bytes, by opening it with O_NONBLOCK and checking the open descriptor (no gap in which the
// path could be swapped for a FIFO).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum RegularFile {
    /// Why a path cannot be read as a regular file.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing is there.
        case missing
        /// Something other than a regular file is there (`kind`: "a FIFO", "a directory", …).
        case notRegular(kind: String)
        /// It is larger than the reader's limit (`size` in bytes).
        case tooLarge(size: Int, limit: Int)
        /// It is there but cannot be opened or read (the system's sentence).
        case unreadable(String)

        /// A phrase that follows the file's name: "is a FIFO, not a regular file".
        public var description: String {
            switch self {
            case .missing: return "does not exist"
            case .notRegular(let kind): return "is not a regular file (it is \(kind))"
            case .tooLarge(let size, let limit): return "is \(size) bytes, more than the \(limit) bytes Welkin reads"
            case .unreadable(let reason): return "cannot be read: \(reason)"
            }
        }
    }

    /// What is at `path`, following symbolic links, without opening it: nil when it is a regular
    /// file (its size is then in `size`), the problem otherwise.
    public static func check(_ path: String) -> Problem? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        return problem(mode: info.st_mode)
    }

    /// Whether `path` is a regular file (following symbolic links).
    public static func exists(_ path: String) -> Bool { check(path) == nil }

    /// The bytes of the regular file at `path`, at most `limit` of them (a larger file is refused
    /// before it is read). Never blocks on a FIFO or reads a device.
    public static func read(_ path: String, limit: Int) throws(Problem) -> [UInt8] {
        try read(path, limit: limit, head: nil)
    }

    /// The first `count` bytes of the regular file at `path` (fewer when it is shorter), whatever
    /// its size: a header. Never blocks on a FIFO or reads a device.
    public static func head(_ path: String, count: Int) throws(Problem) -> [UInt8] {
        try read(path, limit: .max, head: count)
    }

    private static func read(_ path: String, limit: Int, head: Int?) throws(Problem) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing }
            throw .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        if let p = problem(mode: info.st_mode) { throw p }
        let size = head ?? Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        // Back to blocking reads (a regular file never blocks; this keeps read's usual meaning).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        // The file may grow or shrink while it is read (an editor mid-save): read what is there,
        // and refuse it once it has grown past the limit.
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: 4096)) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            count += n
            if let head, count >= head { count = head; break }
            guard count <= limit else { throw .tooLarge(size: count, limit: limit) }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func problem(mode: mode_t) -> Problem? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return .notRegular(kind: "a FIFO")
        case S_IFDIR: return .notRegular(kind: "a directory")
        case S_IFCHR: return .notRegular(kind: "a character device")
        case S_IFBLK: return .notRegular(kind: "a block device")
        case S_IFSOCK: return .notRegular(kind: "a socket")
        default: return .notRegular(kind: "a special file")
        }
    }
}
