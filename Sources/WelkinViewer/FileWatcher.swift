// Watching scene and shader files for edits, the way editors really save them.
//
// Editors save in different ways: in place (close-after-write), by writing a temporary file and
// renaming it over the original (vim, VS Code, `sed -i`), or by truncating and writing. Watching the
// file itself misses renames, so Welkin watches each file's parent directory and matches by name.
// Events are debounced (a save is often several events) and a change is reported only when the
// file's content hash differs from the last one seen. A directory is watched while a watched file
// is in it: `watch(_:)` removes the inotify watches of directories no file needs any more, so a
// long session that opens and includes many files holds one watch per folder in use, not one per
// folder ever seen (the kernel's default limit is 8192 watches per user, shared by every program).

import Foundation
import WelkinCore
import WelkinGL
#if canImport(Glibc)
import Glibc
#endif

public final class FileWatcher {
    /// A failure to set up watching.
    public struct WatchError: Error, CustomStringConvertible {
        public var description: String
    }

    /// How long a file must be quiet before its change is reported.
    public var debounce: TimeInterval

    private let fd: Int32
    private var directoryWatches: [Int32: String] = [:]   // watch descriptor → directory
    private var watched: [String: UInt64?] = [:]          // absolute path → last content hash (nil: unreadable)
    private var pending: [String: (first: TimeInterval, latest: TimeInterval)] = [:]  // path → event times

    /// A file whose content changed.
    public struct Change: Equatable, Sendable {
        public var path: String
        /// When the first event of this save arrived (for save-to-screen latency).
        public var firstEvent: TimeInterval
    }

    /// The inotify descriptor, readable when events are waiting (for poll/select loops).
    public var fileDescriptor: Int32 { fd }

    public init(debounce: TimeInterval = 0.03) throws {
        self.debounce = debounce
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(description: "cannot watch files: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// The set of files being watched.
    public var paths: [String] { Array(watched.keys).sorted() }

    /// The number of inotify watches held: one per directory of a watched file.
    public var watchCount: Int { directoryWatches.count }

    /// Replaces the watched set (a reload can add or drop included shader files), and removes the
    /// watches of directories that no longer hold a watched file.
    public func watch(_ files: [String]) throws {
        let absolute = Set(files.map(Self.absolute))
        for path in watched.keys where !absolute.contains(path) { watched[path] = nil; pending[path] = nil }
        let needed = Set(absolute.map(Self.directory))
        for (wd, directory) in directoryWatches where !needed.contains(directory) {
            inotify_rm_watch(fd, wd)
            directoryWatches[wd] = nil
        }
        for path in absolute where watched[path] == nil {
            let directory = Self.directory(path)
            if !directoryWatches.values.contains(directory) {
                let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY)
                let wd = inotify_add_watch(fd, directory, mask)
                guard wd >= 0 else {
                    throw WatchError(description: "\(directory): cannot watch: \(String(cString: strerror(errno)))")
                }
                directoryWatches[wd] = directory
            }
            watched[path] = .some(Self.hash(path))
        }
    }

    private static func directory(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// Reads waiting events and returns the files whose content changed and has been quiet for the
    /// debounce interval. Never blocks.
    public func changes(now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> [Change] {
        drainEvents(now: now)
        var changed: [Change] = []
        for (path, times) in pending where now - times.latest >= debounce {
            pending[path] = nil
            let newHash = Self.hash(path)
            // A file caught mid-rename (missing) is not a change; its arrival will be.
            guard let h = newHash else { continue }
            if watched[path] != .some(h) {
                watched[path] = .some(h)
                changed.append(Change(path: path, firstEvent: times.first))
            }
        }
        return changed.sorted { $0.path < $1.path }
    }

    /// Records that this program just wrote `path`: its events are not a change unless the content
    /// differs from what was written (the viewer's own save does not reload what it saved).
    public func noteWritten(_ path: String) {
        let absolute = Self.absolute(path)
        guard watched[absolute] != nil else { return }
        watched[absolute] = .some(Self.hash(absolute))
    }

    /// Seconds until the earliest pending change is due, or nil when none is pending.
    public func timeUntilDue(now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> TimeInterval? {
        pending.values.map { max(0, debounce - (now - $0.latest)) }.min()
    }

    /// True while a change is waiting out its debounce interval.
    public var hasPending: Bool { !pending.isEmpty }

    private func drainEvents(now: TimeInterval) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, size)
            if n <= 0 { return }
            var offset = 0
            while offset < n {
                let event = buffer.advanced(by: offset).assumingMemoryBound(to: inotify_event.self)
                let nameLength = Int(event.pointee.len)
                let headerSize = MemoryLayout<inotify_event>.size
                // The kernel dropped the watch (its directory was deleted or unmounted): forget it,
                // so a later watch() of that directory adds a new one.
                if event.pointee.mask & UInt32(IN_IGNORED) != 0 { directoryWatches[event.pointee.wd] = nil }
                if nameLength > 0, let directory = directoryWatches[event.pointee.wd] {
                    let namePointer = buffer.advanced(by: offset + headerSize).assumingMemoryBound(to: CChar.self)
                    let name = String(cString: namePointer)
                    let path = directory + "/" + name
                    if watched[path] != nil { pending[path] = (pending[path]?.first ?? now, now) }
                }
                offset += headerSize + nameLength
            }
        }
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        // Resolve symlinks in the directory (not the file: a rename replaces the link's target).
        let directory = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        return directory + "/" + url.lastPathComponent
    }

    /// The largest file whose content is hashed (larger ones read as unreadable: no change).
    static let maximumHashedSize = 512 << 20

    /// FNV-1a over the file's bytes; nil if it cannot be read or is not a regular file (a FIFO
    /// put in a watched file's place is never opened for a blocking read).
    static func hash(_ path: String) -> UInt64? {
        guard let data = try? RegularFile.read(path, limit: maximumHashedSize) else { return nil }
        var h: UInt64 = 0xcbf29ce484222325
        for byte in data { h = (h ^ UInt64(byte)) &* 0x100000001b3 }
        return h
    }
}
