import Foundation
import XCTest
import WelkinImage
import WelkinTestSupport

/// `welkin export-web` as a user runs it, and its pages in a real browser: Debian's chromium,
/// headless, WebGL2 on SwiftShader (make deps installs it), read back from its screenshots.
final class ExportWebCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-export-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    // MARK: - The browser

    /// The chromium program (make deps installs Debian's).
    static func chromium() throws -> URL {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw BrowserMissing(description: "chromium is not installed: make deps installs Debian's chromium")
    }

    struct BrowserMissing: Error, CustomStringConvertible { var description: String }

    static func browserArguments(size: SIMD2<Int>) -> [String] {
        ["--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--no-first-run", "--disable-gpu-sandbox", "--window-size=\(size.x),\(size.y)"]
    }

    /// The page at `query` as the browser shows it in a window of `size` CSS pixels at a pixel ratio of 1.
    func screenshot(_ page: String, query: String, size: SIMD2<Int>) throws -> Image {
        let out = directory.appendingPathComponent("shot-\(UUID().uuidString).png").path
        let r = try EndToEndTests.runProcess(try Self.chromium(), Self.browserArguments(size: size) + [
            "--screenshot=\(out)", "--virtual-time-budget=10000", URL(fileURLWithPath: page).absoluteString + query,
        ], in: directory)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out), "chromium wrote no screenshot (status \(r.status)): \(r.stderr)")
        return try PNG.read(path: out)
    }

    /// The page's DOM after its script ran.
    func dom(_ page: String, query: String = "?paused") throws -> String {
        let r = try EndToEndTests.runProcess(try Self.chromium(), Self.browserArguments(size: SIMD2(320, 180)) + [
            "--dump-dom", "--virtual-time-budget=10000", URL(fileURLWithPath: page).absoluteString + query,
        ], in: directory)
        return r.stdout
    }

    /// Pixels whose channels all lie within `tolerance` of `b`'s, as a fraction.
    static func agreement(_ a: Image, _ b: Image, tolerance: Int = 2) -> (fraction: Double, worst: Int) {
        var within = 0, worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = SIMD4<Int>(truncatingIfNeeded: a[x, y]), q = SIMD4<Int>(truncatingIfNeeded: b[x, y])
                let d = max(abs(p.x - q.x), abs(p.y - q.y), abs(p.z - q.z))
                worst = max(worst, d)
                if d <= tolerance { within += 1 }
            }
        }
        return (Double(within) / Double(a.width * a.height), worst)
    }

    // MARK: - Parity with welkin render

    /// The examples whose layers all reach the page: each one's frame at 0, 1.5 and 7 s (the clock
    /// stopped there by `?t=T&paused`) matches `welkin render` at the same size within 2/255 on ≥ 99 %
    /// of pixels. `make test` checks four examples at 1.5 s between them drawing every kind the page
    /// draws itself (a browser screenshot costs about 4 s); `make web-check` (WELKIN_WEB_CHECK=all,
    /// run by CI) checks every example at the three times.
    func testExportedExamplesMatchRenderInTheBrowser() throws {
        let all = ProcessInfo.processInfo.environment["WELKIN_WEB_CHECK"] == "all"
        let quick: Set = ["p3-sunset", "fire", "mesh-text", "aurora-lake"]
        var exported: [String] = []
        for file in try Repository.sceneFiles() where all || quick.contains(String(file.dropLast(5))) {
            let scene = Repository.scenes.appendingPathComponent(file).path
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let page = directory.appendingPathComponent("\(name).html").path
            let r = try EndToEndTests.run(["export-web", scene, "-o", page])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            guard r.status == 0, !r.stderr.contains("not exported yet") else { continue }
            exported.append(name)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scene))) as? [String: Any]
            let size = (json?["size"] as? [Int]).map { SIMD2($0[0], $0[1]) } ?? SIMD2(1280, 720)
            for t in all ? ["0", "1.5", "7"] : ["1.5"] {
                let reference = directory.appendingPathComponent("\(name)-\(t).png").path
                let rendered = try EndToEndTests.run(["render", scene, "--time", t, "-o", reference])
                XCTAssertEqual(rendered.status, 0, rendered.stderr)
                let web = try screenshot(page, query: "?t=\(t)&paused", size: size)
                if json?["outputColorSpace"] as? String == "display-p3" {
                    // The page's canvas is Display P3; the headless browser's screen (and so its
                    // screenshot) is sRGB: the render's P3 converted as a browser converts it (ICC,
                    // relative colorimetric, clipped), by Little CMS through Pillow.
                    let converted = try EndToEndTests.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                    import io, sys
                    from PIL import Image, ImageCms
                    image = Image.open(sys.argv[1])
                    source = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
                    ImageCms.profileToProfile(image.convert("RGB"), source, ImageCms.createProfile("sRGB"), renderingIntent=1).save(sys.argv[1])
                    """, reference])
                    XCTAssertEqual(converted.status, 0, converted.stderr)
                }
                let expected = try PNG.read(path: reference)
                XCTAssertEqual(SIMD2(web.width, web.height), SIMD2(expected.width, expected.height), "\(name) at \(t) s")
                guard web.width == expected.width, web.height == expected.height else { continue }
                let (fraction, worst) = Self.agreement(web, expected)
                XCTAssertGreaterThanOrEqual(fraction, Self.agreementNeeded[name] ?? 0.99, "\(name) at \(t) s: \(String(format: "%.3f", fraction * 100)) % of pixels within 2/255 (worst \(worst))")
            }
        }
        // The set the page draws whole (grows as kinds are added; never silently empty).
        let expected = all ? ["day-gradient", "gradients", "shader-aurora", "shadertoy-clouds", "mesh-seed", "mesh-seed-dark", "mesh-keyframes",
                              "mesh-bezier", "p3-sunset", "snow", "rain", "stars", "fire", "mesh-text", "text-scripts", "aurora-lake", "star-trails", "physical-twilight", "fog", "sunset-clouds", "phone-snow"] : quick.sorted()
        for name in expected {
            XCTAssertTrue(exported.contains(name), "\(name) should export whole; exported: \(exported)")
        }
    }

    /// A physical sky whose sun is in view: the page draws its glare (and would draw the night's
    /// glow and the rods' shift) as `welkin render` does. The export's program once left all three
    /// out: weather/clear-wide's page matched on 22 % of pixels (worst 131/255, the glare missing
    /// around the sun 28° up); now ≥ 99 %.
    func testThePageDrawsTheSunsGlare() throws {
        let scene = Repository.scenes.appendingPathComponent("weather/clear-wide.json").path
        let page = directory.appendingPathComponent("clear-wide.html").path
        let r = try EndToEndTests.run(["export-web", scene, "-o", page])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("not exported yet"), r.stderr)
        let reference = directory.appendingPathComponent("clear-wide.png").path
        let rendered = try EndToEndTests.run(["render", scene, "--time", "1.5", "-o", reference])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let expected = try PNG.read(path: reference)
        let web = try screenshot(page, query: "?t=1.5&paused", size: SIMD2(expected.width, expected.height))
        let (fraction, worst) = Self.agreement(web, expected)
        XCTAssertGreaterThanOrEqual(fraction, 0.99, "\(String(format: "%.3f", fraction * 100)) % of pixels within 2/255 (worst \(worst))")
    }

    /// Examples held to less than 99 % of pixels, and why. star-trails' own shader hashes positions
    /// with fract() and atan(), whose last bits differ between GPUs (llvmpipe here, SwiftShader in
    /// the browser): a few of its stars land in another cell on one of them (measured 3.8 % of
    /// pixels at 0 s, 4.4 % at 1.5 s, 6.3 % at 7 s, the trails' arcs otherwise the same). That is the
    /// shader's, not the page's: the same scene differs as much between two GPUs in `welkin render`.
    /// (fog was held to 60 % while the fog preset was the air's own 0.5 km haze, whose sky-view table
    /// changes steeply toward the horizon; its ground fog now hides that, and the page matches.)
    static let agreementNeeded: [String: Double] = ["star-trails": 0.92]

    /// A portrait window shows a landscape scene whole between bars (contain, the default) or cropped
    /// to fill it (cover), drawn at the window's pixels, not stretched.
    func testFramingKeepsTheScenesShape() throws {
        let page = directory.appendingPathComponent("day.html").path
        XCTAssertEqual(try EndToEndTests.run(["export-web", "Scenes/gradients.json", "-o", page]).status, 0)
        let contain = try screenshot(page, query: "?paused", size: SIMD2(360, 640))
        // 360 wide: the 16:9 picture is 360×202.5 → 203 rows, centred; bars above and below in the
        // scene's background (#101018).
        XCTAssertEqual(contain[180, 10], SIMD4(0x10, 0x10, 0x18, 255))
        XCTAssertEqual(contain[180, 629], SIMD4(0x10, 0x10, 0x18, 255))
        XCTAssertNotEqual(contain[180, 320], SIMD4(0x10, 0x10, 0x18, 255))
        let reference = directory.appendingPathComponent("gradients-360.png").path
        XCTAssertEqual(try EndToEndTests.run(["render", "Scenes/gradients.json", "--size", "360x203", "-o", reference]).status, 0)
        let expected = try PNG.read(path: reference)
        // The picture's middle row against the render at its size (the canvas's top edge is at 218.5 CSS pixels).
        var close = 0
        for x in 0..<360 where abs(Int(contain[x, 320].x) - Int(expected[x, 101].x)) <= 2 { close += 1 }
        XCTAssertGreaterThan(close, 340, "the contained picture's middle row is the render's at 360×203")
        let cover = try screenshot(page, query: "?paused&framing=cover", size: SIMD2(360, 640))
        for y in [0, 320, 639] { XCTAssertNotEqual(cover[180, y], SIMD4(0x10, 0x10, 0x18, 255), "cover fills the window (row \(y))") }
    }

    // MARK: - Safety

    /// A scene's strings cannot become markup or script: a name and a uniform's name that close the
    /// script element show as text, and the page runs only its own script.
    func testStringsFromTheSceneAreEscaped() throws {
        let attack = "</script><script>document.title='pwned'</script><!--"
        let scene = directory.appendingPathComponent("attack.json")
        try Data("""
        {"name": "\(attack.replacingOccurrences(of: "'", with: "\\u0027"))", "size": [64, 36],
         "layers": [{"type": "linearGradient", "name": "\(attack)", "stops": ["#000", "#fff"]}]}
        """.utf8).write(to: scene)
        let page = directory.appendingPathComponent("attack.html").path
        let r = try EndToEndTests.run(["export-web", scene.path, "-o", page])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 2, "only the data and the runtime")
        XCTAssertFalse(html.contains(attack), "the raw string never appears")
        XCTAssertTrue(html.contains("<title>&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&lt;!--</title>"), html)
        XCTAssertTrue(html.contains(#"\u003c/script\u003e\u003cscript\u003edocument.title='pwned'\u003c/script\u003e\u003c!--"#))
        let dom = try dom(page)
        XCTAssertTrue(dom.contains("data-welkin-ready=\"1\""), "the runtime ran: \(dom.prefix(400))")
        XCTAssertFalse(dom.contains("<title>pwned</title>"))
        XCTAssertEqual(dom.components(separatedBy: "<script").count - 1, 2, dom)
    }

    /// The Content-Security-Policy allows the runtime by its hash alone: the page runs as written, and
    /// the same page with one character of its script changed runs nothing.
    func testThePolicyAllowsOnlyThePagesOwnScript() throws {
        let page = directory.appendingPathComponent("day.html").path
        XCTAssertEqual(try EndToEndTests.run(["export-web", "Scenes/day-gradient.json", "-o", page]).status, 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let policy = try XCTUnwrap(html.range(of: #"content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data: blob:; base-uri 'none'; form-action 'none'""#, options: .regularExpression), html)
        XCTAssertFalse(html[policy].contains("unsafe"), "no unsafe-inline, no unsafe-eval")
        XCTAssertTrue(try dom(page).contains("data-welkin-ready=\"1\""))
        let tampered = directory.appendingPathComponent("tampered.html").path
        try Data(html.replacingOccurrences(of: "'use strict';", with: "'use strict' ;").utf8).write(to: URL(fileURLWithPath: tampered))
        XCTAssertFalse(try dom(tampered).contains("data-welkin-ready"), "a script whose hash differs is refused")
    }

    /// Files outside the scene's folder are refused (exit 1, nothing written) unless --allow-outside.
    func testFilesOutsideTheScenesFolderAreRefused() throws {
        let folder = directory.appendingPathComponent("scene")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0, 0.5, 0.0, 1.0); }\n".utf8)
            .write(to: directory.appendingPathComponent("outside.frag"))
        let scene = folder.appendingPathComponent("s.json")
        try Data(#"{"size": [32, 32], "layers": [{"type": "shader", "fragment": "../outside.frag"}]}"#.utf8).write(to: scene)
        let page = directory.appendingPathComponent("s.html").path
        var r = try EndToEndTests.run(["export-web", scene.path, "-o", page])
        XCTAssertEqual(r.status, 1)
        let outside = directory.appendingPathComponent("outside.frag").standardizedFileURL.resolvingSymlinksInPath().path
        XCTAssertEqual(r.stderr, "welkin export-web: \(scene.path): layers[0].fragment: the shader file \(outside) is outside the scene's folder (\(folder.resolvingSymlinksInPath().path)); a page embeds only files beside its scene: move the file there, or pass --allow-outside to embed it anyway\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: page), "nothing written")
        r = try EndToEndTests.run(["export-web", scene.path, "-o", page, "--allow-outside"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote \(page) (\(Self.kilobytes(page)), 1 of 1 layer drawn)\n")
    }

    static func kilobytes(_ path: String) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return "\((bytes + 1023) / 1024) KB"
    }

    /// What the page cannot draw yet is named on stderr, layer by layer; usage mistakes exit 2.
    func testLayersLeftOutAreNamed() throws {
        let scene = directory.appendingPathComponent("clock.json")
        try Data(##"{"size": [320, 180], "layers": [{"type": "linearGradient", "stops": ["#000", "#fff"]}, {"type": "text", "name": "clock", "string": "{time:HH:mm}"}]}"##.utf8).write(to: scene)
        let page = directory.appendingPathComponent("clock.html").path
        let r = try EndToEndTests.run(["export-web", scene.path, "-o", page])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "\(scene.path): layers[1] (text \"clock\"): not exported yet: text that shows the clock (its string changes; the page has no font engine); left out of the page\n")
        XCTAssertTrue(r.stdout.hasSuffix(", 1 of 2 layers drawn, 1 warning above)\n"), r.stdout)
        let usage = try EndToEndTests.run(["export-web", "Scenes/snow.json"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("expected -o PAGE.html"), usage.stderr)
    }
}
