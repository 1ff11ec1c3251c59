// The uniforms a `--package` export computes per frame (MetalLive) are Welkin's: the package's own
// WelkinLive.swift and its track reader (the manifest types and `welkinPatch` of WelkinMetal.swift,
// as written) are compiled with a driver that, at times long past the track, writes each live value
// into its recorded buffer as the renderer does; every word written equals what Welkin's GL path
// sets on that uniform at that time (glGetUniform), laid out as the Metal function takes it.

import Foundation
import XCTest
import WelkinCore
import WelkinGL
@testable import WelkinExport
import WelkinTestSupport

final class MetalLiveTests: XCTestCase {
    /// Scenes with Metal layers ("" is the built-in scene) and the uniforms each must compute per frame.
    static let scenes: [(file: String, live: Set<String>)] = [
        // A dated palette sky with the Moon and catalogue stars: the sky, its night and its clouds
        // computed by the package's copy of WelkinSkyModel.
        ("snowy-night.json", paletteModel.union(night).union(cloudsModel)),
        // The same with cloud sprites, whose boxes the twins compute.
        ("text-clock.json", paletteModel.union(night).union(["u_spriteBoxes"])),
        ("shader-aurora.json", ["u_time"]),
        // The physical sky and its clouds: every uniform, from the package's copy of WelkinSkyModel.
        ("", clouds.union(physicalSky)),
        ("weather-tour.json", palette.union(clouds).union(sprites)),
        ("shadertoy-clouds.json", ["iTime"]),
        // A phone's portrait frame (its own rectilinear camera): the sky and clouds computed too.
        ("weather/cloudy-phone.json", clouds.union(physicalSky)),
        ("sunset-clouds.json", palette.union(clouds)),
        // The sun for the date: snowy night's sky without its Moon, planets and catalogue stars.
        (datedSky, palette.union(clouds)),
    ]
    static let datedSky = "snowy-night.json, its sky undated of night objects"
    static func scene(_ file: String) throws -> Scene {
        guard file == datedSky else { return try MetalExportTests.scene(file) }
        var scene = try MetalExportTests.scene("snowy-night.json")
        guard case .sky(var sky)? = scene.layers[0].content as? SkyContent else { throw SwiftCompiler.DriverError(description: "snowy-night's first layer is a sky") }
        sky.moon = false
        sky.planets = false
        sky.starSource = .random
        scene.layers[0].content = SkyContent.sky(sky)
        return scene
    }
    static let palette: Set<String> = ["u_sky.time", "u_sky.sun", "u_sky.zenith", "u_sky.horizon", "u_sky.glow", "u_sky.sunColor", "u_sky.stars", "u_sky.flash"]
    static let clouds: Set<String> = ["u_clouds.offset", "u_clouds.evolution", "u_clouds.cirrusOffset"]
    /// The default scene's sky and clouds uniforms the package computes (LiveSky.Draws.uniformNumbers,
    /// those its programs read: the sky's night, Milky Way and fog, the clouds' shafts, fog and
    /// bolts compiled in at every time).
    static let physicalSky: Set<String> = Set(["time", "centerX", "degreesPerPixel", "exposure", "flash", "horizonElevation", "horizonY",
        "inverseStarCell", "mieG", "mieScale", "moonAzimuth", "moonCosine", "moonSine", "moonSkyScale", "opacity", "pixelAngle",
        "pixelsPerPoint", "scotopic", "seed", "stars", "sunAzimuth", "sunCosine", "sunElevation", "sunMetric", "sunRadiance",
        "sunRadius", "sunSine", "sunVector", "viewAzimuth"].map { "u_physical." + $0 })
        .union(["u_nightGlow", "u_nightGlowGround", "u_sunGlare", "u_fog", "u_fogAmbient", "u_fogBalance", "u_fogSun", "u_galactic", "u_milkyWayLight"])
        .union(night).union(cloudsModel)
    /// The night sky's (SkyPass.setNight), compiled into a package's sky program.
    static let night: Set<String> = Set(["centerX", "degreesPerPixel", "earthshine", "gridOrigin", "gridSize", "haloRatio", "horizonY",
        "inverseCell", "moonAzimuth", "moonCosElevation", "moonElevation", "moonFaceX", "moonFaceY", "moonFaceZ", "moonGlow",
        "moonInverseRadius", "moonRadiance", "moonSun", "moonVisible", "pixelAngle", "viewAzimuth"].map { "u_night." + $0 })
    /// A palette sky's every uniform (SkyPass.setSky), from the model.
    static let paletteModel: Set<String> = Set(["zenith", "horizon", "glow", "sunColor", "sun", "degreesPerPixel", "horizonY", "inverseHorizonY",
        "sunRadius", "stars", "inverseStarCell", "pixelsPerPoint", "time", "seed", "flash", "opacity"].map { "u_sky." + $0 })
    /// The clouds' march's every uniform (CloudsPass.marchGrid), from the model.
    static let cloudsModel: Set<String> = Set(["ambientBottom", "ambientShade", "ambientTop", "base", "cirrus", "diffuseLight", "extinction",
        "farCover", "flash", "flashPoint", "gridScale", "gridSize", "groundShade", "hazeColor", "hazeGlow", "hazeInverse", "inverseGridScale",
        "inverseScales", "inverseThickness", "lightReach", "lodScale", "maxDistance", "opacity", "profile", "relief",
        "shapeWeight", "steps", "sunDirection", "sunLight", "sunShadow", "threshold", "top", "offset", "evolution", "cirrusOffset",
        "shafts", "fog", "fogAmbient", "fogSun", "fogBalance"].map { "u_clouds." + $0 })
        .union(["u_bolt", "u_boltLight"])
    static let sprites: Set<String> = ["u_spriteBoxes", "u_sprite.lit", "u_sprite.shadow", "u_sprite.glow", "u_sprite.sun"]

