// Text, group and shadow layers: decoding, their errors word for word, keyframes, the clock, the
// shadow's kernel, and what a Frame resolves them to.

import XCTest
import WelkinTestSupport
import WelkinText
@testable import WelkinCore

final class TextAndGroupTests: XCTestCase {
    func error(_ json: String) -> String { sceneError(json, file: "Scenes/x.json", directory: Repository.scenes.path) }
    func layer(_ body: String) -> String { "{\"layers\": [\(body)]}" }
    static let gradient = "{\"type\": \"linearGradient\", \"stops\": [\"red\"]}"

    func testTextDefaultsAndKeys() throws {
        let scene = try SceneLoader.decode(layer("{\"type\": \"text\", \"string\": \"Sky\"}"))
        guard let t = scene.layers[0].content as? TextLayer else { return XCTFail() }
        XCTAssertEqual(t.font, FontRequest(.family("DejaVu Sans"), weight: 400))
        XCTAssertEqual(t.size, 36); XCTAssertEqual(t.position, [0.5, 0.5]); XCTAssertEqual(t.alignment, .center)
        XCTAssertEqual(t.color, .constant(.white))
        XCTAssertEqual(try TextEngine.resolve(t.font).path, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

        let bold = try SceneLoader.decode(layer("""
            {"type": "text", "string": "Sky", "weight": "heavy", "size": 108, "alignment": "bottomTrailing",
             "position": "topLeading", "lineSpacing": 4, "color": "#FF000080"}
            """))
        guard let b = bold.layers[0].content as? TextLayer else { return XCTFail() }
        XCTAssertEqual(b.font.weight, 800)
        XCTAssertEqual(try TextEngine.resolve(b.font).path, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "the family's nearest face")
        XCTAssertEqual(b.alignment.horizontal, .trailing); XCTAssertEqual(b.alignment.vertical, .bottom)
        // A file, relative to the scene's folder.
        let dir = try makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: dir.path + "/Sans.ttf")
        let file = try SceneLoader.decode(layer("{\"type\": \"text\", \"string\": \"Sky\", \"font\": \"Sans.ttf\"}"), file: "x.json", directory: dir.path)
        guard let f = file.layers[0].content as? TextLayer else { return XCTFail() }
        XCTAssertEqual(f.font.source, .file(path: dir.path + "/Sans.ttf", index: 0))
    }

    /// The text's failure when drawn at t = 0, 64×36: `path: sentence`, or "drawn".
    func drawError(_ json: String, directory: String? = Repository.scenes.path) throws -> String {
        let scene = try SceneLoader.decode(json, file: "Scenes/x.json", directory: directory)
        func text(in draws: [any LayerDraw]) -> TextDraw? {
            for d in draws {
                if let t = d as? TextDraw { return t }
                if let g = d as? GroupDraw, let t = text(in: g.layers + (g.mask.map { [$0] } ?? [])) { return t }
            }
            return nil
        }
        guard let t = text(in: Frame(scene: scene, time: 0, pixelSize: SIMD2(64, 36)).layers) else { return "no text" }
        return t.error?.message ?? "drawn"
    }

