// RuntimeFiles: where the running welkin finds the files it reads at run time (the shaders, the star
// catalogue, the planets' series), whether it was built or installed.
//
// A build keeps each target's files in SwiftPM's resource bundle beside the executable
// (`.build/release/Welkin_WelkinGL.resources`); `make install` (Scripts/install.sh) puts them under
// PREFIX/share/welkin, which an installed PREFIX/bin/welkin finds as `../share/welkin`. SwiftPM's own
// `Bundle.module` is not used: it stops the program when the bundle is absent, and falls back to the
// absolute path of the build folder, so an installed binary would silently read the checkout's files.

import Foundation

public enum RuntimeFiles {
    /// The folder under PREFIX that `make install` fills (Scripts/install.sh uses the same name).
    public static let installedFolder = "share/welkin"

    /// The running executable with symlinks resolved (Linux: /proc/self/exe; elsewhere Bundle's idea of it).
    public static func executablePath() -> String? {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return Bundle.main.executablePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
    }

    /// The folders that may hold `target`'s run-time files, in the order they are searched: SwiftPM's
    /// bundle `Welkin_TARGET.resources` beside the main bundle and beside the executable (a build), then
    /// PREFIX/share/welkin/`installedSubfolder` for an executable at PREFIX/bin (an install).
    public static func candidates(target: String, installedSubfolder: String = "",
                                  executablePath: String? = RuntimeFiles.executablePath()) -> [String] {
        let bundle = "Welkin_\(target).resources"
        var out = [Bundle.main.bundleURL.appendingPathComponent(bundle).path]
        if let executablePath {
            let folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            out.append(folder.appendingPathComponent(bundle).path)
            var installed = folder.deletingLastPathComponent().appendingPathComponent(installedFolder)
            if !installedSubfolder.isEmpty { installed.appendPathComponent(installedSubfolder) }
            out.append(installed.standardizedFileURL.path)
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// The first candidate folder of `target` holding `file`, or nil.
    public static func folder(holding file: String, target: String, installedSubfolder: String = "",
                              executablePath: String? = RuntimeFiles.executablePath()) -> String? {
        candidates(target: target, installedSubfolder: installedSubfolder, executablePath: executablePath)
            .first { FileManager.default.fileExists(atPath: $0 + "/" + file) }
    }

    /// The folder holding the Swift sources of Welkin's pure-Swift `module` (WelkinAtmosphere), which
    /// a `--package` export copies into the package as they are: `Sources/MODULE` of the checkout a
    /// build's executable sits in (found by walking up from it), or PREFIX/share/welkin/Swift/MODULE
    /// for an install. The error names every folder searched.
    public static func swiftSources(module: String, marker: String,
                                    executablePath: String? = RuntimeFiles.executablePath()) throws(RuntimeFileError) -> String {
        var searched: [String] = []
        if let executablePath {
            var folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            let installed = folder.deletingLastPathComponent().appendingPathComponent(installedFolder + "/Swift/" + module).standardizedFileURL.path
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent("Sources/" + module).path
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                    searched.append(candidate)
                    if FileManager.default.fileExists(atPath: candidate + "/" + marker) { return candidate }
                }
                let up = folder.deletingLastPathComponent()
                if up.path == folder.path { break }
                folder = up
            }
            searched.append(installed)
            if FileManager.default.fileExists(atPath: installed + "/" + marker) { return installed }
        }
        throw RuntimeFileError(file: module + "/" + marker, searched: searched)
    }

    /// The bytes of `file` among `target`'s run-time files (a package's own RuntimeFiles inflates
    /// them from its bundle instead); the error names every folder searched, or why it cannot be read.
    public static func contents(of file: String, target: String) throws -> Data {
        let path = try path(of: file, target: target)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RuntimeFileReadError(path: path, reason: error.localizedDescription)
        }
    }

    /// The path of `file` among `target`'s run-time files; the error names every folder searched.
    public static func path(of file: String, target: String) throws(RuntimeFileError) -> String {
        guard let folder = folder(holding: file, target: target) else {
            throw RuntimeFileError(file: file, searched: candidates(target: target))
        }
        return folder + "/" + file
    }
}

/// A run-time file that is in none of the places a build or an install puts it.
public struct RuntimeFileError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var searched: [String]
    public var description: String {
        "\(file) is in none of \(searched.joined(separator: ", ")) (a build keeps it beside the executable, `make install` in PREFIX/\(RuntimeFiles.installedFolder))"
    }
}

/// A run-time file that is there but cannot be read.
public struct RuntimeFileReadError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
