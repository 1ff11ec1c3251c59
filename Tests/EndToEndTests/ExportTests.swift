import Foundation
import XCTest
import WelkinReference
import WelkinImage

/// `welkin export` run as a user would, checked with ffprobe/ffmpeg, and the still output names.
/// Small sizes and short clips: the whole file takes well under a minute on two slow cores.
final class ExportTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: EndToEndTests.welkin.path),
                      "build the welkin executable first (make test does): \(EndToEndTests.welkin.path)")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The names in the test folder (hidden ones too: a leftover temporary file must show).
    func listing(_ folder: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder ?? directory.path).sorted()
    }

    /// Runs `executable` (welkin by default) with ARGUMENTS in `folder` (default: the repository
    /// root), with extra environment variables; returns its status and output.
    @discardableResult
    func run(_ arguments: [String], executable: String? = nil, in folder: URL = EndToEndTests.repository,
             environment: [String: String] = [:]) throws -> EndToEndTests.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? EndToEndTests.welkin.path)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read stderr on the side so neither pipe can fill up while we wait on the other.
        let stderr = Collected()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { stderr.data = err.fileHandleForReading.readDataToEndOfFile(); done.signal() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return EndToEndTests.Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                 stderr: String(decoding: stderr.data, as: UTF8.self))
    }

    /// Bytes read on another thread, handed over through a semaphore.
    final class Collected: @unchecked Sendable { var data = Data() }

    func tool(_ name: String) -> String { "/usr/bin/" + name }

    /// ffprobe's codec, size and counted frames of the first video stream.
    func probe(_ file: String) throws -> (codec: String, width: Int, height: Int, frames: Int) {
        let r = try run(["-v", "error", "-count_frames", "-select_streams", "v:0",
                         "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "default=nw=1", file],
                        executable: tool("ffprobe"))
        XCTAssertEqual(r.status, 0, r.stderr)
        var fields: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return (fields["codec_name"] ?? "?", Int(fields["width"] ?? "") ?? 0, Int(fields["height"] ?? "") ?? 0,
                Int(fields["nb_read_frames"] ?? "") ?? 0)
    }

    /// Frame `index` of a video decoded by ffmpeg to raw RGBA (raw, so no PNG gamma chunk gets in the way).
    func decodeFrame(_ file: String, index: Int, width: Int, height: Int) throws -> Image {
        let raw = path("frame.rgba")
        let r = try run(["-v", "error", "-y", "-i", file, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                         "-f", "rawvideo", "-pix_fmt", "rgba", raw], executable: tool("ffmpeg"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        XCTAssertEqual(bytes.count, width * height * 4)
        return Image(width: width, height: height, pixels: bytes.count == width * height * 4 ? bytes : [UInt8](repeating: 0, count: width * height * 4))
    }

    /// `welkin render` of the same scene, time and size.
    func render(_ scene: String, time: String, size: String) throws -> (path: String, image: Image) {
        let out = path("render-\(time).png")
        let r = try run(["render", scene, "--time", time, "--size", size, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (out, try PNG.read(path: out))
    }

    /// Exports a 640×360 video, probes it, and compares frame 30 (t = 1 s) with `welkin render --time 1`.
    func checkVideo(_ name: String, codec: String, duration: String, frames: Int) throws -> Double {
        let out = path(name)
        let r = try run(["export", "Scenes/snow.json", "-o", out, "--duration", duration, "--fps", "30", "--size", "640x360"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote \(out) (\(frames) frames, 640×360, 30 fps, t = 0 … "), r.stdout)
        XCTAssertEqual(r.stderr, "", "no progress lines in a pipe for a short clip, and no warnings")
        let info = try probe(out)
        XCTAssertEqual(info.codec, codec)
        XCTAssertEqual(info.width, 640)
        XCTAssertEqual(info.height, 360)
        XCTAssertEqual(info.frames, frames)
        let decoded = try decodeFrame(out, index: 30, width: 640, height: 360)
        let psnr = try Comparison(decoded, try render("Scenes/snow.json", time: "1", size: "640x360").image).psnr
        XCTAssertGreaterThanOrEqual(psnr, 38, "\(name): frame 30 against welkin render --time 1")
        XCTAssertEqual(try listing(), [name, "frame.rgba", "render-1.png"].sorted(), "only the output: no temporary file left")
        return psnr
    }

    func testMP4HasEveryFrameAndMatchesRender() throws {
        let psnr = try checkVideo("snow.mp4", codec: "h264", duration: "2", frames: 60)
        print("export mp4: frame 30 PSNR \(String(format: "%.2f", psnr)) dB")
    }

    func testWebMHasEveryFrameAndMatchesRender() throws {
        let psnr = try checkVideo("snow.webm", codec: "vp9", duration: "1.5", frames: 45)
        print("export webm: frame 30 PSNR \(String(format: "%.2f", psnr)) dB")
    }

    func testGIFHasEveryFrame() throws {
        let out = path("snow.gif")
        let r = try run(["export", "Scenes/snow.json", "-o", out, "--duration", "1", "--fps", "12", "--size", "160x90"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try probe(out)
        XCTAssertEqual(info.codec, "gif")
        XCTAssertEqual(info.frames, 12)
        XCTAssertEqual(info.width, 160)
    }

    func testPNGSequenceEqualsRenderByteForByteAndRepeats() throws {
        let first = path("a"), second = path("b")
        for folder in [first, second] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let r = try run(["export", "Scenes/snow.json", "-o", folder + "/snow-%03d.png", "--from", "0.5", "--to", "1",
                             "--fps", "10", "--size", "160x90"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasPrefix("wrote \(folder)/snow-000.png … snow-004.png (5 frames, 160×90, 10 fps, t = 0.5 … 0.9 s, PNG sequence"), r.stdout)
        }
        let names = (0..<5).map { String(format: "snow-%03d.png", $0) }
        XCTAssertEqual(try listing(first), names)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first + "/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: second + "/" + name)), "the same command twice: \(name)")
        }
        // Frame k is the scene at T0 + k / fps: frame 2 is t = 0.7, frame 4 t = 0.9 (written as render is given them).
        for (k, time) in [(2, 0.5 + 2.0 / 10), (4, 0.5 + 4.0 / 10)] {
            let rendered = try render("Scenes/snow.json", time: "\(time)", size: "160x90")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first + "/" + names[k])),
                           try Data(contentsOf: URL(fileURLWithPath: rendered.path)), "frame \(k) against welkin render --time \(time)")
        }
    }

    /// `default` names the built-in scene: its frames are `welkin render`'s (without SCENE) byte for byte;
    /// a file of that name is `./default`.
    func testDefaultIsTheBuiltInScene() throws {
        let r = try run(["export", "default", "-o", path("default-%d.png"), "--duration", "0.1", "--fps", "10", "--size", "64x36"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try listing(), ["default-0.png"])
        let builtIn = try run(["render", "--time", "0", "--size", "64x36", "-o", path("built-in.png")])
        XCTAssertEqual(builtIn.status, 0, builtIn.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("default-0.png"))), try Data(contentsOf: URL(fileURLWithPath: path("built-in.png"))))
        let file = try run(["export", "./default", "-o", path("file-%d.png"), "--duration", "0.1"], in: directory)
        XCTAssertEqual(file.status, 1)
        XCTAssertTrue(file.stderr.hasPrefix("./default: "), file.stderr)
    }

    func testProgressLineOnATerminalOnly() throws {
        let out = path("tty.gif")
        let command = ([EndToEndTests.welkin.path, "export", "Scenes/snow.json", "-o", out, "--duration", "0.5", "--fps", "10", "--size", "64x36"])
            .map { "'" + $0 + "'" }.joined(separator: " ")
        // script(1) runs the command on a pseudo-terminal and copies what it printed.
        let tty = try run(["-qec", command, "/dev/null"], executable: tool("script"))
        XCTAssertEqual(tty.status, 0, tty.stdout + tty.stderr)
        XCTAssertTrue(tty.stdout.contains("\rframe 5/5 (100%), "), tty.stdout.debugDescription)
        XCTAssertTrue(tty.stdout.contains("\u{1B}[K\r\nwrote \(out) (5 frames"), tty.stdout.debugDescription)
        let pipe = try run(["export", "Scenes/snow.json", "-o", out, "--duration", "0.5", "--fps", "10", "--size", "64x36"])
        XCTAssertEqual(pipe.status, 0, pipe.stderr)
        XCTAssertEqual(pipe.stderr, "")
        XCTAssertFalse(pipe.stdout.contains("\r") || pipe.stdout.contains("\u{1B}"), pipe.stdout.debugDescription)
    }

    func testInterruptLeavesNoPartialFileAndKeepsTheOldOne() throws {
        for name in ["keep.mp4", "keep-%04d.png"] {
            let existing = name.replacingOccurrences(of: "%04d", with: "0000")
            try Data("precious".utf8).write(to: directory.appendingPathComponent(existing))
            let process = Process()
            process.executableURL = EndToEndTests.welkin
            process.arguments = ["export", "Scenes/snow.json", "-o", path(name), "--duration", "60", "--size", "160x90"]
            process.currentDirectoryURL = EndToEndTests.repository
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            // Wait until frames are being written (the temporary output exists), then Ctrl-C.
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !(try listing().contains { $0.contains(".partial-") }) { usleep(20_000) }
            XCTAssertTrue(try listing().contains { $0.contains(".partial-") }, "\(name): no temporary output appeared")
            usleep(400_000)
            process.interrupt()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 130, String(decoding: stderr, as: UTF8.self))
            XCTAssertEqual(String(decoding: stderr, as: UTF8.self), "welkin: export interrupted; nothing was written to \(path(name))\n")
            XCTAssertEqual(try listing(), [existing], "\(name): the temporary output is gone")
            XCTAssertEqual(try String(contentsOfFile: path(existing), encoding: .utf8), "precious")
            try FileManager.default.removeItem(atPath: path(existing))
        }
    }

    func testBadArgumentsFailBeforeRenderingAndWriteNothing() throws {
        let usage = "Usage: welkin export [SCENE] -o OUT "
        let cases: [([String], Int32, String)] = [
            (["-o", path("x.avi")], 2, "welkin: unknown output type '.avi'; OUT must end in .mp4, .webm, .gif, or .png with a frame-number pattern such as %04d\n" + usage),
            (["-o", path("x.png")], 2, "welkin: 'x.png': no frame-number pattern; a PNG sequence is named with one frame-number pattern such as frames/sky-%04d.png (for a single image use 'welkin render')\n" + usage),
            (["-o", path("x-%d-%d.png")], 2, "welkin: 'x-%d-%d.png': more than one frame-number pattern;"),
            (["-o", path("x.mp4"), "--fps", "0"], 2, "welkin: --fps expects frames per second, more than 0 and at most 240, got '0'\n" + usage),
            (["-o", path("x.mp4"), "--duration", "1", "--to", "3"], 2, "welkin: give --to or --duration, not both\n"),
            (["-o", path("x.mp4"), "--from", "2", "--to", "1"], 2, "welkin: --to must be after --from (2 s), got 1\n"),
            (["-o", path("x.mp4"), "--duration", "7200"], 2, "welkin: the clip must last more than 0 and at most 3600 s, got 7200 s\n"),
            (["-o", path("x.mp4"), "--size", "321x180"], 2, "welkin: H.264 (4:2:0) needs an even width and height, got 321×180; pass --size 322x180\n"),
            (["-o", path("x.mp4"), "--samples", "9"], 2, "welkin: --samples expects a whole number in 1…8, got '9'\n"),
            (["-o", path("x.gif"), "--quality", "20"], 2, "welkin: --quality applies to .mp4 and .webm only\n"),
            (["-o", path("x.webm"), "--quality", "64"], 2, "welkin: --quality for VP9 WebM expects a whole number in 0…63, got '64'\n"),
            (["-o", path("x.gif"), "--fps", "60"], 2, "welkin: --fps 60: a GIF plays at most 50 frames per second (browsers slow faster ones down)\n"),
            (["-o", path("f-%02d.png"), "--duration", "5"], 2, "welkin: 'f-%02d.png' numbers at most 100 frames in order, and the export has 150: use more digits (%03d)\n"),
            (["-o", path("missing/x.mp4")], 1, "cannot write \(path("missing/x.mp4")): the folder \(path("missing")) does not exist\n"),
            (["-o", path("x.mp4"), "Scenes/nope.json"], 1, "Scenes/nope.json: no such file\n"),
            (["Scenes/shader-aurora.json", "-o", path("x.mp4"), "--cpu"], 1,
             "Scenes/shader-aurora.json: layers[1] is a user shader, which the CPU reference cannot run; export without --cpu\n"),
        ]
        for (arguments, status, message) in cases {
            var full = ["export"] + arguments
            if !arguments.contains(where: { $0.hasSuffix(".json") }) { full.insert("Scenes/snow.json", at: 1) }
            let r = try run(full)
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
            XCTAssertEqual(try listing(), [], "\(arguments) wrote something")
        }
    }

    func testMissingOrFailingFFmpegIsAClearFailure() throws {
        let out = path("x.mp4")
        // No ffmpeg on PATH at all.
        var r = try run(["export", "Scenes/snow.json", "-o", out, "--duration", "0.2", "--size", "64x36"],
                        environment: ["PATH": directory.appendingPathComponent("empty").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "welkin: exporting H.264 MP4 needs the ffmpeg program, and there is none on PATH (Debian: apt install ffmpeg); a PNG sequence (-o frames/%04d.png) needs no ffmpeg\n")
        // An ffmpeg that fails: its own message is passed on, and nothing is left behind.
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: false)
        let fake = bin.appendingPathComponent("ffmpeg").path
        try Data("#!/bin/sh\necho 'Unknown encoder (a fake ffmpeg)' >&2\nexit 1\n".utf8).write(to: URL(fileURLWithPath: fake))
        XCTAssertEqual(chmod(fake, 0o755), 0)
        r = try run(["export", "Scenes/snow.json", "-o", out, "--duration", "0.2", "--size", "64x36"], environment: ["PATH": bin.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "welkin: ffmpeg failed (exit status 1):\nUnknown encoder (a fake ffmpeg)\n")
        XCTAssertEqual(try listing(), ["bin"])
    }

    func testSupersamplingAndCPU() throws {
        // --samples 2 renders 128×72 and averages 2×2 blocks; --cpu draws with the reference renderer.
        for extra in [["--samples", "2"], ["--cpu"]] {
            let folder = path(extra[0].replacingOccurrences(of: "-", with: ""))
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let r = try run(["export", "Scenes/day-gradient.json", "-o", folder + "/%d.png", "--duration", "0.1", "--fps", "10", "--size", "64x36"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            let image = try PNG.read(path: folder + "/0.png")
            XCTAssertEqual(image.width, 64)
            // A smooth gradient: the same picture as the plain GPU render, within dithering.
            let plain = try render("Scenes/day-gradient.json", time: "0", size: "64x36").image
            XCTAssertLessThanOrEqual(try Comparison(image, plain).maxDifference, 2, "\(extra)")
        }
    }

    /// `--loop` repeats the particles (Scenes/snow.json: a still gradient under seed 002's
    /// CAEmitterLayer snow): its births come again every clip length, so the looped clip from 1 s is
    /// the looped clip from 0 s byte for byte (the picture at T0 + L is the picture at T0: the clip
    /// plays on into itself), and its cross-fade blends frames that show the same flakes (no ghost).
    /// Without --loop the snow does not repeat.
    func testLoopRepeatsTheParticles() throws {
        for (folder, from, loop) in [("loop0", "0", true), ("loop1", "1", true), ("plain0", "0", false), ("plain1", "1", false)] {
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: false)
            let r = try run(["export", "Scenes/snow.json", "-o", path(folder) + "/%d.png", "--from", from, "--duration", "1", "--fps", "8",
                             "--size", "64x36"] + (loop ? ["--loop"] : []))
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        var plainDiffers = false
        for k in 0..<8 {
            let a = try Data(contentsOf: URL(fileURLWithPath: path("loop0/\(k).png")))
            let b = try Data(contentsOf: URL(fileURLWithPath: path("loop1/\(k).png")))
            XCTAssertEqual(a, b, "looped frame \(k): the clip from 1 s should be the clip from 0 s")
            let c = try Data(contentsOf: URL(fileURLWithPath: path("plain0/\(k).png")))
            let d = try Data(contentsOf: URL(fileURLWithPath: path("plain1/\(k).png")))
            if c != d { plainDiffers = true }
        }
        XCTAssertTrue(plainDiffers, "without --loop the snow 1 s later is other snow")
    }

    /// What is not a particle cross-fades (Scenes/day-cycle.json: seed 000's sky moving through the
    /// day): 8 frames, the last 2 (a quarter of the clip) blended with the frames before T0, the rest
    /// exactly the plain export's.
    func testLoopCrossFadesOnlyTheEnd() throws {
        for folder in ["plain", "loop"] {
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: false)
            let r = try run(["export", "Scenes/day-cycle.json", "-o", path(folder) + "/%d.png", "--from", "20", "--duration", "1", "--fps", "8",
                             "--size", "64x36"] + (folder == "loop" ? ["--loop"] : []))
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        for k in 0..<8 {
            let plain = try Data(contentsOf: URL(fileURLWithPath: path("plain/\(k).png")))
            let loop = try Data(contentsOf: URL(fileURLWithPath: path("loop/\(k).png")))
            if k < 6 { XCTAssertEqual(plain, loop, "frame \(k)") } else { XCTAssertNotEqual(plain, loop, "frame \(k)") }
        }
    }

    // MARK: stills

    func testRenderAndReferenceWithoutOutputNameTheFile() throws {
        var r = try run(["render", EndToEndTests.repository.path + "/Scenes/snow.json", "--time", "1.5", "--size", "32x18"], in: directory)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote snow-t1.5.png (32×18, GPU: "), r.stdout)
        r = try run(["reference", "--size", "32x18"], in: directory)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote welkin-default-t0.png (32×18, "), r.stdout)
        XCTAssertEqual(try listing(), ["snow-t1.5.png", "welkin-default-t0.png"])
        r = try run(["render", "-o", "x.jpg"], in: directory)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("welkin: 'x.jpg': welkin render writes PNG or OpenEXR, so OUT must end in .png or .exr (for video, GIF or an image sequence use 'welkin export')\nUsage: welkin render"), r.stderr)
        XCTAssertEqual(try listing(), ["snow-t1.5.png", "welkin-default-t0.png"])
    }
}
