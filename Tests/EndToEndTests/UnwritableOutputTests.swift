// An output that cannot be written: every command names the path and the reason in plain words,
// exits 1, renders nothing and leaves nothing behind.

import Foundation
import WelkinImage
import XCTest

final class UnwritableOutputTests: XCTestCase {
    typealias E2E = EndToEndTests

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-unwritable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testAMissingFolderIsNamed() throws {
        let cases: [([String], String)] = [
            (["render", "Scenes/day-gradient.json", "-o", "/nonexistent/dir/x.png", "--size", "8x8"], "/nonexistent/dir/x.png"),
            (["reference", "Scenes/day-gradient.json", "-o", "/nonexistent/dir/x.png", "--size", "8x8"], "/nonexistent/dir/x.png"),
            (["render", "Scenes/day-gradient.json", "-o", "/nonexistent/dir/x.exr", "--size", "8x8"], "/nonexistent/dir/x.exr"),
            (["reference", "Scenes/day-gradient.json", "-o", "/nonexistent/dir/x.exr", "--size", "8x8"], "/nonexistent/dir/x.exr"),
            (["export", "Scenes/day-gradient.json", "-o", "/nonexistent/dir/%04d.png", "--size", "8x8", "--duration", "0.1"],
             "/nonexistent/dir/%04d.png"),
        ]
        for (arguments, out) in cases {
            let r = try E2E.run(arguments)
            XCTAssertEqual(r.status, 1, "\(arguments)")
            XCTAssertEqual(r.stderr, "cannot write \(out): the folder /nonexistent/dir does not exist\n", "\(arguments)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/nonexistent"))
    }

    /// The output is checked before the scene is rendered, or even read: no work is wasted.
    func testTheOutputIsCheckedBeforeAnyWork() throws {
        let r = try E2E.run(["reference", "Scenes/nope.json", "-o", "/nonexistent/dir/x.png"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "cannot write /nonexistent/dir/x.png: the folder /nonexistent/dir does not exist\n")
    }

    func testAFileWhereTheFolderShouldBe() throws {
        let file = directory.appendingPathComponent("file").path
        try Data([1]).write(to: URL(fileURLWithPath: file))
        for command in ["render", "reference"] {
            let r = try E2E.run([command, "Scenes/day-gradient.json", "-o", file + "/x.png", "--size", "8x8"])
            XCTAssertEqual(r.status, 1, command)
            XCTAssertEqual(r.stderr, "cannot write \(file)/x.png: \(file) is not a folder\n", command)
        }
        let folder = directory.appendingPathComponent("taken.png").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let r = try E2E.run(["reference", "Scenes/day-gradient.json", "-o", folder, "--size", "8x8"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "cannot write \(folder): it is a folder\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["file", "taken.png"])
    }

    func testAFolderWithoutPermission() throws {
        let locked = directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(locked.path, 0o555), 0)
        defer { chmod(locked.path, 0o755) }
        // root may write anywhere; the sentence is still checked where it cannot be provoked.
        XCTAssertEqual(OutputFile.reason(EACCES, folder: locked.path), "permission denied")
        XCTAssertEqual(OutputFile.reason(EROFS, folder: locked.path), "the file system is read-only")
        guard getuid() != 0 else { return }
        let out = locked.appendingPathComponent("x.png").path
        let r = try E2E.run(["reference", "Scenes/day-gradient.json", "-o", out, "--size", "8x8"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "cannot write \(out): permission denied\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), [])
    }

    func testCompareNamesTheFolderItCannotMake() throws {
        let file = directory.appendingPathComponent("file").path
        try Data([1]).write(to: URL(fileURLWithPath: file))
        let r = try E2E.run(["compare", "Scenes/day-gradient.json", "--size", "8x8", "--out", file + "/out"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "cannot create the folder \(file): it is not a folder\n")
    }
}