    /// Decoding asks nothing of the machine's fonts (so `validate` and `export-code` answer the same
    /// everywhere); a missing font or glyph is an error, at its key, when the layer is drawn, and a
    /// warning from `fontWarnings`, which `validate` prints.
    func testFontsAreCheckedWhenDrawnNotWhenDecoded() throws {
        let family = "{\"type\": \"text\", \"string\": \"Sky\", \"font\": \"DejaVu Sanz\"}"
        let masked = "{\"type\": \"group\", \"layers\": [\(Self.gradient)], \"mask\": {\"type\": \"text\", \"string\": \"a\", \"font\": \"No Such Family Anywhere\"}}"
        let missingFile = layer("{\"type\": \"text\", \"string\": \"Sky\", \"font\": \"fonts/Missing.ttf\"}")
        let missingFamily = layer(family)
        let missingGlyph = layer("{\"type\": \"text\", \"string\": \"Sky \\uDB80\\uDC00\"}")
        let inGroup = layer(masked)
        for json in [missingFile, missingFamily, missingGlyph, inGroup] { XCTAssertEqual(error(json), "no error", json) }

        XCTAssertEqual(try drawError(missingFile),
                       "layers[0].font: no such font file 'fonts/Missing.ttf' (looked for \(Repository.scenes.path)/fonts/Missing.ttf)")
        XCTAssertEqual(try drawError(missingFamily), "layers[0].font: no installed font family 'DejaVu Sanz'; did you mean 'DejaVu Sans'?")
        XCTAssertEqual(try drawError(missingGlyph),
                       "layers[0].string: no installed font has '\u{F0000}' (U+F0000); DejaVu Sans lacks it and so does every fallback")
        XCTAssertEqual(try drawError(inGroup),
                       "layers[0].mask.font: no installed font family 'No Such Family Anywhere' (fc-list : family lists the installed ones)")
        XCTAssertEqual(try drawError(layer("{\"type\": \"text\", \"string\": \"Sky\"}")), "drawn")

        let scene = try SceneLoader.decode(layer("\(family), \(masked), {\"type\": \"text\", \"string\": \"{time:h a}\"}"), file: "Scenes/x.json")
        XCTAssertEqual(scene.fontWarnings(file: "Scenes/x.json").map(\.description), [
            "Scenes/x.json: layers[0].font: warning: this machine cannot draw it: no installed font family 'DejaVu Sanz'; did you mean 'DejaVu Sans'?",
            "Scenes/x.json: layers[1].mask.font: warning: this machine cannot draw it: no installed font family 'No Such Family Anywhere' (fc-list : family lists the installed ones)",
        ])
        XCTAssertEqual(scene.warnings.count, 0, "decoding itself gives no font warnings")
    }

