// PackageExport: `welkin export-code --package DIR`, a scene as a Swift package for iOS 17 / macOS 14.
//
// Package.swift, Sources/NAME/NAME.swift (the SwiftUI view, its shader layers as WelkinMetalView),
// Sources/NAME/WelkinMetal.swift (MetalRuntime), Sources/NAME/Resources/*.metal (SPIRV-Cross's
// Metal, compiled by Xcode into the package's default library) and Resources/Tracks/* (the
// layers' uniform tracks), Sources/NAME/WelkinAtmosphere/*.swift (Welkin's WelkinAtmosphere module,
// copied as it is: the package makes a physical sky's sky-view tables on the device from the
// recipes in the tracks), README.md. The caller writes the files into a temporary directory and
// renames it into place.

import Foundation
import WelkinCore
import WelkinImage
import WelkinResources
import CZlib

public enum PackageExport {
    /// The package's files by relative path, and the SwiftUI output (its warnings, its type); throws
    /// when an image the code loads cannot be read.
    /// `reference`: Welkin's picture of the scene at 0 s (`referenceFrame`), written as the README's
    /// reference.png; its mean colour is what a Metal view shows when it cannot draw.
    public static func files(_ scene: Scene, metal: [MetalExport.Layer], sceneFile: String?,
                             reference: Image? = nil) throws -> (files: [(path: String, data: Data)], output: CodeExport.Output) {
        var metal = metal
        let fallback = reference.map(meanColor)
        for i in metal.indices { metal[i].fallback = fallback }
        var output = CodeExport.generate(scene, target: .swiftUI, sceneFile: sceneFile, metal: metal, inPackage: true)
        let type = output.typeName
        let module = type.hasSuffix("View") && type.count > 4 ? String(type.dropLast(4)) : type + "Package"
        output.source = AssetExport.loadingFromModule(publicView(output.source, type: type, sky: metal.lazy.compactMap(\.liveSky).first), output.assets)
        // Xcode copies processed images to the bundle's top level, where UIImage(named:in:with:) and
        // Bundle.image(forResource:) look.
        let images = output.assets.isEmpty ? "" : ", .process(\"Resources/Images\")"
        var files: [(String, Data)] = []
        func add(_ path: String, _ text: String) { files.append((path, Data(text.utf8))) }
        // A live sky (MetalLive: LiveSky) brings Welkin's sky model as targets of their own, its
        // files as they are: WelkinSkyModel, the ephemeris (WelkinAstronomy) and ERFA's C files.
        let sky = metal.contains { $0.liveSky != nil }
        var targets: [String] = []
        var dependencies: [String] = []
        if !metal.isEmpty {
            targets.append("// Welkin's sky tables (WelkinAtmosphere), the files as they are in Welkin.")
            targets.append(".target(name: \"WelkinAtmosphere\"),")
            dependencies = ["WelkinAtmosphere"]
        }
        if sky {
            targets += [
                "// The sky computed each frame: Welkin's WelkinSkyModel and WelkinAstronomy, and ERFA 2.0.0's C files (BSD, CERFA/LICENSE).",
                ".target(name: \"CERFA\", exclude: [\"LICENSE\", \"README.md\"]),",
                ".target(name: \"WelkinResources\", resources: [.copy(\"Data\")]),",
                ".target(name: \"WelkinAstronomy\", dependencies: [\"CERFA\", \"WelkinResources\"]),",
                ".target(name: \"WelkinSkyModel\", dependencies: [\"WelkinAtmosphere\", \"WelkinAstronomy\"]),",
            ]
            dependencies.append("WelkinSkyModel")
        }
        let mainDependencies = dependencies.isEmpty ? "" : "dependencies: [" + dependencies.map { "\"\($0)\"" }.joined(separator: ", ") + "], "
        add("Package.swift", """
        // swift-tools-version:\(sky ? "6.0" : metal.isEmpty ? "5.9" : "5.10")
        // \(module): \(SwiftLiteral.commentText(scene.name)), exported from Welkin (`welkin export-code --package`).
        import PackageDescription

        let package = Package(
            name: "\(module)",
            platforms: [.iOS(.v17), .macOS(.v14)],
            products: [.library(name: "\(module)", targets: ["\(module)"])],
            targets: [
        \(targets.map { "        " + $0 + "\n" }.joined())        // The .metal files are compiled into the target's default library; the tracks are copied.
                .target(name: "\(module)", \(mainDependencies)resources: [.process("Resources/Metal"), .copy("Resources/Tracks")\(images)]),
            ]
        )

        """)
        add("Sources/\(module)/\(type).swift", output.source)
        if !metal.isEmpty {
            add("Sources/\(module)/WelkinMetal.swift", MetalRuntime.source)
            for (name, data) in try atmosphereSources() { files.append(("Sources/WelkinAtmosphere/\(name)", data)) }
        }
        if sky {
            for module in Self.skyModules {
                for (name, data) in try moduleSources(module) { files.append(("Sources/\(module)/\(name)", data)) }
            }
            add("Sources/WelkinResources/RuntimeFiles.swift", Self.runtimeFilesSource)
            files.append(("Sources/WelkinResources/Inflate.swift", try inflateSource()))
            for (name, data) in try dataFiles() { files.append(("Sources/WelkinResources/Data/\(name).z", data)) }
        }
        for asset in output.assets {
            files.append(("Sources/\(module)/Resources/Images/\(asset.name)", try Data(contentsOf: URL(fileURLWithPath: asset.source))))
        }
        for layer in metal {
            for (name, source) in layer.metal { add("Sources/\(module)/Resources/Metal/\(name)", source) }
            files.append(("Sources/\(module)/Resources/Tracks/\(layer.name).json", layer.manifest))
            files.append(("Sources/\(module)/Resources/Tracks/\(layer.name).bin", layer.data))
        }
        if metal.contains(where: { !$0.live.isEmpty }) {
            add("Sources/\(module)/WelkinLive.swift", MetalLive.source(metal))
        }
        if let reference { files.append(("reference.png", Data(try PNG.encode(reference, colorSpace: .srgb)))) }
        let notes = output.warnings.map { "- `\($0)`" }.joined(separator: "\n")
        add("README.md", """
        # \(module)

        \(SwiftLiteral.commentText(scene.name)), exported from Welkin by `welkin export-code --package`\(sceneFile.map { " from `\($0)`" } ?? "").

        Add this folder as a package dependency (Xcode: File ▸ Add Package Dependencies… ▸ Add Local…), then:

        ```swift
        import \(module)

        \(type)().frame(width: \(scene.size.x), height: \(scene.size.y))
        ```
        \(metal.contains { $0.liveSky != nil } ? "\nIts sky for another date, place and weather (nil: the scene's), e.g. the user's own sky now, in the rain:\n\n```swift\n\(type)(date: .now, latitude: 48.86, longitude: 2.35, timeScale: 1, weather: .rain)\n```\n" : "")
        iOS 17 / macOS 14 or later. The sky, clouds and shader layers are Metal compiled from the GLSL Welkin draws
        them with (GLSL → SPIR-V → Metal Shading Language), their uniforms Welkin's own values.
        \(Self.uniformsSentence(metal)) \(Self.recordedSentence(metal)) Welkin's docs/code-export.md says more.
        \(reference == nil ? "" : "\nWelkin's picture of the scene at 0 s, which the view draws:\n\n![Welkin's picture at 0 s](reference.png)\n")\(metal.isEmpty ? "" : fallbackSentence(fallback))
        \(notes.isEmpty ? "" : "\nNot exactly as in Welkin:\n\n" + notes + "\n")
        """)
        return (files, output)
    }

