import Foundation
import WelkinResources
import XCTest
import WelkinImage

/// `make install` and `make uninstall` (Scripts/install.sh) into a staged prefix: the installed binary
/// renders from a folder with no checkout above it (its shaders and the star catalogue from
/// PREFIX/share/welkin), the completions and the man page are there and name the commands and options,
/// and uninstall leaves no file behind. The debug build is installed through `make install-built`,
/// the same script `make install` runs after its release build.
final class InstallTests: XCTestCase {
    static let prefix = "/opt/welkin-test"
    var stage: URL!
    var elsewhere: URL!

    override func setUpWithError() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-install-\(UUID().uuidString)")
        stage = temp.appendingPathComponent("stage")
        elsewhere = temp.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: stage.deletingLastPathComponent()) }

    var top: URL { stage.appendingPathComponent(String(Self.prefix.dropFirst())) }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String]? = nil) throws -> Run {
        let r = try EndToEndTests.runProcess(URL(fileURLWithPath: executable), arguments, in: directory, environment: environment)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    func make(_ target: String) throws -> Run {
        try run("/usr/bin/env", ["make", "--no-print-directory", target, "PREFIX=\(Self.prefix)", "DESTDIR=\(stage.path)",
                                 "WELKIN_BINARY=\(EndToEndTests.welkin.path)"], in: EndToEndTests.repository)
    }

    /// Every regular file under `url`, relative to it.
    func files(under url: URL) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: url.path) else { return [] }
        return walk.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    func testInstallRunsFromAnywhereAndUninstallRemovesEverything() throws {
        let install = try make("install-built")
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let welkin = top.appendingPathComponent("bin/welkin").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: welkin))

        // Every file of every resource bundle the build keeps beside the binary is installed too.
        let installed = Set(files(under: top).map { ($0 as NSString).lastPathComponent })
        let buildFolder = EndToEndTests.welkin.deletingLastPathComponent()
        let bundles = try FileManager.default.contentsOfDirectory(atPath: buildFolder.path)
            .filter { $0.hasPrefix("Welkin_") && $0.hasSuffix(".resources") }
        XCTAssertTrue(bundles.contains("Welkin_WelkinGL.resources"), "\(bundles)")
        for bundle in bundles {
            for file in files(under: buildFolder.appendingPathComponent(bundle)) {
                XCTAssertTrue(installed.contains((file as NSString).lastPathComponent), "\(bundle)/\(file) is not installed")
            }
        }

        // Rendered from a folder with no checkout above it: the shaders come from PREFIX/share/welkin/Shaders.
        let scene = EndToEndTests.repository.appendingPathComponent("Scenes/day-gradient.json").path
        let render = try run(welkin, ["render", scene, "--size", "64x36", "-o", "out.png"], in: elsewhere)
        XCTAssertEqual(render.status, 0, render.stderr)
        let image = try PNG.read(path: elsewhere.appendingPathComponent("out.png").path)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 36)
        XCTAssertGreaterThan(image[32, 35].x, image[32, 0].x, "day-gradient.json runs from dark blue at the top to light blue at the bottom")
        // The star catalogue from PREFIX/share/welkin.
        let ephemeris = try run(welkin, ["ephemeris", "--date", "2025-01-03T22:30:00+01:00", "--lat", "48.85", "--lon", "2.35",
                                         "--stars", "1"], in: elsewhere)
        XCTAssertEqual(ephemeris.status, 0, ephemeris.stderr)
        XCTAssertTrue(ephemeris.stdout.contains("Betelgeuse"), ephemeris.stdout)

        // A package with a live sky from the install: the sky's modules come from PREFIX/share/welkin/Swift.
        let package = try run(welkin, ["export-code", "default", "--package", "pkg", "--duration", "0.5", "--rate", "2"], in: elsewhere)
        XCTAssertEqual(package.status, 0, package.stderr)
        for file in ["Sources/CERFA/include/erfa.h", "Sources/CERFA/moon98.c", "Sources/CERFA/LICENSE", "Sources/WelkinSkyModel/Sky/LiveSky.swift",
                     "Sources/WelkinAstronomy/Ephemeris.swift", "Sources/WelkinAtmosphere/SkyViewTable.swift", "Sources/WelkinResources/Inflate.swift"] {
            let installed = try Data(contentsOf: elsewhere.appendingPathComponent("pkg/" + file))
            XCTAssertEqual(installed, try Data(contentsOf: EndToEndTests.repository.appendingPathComponent(file)), file)
        }

        // The data files, compressed from the installed ones: the same bytes when inflated.
        for name in ["stars.bin", "vsop87.bin", "milkyway.bin"] {
            let packed = try Data(contentsOf: elsewhere.appendingPathComponent("pkg/Sources/WelkinResources/Data/\(name).z"))
            XCTAssertEqual(Data(try Inflate.zlib([UInt8](packed))),
                           try Data(contentsOf: EndToEndTests.repository.appendingPathComponent("Sources/WelkinAstronomy/Data/" + name)), name)
        }

        // Without the installed shaders it fails, naming where it looked: the copy found above was the installed one.
        let shaders = self.top.appendingPathComponent("share/welkin/Shaders")
        let hidden = self.top.appendingPathComponent("share/welkin/Shaders-hidden")
        try FileManager.default.moveItem(at: shaders, to: hidden)
        let without = try run(welkin, ["render", scene, "--size", "64x36", "-o", "out2.png"], in: elsewhere)
        try FileManager.default.moveItem(at: hidden, to: shaders)
        XCTAssertEqual(without.status, 1)
        XCTAssertTrue(without.stderr.contains("cannot find Welkin's shaders") && without.stderr.contains(shaders.path), without.stderr)

        // Completions and the man page, written by the binary from its command table.
        let generated = [
            "share/bash-completion/completions/welkin", "share/zsh/site-functions/_welkin",
            "share/fish/vendor_completions.d/welkin.fish", "share/man/man1/welkin.1",
        ]
        for path in generated {
            let text = try String(contentsOf: self.top.appendingPathComponent(path), encoding: .utf8)
            XCTAssertTrue(text.contains("render"), "\(path) does not mention render")
            XCTAssertTrue(text.contains("projection"), "\(path) does not mention --projection")
        }
        let bash = try String(contentsOf: self.top.appendingPathComponent(generated[0]), encoding: .utf8)
        XCTAssertTrue(bash.contains("--projection) COMPREPLY=($(compgen -W \"view equirect fisheye cubemap\""), bash)
        let man = try String(contentsOf: self.top.appendingPathComponent(generated[3]), encoding: .utf8)
        XCTAssertTrue(man.hasPrefix(".\\\" welkin.1") && man.contains(".TH WELKIN 1") && man.contains(".SS render"))
        XCTAssertTrue(man.contains("\\fB\\-\\-projection\\fR \\fIP\\fR"), "the man page lists render's --projection P")

        // Uninstall: not one file left, and a second uninstall says there is nothing to remove.
        let uninstall = try make("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        XCTAssertEqual(files(under: stage), [])
        let again = try make("uninstall")
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("welkin is not installed under \(self.top.path)"), again.stderr)
    }

    /// The bash completion at work: command names, a command's options, an option's choices, and
    /// `help`'s command names; a shell welkin has no script for is a usage error naming the ones it has.
    func testBashCompletionAnswersFromTheCommandTable() throws {
        let script = try EndToEndTests.run(["help", "--completions", "bash"])
        XCTAssertEqual(script.status, 0, script.stderr)
        let file = elsewhere.appendingPathComponent("welkin.bash")
        try Data(script.stdout.utf8).write(to: file)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try run("/bin/bash", ["-c", "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
                                          + "_welkin; printf '%s\\n' \"${COMPREPLY[@]}\""], in: elsewhere)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["welkin", "re"]), ["render", "reference"])
        XCTAssertEqual(try complete(["welkin", "render", "--pro"]), ["--projection"])
        XCTAssertEqual(try complete(["welkin", "render", "--projection", ""]), ["view", "equirect", "fisheye", "cubemap"])
        XCTAssertEqual(try complete(["welkin", "reference", "--fit", "c"]), ["cover", "contain"])
        XCTAssertEqual(try complete(["welkin", "help", "ex"]), ["export", "export-code", "export-web"])
        XCTAssertEqual(try complete(["welkin", "help", "--completions", ""]), ["bash", "zsh", "fish"])

        let tcsh = try EndToEndTests.run(["help", "--completions", "tcsh"])
        XCTAssertEqual(tcsh.status, 2)
        XCTAssertTrue(tcsh.stderr.hasPrefix("welkin: --completions expects bash, zsh or fish, got 'tcsh'\n"
                                            + "Usage: welkin help [COMMAND | --man | --completions SHELL]\n"), tcsh.stderr)
    }
}
