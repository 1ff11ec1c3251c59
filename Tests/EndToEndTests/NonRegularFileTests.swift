// A FIFO (or a directory, or a device) where a scene names a file: the scene file itself, a
// sprite image, a shader, an #include, a Shadertoy channel image, a font file. Opening a FIFO for
// reading blocks until a writer comes, so before the fix `validate`, `render` and `view` hung
// there for ever. Each case runs the binary with a deadline, so the old behaviour fails the test
// (the process is killed) instead of hanging the suite.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class NonRegularFileTests: XCTestCase {
    typealias E2E = EndToEndTests

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    struct Run { var status: Int32; var stderr: String; var seconds: Double }

    /// Runs `welkin ARGUMENTS` in `directory`; kills it after `deadline` seconds and fails the test.
    func run(_ arguments: [String], deadline: Double = 15, environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = E2E.welkin
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let errFile = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let err = try FileHandle(forWritingTo: errFile)
        defer { try? err.close() }
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        while process.isRunning && Date().timeIntervalSince(start) < deadline { usleep(10_000) }
        let seconds = Date().timeIntervalSince(start)
        if process.isRunning {
            process.terminate()
            usleep(200_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            XCTFail("welkin \(arguments.joined(separator: " ")) still ran after \(deadline) s (blocked on a FIFO?)")
        } else {
            process.waitUntilExit()
        }
        let stderr = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        return Run(status: process.isRunning ? -1 : process.terminationStatus, stderr: stderr, seconds: seconds)
    }

    func fifo(_ name: String) throws {
        let path = directory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(mkfifo(path, 0o644), 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
    }

    func copy(_ name: String, as target: String? = nil) throws {
        let to = directory.appendingPathComponent(target ?? name)
        try? FileManager.default.removeItem(at: to)
        try FileManager.default.copyItem(at: E2E.repository.appendingPathComponent("Scenes/\(name)"), to: to)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// `command scene` exits 1 within the deadline, with exactly `message` on stderr.
    func assertRefused(_ command: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try run(command)
        XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, message + "\n", "\(command)", file: file, line: line)
        XCTAssertLessThan(r.seconds, 10, "\(command)", file: file, line: line)
    }

    func testASceneFileThatIsAFIFOIsRefused() throws {
        try fifo("scene.json")
        let message = "scene.json: the scene file is not a regular file (it is a FIFO)"
        try assertRefused(["validate", "scene.json"], message)
        try assertRefused(["reference", "scene.json", "-o", "o.png", "--size", "64x36"], message)
        try assertRefused(["render", "scene.json", "-o", "o.png", "--size", "64x36"], message)
        // The viewer loads the scene before it opens a window: the same sentence, with or without a display.
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let r = try run(["view", "scene.json"], environment: environment)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, message + "\n")
        // A directory and a device: refused the same way (reading /dev/zero never ends).
        try assertRefused(["validate", directory.path], "\(directory.path): the scene file is not a regular file (it is a directory)")
        try assertRefused(["validate", "/dev/zero"], "/dev/zero: the scene file is not a regular file (it is a character device)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("o.png").path))
    }

    func testASpriteImageThatIsAFIFOIsRefused() throws {
        try write("sprites.json", """
        {"size": [64, 36], "layers": [{"type": "emitter", "position": [32, 0],
          "cells": [{"birthRate": 10, "lifetime": 2, "velocity": 20, "image": "flake.png"}]}]}
        """)
        try fifo("flake.png")
        let path = directory.appendingPathComponent("flake.png").path
        let message = "sprites.json: layers[0].cells[0].image: the image 'flake.png' (\(path)) is not a regular file (it is a FIFO)"
        try assertRefused(["validate", "sprites.json"], message)
        try assertRefused(["reference", "sprites.json", "-o", "o.png", "--size", "64x36"], message)
    }

    func testAShaderAndAChannelImageThatAreFIFOsAreRefused() throws {
        try copy("shadertoy-clouds.json")
        try copy("noise-rgba.png")
        try fifo("clouds.frag")
        let shader = directory.appendingPathComponent("clouds.frag").path
        let message = "shadertoy-clouds.json: layers[0].fragment: the shader file 'clouds.frag' (\(shader)) is not a regular file (it is a FIFO)"
        try assertRefused(["validate", "shadertoy-clouds.json"], message)
        try assertRefused(["render", "shadertoy-clouds.json", "-o", "o.png", "--size", "64x36"], message)

        try copy("clouds.frag")
        try fifo("noise-rgba.png")
        let image = directory.appendingPathComponent("noise-rgba.png").path
        let channel = "shadertoy-clouds.json: layers[0].channels[0].image: the image 'noise-rgba.png' (\(image)) is not a regular file (it is a FIFO)"
        try assertRefused(["validate", "shadertoy-clouds.json"], channel)
        try assertRefused(["render", "shadertoy-clouds.json", "-o", "o.png", "--size", "64x36"], channel)
    }

    func testAnIncludedFileThatIsAFIFOIsRefused() throws {
        try copy("shader-aurora.json")
        let text = try String(contentsOf: E2E.repository.appendingPathComponent("Scenes/aurora.frag"), encoding: .utf8)
        XCTAssertTrue(text.contains("#include \"colorspace.glsl\""))
        try write("aurora.frag", text.replacingOccurrences(of: "#include \"colorspace.glsl\"", with: "#include \"helpers.glsl\""))
        try fifo("helpers.glsl")
        let fragment = directory.appendingPathComponent("aurora.frag").path
        let helpers = directory.appendingPathComponent("helpers.glsl").path
        try assertRefused(["render", "shader-aurora.json", "-o", "o.png", "--size", "64x36"],
                          "\(fragment):8: included file '\(helpers)' is not a regular file (it is a FIFO)")
    }

    func testAFontFileThatIsAFIFOIsRefused() throws {
        try write("text.json", """
        {"size": [64, 36], "layers": [{"type": "text", "string": "hi", "font": "face.ttf", "size": 12}]}
        """)
        try fifo("face.ttf")
        let path = directory.appendingPathComponent("face.ttf").path
        let message = "text.json: layers[0].font: cannot read the font file '\(path)': it is not a regular file (a FIFO)"
        // Decoding asks nothing of fonts (#27): validate warns, without blocking on the FIFO; drawing refuses.
        let validate = try run(["validate", "text.json"])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(validate.stderr, "text.json: layers[0].font: warning: this machine cannot draw it: cannot read the font file '\(path)': it is not a regular file (a FIFO)\n")
        XCTAssertLessThan(validate.seconds, 10)
        try assertRefused(["reference", "text.json", "-o", "o.png", "--size", "64x36"], message)
    }
}
