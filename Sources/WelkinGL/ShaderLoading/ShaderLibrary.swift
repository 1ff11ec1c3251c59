// ShaderLibrary: where Welkin's shader files are read from.
//
// In order: a directory the caller names (`--shaders DIR`); a checkout's `Shaders/` (so edits in a
// checkout hot-reload), found by walking up from the executable and from the current directory;
// the copy bundled as package resources (so an installed binary works anywhere).

import Foundation

/// A directory of shader files (`.vert`, `.frag`, shared `.glsl`).
public struct ShaderLibrary: Sendable {
    /// Where the directory was found.
    public enum Origin: String, Sendable {
        case override, checkout, bundle
    }

    public var directory: String
    public var origin: Origin

    /// A file that marks a directory as Welkin's shaders (and not some other project's).
    static let marker = "fullscreen.vert"
    /// SwiftPM's resource bundle for the WelkinGL target.
    static let bundleName = "Welkin_WelkinGL.resources"

    public init(directory: String, origin: Origin = .override) {
        self.directory = directory; self.origin = origin
    }

    /// Finds the shader directory: `override` when given (it must exist), else a checkout's
    /// `Shaders/` above the executable or the current directory, else the bundled copy.
    public static func locate(override: String? = nil,
                              executablePath: String? = ShaderLibrary.executablePath(),
                              currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> ShaderLibrary {
        let fm = FileManager.default
        if let override {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: override, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ShaderError(.noShaderDirectory, file: override, "no such shader directory")
            }
            return ShaderLibrary(directory: override, origin: .override)
        }
        var starts: [String] = []
        if let executablePath { starts.append((executablePath as NSString).deletingLastPathComponent) }
        starts.append(currentDirectory)
        for start in starts {
            if let found = checkoutShaders(above: start) { return ShaderLibrary(directory: found, origin: .checkout) }
        }
        for candidate in bundleCandidates(executablePath: executablePath)
        where fm.fileExists(atPath: candidate + "/" + marker) {
            return ShaderLibrary(directory: candidate, origin: .bundle)
        }
        throw ShaderError(.noShaderDirectory, file: executablePath ?? "welkin",
                          "cannot find Welkin's shaders: no checkout's Shaders/ above \(starts.joined(separator: " or ")), "
                          + "and no \(bundleName) beside the executable; pass --shaders DIR")
    }

    /// `DIR/Shaders` for the nearest DIR at or above `start` holding Package.swift and Shaders/.
    static func checkoutShaders(above start: String) -> String? {
        let fm = FileManager.default
        var dir = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            let shaders = dir.appendingPathComponent("Shaders")
            if fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path),
               fm.fileExists(atPath: shaders.appendingPathComponent(marker).path) {
                return shaders.path
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    /// Where SwiftPM's generated `Bundle.module` would look, without its fatalError when absent:
    /// beside the main bundle, and beside the executable with symlinks resolved.
    static func bundleCandidates(executablePath: String?) -> [String] {
        var out = [Bundle.main.bundleURL.appendingPathComponent(bundleName).path]
        if let executablePath {
            let real = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            out.append(real.appendingPathComponent(bundleName).path)
        }
        return out
    }

    /// The running executable (Linux: /proc/self/exe; elsewhere Bundle's idea of it).
    public static func executablePath() -> String? {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return Bundle.main.executablePath
    }

    /// The path of `name` in this library.
    public func path(_ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Reads `name` and resolves its includes.
    public func source(_ name: String) throws -> ShaderSource {
        try ShaderSource(path: path(name))
    }
}
