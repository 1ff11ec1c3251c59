// The Swift compiler as the export tests use it: stub modules of Apple's frameworks built once per
// test run, and `swiftc -typecheck` or a build-and-run of generated code, several at a time.

import Foundation
import XCTest

enum SwiftCompiler {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `swiftc` of the toolchain on PATH (the one running these tests), else the project machine's.
    static let swiftc: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/opt/swift/usr/bin/swiftc"
    }()

    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs several commands at once (the machine's cores share them), output to files so that no
    /// pipe can fill up and stall a compiler.
    static func run(_ commands: [[String]], in directory: URL) throws -> [Run] {
        var processes: [(Process, URL)] = []
        for (i, arguments) in commands.enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.currentDirectoryURL = directory
            let log = directory.appendingPathComponent("run-\(i)-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            processes.append((process, log))
        }
        return processes.map { process, log in
            process.waitUntilExit()
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: log)
            return Run(status: process.terminationStatus, output: output)
        }
    }

    /// The stub modules of Apple's frameworks (Tests/Fixtures/AppleAPIStubs), built once: a folder
    /// for each platform branch of exported code. `ios` holds UIKit, so `#if canImport(UIKit)` takes
    /// the iOS branch there; `mac` holds AppKit instead.
    struct Stubs {
        var ios: URL
        var mac: URL
        var shared: URL
    }

    nonisolated(unsafe) private static var builtStubs: Result<Stubs, Error>?
    private static let lock = NSLock()

    static func stubs() throws -> Stubs {
        lock.lock()
        defer { lock.unlock() }
        if let builtStubs { return try builtStubs.get() }
        let result = Result { try buildStubs() }
        builtStubs = result
        return try result.get()
    }

    /// Built stubs are kept in the temporary folder under a hash of their sources and of the
    /// compiler, so later test runs skip building them (3–4 s on the project's 2-core machine).
    private static func buildStubs() throws -> Stubs {
        let sources = repository.appendingPathComponent("Tests/Fixtures/AppleAPIStubs")
        let names = ["CoreGraphics", "Metal", "QuartzCore", "UIKit", "AppKit", "MetalKit", "SwiftUI"]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        let compiler = (try? FileManager.default.attributesOfItem(atPath: swiftc)[.modificationDate] as? Date)?.description ?? ""
        for text in try names.map({ try String(contentsOf: sources.appendingPathComponent("\($0).swift"), encoding: .utf8) }) + [swiftc, compiler] {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        let cached = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-stubs-\(String(hash, radix: 16))")
        let built = Stubs(ios: cached.appendingPathComponent("ios"), mac: cached.appendingPathComponent("mac"),
                          shared: cached.appendingPathComponent("shared"))
        if FileManager.default.fileExists(atPath: built.mac.appendingPathComponent("SwiftUI.swiftmodule").path) { return built }

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-stubs-\(UUID().uuidString)")
        let stubs = Stubs(ios: root.appendingPathComponent("ios"), mac: root.appendingPathComponent("mac"),
                          shared: root.appendingPathComponent("shared"))
        for folder in [stubs.ios, stubs.mac, stubs.shared] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        func module(_ name: String, into folder: URL, searching: [URL]) -> [String] {
            [swiftc, "-emit-module", "-parse-as-library", "-swift-version", "5", "-module-name", name,
             "-o", folder.appendingPathComponent("\(name).swiftmodule").path]
                + searching.flatMap { ["-I", $0.path] } + [sources.appendingPathComponent("\(name).swift").path]
        }
        func check(_ runs: [Run]) throws {
            for r in runs where r.status != 0 { throw StubError(message: r.output) }
        }
        try check(try run([module("CoreGraphics", into: stubs.shared, searching: []),
                           module("Metal", into: stubs.shared, searching: [])], in: root))
        try check(try run([module("QuartzCore", into: stubs.shared, searching: [stubs.shared])], in: root))
        try check(try run([module("UIKit", into: stubs.ios, searching: [stubs.shared]),
                           module("AppKit", into: stubs.mac, searching: [stubs.shared])], in: root))
        try check(try run([module("MetalKit", into: stubs.ios, searching: [stubs.shared, stubs.ios]),
                           module("MetalKit", into: stubs.mac, searching: [stubs.shared, stubs.mac])], in: root))
        try check(try run([module("SwiftUI", into: stubs.ios, searching: [stubs.shared, stubs.ios]),
                           module("SwiftUI", into: stubs.mac, searching: [stubs.shared, stubs.mac])], in: root))
        // Into place in one rename; if another run got there first, use its copy.
        if (try? FileManager.default.moveItem(at: root, to: cached)) != nil { return built }
        return FileManager.default.fileExists(atPath: built.mac.appendingPathComponent("SwiftUI.swiftmodule").path) ? built : stubs
    }

    struct StubError: Error, CustomStringConvertible {
        var message: String
        var description: String { "the Apple API stubs do not build:\n\(message)" }
    }

    /// The line numbers of `file` that the compiler's `output` reports errors on (the stub tests'
    /// "one error on each wrong line").
    static func errorLines(_ output: String, in file: URL) -> Set<Substring> {
        Set(output.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix(file.path + ":"), line.contains(": error: ") else { return nil }
            return line.dropFirst(file.path.count + 1).prefix { $0 != ":" }
        })
    }

    struct DriverError: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds and runs a driver `program` (Swift 6, Foundation only) and returns what it printed as
    /// `key<TAB>numbers separated by spaces`, by key: how the runtime-twin tests read the exported maths.
    static func runDriver(_ program: String, name: String) throws -> [String: [Double]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("main.swift")
        try program.write(to: source, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent(name)
        let build = try run([[swiftc, "-swift-version", "6", source.path, "-o", executable.path]], in: directory)[0]
        guard build.status == 0 else { throw DriverError(description: "the driver does not build:\n\(build.output)") }
        let ran = try run([[executable.path]], in: directory)[0]
        guard ran.status == 0 else { throw DriverError(description: "the driver failed:\n\(ran.output)") }
        return printed(ran.output)
    }

    /// The modules a package's live sky brings (PackageExport.skyModules and what they need), in
    /// the order their targets are declared, with each one's dependencies.
    static let skyTargets: [(name: String, dependencies: [String])] = [
        ("CERFA", []), ("WelkinResources", []), ("WelkinAtmosphere", []),
        ("WelkinAstronomy", ["CERFA", "WelkinResources"]), ("WelkinSkyModel", ["WelkinAtmosphere", "WelkinAstronomy"]),
    ]

    /// Like runDriver, for a driver that imports WelkinSkyModel: built by SwiftPM (release) as a
    /// package whose other targets are the sky's modules copied from an exported package's
    /// `sources` folder, as the package has them.
    /// The driver package is kept in the temporary folder under a hash of the sky's sources and the
    /// compiler, so a second driver (and a later run) rebuilds only its main.swift (the model's
    /// release build is some 30 s on the project's 2-core machine).
    static func runPackageDriver(_ program: String, name: String, sources: URL) throws -> [String: [Double]] {
        lock.lock()
        defer { lock.unlock() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a over the files, their paths and the compiler
        let compiler = (try? FileManager.default.attributesOfItem(atPath: swiftc)[.modificationDate] as? Date)?.description ?? ""
        for byte in (swiftc + compiler).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for target in skyTargets {
            let folder = sources.appendingPathComponent(target.name)
            for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else { continue }
                for byte in (target.name + "/" + path).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-sky-driver-\(String(hash, radix: 16))")
        if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Sources/WelkinSkyModel").path) {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("Sources/Driver"), withIntermediateDirectories: true)
            for target in skyTargets {
                try FileManager.default.copyItem(at: sources.appendingPathComponent(target.name), to: directory.appendingPathComponent("Sources/\(target.name)"))
            }
        }
        try program.write(to: directory.appendingPathComponent("Sources/Driver/main.swift"), atomically: true, encoding: .utf8)
        let targets = skyTargets.map { t in
            ".target(name: \"\(t.name)\", dependencies: [\(t.dependencies.map { "\"\($0)\"" }.joined(separator: ", "))]"
                + (t.name == "CERFA" ? ", exclude: [\"LICENSE\", \"README.md\"]" : "")
                + (t.name == "WelkinResources" ? ", resources: [.copy(\"Data\")]" : "") + "),"
        }
        let manifest = "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"Driver\", targets: [\n"
            + targets.joined(separator: "\n") + "\n.executableTarget(name: \"Driver\", dependencies: [\"WelkinSkyModel\"]),\n])\n"
        try manifest.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let swiftPM = URL(fileURLWithPath: swiftc).deletingLastPathComponent().appendingPathComponent("swift").path
        let build = try run([[swiftPM, "build", "-c", "release", "--package-path", directory.path]], in: directory)[0]
        guard build.status == 0 else { throw DriverError(description: "the driver package does not build:\n\(build.output)") }
        let ran = try run([[directory.appendingPathComponent(".build/release/Driver").path]], in: directory)[0]
        guard ran.status == 0 else { throw DriverError(description: "the driver failed:\n\(ran.output)") }
        return printed(ran.output)
    }

    /// A driver's output as `key<TAB>numbers separated by spaces` lines, by key.
    static func printed(_ output: String) -> [String: [Double]] {
        var printed: [String: [Double]] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            printed[String(parts[0])] = parts[1].split(separator: " ").compactMap { Double($0) }
        }
        return printed
    }

    /// `swiftc -typecheck` arguments for `files` against the stubs of one platform, in Swift 6 mode.
    static func typecheck(_ files: [URL], platform: URL, stubs: Stubs) -> [String] {
        [swiftc, "-typecheck", "-swift-version", "6", "-I", stubs.shared.path, "-I", platform.path] + files.map(\.path)
    }
}
