// `welkin export-code --package` as written to disk: every Swift file of the package type-checks
// against Apple's API (the stubs, Metal and MetalKit included) for iOS and macOS, SwiftPM reads its
// manifest with the sources and resources in place, and a track read back from the package's files
// holds the uniform values WelkinCore computes for those times.

import XCTest
import WelkinCore
import WelkinGL
@testable import WelkinExport
import WelkinTestSupport
import WelkinImage

final class MetalPackageTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// What SwiftPM generates for a target with resources (`resource_bundle_accessor.swift`): the
    /// package's code reads its tracks and Metal library through `Bundle.module`
    /// (https://developer.apple.com/documentation/xcode/bundling-resources-with-a-swift-package),
    /// which loose files type-checked by `swiftc` do not have.
    static let bundleModule = """
    import Foundation

    extension Foundation.Bundle {
        static let module: Bundle = Bundle.main
    }

    """

    /// Exports `scene` as a package into `folder` as `welkin export-code --package` does, its tracks
    /// `options` long.
    static func writePackage(_ scene: Scene, sceneFile: String?, options: MetalExport.Options, to folder: URL) throws -> (layers: [MetalExport.Layer], output: CodeExport.Output) {
        let renderer = try TestGL.renderer()
        let layers = try MetalExport.layers(scene: scene, options: options) { t in
            let frame = Frame(scene: scene, time: t)
            return (try renderer.capture(frame, package: true), frame)
        }
        let reference = try renderer.render(PackageExport.referenceFrame(scene))
        let (files, output) = try PackageExport.files(scene, metal: layers, sceneFile: sceneFile, reference: reference)
        try PackageExport.write(files, to: folder.path)
        return (layers, output)
    }

    /// The packages of issue #25's scenes (snowy night, text clock, aurora, the default scene), two
    /// samples each: every .swift file in them type-checks in Swift 6 mode for iOS (UIKit) and macOS
    /// (AppKit), and `swift package describe` finds the view, WelkinMetal.swift, every .metal file and
    /// the tracks.
    func testEveryPackageTypeChecksForIOSAndMacOSAndSwiftPMReadsIt() throws {
        let started = Date()
        let accessor = directory.appendingPathComponent("BundleModule.swift")
        try Self.bundleModule.write(to: accessor, atomically: true, encoding: .utf8)
        var packages: [(name: String, folder: URL, swift: [URL], layers: [MetalExport.Layer])] = []
        for (file, _) in MetalExportTests.scenes {
            let scene = try MetalExportTests.scene(file)
            let name = file.isEmpty ? Scene.defaultSceneName : URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let folder = directory.appendingPathComponent(name)
            let (layers, output) = try Self.writePackage(scene, sceneFile: file.isEmpty ? nil : "Scenes/\(file)",
                                                         options: MetalExport.Options(duration: 0.5, rate: 2), to: folder)
            XCTAssertFalse(layers.isEmpty, "\(name): no Metal layer")
            let main = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))")
            let swift = try FileManager.default.subpathsOfDirectory(atPath: main.path).filter { $0.hasSuffix(".swift") }.sorted()
                .map { main.appendingPathComponent($0) }
            let live = layers.contains { !$0.live.isEmpty } ? ["WelkinLive.swift"] : []
            XCTAssertEqual(swift.map(\.lastPathComponent).sorted(), ([output.typeName + ".swift", "WelkinMetal.swift"] + live).sorted(), name)
            // WelkinAtmosphere's files as they are (the package makes its sky tables with them), a
            // target of their own; a live sky's modules (the default scene's) likewise, every file.
            let atmosphere = try PackageExport.atmosphereSources()
            XCTAssertEqual(atmosphere.map(\.name), ["Atmosphere.swift", "AtmosphereTables.swift", "SkyViewTable.swift"])
            let sky = layers.contains { $0.liveSky != nil }
            if name == Scene.defaultSceneName { XCTAssertTrue(sky, name) }
            for module in ["WelkinAtmosphere"] + (sky ? PackageExport.skyModules : []) {
                let root = folder.appendingPathComponent("Sources/\(module)")
                let copied = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
                }
                let own = module == "WelkinAtmosphere" ? atmosphere.map(\.name) : try PackageExport.moduleSources(module).map(\.name)
                XCTAssertFalse(own.isEmpty, module)
                XCTAssertEqual(copied.sorted(), own.sorted(), "\(name): \(module)'s files")
                for file in own {
                    XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("Sources/\(module)/\(file)")),
                                   try Data(contentsOf: Repository.root.appendingPathComponent("Sources/\(module)/\(file)")), "\(name): \(module)/\(file) as it is")
                }
            }
            let view = try String(contentsOf: swift.first { $0.lastPathComponent == output.typeName + ".swift" }!, encoding: .utf8)
            for layer in layers { XCTAssertTrue(view.contains("WelkinMetalLayer(resource: \"\(layer.name)\""), "\(name): \(layer.name) is not drawn") }
            // One MTKView for each run of adjacent Metal layers (the default scene's sky and clouds: one).
            let runs = layers.filter { l in !layers.contains { $0.sceneLayers.last.map { $0 + 1 } == l.sceneLayers.first } }.count
            XCTAssertEqual(view.components(separatedBy: "WelkinMetalView(layers: [").count - 1, runs, name)
            if name == Scene.defaultSceneName { XCTAssertEqual(runs, 1, "the default scene's sky and clouds in one view") }
            // Xcode's canvas shows the view at the scene's size; a view that cannot draw shows the
            // scene's mean colour (Welkin's reference picture's), which the README names with the picture.
            XCTAssertTrue(view.contains("#if canImport(DeveloperToolsSupport)\n@available(iOS 17.0, macOS 14.0, *)\n#Preview(\(SwiftLiteral.string(scene.name))) {\n    \(output.typeName)().frame(width: \(scene.size.x), height: \(scene.size.y))\n}\n#endif\n"), "\(name): #Preview")
            let reference = try PNG.read(path: folder.appendingPathComponent("reference.png").path)
            XCTAssertEqual(max(reference.width, reference.height), min(PackageExport.referenceSide, max(scene.size.x, scene.size.y)), name)
            let fallback = PackageExport.meanColor(reference)
            let colour = "fallback: (\(SwiftLiteral.number(fallback.x)), \(SwiftLiteral.number(fallback.y)), \(SwiftLiteral.number(fallback.z))))"
            XCTAssertTrue(view.contains("WelkinMetalView(layers: [") && view.contains(colour), "\(name): \(colour)")
            // The package's README says which uniforms run per frame and how long the recorded ones hold
            // (0.5 s at 2 Hz: 2 samples), or that they are constant (the aurora: only u_time changes).
            let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
            let held = "sampled over the first 0.5 s of scene time in `Resources/Tracks` and held at their last values after that"
            XCTAssertTrue(readme.contains(layers.contains(where: \.recordedVaries) ? held : (sky ? "The other uniforms are" : "the rest are") + " constant, in `Resources/Tracks`"), readme)
            // The default scene's, milky-way's and snowy night's skies (and clouds) are computed on the device: nothing recorded changes.
            XCTAssertEqual(layers.contains(where: \.recordedVaries), !["shader-aurora", Scene.defaultSceneName, "milky-way", "snowy-night"].contains(name), name)
            // A live sky's package says what its model computes (its other clock uniforms are the model's too).
            XCTAssertTrue(readme.contains(sky ? "The sky and its clouds are computed each frame by the package's copies of Welkin's"
                                              : "Those that follow the scene clock (`"), readme)
            XCTAssertTrue(readme.contains("Recorded in `Resources/Tracks` (manifest and data): `WelkinLayer"), readme)
            XCTAssertTrue(readme.contains("![Welkin's picture at 0 s](reference.png)"), readme)
            XCTAssertTrue(readme.contains("shows its fallback colour instead: the scene's mean colour at 0 s, sRGB ("), readme)
            packages.append((name, folder, swift, layers))
        }
        let exported = Date().timeIntervalSince(started)

        let stubs = try SwiftCompiler.stubs()
        let swiftPM = URL(fileURLWithPath: SwiftCompiler.swiftc).deletingLastPathComponent().appendingPathComponent("swift").path
        // The packages' other targets as modules (Foundation only: built once, for both platforms, and
        // once for all the packages, whose copies are Welkin's files byte for byte, as checked above),
        // in their dependency order; ERFA's header through its module map.
        let checking = Date()
        var levels: [[[String]]] = [[], [], []]
        let shared = directory.appendingPathComponent(".modules")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        func modules(_ p: URL) -> URL { shared }
        var emitted = Set<String>()
        for p in packages {
            for (t, target) in SwiftCompiler.skyTargets.enumerated() where target.name != "CERFA" {
                let folder = p.folder.appendingPathComponent("Sources/\(target.name)")
                guard FileManager.default.fileExists(atPath: folder.path), emitted.insert(target.name).inserted else { continue }
                let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
                // WelkinResources reads its data files through Bundle.module, as the view its tracks.
                let bundle = target.name == "WelkinResources" ? [accessor.path] : []
                levels[t < 3 ? 0 : t - 2].append([SwiftCompiler.swiftc, "-emit-module", "-parse-as-library", "-swift-version", "6",
                    "-module-name", target.name, "-package-name", "WelkinPackage", "-o", modules(p.folder).appendingPathComponent("\(target.name).swiftmodule").path,
                    "-I", modules(p.folder).path, "-I", p.folder.appendingPathComponent("Sources/CERFA/include").path] + files.map { folder.appendingPathComponent($0).path } + bundle)
            }
        }
        for level in levels where !level.isEmpty {
            for run in try SwiftCompiler.run(level, in: directory) { XCTAssertEqual(run.status, 0, run.output) }
        }
        var commands: [[String]] = []
        var labels: [String] = []
        for p in packages {
            for (platform, folder) in [("iOS", stubs.ios), ("macOS", stubs.mac)] {
                commands.append(SwiftCompiler.typecheck(p.swift + [accessor], platform: folder, stubs: stubs)
                                + ["-I", modules(p.folder).path, "-I", p.folder.appendingPathComponent("Sources/CERFA/include").path])
                labels.append("\(p.name) (\(platform))")
            }
            commands.append([swiftPM, "package", "--package-path", p.folder.path, "describe", "--type", "json"])
            labels.append("\(p.name) (swift package describe)")
        }
        let runs = try SwiftCompiler.run(commands, in: directory)
        for (run, label) in zip(runs, labels) {
            XCTAssertEqual(run.status, 0, "\(label):\n" + run.output)
            if !label.hasSuffix("describe)") { XCTAssertFalse(run.output.contains("warning:"), "\(label):\n" + run.output) }
        }
        // SwiftPM's view of each package: the view's target with its Swift files, every .metal file and the tracks.
        for (p, run) in zip(packages, runs.enumerated().filter { labels[$0.offset].hasSuffix("describe)") }.map(\.element)) where run.status == 0 {
            let json = run.output[(run.output.firstIndex(of: "{") ?? run.output.startIndex)...]
            let description = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let targets = (description?["targets"] as? [[String: Any]]) ?? []
            let target = targets.first { ($0["name"] as? String).map { !SwiftCompiler.skyTargets.map(\.name).contains($0) } ?? false }
            XCTAssertEqual(Set(targets.compactMap { $0["name"] as? String }).subtracting([target?["name"] as? String ?? ""]),
                           Set(["WelkinAtmosphere"] + (p.layers.contains { $0.liveSky != nil } ? SwiftCompiler.skyTargets.map(\.name) : [])), p.name)
            XCTAssertEqual((target?["sources"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted(),
                           p.swift.map(\.lastPathComponent).sorted(), p.name)
            let resources = Set(((target?["resources"] as? [[String: Any]]) ?? []).compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
            let metal = Set(p.layers.flatMap { $0.metal.map(\.name) })
            XCTAssertEqual(resources, metal.union(["Tracks"]), p.name)
        }
        print(String(format: "MetalPackageTests: %d packages written in %.1f s; %d type-checks (iOS, macOS) and %d swift package describe in %.1f s",
                     packages.count, exported, 2 * packages.count, packages.count, Date().timeIntervalSince(checking)))
    }

    /// The Metal stubs reject a wrong label or type, so a passing type-check means something.
    func testTheMetalStubsRejectWrongCalls() throws {
        let file = directory.appendingPathComponent("wrong.swift")
        try """
        import MetalKit
        func draw(_ e: any MTLRenderCommandEncoder, _ d: any MTLDevice, _ b: any MTLBuffer) {
            e.drawPrimitives(type: .triangle, start: 0, count: 3)
            e.setFragmentBuffer(b, index: 0)
            _ = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: .rgba32Float, width: 1.5, height: 2, mipmapped: false)
            _ = MTKView(frame: .zero, metalDevice: d)
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        let stubs = try SwiftCompiler.stubs()
        let run = try SwiftCompiler.run([SwiftCompiler.typecheck([file], platform: stubs.ios, stubs: stubs)], in: directory)[0]
        XCTAssertNotEqual(run.status, 0)
        let lines = SwiftCompiler.errorLines(run.output, in: file)
        XCTAssertEqual(lines, ["3", "4", "5", "6"], run.output)
    }

    // MARK: The track is Welkin's values

    /// A camera turning slowly (a package computes a sky seen through a camera that does not move; this one's is recorded).
    static let turningCamera = Camera(projection: .panorama, yaw: .keyframes(Keyframes(times: [0, 4000], values: [245, 250])))

    /// A recorded sky track (the default scene seen through a turning camera, which a package does
    /// not compute), read back from the package's Tracks/WelkinLayer0.json and .bin: at 0 s and 10 s
    /// (20 minutes of sky at its timeScale of 120) the physical sky's sun uniforms are WelkinCore's
    /// sun for the scene at those times (SkyState.sun), as the Floats the shader takes.
    func testATrackReadBackHoldsWelkinCoresSunAtItsSampleTimes() throws {
        var scene = Scene.defaultScene
        scene.camera = Self.turningCamera
        guard case SkyContent.sky(let sky)? = scene.layers.first?.content as? SkyContent else { return XCTFail("the default scene's first layer is a sky") }
        let folder = directory.appendingPathComponent("default")
        // Two samples: 0 s and 10 s.
        let (layers, output) = try Self.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 10, rate: 0.1), to: folder)
        let layer = try XCTUnwrap(layers.first { $0.sceneLayers.contains(0) })
        let tracks = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))/Resources/Tracks")
        let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: Data(contentsOf: tracks.appendingPathComponent("\(layer.name).json")))
        let data = try Data(contentsOf: tracks.appendingPathComponent("\(layer.name).bin"))
        XCTAssertEqual(manifest.samples, 2)
        XCTAssertEqual(manifest.rate, 0.1)
        XCTAssertEqual(manifest.frames.count, 2)
        XCTAssertEqual([manifest.width, manifest.height], [layer.pixelSize.x, layer.pixelSize.y])

        /// The Float32 words of the GL uniform `name` in the view's draw of sample `s`.
        func uniform(_ name: String, sample s: Int) throws -> [Float] {
            let draw = try XCTUnwrap(manifest.frames[s].last)
            XCTAssertEqual(draw.target, -1)
            let pass = layer.passes[draw.program]
            let buffers = pass.vertexLayout.buffers + pass.fragmentLayout.buffers
            XCTAssertEqual(manifest.programs[draw.program].buffers.map(\.index), buffers.map(\.index))
            for (k, buffer) in buffers.enumerated() {
                guard let field = buffer.fields.first(where: { $0.name == name }) else { continue }
                let start = draw.buffers[k] + field.offset
                return (0..<field.components).map { c in
                    let at = start + c * field.componentSize
                    return Float(bitPattern: data[at..<at + 4].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
                }
            }
            throw TestFailure("no uniform \(name) in \(buffers.flatMap { $0.fields.map(\.name) })")
        }

        var elevations: [Float] = []
        for (s, time) in [0.0, 10.0].enumerated() {
            let sun = SkyState.sun(of: sky, time: time)
            let elevation = try uniform("u_physical.sunElevation", sample: s)
            let azimuth = try uniform("u_physical.sunAzimuth", sample: s)
            let vector = try uniform("u_physical.sunVector", sample: s)
            XCTAssertEqual(elevation, [Float(sun.elevation)], "t = \(time)")
            XCTAssertEqual(azimuth, [Float(sun.azimuth)], "t = \(time)")
            // The unit vector toward it: x east, y north, z up.
            let e = sun.elevation * .pi / 180, a = sun.azimuth * .pi / 180
            XCTAssertEqual(vector, [cos(e) * sin(a), cos(e) * cos(a), sin(e)].map { Float($0) }, "t = \(time)")
            // The clock is live (WelkinLive.swift computes it per frame): recorded as zero, with a place in `live`.
            XCTAssertEqual(try uniform("u_physical.time", sample: s), [0])
            elevations.append(elevation[0])
        }
        XCTAssertTrue(layer.liveNames.contains("u_physical.time"))
        XCTAssertTrue(manifest.live.contains { $0.value == layer.liveNames.firstIndex(of: "u_physical.time") && $0.type == "float" })
        // Twenty minutes of sky later, the sun has sunk (an October evening in Paris).
        XCTAssertLessThan(elevations[1], elevations[0] - 1)
    }

    /// A package's views draw at the screen's resolution: the MTKView's drawable follows its bounds ×
    /// contentScaleFactor (autoResizeDrawable, no fixed drawableSize), and each draw into it writes
    /// the drawable's pixel in scene pixels, less one, where its program takes `u_drawScaleDelta`
    /// (recorded as 0: GL's value, and a target's). The runtime's own manifest reader and patch
    /// (WelkinMetal.swift, compiled with a driver) put, for a 390 × 844-point view at 3× and a
    /// 1280 × 720 one at 2×, exactly those numbers in the bytes the view's draw is given; that the
    /// shaders then draw Welkin's picture at that resolution is MetalExportTests' (drawable resolution).
    func testAPackagesDrawableFollowsItsBoundsAndScale() throws {
        let scene = Scene.defaultScene
        let folder = directory.appendingPathComponent("drawable")
        let (layers, output) = try Self.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 0, rate: 1), to: folder)
        let module = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))")
        let runtime = try String(contentsOf: module.appendingPathComponent("WelkinMetal.swift"), encoding: .utf8)
        XCTAssertTrue(runtime.contains("view.autoResizeDrawable = true"))
        XCTAssertFalse(runtime.contains("autoResizeDrawable = false"))
        XCTAssertFalse(runtime.contains("drawableSize ="), "the drawable's size is the view's, not set")
        XCTAssertTrue(runtime.contains("manifest.drawScaleDelta(drawableWidth: drawable.width, drawableHeight: drawable.height)"))
        XCTAssertTrue(runtime.contains("player.encode(into: buffer, view: drawable.texture, format: view.colorPixelFormat, cleared: &cleared, time: t)"))
        let start = try XCTUnwrap(runtime.range(of: "/// A track's manifest"))
        let end = try XCTUnwrap(runtime.range(of: "/// Plays one Welkin layer's track"))
        let drawables = [(1170, 2532), (2560, 1440)]
        var expected: [String] = []
        var driver = String(runtime[start.lowerBound..<end.lowerBound]) + "\nimport Foundation\n"
        for layer in layers {
            let path = module.appendingPathComponent("Resources/Tracks/\(layer.name).json").path
            let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            let data = try Data(contentsOf: module.appendingPathComponent("Resources/Tracks/\(layer.name).bin"))
            let draw = try XCTUnwrap(manifest.frames[0].last)
            XCTAssertEqual(draw.target, -1)
            let places = manifest.drawScale.filter { $0.program == draw.program }
            XCTAssertEqual(places.count, 1, "\(layer.name): the view's draw takes the drawable's scale once")
            let place = try XCTUnwrap(places.first)
            let recorded = data[(draw.buffers[place.buffer] + place.offset)..<(draw.buffers[place.buffer] + place.offset + 8)]
            XCTAssertEqual(Array(recorded), [UInt8](repeating: 0, count: 8), "\(layer.name): recorded as 0")
            for (w, h) in drawables {
                expected.append("\(layer.name) \(w)x\(h) \(Float(Double(manifest.width) / Double(w) - 1).bitPattern) \(Float(Double(manifest.height) / Double(h) - 1).bitPattern)")
            }
            driver += """
            do {
                let manifest = try! JSONDecoder().decode(WelkinTrackManifest.self, from: Data(contentsOf: URL(fileURLWithPath: \(SwiftLiteral.string(path)))))
                let data = try! Data(contentsOf: URL(fileURLWithPath: \(SwiftLiteral.string(path.replacingOccurrences(of: ".json", with: ".bin")))))
                let draw = manifest.frames[0].last!
                let scales = manifest.byBuffer(manifest.drawScale)[draw.program]
                for (w, h) in \(drawables) {
                    for (b, offset) in draw.buffers.enumerated() where !scales[b].isEmpty {
                        let size = manifest.programs[draw.program].buffers[b].size ?? 0
                        var out: [UInt8] = []
                        data.withUnsafeBytes { raw in
                            welkinPatch(into: &out, UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + size)]), scales[b],
                                        manifest.drawScaleDelta(drawableWidth: w, drawableHeight: h))
                        }
                        let at = scales[b][0].offset
                        let words = (0..<2).map { k in (0..<4).reduce(UInt32(0)) { $0 | UInt32(out[at + 4 * k + $1]) << (8 * UInt32($1)) } }
                        print("\(layer.name) \\(w)x\\(h) \\(words[0]) \\(words[1])")
                    }
                }
            }

            """
        }
        let main = directory.appendingPathComponent("main.swift")
        try driver.write(to: main, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("drawable-scale").path
        let build = try SwiftCompiler.run([[SwiftCompiler.swiftc, "-swift-version", "6", main.path, "-o", executable]], in: directory)[0]
        XCTAssertEqual(build.status, 0, build.output)
        let ran = try SwiftCompiler.run([[executable]], in: directory)[0]
        XCTAssertEqual(ran.status, 0, ran.output)
        XCTAssertEqual(ran.output.split(separator: "\n").map(String.init), expected)
    }

    /// A wide-colour scene's Metal views tag their layer Display P3 (the values Welkin draws for it
    /// are P3) and draw with 10 bits a channel or more, an sRGB scene's sRGB in 8.
    func testAWideColourScenesMetalViewsAreDisplayP3() throws {
        var scene = Scene.defaultScene
        for space in [OutputColorSpace.srgb, .displayP3] {
            scene.outputColorSpace = space
            let folder = directory.appendingPathComponent("colour-\(space.rawValue)")
            let (layers, output) = try Self.writePackage(scene, sceneFile: nil, options: MetalExport.Options(duration: 0, rate: 1), to: folder)
            let view = try String(contentsOf: folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))/\(output.typeName).swift"), encoding: .utf8)
            XCTAssertFalse(layers.isEmpty)
            XCTAssertEqual(view.components(separatedBy: ", displayP3: true)").count - 1, space == .displayP3 ? 1 : 0, space.rawValue)
        }
        // Its drawable: 10-bit extended range (bgra10_xr, rgba16Float on Macs without an Apple GPU)
        // tagged extended Display P3; an sRGB scene's 8-bit, tagged sRGB.
        let runtime = MetalRuntime.source
        XCTAssertTrue(runtime.contains("view.colorPixelFormat = displayP3 ? Self.wideColourFormat(device) : .bgra8Unorm"))
        XCTAssertTrue(runtime.contains("colorspace = CGColorSpace(name: displayP3 ? CGColorSpace.extendedDisplayP3 : CGColorSpace.sRGB)"))
        XCTAssertTrue(runtime.contains("return .bgra10_xr\n        #else\n        return device.supportsFamily(.apple7) ? .bgra10_xr : .rgba16Float"))
    }

    // MARK: The sky's tables are made on the device

    /// The default scene's package as `welkin export-code --package` writes it (34 s at 30 Hz) is at
    /// most 2 MB, its sky and clouds computed on the device: nothing of either recorded that changes
    /// (one sample each, no texture data), the sky-view and Moon tables, the zodiacal light, the
    /// night's star grid, the Milky Way's map and the clouds' noise made there; its rain and snow
    /// following the live weather.
    func testTheDefaultPackageIsSmallAndComputesItsSky() throws {
        let scene = Scene.defaultScene
        let options = MetalExport.Options(duration: MetalExport.Options.defaultDuration(for: scene), rate: 30)
        let folder = directory.appendingPathComponent("default")
        let (layers, output) = try Self.writePackage(scene, sceneFile: nil, options: options, to: folder)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        let bytes = try files.reduce(0) { sum, file in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path, isDirectory: &isFolder)
            return sum + (isFolder.boolValue ? 0 : (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.size] as? Int ?? 0))
        }
        XCTAssertLessThanOrEqual(bytes, 2_000_000, "the default package: \(bytes) bytes")
        XCTAssertEqual(layers.count, 2)
        let module = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))")
        for layer in layers {
            XCTAssertNotNil(layer.liveSky, layer.name)
            let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: layer.manifest)
            XCTAssertTrue(manifest.contents.allSatisfy { $0.live != nil && $0.length == 0 }, "\(layer.name): every texture made on the device")
            XCTAssertEqual(Set(manifest.contents.compactMap(\.live)), Set(layer.liveTextures), layer.name)
            // One program per pass at every time and weather: one sample.
            XCTAssertEqual(manifest.frames.count, 1, layer.name)
            XCTAssertTrue(manifest.frames.allSatisfy { $0.map(\.buffers) == manifest.frames[0].map(\.buffers) }, layer.name)
            XCTAssertLessThanOrEqual(try Data(contentsOf: module.appendingPathComponent("Resources/Tracks/\(layer.name).bin")).count, 4096, layer.name)
        }
        // Its rain and snow follow the live sky's weather (the view's `weather` input included).
        let view = try String(contentsOf: module.appendingPathComponent("\(output.typeName).swift"), encoding: .utf8)
        for kind in ["rain", "snow"] {
            XCTAssertTrue(view.contains("birthRate: Float(sky.precipitation(\"\(kind)\")"), "the \(kind) emitters follow the live weather")
        }
        XCTAssertFalse(view.contains("CAKeyframeAnimation(keyPath: \"birthRate\")"), "no recorded schedule of the weather's rain or snow")
        XCTAssertEqual(Set(layers.flatMap(\.liveTextures)), ["u_skyView", "u_moonView", "u_zodiacal", "u_nightCells", "u_nightEntries", "u_milkyWay",
                                                             "u_weather", "u_shape"])
    }

    /// A physical sky the package does not compute (here: seen through a turning camera) keeps its sky-view
    /// tables as recipes: the package's own Swift — its copy of WelkinAtmosphere and the recipe
    /// reader of WelkinMetal.swift, compiled with a driver — makes, from the recipes of samples
    /// before, during and after the snow's fade, exactly the texels Welkin draws those frames with.
    func testARecordedSkysTablesAreMadeFromTheirRecipes() throws {
        var scene = Scene.defaultScene
        scene.camera = Self.turningCamera
        // Through the snow's fade (6 s to 9 s), ten samples a second.
        let options = MetalExport.Options(duration: 10, rate: 10)
        let folder = directory.appendingPathComponent("camera")
        let (layers, output) = try Self.writePackage(scene, sceneFile: nil, options: options, to: folder)
        XCTAssertTrue(layers.allSatisfy { $0.liveSky == nil })
        let sky = try XCTUnwrap(layers.first { $0.sceneLayers.contains(0) })
        let module = folder.appendingPathComponent("Sources/\(output.typeName.dropLast(4))")
        let manifestPath = module.appendingPathComponent("Resources/Tracks/\(sky.name).json")
        let manifest = try JSONDecoder().decode(MetalTrack.Manifest.self, from: Data(contentsOf: manifestPath))
        XCTAssertEqual(manifest.textureStep, 1)
        // Samples before the snow (6 s), in its fade, and at the end; each one's sky-view table.
        var picked: [(sample: Int, content: Int)] = []
        for sample in [0, 66, 76, manifest.frames.count - 1] {
            // The sky-view table among the draw's textures (the zodiacal light's panorama is another).
            let inputs = try XCTUnwrap(manifest.frames[sample].last?.textures.compactMap(\.content))
            let input = try XCTUnwrap(inputs.first { manifest.contents[$0].table != nil }, "sample \(sample): a recipe, not data")
            picked.append((sample, input))
        }
        XCTAssertTrue(picked.contains { manifest.contents[$0.content].table?.weight != nil }, "a table mixed across the fade")
        let runtime = try String(contentsOf: module.appendingPathComponent("WelkinMetal.swift"), encoding: .utf8)
        let start = try XCTUnwrap(runtime.range(of: "/// The sky-view tables of a track's contents"))
        let end = try XCTUnwrap(runtime.range(of: "#if canImport(UIKit)\ntypealias WelkinViewRepresentable"))
        let out = directory.appendingPathComponent("made")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let main = directory.appendingPathComponent("main.swift")
        try (String(runtime[start.lowerBound..<end.lowerBound]) + """
        import Foundation
        let tables = try! JSONDecoder().decode(WelkinTrackTables.self, from: Data(contentsOf: URL(fileURLWithPath: \(SwiftLiteral.string(manifestPath.path)))))
        let recipes = tables.recipes
        for content in [\(picked.map { String($0.content) }.joined(separator: ", "))] {
            let table = SkyViewTable.make(recipes[content]!)
            try! table.texels.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: \(SwiftLiteral.string(out.path)) + "/\\(content).bin"))
        }
        """).write(to: main, atomically: true, encoding: .utf8)
        let atmosphere = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Sources/WelkinAtmosphere").path).sorted()
            .map { folder.appendingPathComponent("Sources/WelkinAtmosphere/" + $0).path }
        let executable = directory.appendingPathComponent("tables").path
        let build = try SwiftCompiler.run([[SwiftCompiler.swiftc, "-O", "-swift-version", "6", main.path] + atmosphere + ["-o", executable]], in: directory)[0]
        XCTAssertEqual(build.status, 0, build.output)
        let ran = try SwiftCompiler.run([[executable]], in: directory)[0]
        XCTAssertEqual(ran.status, 0, ran.output)
        for (sample, content) in picked {
            let frame = Frame(scene: scene, time: Double(sample) / options.rate)
            let table = try XCTUnwrap(MetalExport.skyTables(frame)[0]?["u_skyView"], "sample \(sample)")
            let made = try Data(contentsOf: out.appendingPathComponent("\(content).bin"))
            XCTAssertEqual(made, table.texels.withUnsafeBytes { Data($0) }, "sample \(sample): the package's table is Welkin's")
        }
    }
}