    func testTextErrors() {
        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"a\\tb\"}")),
                       "Scenes/x.json: layers[0].string: control character U+0009 cannot be drawn (lines break at \"\\n\"; use spaces for tabs)")
        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"{date}\"}")),
                       "Scenes/x.json: layers[0].string: unknown placeholder '{date}' (expected {time} or {time:FORMAT}; '{{' for a brace)")
        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"{time:HH:mm:SS}\"}")),
                       "Scenes/x.json: layers[0].string: unknown time field 'SS' (fields: yyyy yy MM M dd d HH H hh h mm ss a; quote other letters)")
        XCTAssertEqual(error(layer("{\"type\": \"text\"}")), "Scenes/x.json: layers[0]: missing key 'string'")
        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"a\", \"weight\": \"fat\"}")),
                       "Scenes/x.json: layers[0].weight: unknown font weight 'fat' (expected one of: ultraLight, thin, light, regular, medium, semibold, bold, heavy, black)")
    }

    func testGroupErrors() {
        XCTAssertEqual(error(layer("{\"type\": \"group\", \"layers\": []}")),
                       "Scenes/x.json: layers[0].layers: an empty group draws nothing: give it at least one layer")
        XCTAssertEqual(error(layer("{\"type\": \"group\", \"layers\": [{\"type\": \"sky\"}]}")),
                       "Scenes/x.json: layers[0].layers[0].type: a 'sky' layer cannot be in a group or be a mask (those hold: linearGradient, radialGradient, angularGradient, ellipticalGradient, meshGradient, text, group)")
        XCTAssertEqual(error(layer("{\"type\": \"group\", \"layers\": [\(Self.gradient)], \"mask\": {\"type\": \"emitter\", \"cells\": []}}")),
                       "Scenes/x.json: layers[0].mask.type: a 'emitter' layer cannot be in a group or be a mask (those hold: linearGradient, radialGradient, angularGradient, ellipticalGradient, meshGradient, text, group)")
        // Masks within masks, nine deep: the ninth group is refused, at its path.
        var mask = Self.gradient
        for _ in 0..<9 { mask = "{\"type\": \"group\", \"layers\": [\(Self.gradient)], \"mask\": \(mask)}" }
        XCTAssertEqual(error(layer(mask)),
                       "Scenes/x.json: layers[0].mask.mask.mask.mask.mask.mask.mask.mask: groups and masks nest at most 8 deep; this group is number 9")
        var eight = Self.gradient
        for _ in 0..<8 { eight = "{\"type\": \"group\", \"layers\": [\(eight)]}" }
        XCTAssertEqual(error(layer(eight)), "no error")
        XCTAssertEqual(error(layer("{\"type\": \"sky\", \"shadow\": {}}")),
                       "Scenes/x.json: layers[0].shadow: unknown key 'shadow' (known keys: type, name, opacity, colorSpace, date, latitude, longitude, timeScale, sunElevation, sunAzimuth, viewAzimuth, fieldOfView, horizon, ground, palette, sunSize, stars, starDensity, starMagnitudeLimit, starBrightness, moon, moonScale, planets, refraction, model, atmosphere, exposure, toneMap, sunDisc, sunScale, sunGlare, milkyWay, lightPollution, fog)")
    }

    func testShadowAndKeyframes() throws {
        let scene = try SceneLoader.decode(layer("""
            {"type": "text", "string": "Sky", "opacity": 0.5,
             "shadow": {"color": {"keyframes": [[0, "black"], [0.5, "green"], [1, "black"]], "repeats": true, "easing": "easeInOut"},
                        "radius": {"keyframes": [[0, 4], [2, 8]]}, "offset": [2, 3], "opacity": 0.8}}
            """))
        guard let shadow = scene.layers[0].shadow, case .keyframes(let colors) = shadow.color else { return XCTFail() }
        XCTAssertEqual(colors.times, [0, 0.5, 1]); XCTAssertTrue(colors.repeats); XCTAssertEqual(colors.easing, .easeInOut(1))
        XCTAssertEqual(shadow.radius.value(at: 1), 6)
        XCTAssertEqual(shadow.radius.value(at: -1), 4); XCTAssertEqual(shadow.radius.value(at: 9), 8)
        XCTAssertEqual(shadow.color.value(at: 0.5), RGBA.named("green"))
        XCTAssertEqual(shadow.color.value(at: 1.5), RGBA.named("green"), "repeats every second")
        XCTAssertEqual(shadow.color.value(at: 0.25).g, RGBA.named("green")!.g * 0.5, accuracy: 1e-9, "ease-in-out is halfway at half time")
        XCTAssertLessThan(shadow.color.value(at: 0.1).g, RGBA.named("green")!.g * 0.2 * 0.9, "and slow at first")
        // A shadowed layer is a group of one carrying the layer's opacity.
        let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(200, 100))
        guard let g = frame.layers[0] as? GroupDraw, let t = g.layers[0] as? TextDraw else { return XCTFail() }
        XCTAssertEqual(g.opacity, 0.5); XCTAssertEqual(t.color.w, 1)
        XCTAssertEqual(g.shadow?.offset, SIMD2(Int32(2.0 * 200 / 1280), Int32((3.0 * 100 / 720).rounded())))
        XCTAssertEqual(g.shadow?.color, SIMD4(0, 0, 0, 0.8))

        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"a\", \"shadow\": {\"opacity\": {\"keyframes\": [[1, 0.5], [1, 0.6]]}}}")),
                       "Scenes/x.json: layers[0].shadow.opacity.keyframes[1][0]: keyframe times must increase: 1 s comes after 1 s")
        XCTAssertEqual(error(layer("{\"type\": \"text\", \"string\": \"a\", \"shadow\": {\"radius\": {\"keyframes\": [[0, 99]]}}}")),
                       "Scenes/x.json: layers[0].shadow.radius.keyframes[0][1]: expected a number in 0…64, got 99")
    }

    /// The kernel: whole 65536ths summing to exactly 1, symmetric by construction, reaching 3σ.
    func testShadowKernel() {
        for sigma in [0.0, 0.3, 1, 2.5, 5, 17.2, 64, 500] {
            let w = ShadowDraw.kernel(sigma: sigma)
            let sum = w[0] + 2 * w.dropFirst().reduce(0, +)
            XCTAssertEqual(sum, 1, "σ \(sigma)")
            for v in w { XCTAssertEqual(v * 65536, (v * 65536).rounded(), "σ \(sigma)") }
            for k in w.indices.dropFirst() { XCTAssertLessThanOrEqual(w[k], w[k - 1] + 1 / 65536, "σ \(sigma): falls from the centre") }
            XCTAssertLessThanOrEqual(w.count - 1, min(Int((3 * sigma).rounded(.up)), ShadowDraw.maximumTaps))
        }
        XCTAssertEqual(ShadowDraw.kernel(sigma: 0), [1])
        XCTAssertEqual(ShadowDraw.kernel(sigma: 5).count, 16)
    }

    func testClockPlaceholders() throws {
        let template = try TextTemplate.parse("{time} | {time:yyyy-MM-dd HH:mm:ss} | {time:h:mm a} | {{x}} {time:'at' H'h'}")
        let clock = try XCTUnwrap(Timestamp.parse("2024-03-20T18:07:09+01:00"))
        XCTAssertEqual(template.render(clock), "18:07 | 2024-03-20 18:07:09 | 6:07 PM | {x} at 18h")
        XCTAssertEqual(try TextTemplate.parse("{time:HH:mm}").render(Timestamp(unixSeconds: 59.99, offsetSeconds: 0)), "00:00",
                       "a clock shows whole minutes until they pass")
        // A sky with a date: its local time, timeScale applied; without one, seconds since midnight.
        let sky = try SceneLoader.decode(layer("""
            {"type": "sky", "date": "2024-03-20T00:00:00+01:00", "latitude": 48.8566, "longitude": 2.3522, "timeScale": 1440},
            {"type": "text", "string": "{time:HH:mm}"}
            """))
        XCTAssertEqual(sky.clock(at: 1.5).description, "2024-03-20T00:36:00+01:00")
        guard let label = Frame(scene: sky, time: 7, pixelSize: SIMD2(64, 36)).layers.last as? TextDraw else { return XCTFail() }
        XCTAssertEqual(label.string, "02:48")
        let plain = try SceneLoader.decode(layer("{\"type\": \"text\", \"string\": \"{time:mm:ss}\"}"))
        guard let elapsed = Frame(scene: plain, time: 75.5, pixelSize: SIMD2(64, 36)).layers[0] as? TextDraw else { return XCTFail() }
        XCTAssertEqual(elapsed.string, "01:15")
    }

    func testGroupResolvesItsLayersAndMask() throws {
        let scene = try SceneLoader.decode(layer("""
            {"type": "group", "opacity": 0.7, "invert": true, "layers": [\(Self.gradient), {"type": "text", "string": "a"}],
             "mask": {"type": "text", "string": "b", "shadow": {"radius": 0}}}
            """))
        let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(100, 50))
        guard let g = frame.layers[0] as? GroupDraw else { return XCTFail() }
        XCTAssertEqual(g.layers.count, 2); XCTAssertEqual(g.opacity, 0.7); XCTAssertTrue(g.invertsMask); XCTAssertNil(g.shadow)
        guard let mask = g.mask as? GroupDraw, mask.layers[0] is TextDraw else { return XCTFail("a mask with a shadow is a group of one") }
        XCTAssertEqual(mask.shadow?.horizontalWeights, [1])
    }
}
