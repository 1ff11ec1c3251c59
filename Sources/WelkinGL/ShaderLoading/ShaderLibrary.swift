// ShaderLibrary: where Welkin's shader files are read from.
//
// In order: a directory the caller names (`--shaders DIR`); a checkout's `Shaders/` (so edits in a
// checkout hot-reload), found by walking up from the executable and from the current directory;
// the copy bundled as package resources beside a built executable; PREFIX/share/welkin/Shaders
// beside an installed PREFIX/bin/welkin (`make install`; RuntimeFiles).

import Foundation
import WelkinResources

/// A directory of shader files (`.vert`, `.frag`, shared `.glsl`).
public struct ShaderLibrary: Sendable {
    /// Where the directory was found.
    public enum Origin: String, Sendable {
        case override, checkout, bundle, installed
    }

    public var directory: String
    public var origin: Origin

    /// A file that marks a directory as Welkin's shaders (and not some other project's).
    static let marker = "fullscreen.vert"
    /// The target whose resource bundle holds the shaders (SwiftPM's `Welkin_WelkinGL.resources`).
    static let resourceTarget = "WelkinGL"
    /// The shaders' folder under PREFIX/share/welkin in an install.
    static let installedSubfolder = "Shaders"
    /// Where `make install` puts the shaders, relative to PREFIX: share/welkin/Shaders.
    public static var installedFolder: String { RuntimeFiles.installedFolder + "/" + installedSubfolder }

    public init(directory: String, origin: Origin = .override) {
        self.directory = directory; self.origin = origin
    }

    /// Finds the shader directory: `override` when given (it must exist), else a checkout's
    /// `Shaders/` above the executable or the current directory, else the bundled or installed copy.
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
        if let found = RuntimeFiles.folder(holding: marker, target: resourceTarget, installedSubfolder: installedSubfolder,
                                           executablePath: executablePath) {
            let installed = found.hasSuffix("/" + installedFolder)
            return ShaderLibrary(directory: found, origin: installed ? .installed : .bundle)
        }
        let searched = RuntimeFiles.candidates(target: resourceTarget, installedSubfolder: installedSubfolder,
                                               executablePath: executablePath)
        throw ShaderError(.noShaderDirectory, file: executablePath ?? "welkin",
                          "cannot find Welkin's shaders: no checkout's Shaders/ above \(starts.joined(separator: " or ")), "
                          + "and none in \(searched.joined(separator: ", ")); pass --shaders DIR")
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

    /// The running executable (RuntimeFiles.executablePath).
    public static func executablePath() -> String? { RuntimeFiles.executablePath() }

    /// The path of `name` in this library.
    public func path(_ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Reads `name` and resolves its includes.
    public func source(_ name: String) throws -> ShaderSource {
        try ShaderSource(path: path(name))
    }
}