    /// FNV-1a, 32 bits: a texture's bytes in one number (the drivers print the same).
    static func digest(_ bytes: [UInt8]) -> UInt32 { bytes.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 } }

    /// A driver's start: the live sky of a package's WelkinLive.swift (`written`), and `show(key, sky,
    /// at: t)`, which prints every uniform at t, how strongly rain and snow fall, and the size and
    /// digest of each of `textures`, each as `key t name<TAB>numbers`.
    static func skyDriver(_ written: String, textures: [String]) throws -> String {
        let start = try XCTUnwrap(written.range(of: "\n/// The scene's physical sky and clouds as Welkin's LiveSky reads them"))
        let end = try XCTUnwrap(written.range(of: "\n/// WelkinLayer"))
        return "import Foundation\nimport WelkinSkyModel\n" + String(written[start.lowerBound..<end.lowerBound]) + """

        struct WelkinTexels: Equatable, Sendable { var width: Int; var height: Int; var depth: Int; var bytes: [UInt8] }

        /// FNV-1a, 32 bits: a texture's bytes in one number.
        func digest(_ bytes: [UInt8]) -> UInt32 { bytes.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 } }

        func show(_ key: String, _ sky: WelkinSkyLive, at t: Double) {
            for (name, values) in sky.uniforms(at: t).sorted(by: { $0.key < $1.key }) {
                print("\\(key) \\(t) \\(name)\\t" + values.map { "\\($0)" }.joined(separator: " "))
            }
            for kind in ["rain", "snow"] { print("\\(key) \\(t) precipitation \\(kind)\\t\\(sky.precipitation(kind))") }
            for name in [\(textures.map { "\"\($0)\"" }.joined(separator: ", "))] {
                guard let x = sky.texture(name, t) else { continue }
                print("\\(key) \\(t) texture \\(name)\\t\\(x.width) \\(x.height) \\(x.depth) \\(digest(x.bytes))")
            }
        }

        """
    }

    func testLiveUniformsWrittenByThePackageAreWelkinsValuesLongAfterTheTrack() throws {
        let renderer = try TestGL.renderer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = Date()

        var runtime: String?
        var skyPart: String?
        var skySources: URL?
        var reader: String?
        var driver = ""
        /// key → the words GL holds there.
        var expected: [String: [UInt32]] = [:]
        var skipped = 0
        for (s, (file, live)) in Self.scenes.enumerated() {
            let scene = try Self.scene(file)
            let name = file.isEmpty ? Scene.defaultSceneName : file == Self.datedSky ? "dated-sky" : URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let folder = directory.appendingPathComponent(name)
            let (layers, output) = try MetalPackageTests.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 0.5, rate: 2), to: folder)
            XCTAssertEqual(Set(layers.flatMap(\.liveNames)), live, name)
            let sources = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))")
            let written = try String(contentsOf: sources.appendingPathComponent("WelkinLive.swift"), encoding: .utf8)
            // The runtime part (the same in every package) once; each package's enums renamed apart. A
            // live sky adds its import and its WelkinSkyLive before the enums (the default scene's).
            let split = try XCTUnwrap(written.range(of: "\n/// WelkinLayer"), name)
            var common = String(written[..<split.lowerBound])
            var enums = String(written[split.lowerBound...])
            if let sky = common.range(of: "\n/// The scene's physical sky and clouds as Welkin's LiveSky reads them") {
                // Each live sky's settings and sky as globals of their own; WelkinSkyLive once.
                let part = String(common[sky.lowerBound...]).replacingOccurrences(of: "let welkinSky = ", with: "let scene\(s)Sky = ")
                    .replacingOccurrences(of: "welkinSkySettings", with: "scene\(s)SkySettings")
                let type = try XCTUnwrap(part.range(of: "\n/// The live sky's draws for the frame being drawn"), name)
                let after = try XCTUnwrap(part.range(of: "\n/// The scene's sky as it comes"), name)
                skyPart = (skyPart ?? String(part[type.lowerBound..<after.lowerBound])) + String(part[..<type.lowerBound]) + String(part[after.lowerBound...])
                enums = enums.replacingOccurrences(of: "sky: WelkinSkyLive = welkinSky", with: "sky: WelkinSkyLive = scene\(s)Sky")
                common = String(common[..<sky.lowerBound]).replacingOccurrences(of: "import WelkinSkyModel\n", with: "")
                skySources = sources.deletingLastPathComponent()
            }
            if runtime == nil { runtime = common } else { XCTAssertEqual(runtime, common) }
            driver += enums.replacingOccurrences(of: "enum WelkinLayer", with: "enum Scene\(s)WelkinLayer")
            if reader == nil {
                let metal = try String(contentsOf: sources.appendingPathComponent("WelkinMetal.swift"), encoding: .utf8)
                let start = try XCTUnwrap(metal.range(of: "/// A track's manifest"))
                let end = try XCTUnwrap(metal.range(of: "/// Plays one Welkin layer's track"))
                reader = String(metal[start.lowerBound..<end.lowerBound])
            }
            // Past the 0.5 s track: seconds, minutes, an hour, and the weather's changes.
            let times = Array(Set([0, 7.3, 95.25, 600, 1234.5, 3600, 4000.125] + MetalLive.probeTimes(scene: scene, after: 0.5))).sorted()
            let first = Frame(scene: scene, time: 0).sceneLayerIndices
            var captures: [Double: [Int: [GLCapture.Draw]]] = [:]
            for t in times {
                let frame = Frame(scene: scene, time: t)
                XCTAssertEqual(frame.sceneLayerIndices, first, "\(name) at \(t)")
                captures[t] = try renderer.capture(frame, package: true)
            }
            for layer in layers where !layer.live.isEmpty {
                let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: layer.manifest)
                let position = try XCTUnwrap(first.firstIndex(of: layer.sceneLayers[0]), "\(name): \(layer.name) \(layer.sceneLayers) not in \(first)")
                let tracks = sources.appendingPathComponent("Resources/Tracks/\(layer.name)").path
                driver += "check(\(SwiftLiteral.string("\(s) \(layer.name)")), \(SwiftLiteral.string(tracks)), { Scene\(s)\(layer.name)Live.values(at: $0) }, times: [\(times.map(SwiftLiteral.number).joined(separator: ", "))])\n"
                for t in times {
                    let sample = min(max(Int((t * manifest.rate).rounded(.down)), 0), manifest.frames.count - 1)
                    let draws = try XCTUnwrap(captures[t]?[position], "\(name) at \(t)")
                    for (p, d) in manifest.frames[sample].enumerated() {
                        let pass = layer.passes[d.program]
                        // A sky that has switched programs since the track (day to night) draws the held program.
                        guard p < draws.count, draws[p].fragment.text == pass.fragmentGLSL else { skipped += 1; continue }
                        let uniforms = Dictionary(draws[p].uniforms.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
                        for (b, buffer) in (pass.vertexLayout.buffers + pass.fragmentLayout.buffers).enumerated() {
                            let bytes = MetalLayout.pack(buffer, uniforms)
                            for place in manifest.live where place.program == d.program && place.buffer == b {
                                // As many elements as the value holds (an array's first ones: the sprites there are).
                                let elements = min(place.count, (layer.live[place.value].value(t).count + place.components - 1) / place.components)
                                expected["\(s) \(layer.name) \(t) \(p) \(b) \(place.offset)"] = (0..<elements).flatMap { e in
                                    (0..<place.components).map { c in
                                        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[place.offset + e * place.stride + 4 * c + $1]) << (8 * UInt32($1)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let exported = Date().timeIntervalSince(started)
        let program = "import WelkinSkyModel\n" + (try XCTUnwrap(runtime)) + (try XCTUnwrap(skyPart)) + "\n" + (try XCTUnwrap(reader)) + "\n" + driver + #"""

        /// Each live place of the track at each time: the recorded buffer with the live values written in, as the renderer does.
        func check(_ key: String, _ path: String, _ values: (Double) -> [[Double]], times: [Double]) {
            let manifest = try! JSONDecoder().decode(WelkinTrackManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path + ".json")))
            let data = try! Data(contentsOf: URL(fileURLWithPath: path + ".bin"))
            for t in times {
                let v = values(t)
                let sample = min(max(Int((t * manifest.rate).rounded(.down)), 0), manifest.frames.count - 1)
                for (position, d) in manifest.frames[sample].enumerated() {
                    let program = manifest.programs[d.program]
                    for (b, (binding, offset)) in zip(program.buffers, d.buffers).enumerated() {
                        let places = manifest.live.filter { $0.program == d.program && $0.buffer == b }
                        if places.isEmpty { continue }
                        let size = binding.size ?? 0
                        var bytes: [UInt8] = []
                        data.withUnsafeBytes { welkinPatch(into: &bytes, UnsafeRawBufferPointer(rebasing: $0[offset..<offset + size]), places, v) }
                        for p in places {
                            let elements = min(p.count, (v[p.value].count + p.components - 1) / p.components)
                            var words: [UInt32] = []
                            for e in 0..<elements {
                                for c in 0..<p.components {
                                    let at: Int = p.offset + e * p.stride + 4 * c
                                    var word: UInt32 = 0
                                    for k in 0..<4 { word |= UInt32(bytes[at + k]) << UInt32(8 * k) }
                                    words.append(word)
                                }
                            }
                            print("\(key) \(t) \(position) \(b) \(p.offset)\t" + words.map { "\($0)" }.joined(separator: " "))
                        }
                    }
                }
            }
        }
        """#
        let printed = try SwiftCompiler.runPackageDriver(program, name: "live", sources: try XCTUnwrap(skySources))
        var checked = 0
        for (key, words) in expected.sorted(by: { $0.key < $1.key }) {
            guard let got = printed[key] else { XCTFail("the driver wrote nothing for \(key)"); continue }
            XCTAssertEqual(got.map { UInt32($0) }, words, key)
            checked += words.count
        }
        XCTAssertGreaterThan(checked, 400)
        print(String(format: "MetalLiveTests: %d live words at %d places equal GL's (%d draws of a switched program skipped); packages %.1f s, driver %.1f s",
                     checked, expected.count, skipped, exported, Date().timeIntervalSince(started) - exported))
    }

    /// A live sky's inputs: the default scene's package made with another date, place, time scale
    /// and weather (the view's `init(date:latitude:longitude:timeScale:weather:)`), and its weather
    /// changed mid-run (`onChange(of: weather)`), gives at each time, bit for bit, the uniforms
    /// Welkin's GL path draws the scene so changed with (its sky's sun set to that date and place,
    /// its weather changed as the viewer's weather keys change it).
    func testALiveSkysInputsGiveWelkinsSkyForThatDatePlaceAndWeather() throws {
        let renderer = try TestGL.renderer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = Scene.defaultScene
        let folder = directory.appendingPathComponent("default")
        let (layers, output) = try MetalPackageTests.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 0.5, rate: 2), to: folder)
        // The programs the package carries: one for the sky and one march for the clouds draw every case below.
        let programs = Set(layers.flatMap { $0.passes.map(\.fragmentGLSL) })
        let written = try String(contentsOf: folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))/WelkinLive.swift"), encoding: .utf8)
        // Tokyo, 3 March 2025 at 05:10 local, a minute of sky a second, in a storm; and the scene as it
        // comes, its weather turned to fog at 5 s.
        let date = 1_740_946_200.0, latitude = 35.68, longitude = 139.69, timeScale = 60.0
        let placedTimes = [0.5, 30, 700], changedTimes = [5, 6.5, 9, 40.0]
        // Paris under a clear sky: 13 January 2025 at 23:00 local (a full Moon high in the south) and
        // 28 January at 22:00 (a new Moon: the Milky Way up), ten minutes a second.
        let nights = [(date: 1_736_805_600.0, times: [0.25, 3.0]), (date: 1_738_098_000.0, times: [0.25, 3.0])]
        let textures = ["u_skyView", "u_moonView", "u_zodiacal", "u_nightCells", "u_nightEntries", "u_milkyWay"]
        let program = try Self.skyDriver(written, textures: textures) + """
        let placed = WelkinSkyLive(settings: welkinSkySettings, date: Date(timeIntervalSince1970: \(date)), latitude: \(latitude),
                                   longitude: \(longitude), timeScale: \(timeScale), weather: "storm")
        for t in [\(placedTimes.map(SwiftLiteral.number).joined(separator: ", "))] { show("placed", placed, at: t) }
        let changed = WelkinSkyLive(settings: welkinSkySettings)
        _ = changed.uniforms(at: 5)
        changed.change(weather: "fog")
        for t in [\(changedTimes.map(SwiftLiteral.number).joined(separator: ", "))] { show("changed", changed, at: t) }
        for (n, (date, times)) in [\(nights.map { "(\(SwiftLiteral.number($0.date)), [\($0.times.map(SwiftLiteral.number).joined(separator: ", "))])" }.joined(separator: ", "))].enumerated() {
            let night = WelkinSkyLive(settings: welkinSkySettings, date: Date(timeIntervalSince1970: date), latitude: 48.85, longitude: 2.35,
                                      timeScale: 600, weather: "clear")
            for t in times { show("night\\(n)", night, at: t) }
        }

        """
        let printed = try SwiftCompiler.runPackageDriver(program, name: "inputs", sources: folder.appendingPathComponent("Sources"))

        // Welkin: the same scene with its sky so placed and its weather so changed.
        var placedScene = scene
        guard case .sky(var sky)? = placedScene.layers[0].content as? SkyContent else { return XCTFail("the default scene's first layer is a sky") }
        let when = Date(timeIntervalSince1970: date)
        sky.sun = .computed(date: Timestamp(unixSeconds: date, offsetSeconds: TimeZone.current.secondsFromGMT(for: when)),
                            latitude: latitude, longitude: longitude, timeScale: timeScale)
        placedScene.layers[0].content = SkyContent.sky(sky)
        placedScene.changeWeather(to: .storm, at: 0)
        var changedScene = scene
        changedScene.changeWeather(to: .fog, at: 5)
        var cases = [("placed", placedScene, placedTimes), ("changed", changedScene, changedTimes)]
        for (n, night) in nights.enumerated() {
            var s = scene
            guard case .sky(var sky)? = s.layers[0].content as? SkyContent else { return XCTFail("the default scene's first layer is a sky") }
            sky.sun = .computed(date: Timestamp(unixSeconds: night.date, offsetSeconds: TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: night.date))),
                                latitude: 48.85, longitude: 2.35, timeScale: 600)
            s.layers[0].content = SkyContent.sky(sky)
            s.changeWeather(to: .clear, at: 0)
            cases.append(("night\(n)", s, night.times))
        }
        var checked = 0, names = Set<String>(), texturesChecked = 0, starEntries = 0, moonDrawn = false, bandDrawn = false
        var precipitating = Set<String>()
        for (key, s, times) in cases {
            for t in times {
                let draws = try renderer.capture(Frame(scene: s, time: t), package: true)
                // The night's textures: the package's, byte for byte (their digests) and in size, GL's.
                for d in draws.values.flatMap({ $0 }) {
                    XCTAssertTrue(programs.contains(d.fragment.text), "\(key) at \(t): drawn with a program the package does not carry")
                    for name in textures {
                        guard case .texture(let texture)? = d.samplers[name] else { continue }
                        let made = try XCTUnwrap(printed["\(key) \(SwiftLiteral.number(t)) texture \(name)"] ?? printed["\(key) \(t) texture \(name)"],
                                                 "\(key) at \(t): the package made no \(name)")
                        XCTAssertEqual(made, [Double(texture.size.x), Double(texture.size.y), Double(texture.size.z),
                                              Double(Self.digest(texture.bytes))], "\(key) at \(t): \(name)")
                        texturesChecked += 1
                        if name == "u_nightEntries", key.hasPrefix("night") { starEntries = max(starEntries, texture.bytes.count / 32) }
                    }
                }
                // The rain and snow emitters' intensity: Welkin's weather's.
                for kind in PrecipitationKind.allCases {
                    let name = kind == .rain ? "rain" : "snow"
                    let welkin = s.weather.map { kind.intensity(WeatherState($0, time: t, seed: s.seed).parameters) } ?? 0
                    let made = try XCTUnwrap(printed["\(key) \(SwiftLiteral.number(t)) precipitation \(name)"] ?? printed["\(key) \(t) precipitation \(name)"])
                    XCTAssertEqual(made, [welkin], "\(key) at \(t): \(name)")
                    if welkin > 0 { precipitating.insert(name) }
                }
                var seen = Set<String>()
                for d in draws.values.flatMap({ $0 }) {
                    for u in d.uniforms where !seen.contains(u.name) {
                        guard let values = printed["\(key) \(SwiftLiteral.number(t)) \(u.name)"] ?? printed["\(key) \(t) \(u.name)"] else { continue }
                        seen.insert(u.name)
                        let words = LiveUniform.words(values, type: u.type)
                        XCTAssertEqual(u.count == 1 ? u.words : Array(u.words.prefix(words.count)), words, "\(key) at \(t): \(u.name)")
                        checked += words.count
                        names.insert(u.name)
                        if key.hasPrefix("night"), u.name == "u_night.moonVisible", values == [1] { moonDrawn = true }
                        if key.hasPrefix("night"), u.name == "u_milkyWayLight", values.contains(where: { $0 > 0 }) { bandDrawn = true }
                    }
                }
            }
        }
        // The sun, the weather's light and the clouds' drift among them.
        for name in ["u_physical.sunElevation", "u_physical.sunAzimuth", "u_physical.exposure", "u_clouds.offset", "u_clouds.sunLight", "u_clouds.threshold"] {
            XCTAssertTrue(names.contains(name), name)
        }
        XCTAssertGreaterThan(checked, 1000)
        // The nights drew what a night has: catalogue stars, the full Moon, the Milky Way.
        XCTAssertGreaterThan(starEntries, 500, "stars in the night's grid")
        XCTAssertTrue(moonDrawn, "the full Moon drawn on 13 January")
        XCTAssertTrue(bandDrawn, "the Milky Way drawn on 28 January")
        XCTAssertGreaterThanOrEqual(texturesChecked, 20)
        // The storm's rain fell (the scene's own weather is snow).
        XCTAssertTrue(precipitating.contains("rain"), "\(precipitating)")
        print("MetalLiveTests: a live sky's inputs: \(checked) words of \(names.count) uniforms and \(texturesChecked) textures equal GL's (\(starEntries) star entries at night)")
    }

    /// A dated palette sky's night (snowy night: Oslo in January, catalogue stars, planets and the
    /// Moon) computed by the package's copy of the sky model: at its own times long past the track,
    /// and placed on another night, its every uniform bit for bit and its star grid and entries
    /// byte for byte what Welkin's GL path draws with.
    func testADatedPaletteSkysNightIsComputedByThePackage() throws {
        let renderer = try TestGL.renderer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-palette-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = try Self.scene("snowy-night.json")
        let folder = directory.appendingPathComponent("snowy-night")
        let (layers, output) = try MetalPackageTests.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 0.5, rate: 2), to: folder)
        XCTAssertTrue(layers.contains { $0.liveSky != nil }, "snowy night's sky is computed by the package")
        let programs = Set(layers.flatMap { $0.passes.map(\.fragmentGLSL) })
        let written = try String(contentsOf: folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))/WelkinLive.swift"), encoding: .utf8)
        // Its own night an hour and a day on; and 20 March 2025 at 21:00 in Tromsø, a minute a second.
        let ownTimes = [0.25, 3600.0, 86_400.0], placedTimes = [0.25, 30.0]
        let date = 1_742_500_800.0, latitude = 69.65, longitude = 18.96
        let textures = ["u_nightCells", "u_nightEntries"]
        let program = try Self.skyDriver(written, textures: textures) + """
        let own = WelkinSkyLive(settings: welkinSkySettings)
        for t in [\(ownTimes.map(SwiftLiteral.number).joined(separator: ", "))] { show("own", own, at: t) }
        let placed = WelkinSkyLive(settings: welkinSkySettings, date: Date(timeIntervalSince1970: \(date)), latitude: \(latitude),
                                   longitude: \(longitude), timeScale: 60)
        for t in [\(placedTimes.map(SwiftLiteral.number).joined(separator: ", "))] { show("placed", placed, at: t) }

        """
        let printed = try SwiftCompiler.runPackageDriver(program, name: "palette", sources: folder.appendingPathComponent("Sources"))

        var placedScene = scene
        guard case .sky(var sky)? = placedScene.layers[0].content as? SkyContent else { return XCTFail("snowy night's first layer is a sky") }
        sky.sun = .computed(date: Timestamp(unixSeconds: date, offsetSeconds: TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: date))),
                            latitude: latitude, longitude: longitude, timeScale: 60)
        placedScene.layers[0].content = SkyContent.sky(sky)
        var words = 0, texturesChecked = 0, entries = 0, moon = false
        for (key, s, times) in [("own", scene, ownTimes), ("placed", placedScene, placedTimes)] {
            for t in times {
                let draws = try renderer.capture(Frame(scene: s, time: t), package: true)
                for d in draws.values.flatMap({ $0 }) {
                    XCTAssertTrue(programs.contains(d.fragment.text), "\(key) at \(t): drawn with a program the package does not carry")
                    for name in textures {
                        guard case .texture(let texture)? = d.samplers[name] else { continue }
                        let made = try XCTUnwrap(printed["\(key) \(t) texture \(name)"], "\(key) at \(t): \(name)")
                        XCTAssertEqual(made, [Double(texture.size.x), Double(texture.size.y), Double(texture.size.z),
                                              Double(Self.digest(texture.bytes))], "\(key) at \(t): \(name)")
                        texturesChecked += 1
                        if name == "u_nightEntries" { entries = max(entries, texture.bytes.count / 32) }
                    }
                    for u in d.uniforms where u.name.hasPrefix("u_sky.") || u.name.hasPrefix("u_night.") || u.name.hasPrefix("u_clouds.") {
                        let values = try XCTUnwrap(printed["\(key) \(t) \(u.name)"], "\(key) at \(t): the package gave no \(u.name)")
                        let expected = LiveUniform.words(values, type: u.type)
                        XCTAssertEqual(u.count == 1 ? u.words : Array(u.words.prefix(expected.count)), expected, "\(key) at \(t): \(u.name)")
                        words += expected.count
                        if u.name == "u_night.moonVisible", values == [1] { moon = true }
                    }
                }
            }
        }
        XCTAssertGreaterThan(entries, 500, "catalogue stars in the night's grid")
        XCTAssertTrue(moon, "the Moon drawn")
        XCTAssertEqual(texturesChecked, 2 * (ownTimes.count + placedTimes.count))
        print("MetalLiveTests: a dated palette sky's night: \(words) words and \(texturesChecked) textures equal GL's (\(entries) star entries)")
    }
}
