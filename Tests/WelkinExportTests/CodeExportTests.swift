// Exported code for every example scene: it type-checks against Apple's API (stub modules with
// Apple's signatures, both platform branches), it carries every number of the scene, and whatever
// it leaves out is a warning naming the layer.

import Foundation
import XCTest
@testable import WelkinExport
import WelkinCore
import WelkinTestSupport

final class CodeExportTests: XCTestCase {
    static var scenePaths: [String] {
        let folder = SwiftCompiler.repository.appendingPathComponent("Scenes")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The examples and a fixture with what they do not use (Tests/Fixtures/export-features.json).
    static var exportPaths: [String] {
        scenePaths + ["export-features.json", "export-animations.json", "export-oklab.json"].map { SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/" + $0).path }
    }

    static func load(_ path: String) throws -> Scene { try SceneLoader.load(path: path) }

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    // MARK: Type-checking

    /// The AppKit branches (`#else` … `#endif` after `#if canImport(UIKit)`) of `source`.
    static func appKitBranches(_ source: String) -> Set<String> {
        Set(source.components(separatedBy: "#if canImport(UIKit)\n").dropFirst().compactMap { block in
            guard let otherwise = block.range(of: "#else\n"), let end = block.range(of: "#endif") else { return nil }
            return String(block[otherwise.upperBound..<end.lowerBound])
        })
    }

    /// Every example scene, both targets: the code type-checks in Swift 6 mode against the stubs,
    /// with UIKit (the iOS branch of `#if canImport(UIKit)`), and every distinct AppKit branch with
    /// AppKit instead (the code around it is the iOS pass's; checking each branch once halves the
    /// macOS pass).
    func testEveryExampleTypeChecksAgainstApplesAPI() throws {
        XCTAssertGreaterThanOrEqual(Self.scenePaths.count, 16)
        var files: [URL] = []
        var branching: [URL] = []
        var branches = Set<String>()
        for path in Self.exportPaths {
            let scene = try Self.load(path)
            for target in CodeExport.Target.allCases {
                let output = CodeExport.generate(scene, target: target, sceneFile: path)
                let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + "-" + target.rawValue + ".swift"
                let file = directory.appendingPathComponent(name)
                try output.source.write(to: file, atomically: true, encoding: .utf8)
                files.append(file)
                let own = Self.appKitBranches(output.source)
                if !own.isSubset(of: branches) {
                    branching.append(file)
                    branches.formUnion(own)
                }
            }
        }
        XCTAssertTrue(branches.contains { $0.contains("NSViewRepresentable") } && branches.contains { $0.contains("NSImage(named:") }, "\(branches)")
        let stubs = try SwiftCompiler.stubs()
        // The iOS pass in two halves, so that both cores work while the short macOS pass runs.
        let half = files.count / 2
        let runs = try SwiftCompiler.run([SwiftCompiler.typecheck(Array(files[..<half]), platform: stubs.ios, stubs: stubs),
                                          SwiftCompiler.typecheck(Array(files[half...]), platform: stubs.ios, stubs: stubs),
                                          SwiftCompiler.typecheck(branching, platform: stubs.mac, stubs: stubs)], in: directory)
        for (run, pass) in zip(runs, ["iOS branch", "iOS branch", "macOS branch"]) {
            XCTAssertEqual(run.status, 0, "\(pass):\n" + run.output)
            XCTAssertFalse(run.output.contains("warning:"), run.output)
        }
    }

    /// The stubs are strict enough to catch a wrong label or type (so a passing check means something).
    func testTheStubsRejectWrongCalls() throws {
        let file = directory.appendingPathComponent("wrong.swift")
        try """
        import SwiftUI
        let a = LinearGradient(stops: [], start: .center, end: .center)
        let b = MeshGradient(width: 2, height: 2, points: [SIMD2<Double>(0, 0)], colors: [])
        let c = Color(red: 1, green: 0, blue: 0, alpha: 1)
        """.write(to: file, atomically: true, encoding: .utf8)
        let stubs = try SwiftCompiler.stubs()
        let run = try SwiftCompiler.run([SwiftCompiler.typecheck([file], platform: stubs.ios, stubs: stubs)], in: directory)[0]
        XCTAssertNotEqual(run.status, 0)
        // One error on each line (a wrong label, a wrong element type, a wrong label).
        let lines = SwiftCompiler.errorLines(run.output, in: file)
        XCTAssertEqual(lines, ["2", "3", "4"], run.output)
    }

    // MARK: Numbers

    /// Every number of every exported layer appears in the code as Swift prints it (the shortest
    /// text that reads back as the same Double); what Core Animation or SwiftUI takes appears in
    /// code proper, what they cannot take at least in a comment.
    func testEveryNumberOfTheSceneIsInTheCode() throws {
        for path in Self.exportPaths {
            let scene = try Self.load(path)
            for target in CodeExport.Target.allCases {
                let source = CodeExport.generate(scene, target: target).source
                let code = Set(NumberLiterals.of(NumberLiterals.strippingComments(source)))
                let all = Set(NumberLiterals.of(source))
                let expected = SceneNumbers(scene, target: target)
                for (label, value) in expected.inCode where !code.contains(value) {
                    XCTFail("\(URL(fileURLWithPath: path).lastPathComponent) (\(target)): \(label) \(value) is not in the code")
                }
                for (label, value) in expected.anywhere where !all.contains(value) {
                    XCTFail("\(URL(fileURLWithPath: path).lastPathComponent) (\(target)): \(label) \(value) is not in the file")
                }
                XCTAssertGreaterThan(expected.inCode.count, 0)
            }
        }
    }

    /// A night whose band shows: the export no longer says it leaves the band out (the package's
    /// track carries the map: MetalExportTests); `drawsMilkyWay` finds the band where it shows.
    func testAnExportNoLongerLeavesTheMilkyWayOut() throws {
        func warnings(_ file: String) throws -> [String] {
            let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent(file).path)
            return CodeExport.generate(scene, target: .swiftUI).warnings.map(\.message)
        }
        XCTAssertFalse(try warnings("milky-way.json").contains { $0.contains("Milky Way") })
        let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("milky-way.json").path)
        XCTAssertTrue(SkyExport.drawsMilkyWay(scene, index: 0))
        XCTAssertFalse(SkyExport.drawsMilkyWay(scene, index: 1), "no such layer")
        let day = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("physical-day.json").path)
        XCTAssertFalse(SkyExport.drawsMilkyWay(day, index: 0))
    }

    func testNumberLiteralsAreReadAsSwiftWritesThem() {
        let text = "x(0.4...0.6, -160.0, 1e-05, layer0Points, SIMD2<Float>, welkinYDown * (-0.5), 0.0 - 1.0) // 7.5"
        XCTAssertEqual(NumberLiterals.of(text), ["0.4", "0.6", "-160.0", "1e-05", "-0.5", "0.0", "1.0", "7.5"])
        XCTAssertEqual(NumberLiterals.strippingComments("a = \"//x\" // 3\nb"), "a = \"//x\" \nb")
    }

    /// The SwiftUI view ends with Xcode's preview at the scene's size under the view's availability;
    /// the Core Animation layer, not a view, has none (`NameLayer().frame(…)` would not compile).
    func testTheSwiftUIViewHasAPreviewAndTheLayerNone() throws {
        let scene = try Self.load(SwiftCompiler.repository.appendingPathComponent("Scenes/day-gradient.json").path)
        let view = CodeExport.generate(scene, target: .swiftUI)
        XCTAssertTrue(view.source.contains("""
        #if canImport(DeveloperToolsSupport)
        @available(iOS 14.0, macOS 11.0, *)
        #Preview("Day sky (seed 000)") {
            \(view.typeName)().frame(width: 1280, height: 720)
        }
        #endif
        """), view.source)
        XCTAssertFalse(CodeExport.generate(scene, target: .coreAnimation).source.contains("#Preview"))
    }

    // MARK: Warnings

    /// Each layer Welkin draws and the code cannot is a warning naming the layer, for every scene.
    func testWhatIsLeftOutIsAWarningNamingTheLayer() throws {
        for path in Self.exportPaths {
            let scene = try Self.load(path)
            for target in CodeExport.Target.allCases {
                let output = CodeExport.generate(scene, target: target)
                for (i, layer) in scene.layers.enumerated() {
                    let dropped: Bool
                    switch layer.content {
                    case is ShaderLayer: dropped = true
                    case is TextLayer, is GroupLayer: dropped = target == .coreAnimation
                    case let sky as SkyContent:
                        if case .sky(let s) = sky { dropped = s.model == .physical } else { dropped = true }
                    case is MeshGradient: dropped = target == .coreAnimation
                    default: dropped = false
                    }
                    guard dropped else { continue }
                    let warning = output.warnings.first { $0.path == "layers[\(i)]" && ($0.message.hasPrefix("not exported: ") || $0.message.hasPrefix(MetalExport.onlyWithPackage + ": ")) }
                    XCTAssertEqual(warning?.kind, layer.content.typeName, "\(path) layers[\(i)] (\(target))")
                    XCTAssertTrue(Self.comments(output.source).contains(warning?.message ?? "\u{0}"), "\(path) layers[\(i)]: the code has no comment for it")
                }
            }
        }
    }

    /// The text of the comments of `source`, wrapped lines joined by single spaces.
    static func comments(_ source: String) -> String {
        source.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "// ") else { return nil }
            return String(line[range.upperBound...])
        }.joined(separator: " ")
    }

    func testSunsetCloudsWarningsWordForWord() throws {
        let path = SwiftCompiler.repository.appendingPathComponent("Scenes/sunset-clouds.json").path
        let output = CodeExport.generate(try Self.load(path), target: .swiftUI)
        XCTAssertEqual(output.typeName, "SunsetWithCloudsView")
        XCTAssertEqual(output.warnings.map(\.description), [
            "layers[0] (sky): exported only with --package: the sun's disc (2.5°) and glow and the stars (density 0.07), drawn for a view toward azimuth 255.0° with a 100.0° field of view; the gradient is exported",
            "layers[1] (clouds): exported only with --package: volumetric clouds (cumulus, coverage 0.45) are ray-marched per pixel and have no SwiftUI or Core Animation equivalent; --package draws the layer with Metal compiled from the GLSL Welkin draws it with",
        ])
    }

    func testFireKeepsItsFadeAndReportsItsSway() throws {
        let path = SwiftCompiler.repository.appendingPathComponent("Scenes/fire.json").path
        let output = CodeExport.generate(try Self.load(path), target: .coreAnimation)
        XCTAssertEqual(output.warnings.map(\.description), [
            "layers[0] (emitter): cells[0] \"flame\": not exported: sway (amplitude 172.8 pt, frequency 0.5 Hz, endAmplitude 0.1111111111111111): Core Animation has no per-particle oscillation",
        ])
        // alphaOverLife [1, 0] over a 3 s life is exactly an alpha of 0.4 falling at 0.4 / 3 per second.
        XCTAssertTrue(output.source.contains("flameCell.alphaSpeed = 0.4 * (0.0 - 1.0) / 3.0\n"), output.source)
        XCTAssertTrue(output.source.contains("flameCell.color = CGColor(srgbRed: 1.0, green: 0.5843137254901961, blue: 0.0, alpha: 0.4 * 1.0)"))
        XCTAssertTrue(output.source.contains("emitter.renderMode = .additive\n"))
        XCTAssertTrue(output.source.contains("emitter.timeOffset = 3.0\n"))
    }

    /// For SwiftUI, an emitter Core Animation cannot say is a Canvas running the exported copy of
    /// Welkin's simulation: nothing "not exported", only the sprites' images approximated.
    func testEmittersCoreAnimationCannotSayAreCanvasesForSwiftUI() throws {
        let sprites = "approximated: sprites are drawn from images of Welkin's coverage at 3 pixels per point with 8 bits, scaled to each particle's size; Welkin evaluates the coverage at every pixel"
        let fire = CodeExport.generate(try Self.load(SwiftCompiler.repository.appendingPathComponent("Scenes/fire.json").path), target: .swiftUI)
        XCTAssertEqual(fire.warnings.map(\.description), ["layers[0] (emitter): " + sprites])
        for line in ["WelkinParticleCanvas(emitter: fireEmitter, sprites: fireSprites, start: start)\n", "    e.renderMode = .additive\n",
                     "    e.prewarm = 3.0\n", "    e.windowSteps = 364\n", "    cell0.swayAmplitude = 172.8\n", "    cell0.alphaOverLife = [1.0, 0.0]\n",
                     "    .procedural(.softDot, size: 35.0, blur: 10.0),\n", ".blendMode(emitter.renderMode == .additive ? .plusLighter : .normal)\n"] {
            XCTAssertTrue(fire.source.contains(line), line)
        }
        XCTAssertFalse(fire.source.contains("CAEmitterLayer"))

        let stars = CodeExport.generate(try Self.load(SwiftCompiler.repository.appendingPathComponent("Scenes/stars.json").path), target: .swiftUI)
        XCTAssertEqual(stars.warnings.map(\.description), ["layers[1] (emitter): " + sprites, "layers[2] (emitter): " + sprites])
        XCTAssertTrue(stars.source.contains("    cell0.alphaOverLife = [0.0, 1.0, 0.35, 1.0, 0.5, 1.0, 0.3, 1.0, 0.0]\n"))

        // The features fixture's sparks: damping, curved ramps and maxParticles, all simulated.
        let features = CodeExport.generate(try Self.load(SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/export-features.json").path), target: .swiftUI)
        XCTAssertEqual(features.warnings.filter { $0.path == "layers[5]" }.map(\.description), ["layers[5] (emitter): " + sprites])
        XCTAssertTrue(features.source.contains("    e.maxParticles = 10\n"))
        // Snow is said by Core Animation: it stays a CAEmitterLayer.
        let snow = CodeExport.generate(try Self.load(SwiftCompiler.repository.appendingPathComponent("Scenes/snow.json").path), target: .swiftUI)
        XCTAssertTrue(snow.source.contains("WelkinEmitterView(configure: "))
        XCTAssertFalse(snow.source.contains("WelkinParticleCanvas("))
    }

    func testTheFeaturesFixtureWarningsWordForWord() throws {
        let path = SwiftCompiler.repository.appendingPathComponent("Tests/Fixtures/export-features.json").path
        let output = CodeExport.generate(try Self.load(path), target: .coreAnimation)
        XCTAssertEqual(output.warnings.map(\.description), [
            "layers[3] (sky): exported only with --package: the sun's disc (2.5°) and glow, drawn for a view toward azimuth 180.0° with a 100.0° field of view; the gradient is exported",
            "layers[4] (meshGradient): not exported: Core Animation has no mesh gradient; export with --swiftui for SwiftUI's MeshGradient (iOS 18, macOS 15)",
            "layers[5] (emitter): approximated: renderMode oldestLast: Welkin orders particles by age within each cell and draws the cells in order; Core Animation orders all the layer's particles together",
            "layers[5] (emitter): not exported: maxParticles 10 (Welkin drops births beyond it; the cells need up to 83; Core Animation has no such limit)",
            "layers[5] (emitter): cells[0] \"spark\": not exported: damping 0.5/s: Core Animation's particles keep a constant acceleration",
            "layers[5] (emitter): cells[1] \"ember\": approximated: alphaOverLife [1.0, 0.0] as a constant speed over the mean lifetime 4.0 s (exact only without lifetimeRange and the value's own range)",
            "layers[5] (emitter): cells[2] \"puff\": not exported: colorOverLife [[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0]]: Core Animation changes a particle's values only at a constant speed, and the cell already changes the value at a speed, and the ramp on top of it makes a curve",
            "layers[5] (emitter): cells[2] \"puff\": not exported: scaleOverLife [1.0, 2.0]: Core Animation changes a particle's values only at a constant speed, and the cell already changes the value at a speed, and the ramp on top of it makes a curve",
        ])
        // A reserved word as a layer name becomes another name; wind is folded into the accelerations.
        XCTAssertTrue(output.source.contains("private let defaultLayer = CAGradientLayer()\n"), output.source)
        XCTAssertTrue(output.source.contains("emberCell.xAcceleration = 0.0 + 20.0 * 2.0\n"))
        XCTAssertTrue(output.source.contains("emitter.emitterSize = CGSize(width: 0.3 * bounds.width / 2, height: 0.0 * bounds.height)\n"))
    }

    /// `color(display-p3 …)` comes back as SwiftUI's and Core Graphics' Display P3 colours, with
    /// the components the scene wrote (Scenes/p3-sunset.json type-checks with the other examples).
    func testDisplayP3ColoursAreSaidBackInDisplayP3() throws {
        let scene = try SceneLoader.decode("""
            {"size": [100, 100], "background": "color(display-p3 1 0.36 0.2)",
             "layers": [{"type": "linearGradient", "stops": ["color(display-p3 0.12 0.05 0.28)", "color(srgb-linear 0.5 0 1)", "#FF0000"]}]}
            """)
        let swiftUI = CodeExport.generate(scene, target: .swiftUI).source
        XCTAssertTrue(swiftUI.contains("Color(.displayP3, red: 1.0, green: 0.36, blue: 0.2, opacity: 1.0)"), swiftUI)
        XCTAssertTrue(swiftUI.contains("Color(.displayP3, red: 0.12, green: 0.05, blue: 0.28, opacity: 1.0)"), swiftUI)
        XCTAssertTrue(swiftUI.contains("Color(.sRGBLinear, red: 0.5, green: 0.0, blue: 1.0, opacity: 1.0)"), swiftUI)
        XCTAssertTrue(swiftUI.contains("Color(.sRGB, red: 1.0, green: 0.0, blue: 0.0, opacity: 1.0)"), swiftUI)
        let coreAnimation = CodeExport.generate(scene, target: .coreAnimation).source
        XCTAssertTrue(coreAnimation.contains("CGColor(colorSpace: CGColorSpace(name: CGColorSpace.displayP3)!, components: [1.0, 0.36, 0.2, 1.0])!"), coreAnimation)
    }

    func testTypeNamesComeFromTheSceneName() {
        XCTAssertEqual(SwiftLiteral.typeName("Sunset with clouds", suffix: "View"), "SunsetWithCloudsView")
        XCTAssertEqual(SwiftLiteral.typeName("Mesh gradient with explicit Bézier handles", suffix: "Layer"), "MeshGradientWithExplicitBezierHandlesLayer")
        XCTAssertEqual(SwiftLiteral.typeName("3 skies", suffix: "View"), "Scene3SkiesView")
        XCTAssertEqual(SwiftLiteral.typeName("天空", suffix: "View"), "WelkinView")
        XCTAssertEqual(SwiftLiteral.typeName("Preview", suffix: "View"), "PreviewView")
        XCTAssertEqual(SwiftLiteral.typeName("Sky view", suffix: "View"), "SkyView")
    }
}

/// Number literals in Swift source, as written.
enum NumberLiterals {
    /// The source without `//` comments (string literals kept).
    static func strippingComments(_ source: String) -> String {
        var out = ""
        var chars = Array(source)[...]
        var inString = false
        while let c = chars.first {
            chars = chars.dropFirst()
            if inString {
                out.append(c)
                if c == "\\", let next = chars.first { out.append(next); chars = chars.dropFirst() }
                else if c == "\"" { inString = false }
            } else if c == "/", chars.first == "/" {
                while let n = chars.first, n != "\n" { chars = chars.dropFirst() }
            } else {
                if c == "\"" { inString = true }
                out.append(c)
            }
        }
        return out
    }

    /// Each number literal: digits, an optional fraction and exponent, and a minus sign that is not
    /// a binary operator (no space after it). Digits inside identifiers are not numbers.
    static func of(_ text: String) -> [String] {
        let c = Array(text.unicodeScalars)
        func isIdentifier(_ u: Unicode.Scalar) -> Bool { u.properties.isAlphabetic || u == "_" || ("0"..."9").contains(u) }
        func isDigit(_ i: Int) -> Bool { i < c.count && ("0"..."9").contains(c[i]) }
        var out: [String] = []
        var i = 0
        while i < c.count {
            guard isDigit(i), i == 0 || !isIdentifier(c[i - 1]) else { i += 1; continue }
            var start = i
            if i > 0, c[i - 1] == "-", i < 2 || !isIdentifier(c[i - 2]) && c[i - 2] != ")" { start = i - 1 }
            while isDigit(i) { i += 1 }
            if i + 1 < c.count, c[i] == ".", isDigit(i + 1) {
                i += 1
                while isDigit(i) { i += 1 }
            }
            if i < c.count, c[i] == "e" || c[i] == "E" {
                var j = i + 1
                if j < c.count, c[j] == "+" || c[j] == "-" { j += 1 }
                if isDigit(j) {
                    i = j
                    while isDigit(i) { i += 1 }
                }
            }
            out.append(String(String.UnicodeScalarView(c[start..<i])))
        }
        return out
    }
}

/// The numbers of a scene's exported layers, as Swift prints them: `inCode` are what the target
/// API takes, `anywhere` what the code can only mention.
struct SceneNumbers {
    var inCode: [(String, String)] = []
    var anywhere: [(String, String)] = []

    init(_ scene: Scene, target: CodeExport.Target) {
        func n(_ v: Double) -> String { v.description }
        func code(_ label: String, _ values: Double...) { for v in values { inCode.append((label, n(v))) } }
        func mention(_ label: String, _ values: Double...) { for v in values { anywhere.append((label, n(v))) } }
        // A colour written in another space is said back in it where SwiftUI takes the space
        // (CodeExportTests.testDisplayP3ColoursAreSaidBackInDisplayP3) and as extended sRGB
        // where the runtime helpers take sRGB: its alpha, at least, is in the code either way.
        func color(_ label: String, _ c: RGBA) { if c.written == nil { code(label, c.r, c.g, c.b, c.a) } else { code(label, c.a) } }
        color("background", scene.background)
        /// An animated property's values (and keyframe times, a transition's delay and speed); its
        /// timing is CodeExport's AnimationExportTests' (read back exactly).
        func animated<V>(_ label: String, _ a: Animated<V>, _ each: (String, V) -> Void) {
            switch a {
            case .constant(let v): each(label, v)
            case .keyframes(let k):
                for (time, v) in zip(k.times, k.values) { code("\(label) time", time); each(label, v) }
            case .transition(let t):
                each(label + ".from", t.from); each(label + ".to", t.to)
                if t.delay != 0 { code("\(label).delay", t.delay) }
                if t.speed != 1 { code("\(label).speed", t.speed) }
            }
        }
        func number(_ label: String, _ v: Double) { code(label, v) }
        func point(_ label: String, _ v: SIMD2<Double>) { code(label, v.x, v.y) }
        /// What Welkin applies after the kind: transform, shadow, animated opacity (and a text or group's own numbers).
        func modifiers(_ layer: Layer, _ at: String) {
            if let o = layer.opacityAnimation { animated("\(at).opacity", o, number) }
            if let t = layer.transform {
                if t.scale != .constant(SIMD2(1, 1)) || t.rotation != .constant(0) { code("\(at).transform.anchor", t.anchor.x, t.anchor.y) }
                if t.offset != .constant(.zero) { animated("\(at).transform.offset", t.offset, point) }
                if t.scale != .constant(SIMD2(1, 1)) { animated("\(at).transform.scale", t.scale, point) }
                if t.rotation != .constant(0) { animated("\(at).transform.rotation", t.rotation, number) }
            }
            if let shadow = layer.shadow {
                code("\(at).shadow.offset", shadow.offset.x, shadow.offset.y)
                animated("\(at).shadow.color", shadow.color, color)
                animated("\(at).shadow.radius", shadow.radius, number)
                if shadow.opacity != .constant(1) { animated("\(at).shadow.opacity", shadow.opacity, number) }
            }
        }
        func textAndGroups(_ layer: Layer, _ at: String) {
            switch layer.content {
            case let text as TextLayer:
                code("\(at).size", text.size)
                code("\(at).position", text.position.x, text.position.y)
                if text.lineSpacing != 0 { code("\(at).lineSpacing", text.lineSpacing) }
                if text.inside != nil && text.margin != 0 && text.position != SIMD2(0.5, 0.5) { code("\(at).margin", text.margin) }
                animated("\(at).color", text.color, color)
                modifiers(layer, at)
            case let group as GroupLayer:
                code("\(at).opacity", layer.opacity)
                modifiers(layer, at)
                for (k, child) in group.layers.enumerated() where child.content is TextLayer || child.content is GroupLayer {
                    textAndGroups(child, "\(at).layers[\(k)]")
                }
                if let mask = group.mask, mask.content is TextLayer || mask.content is GroupLayer { textAndGroups(mask, "\(at).mask") }
            default:
                modifiers(layer, at)
            }
        }
        for (i, layer) in scene.layers.enumerated() {
            let at = "layers[\(i)]"
            if target == .swiftUI, layer.content is TextLayer || layer.content is GroupLayer { textAndGroups(layer, at) }
            if layer.content is Gradient || (layer.content is MeshGradient && target == .swiftUI) { modifiers(layer, at) }
            switch layer.content {
            case let g as Gradient:
                code("\(at).opacity", layer.opacity)
                for (k, stop) in g.stops.enumerated() {
                    code("\(at).stops[\(k)].location", stop.location)
                    color("\(at).stops[\(k)].color", stop.color)
                }
                switch g.shape {
                case .linear(let s, let e): code("\(at) start/end", s.x, s.y, e.x, e.y)
                case .radial(let c, let r0, let r1): code("\(at) center/radii", c.x, c.y, r0, r1)
                case .angular(let c, let a0, let a1): code("\(at) center/angles", c.x, c.y, a0, a1)
                case .elliptical(let c, let f0, let f1): code("\(at) center/fractions", c.x, c.y, f0, f1)
                }
            case let m as MeshGradient:
                guard target == .swiftUI else { continue }
                code("\(at).opacity", layer.opacity)
                color("\(at).background", m.background)
                switch m.vertices {
                case .points(let points):
                    for (k, p) in points.enumerated() { code("\(at).points[\(k)]", p.x, p.y) }
                case .bezier(let points):
                    for (k, p) in points.enumerated() {
                        for q in [p.position, p.leading, p.top, p.trailing, p.bottom] { code("\(at).bezierPoints[\(k)]", q.x, q.y) }
                    }
                }
                for (k, c) in m.colors.enumerated() { color("\(at).colors[\(k)]", c) }
                for (k, key) in m.colorKeyframes.enumerated() {
                    code("\(at).colorKeyframes[\(k)].time", key.time)
                    for c in key.colors { color("\(at).colorKeyframes[\(k)].colors", c) }
                }
                if let walk = m.animation {
                    code("\(at).animation", walk.interval, walk.step, walk.spring.duration, walk.spring.bounce)
                    for r in walk.ranges {
                        for range in [r.x, r.y].compactMap({ $0 }) { code("\(at).animation.ranges", range.lowerBound, range.upperBound) }
                    }
                    inCode.append(("seed", String(scene.seed)))
                }
            case let e as EmitterLayer:
                code("\(at).opacity", layer.opacity)
                code("\(at) position/size", e.position.x, e.position.y, e.size.x, e.size.y)
                code("\(at) multipliers", e.birthRate, e.lifetime, e.velocity, e.scale, e.spin)
                if e.prewarm > 0 { code("\(at).prewarm", e.prewarm) }
                for (k, cell) in e.cells.enumerated() {
                    let c = "\(at).cells[\(k)]"
                    code(c, cell.birthRate, cell.lifetime, cell.lifetimeRange, cell.velocity, cell.velocityRange,
                         cell.emissionLongitude, cell.emissionRange, cell.xAcceleration, cell.yAcceleration,
                         cell.scale, cell.scaleRange, cell.scaleSpeed, cell.spin, cell.spinRange,
                         cell.redRange, cell.greenRange, cell.blueRange, cell.alphaRange,
                         cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed, cell.spriteSize)
                    color("\(c).color", cell.color)
                    if cell.sprite == .softDot || cell.sprite == .cloud { code("\(c).blur", cell.blur) }
                    if cell.sprite == .streak { code("\(c).streakDuration", cell.streakDuration) }
                    if scene.wind != .zero { code("\(c).windFactor", cell.windFactor); code("wind", scene.wind.x, scene.wind.y) }
                    if cell.sway.amplitude != 0 { mention("\(c).sway", cell.sway.amplitude, cell.sway.frequency, cell.sway.endAmplitude) }
                    if cell.damping != 0 { mention("\(c).damping", cell.damping) }
                    for v in cell.alphaOverLife?.values ?? [] { mention("\(c).alphaOverLife", v) }
                    for v in cell.scaleOverLife?.values ?? [] { mention("\(c).scaleOverLife", v) }
                    for v in cell.colorOverLife?.values ?? [] { mention("\(c).colorOverLife", v.r, v.g, v.b, v.a) }
                }
            case SkyContent.sky(let sky) as SkyContent where sky.model == .palette:
                code("\(at).opacity", layer.opacity)
                code("\(at).horizon", sky.horizon)
                switch sky.sun {
                case .fixed(let e, let a): code("\(at) sunElevation/sunAzimuth", e, a)
                case .computed(_, let latitude, let longitude, let timeScale): code("\(at) latitude/longitude/timeScale", latitude, longitude, timeScale)
                }
                for (k, key) in sky.palette.enumerated() {
                    code("\(at).palette[\(k)].elevation", key.elevation)
                    color("\(at).palette[\(k)].zenith", key.zenith)
                    color("\(at).palette[\(k)].horizon", key.horizon)
                    color("\(at).palette[\(k)].sunGlow", key.sunGlow)
                }
                mention("\(at) view", sky.viewAzimuth, sky.fieldOfView, sky.sunSize, sky.starDensity)
                if let weather = scene.weather, !weather.schedule.isEmpty {
                    code("weather.transition", weather.transition)
                    for entry in weather.schedule { code("weather.schedule.at", entry.at) }
                }
            default:
                continue
            }
        }
    }
}
