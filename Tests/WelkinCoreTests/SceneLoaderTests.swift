import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class SceneLoaderTests: XCTestCase {
    /// The error `json` produces, as the CLI prints it.
    func error(_ json: String, file: String = "Scenes/x.json") -> String { sceneError(json, file: file) }

    func layer(_ body: String) -> String { "{\"layers\": [\(body)]}" }

    func testDefaults() throws {
        let scene = try SceneLoader.decode("{}")
        XCTAssertEqual(scene.size, [1280, 720])
        XCTAssertEqual(scene.seed, Scene.seed(forName: "untitled"))
        XCTAssertEqual(scene.background, .black)
        XCTAssertTrue(scene.dither)
        XCTAssertEqual(scene.colorSpace, .srgb)
        XCTAssertTrue(scene.layers.isEmpty)
    }

    /// Without a seed, a scene's seed is made from its name, or its file's name: two scenes do not
    /// share one snowfall; a given seed is kept.
    func testASceneWithoutASeedTakesOneFromItsName() throws {
        XCTAssertEqual(Scene.seed(forName: ""), 0xcbf2_9ce4_8422_2325 & ((1 << 53) - 1), "FNV-1a's offset basis, to 53 bits")
        XCTAssertEqual(Scene.seed(forName: "a"), 0xaf63_dc4c_8601_ec8c & ((1 << 53) - 1), "FNV-1a 64 of \"a\"")
        let named = try SceneLoader.decode(#"{"name": "Snow on the lake"}"#)
        XCTAssertEqual(named.seed, Scene.seed(forName: "Snow on the lake"))
        XCTAssertTrue(named.seedIsDerived)
        XCTAssertNotEqual(try SceneLoader.decode(#"{"name": "Snow in the city"}"#).seed, named.seed)
        let given = try SceneLoader.decode(#"{"name": "Snow on the lake", "seed": 7}"#)
        XCTAssertEqual(given.seed, 7)
        XCTAssertFalse(given.seedIsDerived)
        // From a file without a name: the file's name.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-seed-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["lake", "city"] { try Data("{}".utf8).write(to: directory.appendingPathComponent(name + ".json")) }
        let lake = try SceneLoader.load(path: directory.appendingPathComponent("lake.json").path)
        let city = try SceneLoader.load(path: directory.appendingPathComponent("city.json").path)
        XCTAssertEqual(lake.seed, Scene.seed(forName: "lake"))
        XCTAssertEqual(city.seed, Scene.seed(forName: "city"))
        // Two snowfalls: the examples snow.json and phone-snow.json (neither gives a seed) place
        // their flakes differently.
        let a = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("snow.json").path)
        let b = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("phone-snow.json").path)
        XCTAssertNotEqual(a.seed, b.seed)
    }

    func testFullGradientLayers() throws {
        let scene = try SceneLoader.decode("""
        {"size": [640, 480], "seed": 7, "background": "#102030", "dither": false, "colorSpace": "oklab",
         "layers": [
          {"type": "linearGradient", "start": "topLeading", "end": [1, 1], "stops": ["red", "blue"], "opacity": 0.5},
          {"type": "radialGradient", "center": [0.5, 0.5], "startRadius": 5, "endRadius": 50,
           "stops": [{"color": "white", "location": 0.2}, {"color": "clear", "location": 0.9}], "colorSpace": "linearSRGB"},
          {"type": "angularGradient", "startAngle": -90, "endAngle": 270, "stops": ["red", "green", "red"]},
          {"type": "ellipticalGradient", "endRadiusFraction": 0.7, "stops": ["black"]}
         ]}
        """)
        XCTAssertEqual(scene.size, [640, 480])
        XCTAssertEqual(scene.seed, 7)
        XCTAssertFalse(scene.dither)
        XCTAssertEqual(scene.layers.count, 4)
        guard let g0 = scene.layers[0].content as? Gradient, let g1 = scene.layers[1].content as? Gradient,
              let g2 = scene.layers[2].content as? Gradient else { return XCTFail() }
        XCTAssertEqual(g0.shape, .linear(start: [0, 0], end: [1, 1]))
        XCTAssertEqual(scene.layers[0].opacity, 0.5)
        XCTAssertEqual(g1.colorSpace, .linearSRGB)
        XCTAssertEqual(g1.stops.map(\.location), [0.2, 0.9])
        XCTAssertEqual(g2.stops.map(\.location), [0, 0.5, 1])  // plain colours spaced evenly
    }

    func testMissingFile() {
        XCTAssertThrowsError(try SceneLoader.load(path: "/nonexistent/sky.json")) { e in
            XCTAssertEqual("\(e)", "/nonexistent/sky.json: no such file")
        }
    }

    func testInvalidJSONSaysLineAndColumn() {
        XCTAssertEqual(error("{\n  \"size\": [1, 2],\n  \"seed\": ,\n}"),
                       "Scenes/x.json:3:11: invalid JSON: unexpected character ',', expected a value")
        XCTAssertEqual(error("{\"a\": 1"), "Scenes/x.json:1:8: invalid JSON: unexpected end of file, expected ',' or '}'")
        XCTAssertEqual(error("{\"seed\": 1, \"seed\": 2}"), "Scenes/x.json:1:13: invalid JSON: duplicate key 'seed'")
        XCTAssertEqual(error("[1, 2] x"), "Scenes/x.json:1:8: invalid JSON: unexpected character 'x' after the end of the JSON value")
        XCTAssertEqual(error(""), "Scenes/x.json:1:1: invalid JSON: unexpected end of file, expected a value")
    }

    func testColumnsCountCharactersNotBytes() {
        XCTAssertEqual(error("{\"name\": \"ciel étoilé\", x}"), "Scenes/x.json:1:25: invalid JSON: unexpected character 'x', expected a string key")
    }

    func testUnknownLayerType() {
        XCTAssertEqual(error(layer("{\"type\": \"linearGradiant\", \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].type: unknown layer type 'linearGradiant'; did you mean 'linearGradient'?")
        XCTAssertTrue(error(layer("{\"type\": \"teapot\"}")).hasPrefix("Scenes/x.json: layers[0].type: unknown layer type 'teapot' (expected one of: linearGradient"))
        XCTAssertEqual(error(layer("{\"stops\": []}")),
                       "Scenes/x.json: layers[0]: missing key 'type' (one of: \(SceneLoader.layerTypeNames.joined(separator: ", ")))")
        XCTAssertEqual(Array(SceneLoader.layerTypeNames.prefix(5)), ["linearGradient", "radialGradient", "angularGradient", "ellipticalGradient", "shader"])
    }

    func testUnknownKeySuggestsTheNearest() {
        XCTAssertEqual(error(layer("{\"type\": \"radialGradient\", \"endRadious\": 3, \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].endRadious: unknown key 'endRadious'; did you mean 'endRadius'?")
        XCTAssertEqual(error("{\"backgroud\": \"red\"}"),
                       "Scenes/x.json: backgroud: unknown key 'backgroud'; did you mean 'background'?")
        XCTAssertEqual(error("{\"layers\": [], \"zzz\": 1}"),
                       "Scenes/x.json: zzz: unknown key 'zzz' (known keys: \(Scene.properties.keys.joined(separator: ", ")))")
        XCTAssertEqual(Scene.properties.keys, ["name", "description", "size", "seed", "background", "dither", "colorSpace",
                                               "outputColorSpace", "wind", "weather", "camera", "layers", "metadata", "$schema"])
    }

    func testWrongType() {
        XCTAssertEqual(error("{\"dither\": \"yes\"}"), "Scenes/x.json: dither: expected true or false, got \"yes\"")
        XCTAssertEqual(error("{\"layers\": {}}"), "Scenes/x.json: layers: expected an array, got an object")
        XCTAssertEqual(error("[]"), "Scenes/x.json: expected an object, got an array")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"start\": 3, \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].start: expected a unit point [x, y] or a name like \"top\", got 3")
    }

    func testNonFiniteNumbers() {
        XCTAssertEqual(error(layer("{\"type\": \"angularGradient\", \"startAngle\": 1e999, \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].startAngle: expected a finite number, got inf")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"end\": [0, -1e400], \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].end[1]: expected a finite number, got -inf")
    }

    func testSizeLimits() {
        XCTAssertEqual(error("{\"size\": [0, 720]}"), "Scenes/x.json: size[0]: expected a whole number of points in 1…16384, got 0")
        XCTAssertEqual(error("{\"size\": [1280, -5]}"), "Scenes/x.json: size[1]: expected a whole number of points in 1…16384, got -5")
        XCTAssertEqual(error("{\"size\": [16385, 720]}"), "Scenes/x.json: size[0]: expected a whole number of points in 1…16384, got 16385")
        XCTAssertEqual(error("{\"size\": [100.5, 720]}"), "Scenes/x.json: size[0]: expected a whole number of points in 1…16384, got 100.5")
        XCTAssertEqual(error("{\"size\": [100]}"), "Scenes/x.json: size: expected [width, height], got an array of 1")
    }

    func testStopLocationOutsideRange() {
        let json = """
        {"layers": [{"type": "linearGradient", "stops": ["red"]}, {"type": "linearGradient", "stops": ["red"]},
          {"type": "linearGradient", "stops": [{"color": "red", "location": 0}, {"color": "blue", "location": 1.5}]}]}
        """
        XCTAssertEqual(error(json), "Scenes/x.json: layers[2].stops[1].location: expected a number in 0…1, got 1.5")
    }

    func testNoStops() {
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"stops\": []}")),
                       "Scenes/x.json: layers[0].stops: a gradient needs at least one stop")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\"}")), "Scenes/x.json: layers[0]: missing key 'stops'")
    }

    func testMixedStopsAndOtherMistakes() {
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"stops\": [{\"color\": \"red\", \"location\": 0}, \"blue\"]}")),
                       "Scenes/x.json: layers[0].stops[1]: expected a stop {\"color\": …, \"location\": …} like the other stops, got \"blue\"")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"stops\": [{\"color\": \"red\"}]}")),
                       "Scenes/x.json: layers[0].stops[0]: missing key 'location'")
        XCTAssertEqual(error(layer("{\"type\": \"radialGradient\", \"endRadius\": -2, \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].endRadius: expected a number in 0…1000000, got -2")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"opacity\": 2, \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].opacity: expected a number in 0…1, got 2")
        XCTAssertEqual(error("{\"colorSpace\": \"oklch\"}"),
                       "Scenes/x.json: colorSpace: unknown colour space 'oklch'; did you mean 'oklab'?")
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"start\": \"middle\", \"stops\": [\"red\"]}")),
                       "Scenes/x.json: layers[0].start: unknown unit point 'middle' (expected one of: zero, center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing)")
        let tooMany = "[" + Array(repeating: "\"red\"", count: 65).joined(separator: ",") + "]"
        XCTAssertEqual(error(layer("{\"type\": \"linearGradient\", \"stops\": \(tooMany)}")),
                       "Scenes/x.json: layers[0].stops: 65 stops, at most 64")
    }

    func testHostileInputDoesNotCrash() {
        let deep = String(repeating: "[", count: 10_000)
        XCTAssertTrue(error(deep).contains("nesting deeper than 256 levels"))
        XCTAssertTrue(error("\"\\ud800\"").contains("unpaired surrogate"))
        XCTAssertTrue(error("{\"name\": \"a\nb\"}").contains("control character"))
        XCTAssertTrue(error("{\"seed\": 01}").contains("leading zeros"))
        XCTAssertEqual(error("{\"seed\": -1}"), "Scenes/x.json: seed: expected a whole number ≥ 0, got -1")
    }

    func testDefaultSceneLoadsAndMoves() {
        let scene = Scene.defaultScene
        XCTAssertEqual(scene.layers.map(\.content.typeName), ["sky", "clouds"])
        XCTAssertEqual(scene.weather?.schedule.map(\.preset), [.snow, .cloudy, .clear])
        guard case .sky(let sky)? = scene.layers[0].content as? SkyContent, case .computed(_, _, _, let timeScale) = sky.sun else {
            return XCTFail("the default sky computes its sun")
        }
        XCTAssertEqual(timeScale, 120)
    }

    func testSuggestions() {
        XCTAssertEqual(nearest("endRadious", in: ["startRadius", "endRadius"]), "endRadius")
        XCTAssertNil(nearest("zzz", in: ["startRadius", "endRadius"]))
        XCTAssertEqual(levenshtein("kitten", "sitting"), 3)
    }
}
