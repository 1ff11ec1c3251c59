// Whether a file can be written, checked before any work is done, and why not in plain words.

import Foundation
import WelkinCore

/// A file Welkin cannot write: `cannot write PATH: REASON`.
public struct WriteError: UserFacingError, Sendable, Equatable {
    public var path: String
    /// Plain words: "the folder /x does not exist", "permission denied", …
    public var reason: String
    /// What could not be done to `path`: "write", or "create the folder".
    public var action = "write"
    public var description: String { "cannot \(action) \(path): \(reason)" }
    public var message: String { reason }
    public var filePath: String? { path }

    public init(path: String, reason: String, action: String = "write") { self.path = path; self.reason = reason; self.action = action }
}

public enum OutputFile {
    /// The folder `path` is written into: "." for a bare file name.
    public static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Checks, before rendering, that `path` can be written: its folder exists, is a folder and
    /// may be written in, and an existing `path` is a file that may be replaced.
    public static func checkWritable(_ path: String) throws {
        let folder = folder(of: path)
        var info = stat()
        guard stat(folder, &info) == 0 else { throw WriteError(path: path, reason: reason(errno, folder: folder)) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: path, reason: "\(folder) is not a folder") }
        guard access(folder, W_OK) == 0 else { throw WriteError(path: path, reason: reason(errno, folder: folder)) }
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw WriteError(path: path, reason: reason(EISDIR, folder: folder)) }
        guard access(path, W_OK) == 0 else { throw WriteError(path: path, reason: "it is read-only, so it would not be replaced") }
    }

    /// Creates `folder` and any missing folders above it (as `mkdir -p`); a failure names the
    /// folder that could not be made and why.
    public static func createFolder(_ folder: String) throws {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: folder, reason: "it is not a folder", action: "create the folder") }
            return
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder { try createFolder(parent) }
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
            throw WriteError(path: folder, reason: reason(errno, folder: parent.isEmpty ? "." : parent), action: "create the folder")
        }
    }

    /// `errno` from writing into `folder`, in plain words.
    public static func reason(_ code: Int32, folder: String) -> String {
        switch code {
        case ENOENT:
            var info = stat()
            if stat(folder, &info) != 0 { return "the folder \(folder) does not exist" }
        case ENOTDIR: return "a part of \(folder) is not a folder"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "the file system is read-only"
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is used up"
        case EISDIR: return "it is a folder"
        case ENAMETOOLONG: return "the name is too long"
        case ELOOP: return "too many symbolic links"
        default: break
        }
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
