import Foundation
import XCTest
import WelkinTestSupport
import WelkinCore
import WelkinGL
@testable import WelkinViewer
import WelkinImage

/// The reload watcher against each way editors save a file.
final class FileWatcherTests: XCTestCase {
    var directory: URL!
    var file: String { directory.appendingPathComponent("sky.frag").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "void main() {}\n".write(toFile: file, atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Polls until a change arrives or a second passes.
    func waitForChanges(_ watcher: FileWatcher) -> [String] {
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline {
            let c = watcher.changes().map(\.path)
            if !c.isEmpty { return c }
            usleep(5_000)
        }
        return []
    }

    func makeWatcher() throws -> FileWatcher {
        let w = try FileWatcher()
        try w.watch([file])
        return w
    }

    func testInPlaceWrite() throws {
        let w = try makeWatcher()
        try "void main() { }\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
    }

    func testRenameOverTheFile() throws {
        // vim and VS Code: write a temporary file, rename it over the original.
        let w = try makeWatcher()
        let temp = directory.appendingPathComponent(".sky.frag.swp").path
        try "void main() { /* v2 */ }\n".write(toFile: temp, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temp, file), 0)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
    }

    func testSedInPlace() throws {
        let w = try makeWatcher()
        let sed = Process()
        sed.executableURL = URL(fileURLWithPath: "/bin/sed")
        sed.arguments = ["-i", "s/main/main2/", file]
        try sed.run()
        sed.waitUntilExit()
        XCTAssertEqual(sed.terminationStatus, 0)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
    }

    func testTruncateThenWrite() throws {
        let w = try makeWatcher()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 0)
        usleep(10_000)
        try handle.write(contentsOf: Data("void main() { /* v3 */ }\n".utf8))
        try handle.close()
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
    }

    func testUnchangedContentIsNotAChange() throws {
        let w = try makeWatcher()
        try "void main() {}\n".write(toFile: file, atomically: false, encoding: .utf8)
        usleep(100_000)
        XCTAssertEqual(w.changes().map(\.path), [])
    }

    func testOtherFilesInTheDirectoryAreIgnored() throws {
        let w = try makeWatcher()
        try "x".write(toFile: directory.appendingPathComponent("other.glsl").path, atomically: false, encoding: .utf8)
        usleep(100_000)
        XCTAssertEqual(w.changes().map(\.path), [])
    }

    func testSeveralQuickWritesAreOneChange() throws {
        let w = try makeWatcher()
        for i in 0..<5 {
            try "void main() { /* \(i) */ }\n".write(toFile: file, atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
        usleep(100_000)
        XCTAssertEqual(w.changes().map(\.path), [])
    }

    func testDebounceWaitsForQuiet() throws {
        let w = try FileWatcher(debounce: 0.2)
        try w.watch([file])
        try "void main() { /* a */ }\n".write(toFile: file, atomically: false, encoding: .utf8)
        usleep(50_000)
        XCTAssertEqual(w.changes().map(\.path), [])
        XCTAssertTrue(w.hasPending)
        usleep(250_000)
        XCTAssertEqual(w.changes().map(\.path), [FileWatcher.absolute(file)])
    }

    /// The inotify watches the kernel holds for `watcher` (one `inotify wd:` line each in fdinfo).
    func kernelWatchCount(_ watcher: FileWatcher) throws -> Int {
        let info = try String(contentsOfFile: "/proc/self/fdinfo/\(watcher.fileDescriptor)", encoding: .utf8)
        return info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
    }

    func testWatchesOfDirectoriesNoLongerNeededAreRemoved() throws {
        // A long session: a scene includes files from many folders, then a reload drops them.
        var files: [String] = []
        for i in 0..<20 {
            let folder = directory.appendingPathComponent("include-\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("part.glsl").path
            try "// \(i)\n".write(toFile: path, atomically: false, encoding: .utf8)
            files.append(path)
        }
        let w = try makeWatcher()
        try w.watch([file] + files)
        XCTAssertEqual(try kernelWatchCount(w), 21)
        XCTAssertEqual(w.watchCount, 21)
        try w.watch([file, files[3]])
        XCTAssertEqual(try kernelWatchCount(w), 2, "watches of folders no watched file is in are removed")
        XCTAssertEqual(w.watchCount, 2)
        try w.watch([file])
        XCTAssertEqual(try kernelWatchCount(w), 1)
        XCTAssertEqual(w.watchCount, 1)
        // The folder still watched still reports changes; a dropped folder no longer does.
        try "// edited\n".write(toFile: files[3], atomically: false, encoding: .utf8)
        try "void main() { /* v4 */ }\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(file)])
        // Watching a dropped folder again works (a fresh watch).
        try w.watch([file, files[3]])
        XCTAssertEqual(try kernelWatchCount(w), 2)
        try "// edited again\n".write(toFile: files[3], atomically: false, encoding: .utf8)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(files[3])])
    }

    func testADeletedFolderGivesUpItsWatch() throws {
        let folder = directory.appendingPathComponent("gone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("a.glsl").path
        try "// a\n".write(toFile: path, atomically: false, encoding: .utf8)
        let w = try makeWatcher()
        try w.watch([file, path])
        XCTAssertEqual(w.watchCount, 2)
        try FileManager.default.removeItem(at: folder)
        usleep(50_000)
        _ = w.changes()
        XCTAssertEqual(w.watchCount, 1, "the kernel dropped the deleted folder's watch (IN_IGNORED)")
        XCTAssertEqual(try kernelWatchCount(w), 1)
    }

    func testTheSpriteImagesOfASceneAreWatched() throws {
        let sprite = directory.appendingPathComponent("sprite.png").path
        try PNG.write(Image(width: 2, height: 2, fill: SIMD4(255, 0, 0, 255)), to: sprite)
        let scene = try SceneLoader.decode("""
            {"layers": [{"type": "emitter", "cells": [{"image": "sprite.png"}]}]}
            """, file: directory.appendingPathComponent("scene.json").path, directory: directory.path)
        // What the viewer watches for a scene: its shaders and its sprite images.
        let files = try TestGL.renderer().files(for: scene)
        XCTAssertTrue(files.contains(sprite), "\(files)")
        let w = try FileWatcher()
        try w.watch(files)
        let temp = directory.appendingPathComponent("export.png").path
        try PNG.write(Image(width: 2, height: 2, fill: SIMD4(0, 0, 255, 255)), to: temp)
        XCTAssertEqual(rename(temp, sprite), 0)
        XCTAssertEqual(waitForChanges(w), [FileWatcher.absolute(sprite)])
    }
}