    /// Welkin's picture for the package's README: the scene at 0 s in its own framing, its longest
    /// side at most `referenceSide` pixels (a small file), in sRGB.
    public static let referenceSide = 400
    public static func referenceFrame(_ scene: Scene) -> Frame {
        let s = min(1, Double(referenceSide) / Double(max(scene.size.x, scene.size.y, 1)))
        let size = SIMD2(max(1, Int((Double(scene.size.x) * s).rounded())), max(1, Int((Double(scene.size.y) * s).rounded())))
        var frame = Frame(scene: scene, time: 0, pixelSize: size)
        // sRGB, as a README's image is shown (a Display P3 scene: its sRGB picture) and as the
        // fallback colour is given.
        frame.outputColorSpace = .srgb
        return frame
    }

    /// The mean of an image's colours (sRGB 0…1, alpha-weighted; black for a transparent one).
    static func meanColor(_ image: Image) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero, weight = 0.0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let a = Double(image.pixels[i + 3]) / 255
            sum += SIMD3(Double(image.pixels[i]), Double(image.pixels[i + 1]), Double(image.pixels[i + 2])) / 255 * a
            weight += a
        }
        guard weight > 0 else { return .zero }
        return ((sum / weight) * 1000).rounded(.toNearestOrAwayFromZero) / 1000
    }

    /// What the README says a Metal view does when it cannot draw.
    static func fallbackSentence(_ fallback: SIMD3<Double>?) -> String {
        let colour = fallback.map { "the scene's mean colour at 0 s, sRGB (\(SwiftLiteral.number($0.x)), \(SwiftLiteral.number($0.y)), \(SwiftLiteral.number($0.z)))" }
            ?? "transparent"
        return "\nA Metal layer that cannot be drawn (no Metal device, a resource missing from the bundle, a pipeline that does not build) "
            + "prints why to the console (`Welkin: WelkinLayerN cannot be drawn: …`) and is left out, its view's other layers drawn; "
            + "a Metal view none of whose layers can draw shows its fallback colour instead: \(colour).\n"
    }

    /// The modules a live sky brings, copied as they are (RuntimeFiles.swiftSources) with the file
    /// each is found by.
    static let skyModules = ["WelkinSkyModel", "WelkinAstronomy", "CERFA"]
    static let skyModuleMarkers = ["WelkinSkyModel": "Sky/LiveSky.swift", "WelkinAstronomy": "Ephemeris.swift", "CERFA": "include/erfa.h"]

    /// Every file of Welkin's `module` a package carries, by path inside it: Swift, C and headers,
    /// a module map, the licence and README; not WelkinAstronomy's data (Data/), which a live sky
    /// without its night part does not read.
    public static func moduleSources(_ module: String) throws -> [(name: String, data: Data)] {
        let folder = try RuntimeFiles.swiftSources(module: module, marker: skyModuleMarkers[module] ?? "")
        let kept: Set<String> = ["swift", "c", "h", "modulemap"]
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        var out: [(String, Data)] = []
        for case let path as String in walk {
            let name = (path as NSString).lastPathComponent
            guard !path.hasPrefix("Data/"), kept.contains((name as NSString).pathExtension) || name == "LICENSE" || name == "README.md" else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            out.append((path, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The package's WelkinResources: where its WelkinAstronomy finds its data files (the star
    /// catalogue, the planets' series, the Milky Way's map): `Data/NAME.z` in the target's bundle,
    /// zlib-compressed by the export (dataFiles) and inflated once by Welkin's own Inflate.swift.
    static let runtimeFilesSource = """
    // RuntimeFiles.swift — generated by `welkin export-code --package`: where this package's copy of
    // Welkin's WelkinAstronomy finds its data files (Welkin's own WelkinResources finds them beside its
    // binary): Data/NAME.z in this target's bundle, Welkin's files zlib-compressed, inflated here once
    // each by Inflate.swift (Welkin's own file, as it is).

    import Foundation

    public enum RuntimeFiles {
        /// The bytes of data file `file` (`target` is Welkin's module asking; this package has one set).
        public static func contents(of file: String, target: String) throws -> Data {
            guard let url = Bundle.module.url(forResource: file, withExtension: "z", subdirectory: "Data") else {
                throw RuntimeFileError(file: file + ".z", searched: [Bundle.module.bundleURL.appendingPathComponent("Data").path])
            }
            return Data(try Inflate.zlib([UInt8](try Data(contentsOf: url))))
        }
    }

    /// A data file missing from the package's bundle.
    public struct RuntimeFileError: Error, CustomStringConvertible, Sendable {
        public var file: String
        public var searched: [String]
        public var description: String { "\\(file) is not in \\(searched.joined(separator: ", "))" }
    }

    """

    /// The data files a live sky's WelkinAstronomy reads, zlib-compressed (level 9), by name.
    static let dataFileNames = ["milkyway.bin", "stars.bin", "vsop87.bin"]
    public static func dataFiles() throws -> [(name: String, data: Data)] {
        try dataFileNames.map { name in
            let raw = try RuntimeFiles.contents(of: name, target: "WelkinAstronomy")
            return (name, try zlibCompressed(raw))
        }
    }

    /// `data` as a zlib stream (RFC 1950), compressed at level 9.
    public static func zlibCompressed(_ data: Data) throws -> Data {
        let input = [UInt8](data)
        var length = compressBound(uLong(input.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = input.withUnsafeBufferPointer { i in compress2(&out, &length, i.baseAddress, uLong(input.count), 9) }
        guard status == Z_OK else { throw ShaderPipeline.Failure(description: "zlib could not compress \(input.count) bytes (status \(status))") }
        return Data(out[..<Int(length)])
    }

    /// Welkin's Inflate.swift as it is (the checkout's, or PREFIX/share/welkin/Swift's).
    static func inflateSource() throws -> Data {
        let folder = try RuntimeFiles.swiftSources(module: "WelkinResources", marker: "Inflate.swift")
        return try Data(contentsOf: URL(fileURLWithPath: folder + "/Inflate.swift"))
    }

    /// The files of Welkin's WelkinAtmosphere module as they are (RuntimeFiles.swiftSources: the
    /// checkout's for a build, PREFIX/share/welkin/Swift for an install).
    public static func atmosphereSources() throws -> [(name: String, data: Data)] {
        let folder = try RuntimeFiles.swiftSources(module: "WelkinAtmosphere", marker: "SkyViewTable.swift")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) }
    }

    /// What the package's README says of the Metal layers' uniforms: which run per frame, and how
    /// long the recorded rest holds.
    public static func uniformsSentence(_ metal: [MetalExport.Layer]) -> String {
        let (sky, live) = liveSummary(metal)
        let skySentence = sky == 0 ? "" : "The sky and its clouds are computed each frame by the package's copies of Welkin's "
            + "WelkinSkyModel, WelkinAstronomy and WelkinAtmosphere and ERFA's C files (`Sources/`, as they are in Welkin; ERFA's "
            + "licence in `Sources/CERFA/LICENSE`): the sun and the Moon for the date and place, the weather, a physical sky's "
            + "tables and the clouds' light, the night's stars, planets and Moon and a physical sky's Milky Way (from Welkin's catalogue, series and map, "
            + "zlib-compressed in `Sources/WelkinResources/Data`), \(sky) uniforms and the tables, noise and star grid they "
            + "read, at any time. "
        let first = live.isEmpty ? skySentence : skySentence + "Those that follow the scene clock (" + live.map { "`\($0)`" }.joined(separator: ", ")
            + ") are computed each frame by `WelkinLive.swift`; "
        // How much scene time the varying tracks hold (samples − 1 over the rate): they stand still after it.
        let held = metal.filter(\.recordedVaries).compactMap { layer -> Double? in
            guard let d = (try? JSONSerialization.jsonObject(with: layer.manifest)) as? [String: Any],
                  let rate = (d["rate"] as? NSNumber)?.doubleValue, let samples = (d["samples"] as? NSNumber)?.intValue, rate > 0 else { return nil }
            return Double(max(samples - 1, 0)) / rate
        }.max()
        let rest = held.map { "sampled over the first \(SwiftLiteral.number($0)) s of scene time in `Resources/Tracks` and held at their last values after that (a longer span: `--duration`)" }
            ?? "constant, in `Resources/Tracks`"
        if first.isEmpty { return "They are \(rest)." }
        return live.isEmpty ? first + "The other uniforms are \(rest)." : first + "the rest are \(rest)."
    }

    /// A live sky's view: its inputs (date, place, time scale, weather) and its own WelkinSkyLive.
    static func inputs(_ sky: LiveSky) -> String {
        var own = "a fixed sun"
        if case .computed(let date, let latitude, let longitude, let timeScale) = sky.sky.sun {
            own = "\(date), \(SwiftLiteral.number(latitude)), \(SwiftLiteral.number(longitude)), \(SwiftLiteral.number(timeScale))"
        }
        let presets = WeatherPreset.allCases.map(\.rawValue).joined(separator: ", ")
        return """
            /// Welkin's weather presets: the sky and clouds cross-fade to the one given, from the frame
            /// drawn when it changes (nil: the scene's own schedule).
            public enum Weather: String, CaseIterable, Sendable { case \(presets) }

            /// The sky's date at the view's start (`.now` for the user's own sky), place (degrees north,
            /// east) and sky seconds a second; nil keeps the scene's (\(own)).
            public let date: Date?
            public let latitude: Double?
            public let longitude: Double?
            public let timeScale: Double?
            public let weather: Weather?
            @State private var sky: WelkinSkyLive

            public init(date: Date? = nil, latitude: Double? = nil, longitude: Double? = nil, timeScale: Double? = nil, weather: Weather? = nil) {
                self.date = date; self.latitude = latitude; self.longitude = longitude; self.timeScale = timeScale; self.weather = weather
                _sky = State(initialValue: WelkinSkyLive(settings: welkinSkySettings, date: date, latitude: latitude, longitude: longitude,
                                                         timeScale: timeScale, weather: weather?.rawValue))
            }


        """
    }

    /// What the package still records, named with its size: each Metal layer's track (manifest and data).
    static func recordedSentence(_ metal: [MetalExport.Layer]) -> String {
        guard !metal.isEmpty else { return "" }
        let tracks = metal.map { "`\($0.name)` \(SwiftLiteral.number(Double($0.manifest.count + $0.data.count) / 1000)) KB" }
        return "Recorded in `Resources/Tracks` (manifest and data): " + tracks.joined(separator: ", ") + "."
    }

    /// How many of the layers' live uniforms the sky model gives (MetalLive's LiveSky), and the
    /// names of the others.
    public static func liveSummary(_ metal: [MetalExport.Layer]) -> (sky: Int, others: [String]) {
        let all = metal.flatMap(\.live)
        let sky = Set(all.filter { $0.swift.hasPrefix("welkinSky.") }.map(\.name))
        return (sky.count, Set(all.map(\.name)).subtracting(sky).sorted())
    }

    /// The view made public (a package's user imports it from another module), with a public init.
    static func publicView(_ source: String, type: String, sky: LiveSky? = nil) -> String {
        var s = source.replacingOccurrences(of: "struct \(type): View {\n", with: "public struct \(type): View {\n" + (sky.map(inputs) ?? "    public init() {}\n\n"))
        if let r = s.range(of: "    var body: some View {") { s.replaceSubrange(r, with: "    public var body: some View {") }
        return s
    }

    /// Writes `files` as the directory `path`: into a temporary sibling, renamed into place when
    /// complete, so a failure leaves nothing half-written. An existing directory is replaced only
    /// when it is empty or a package Welkin wrote (its Package.swift says so): it is moved aside,
    /// the new one moved in, and the old one removed (put back if the move fails).
    public static func write(_ files: [(path: String, data: Data)], to path: String) throws {
        let fm = FileManager.default
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ShaderPipeline.Failure(description: "\(parent.path): no such directory")
        }
        let exists = fm.fileExists(atPath: target.path, isDirectory: &isDirectory)
        if exists {
            let manifest = (try? String(contentsOf: target.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
            let empty = isDirectory.boolValue && ((try? fm.contentsOfDirectory(atPath: target.path))?.isEmpty ?? false)
            guard isDirectory.boolValue, empty || manifest.contains(writtenMark) else {
                throw ShaderPipeline.Failure(description: "\(target.path) exists and is not a package welkin export-code wrote: give --package a new folder (or that package's)")
            }
        }
        let temporary = parent.appendingPathComponent(".\(target.lastPathComponent).welkin-\(UUID().uuidString)")
        do {
            for (relative, data) in files {
                let url = temporary.appendingPathComponent(relative)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
            if exists {
                let old = parent.appendingPathComponent(".\(target.lastPathComponent).welkin-old-\(UUID().uuidString)")
                try fm.moveItem(at: target, to: old)
                do {
                    try fm.moveItem(at: temporary, to: target)
                } catch {
                    try? fm.moveItem(at: old, to: target)
                    throw error
                }
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: temporary, to: target)
            }
        } catch {
            try? fm.removeItem(at: temporary)
            throw ShaderPipeline.Failure(description: "cannot write \(target.path): \(reason(error))")
        }
    }

    /// A file system error in plain words (the POSIX reason under Foundation's error when there is one).
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// What every Package.swift Welkin writes says (how `write` knows a folder it may replace).
    static let writtenMark = "exported from Welkin (`welkin export-code --package`)"
}
