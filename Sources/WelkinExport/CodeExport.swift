// Code export: a scene as one self-contained Swift file for SwiftUI or Core Animation.
//
// The generator reads a validated Scene (it re-validates nothing) and writes, layer by layer, the
// nearest Apple API: gradients and meshes as SwiftUI's own gradient views or CAGradientLayers,
// emitters as CAEmitterLayers (for SwiftUI, a Canvas running a copy of Welkin's simulation where
// Core Animation cannot say them), the sky as a gradient following the sun. What has no equivalent
// is never dropped silently: it becomes a comment in the code and a warning naming the layer.
// docs/code-export.md says what maps to what and why.

import Foundation
import WelkinCore

public enum CodeExport {
    /// The API the code is written for.
    public enum Target: String, Sendable, CaseIterable {
        /// A SwiftUI `View` (the default).
        case swiftUI
        /// A `CALayer` subclass for UIKit or AppKit.
        case coreAnimation
    }

    /// Something of the scene that the code leaves out or draws differently.
    public struct Warning: Sendable, Equatable, CustomStringConvertible {
        /// Where in the scene: `layers[2]`, `weather`.
        public var path: String
        /// The layer's type, when the warning is about a layer.
        public var kind: String?
        /// "not exported: …", "approximated: …" or "exported only with --package: …".
        public var message: String

        public var description: String { kind.map { "\(path) (\($0)): \(message)" } ?? "\(path): \(message)" }
    }

    /// A generated file.
    public struct Output: Sendable {
        /// The Swift source.
        public var source: String
        /// The type the file declares (`SunsetWithCloudsView`, `SunsetWithCloudsLayer`).
        public var typeName: String
        public var warnings: [Warning]
        /// Images the code loads by name, to be written beside it (AssetExport).
        public var assets: [Asset] = []
        /// What of the scene only a package draws (Metal): "physical sky", "volumetric clouds", …,
        /// one per layer in order. A single file without them shows a different picture, so
        /// `welkin export-code` refuses it unless told `--allow-partial`.
        public var needsPackage: [String] = []
    }

    /// The Swift source of `scene` for `target`. `sceneFile` names the scene in the file's header.
    /// `inPackage`: the file is a package's view (`--package`), its images in the package's resources.
    public static func generate(_ scene: Scene, target: Target = .swiftUI, sceneFile: String? = nil,
                                metal: [MetalExport.Layer] = [], inPackage: Bool = false) -> Output {
        let context = ExportContext(scene: scene, target: target)
        context.metal = metal
        context.assets = AssetExport.images(scene)
        context.inPackage = inPackage
        // The weather's rain and snow fall in front of the last sky layer, as Welkin draws them.
        let precipitationAfter = scene.layers.lastIndex { $0.content.isSkySpace } ?? scene.layers.count - 1
        if scene.layers.isEmpty { context.exportWeather() }
        for (index, layer) in scene.layers.enumerated() {
            context.export(layer, index: index)
            if index == precipitationAfter { context.exportWeather() }
        }
        let typeName = SwiftLiteral.typeName(scene.name, suffix: target == .swiftUI ? "View" : "Layer")
        let source = target == .swiftUI
            ? SwiftUIFile.assemble(context, typeName: typeName, sceneFile: sceneFile)
            : CoreAnimationFile.assemble(context, typeName: typeName, sceneFile: sceneFile)
        return Output(source: source, typeName: typeName, warnings: context.warnings, assets: context.assets, needsPackage: context.needsPackage)
    }
}

/// What the layers of one export have written so far.
/// A layer kind that code export writes: each kind's *Export.swift conforms its model (a kind
/// without one is listed as not exported).
protocol CodeExportable: LayerContent {
    func export(layer: Layer, index: Int, context: ExportContext)
}

final class ExportContext {
    /// The layers only a package draws (Output.needsPackage).
    var needsPackage: [String] = []
    let scene: Scene
    let target: CodeExport.Target
    private(set) var warnings: [CodeExport.Warning] = []
    /// Runtime snippets the file needs (RuntimeSupport).
    var runtime: Set<String> = []
    /// The oldest iOS and macOS the file runs on.
    private(set) var minimum = (iOS: 14, macOS: 11)
    /// SwiftUI: something reads the scene time, so the view keeps its start date.
    var animates = false
    /// Layers drawn by Metal views (`--package`).
    var metal: [MetalExport.Layer] = []
    /// Emitters: the file imports QuartzCore and CoreGraphics and hosts layers in views.
    var usesEmitters = false
    /// An emitter cell shows a named image (UIImage / NSImage).
    var usesImages = false
    /// The image files the code loads by name, and whether they go into a package's resources.
    var assets: [CodeExport.Asset] = []
    var inPackage = false
    /// SwiftUI: the ZStack's children (and comments between them), in layer order.
    private(set) var items: [(source: String, isView: Bool)] = []
    /// Core Animation: the body of `setUp()`.
    var body = SwiftSource()
    /// Stored and static members of the generated type.
    var members = SwiftSource()
    /// Core Animation: the body of `layoutSublayers()`.
    var layout = SwiftSource()
    /// Declarations after the type (emitter builders).
    var fileScope = SwiftSource()
    /// SwiftUI: statements run when the view appears (`withAnimation` of the animated state).
    var appear: [String] = []
    /// The member name the last layer took (Core Animation: its CALayer).
    private(set) var lastName: String?
    private var names: Set<String> = ["start", "body", "setUp", "layoutSublayers"]

    init(scene: Scene, target: CodeExport.Target) {
        self.scene = scene; self.target = target
    }

    func require(iOS: Int, macOS: Int) {
        minimum = (max(minimum.iOS, iOS), max(minimum.macOS, macOS))
    }

    /// Records a warning, and returns its message for the code's comment.
    @discardableResult
    func warn(_ index: Int?, _ kind: String?, _ message: String) -> String {
        warnings.append(CodeExport.Warning(path: index.map { "layers[\($0)]" } ?? "weather", kind: kind, message: message))
        return message
    }

    /// A member name not yet used in the file, from the layer's name when it has one.
    func name(for layer: Layer, index: Int, suffix: String = "") -> String {
        var base = SwiftLiteral.identifier(layer.name) ?? "layer\(index)"
        if Self.keywords.contains(base) { base += "Layer" }
        let candidate = uniqueName(base, index: index, suffix: suffix)
        if suffix.isEmpty { lastName = candidate }
        return candidate
    }

    /// `base + suffix`, or with `index` (and a count) after `base` when the file already uses it.
    func uniqueName(_ base: String, index: Int, suffix: String = "") -> String {
        var candidate = base + suffix
        if names.contains(candidate) { candidate = base + "\(index)" + suffix }
        var n = 2
        while names.contains(candidate) { candidate = base + "\(index)_\(n)" + suffix; n += 1 }
        names.insert(candidate)
        return candidate
    }

    /// `layers[2] "sun rays" (angularGradient)`, for comments.
    func label(_ layer: Layer, index: Int, kind: String) -> String {
        "layers[\(index)]" + (layer.name.map { " " + SwiftLiteral.string(SwiftLiteral.commentText($0)) } ?? "") + " (\(kind))"
    }

    /// Reserved words (and names the generated type already uses) a layer name must not become.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false",
        "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "some", "any", "await", "async",
        "layer", "sublayers", "bounds", "frame", "opacity", "contents", "type",
    ]

    // MARK: layers

    func export(_ layer: Layer, index: Int) {
        if let m = metal.first(where: { $0.sceneLayers.contains(index) }) {
            let kind = layer.content.typeName
            let run = metalRun(from: m)
            if m.sceneLayers.first == index, run.first?.name == m.name {
                require(iOS: 17, macOS: 14)
                addView { s in
                    for m in run {
                        let drawn = m.sceneLayers.map { "layers[\($0)] (\(scene.layers[$0].content.typeName))" }.joined(separator: ", ")
                        let (sky, others) = PackageExport.liveSummary([m])
                        let live = m.live.isEmpty ? "" : sky > 0
                            ? "; \(sky) of them computed each frame by the package's copy of Welkin's sky model, for the view's date, place and weather (\(m.name)Live and WelkinSkyLive in WelkinLive.swift)"
                                + (others.isEmpty ? "" : ", and \(others.joined(separator: ", "))")
                            : "; \(m.liveNames.joined(separator: ", ")) computed each frame (\(m.name)Live in WelkinLive.swift)"
                        s.comment("\(drawn) → Metal made from Welkin's GLSL (\(m.name)*.metal), its uniforms Welkin's values over time (Tracks/\(m.name).json, .bin)\(live).")
                    }
                    if run.count > 1 { s.comment("One MTKView draws these \(run.count) layers, one command buffer a frame; shown flipped, as GL's rows run bottom to top.") } else { s.comment("Shown flipped, as GL's rows run bottom to top.") }
                    var fallback = m.fallback.map { ", fallback: (\(n($0.x)), \(n($0.y)), \(n($0.z)))" } ?? ""
                    if scene.outputColorSpace == .displayP3 { fallback += ", displayP3: true" }
                    // A live sky's layers read the view's own WelkinSkyLive (its inputs: PackageExport.publicView).
                    let layers = run.map { l -> String in
                        let sky = l.liveSky != nil
                        return "WelkinMetalLayer(resource: \"\(l.name)\"" + (l.live.isEmpty ? "" : sky ? ", live: { [sky] in \(l.name)Live.values(at: $0, sky: sky) }" : ", live: \(l.name)Live.values")
                            + (l.liveTextures.isEmpty ? "" : ", liveTexture: { [sky] in sky.texture($0, $1) }") + ")"
                    }
                    s.line("WelkinMetalView(layers: [" + layers.joined(separator: ", ") + "], width: \(m.pixelSize.x), height: \(m.pixelSize.y)" + fallback + ")")
                    s.line("    .scaleEffect(x: 1, y: -1)")
                    if run.contains(where: { $0.liveSky != nil }) {
                        s.line("    .onChange(of: weather) { _, new in if let new { sky.change(weather: new.rawValue) } }")
                        s.line("    .onChange(of: [date?.timeIntervalSince1970, latitude, longitude, timeScale]) {")
                        s.line("        sky.place(date: date, latitude: latitude, longitude: longitude, timeScale: timeScale)")
                        s.line("    }")
                    }
                }
            } else if m.sceneLayers.first == index, let first = run.first {
                addComment([label(layer, index: index, kind: kind) + ": drawn by the Metal view of layers[\(first.sceneLayers[0])] (one view for adjacent Metal layers)"])
            } else {
                addComment([label(layer, index: index, kind: kind) + ": drawn by the Metal view of layers[\(m.sceneLayers[0])] (one sky pass)"])
            }
            return
        }
        if let content = layer.content as? CodeExportable {
            exportModified(content, layer, index: index)
        } else {
            let kind = layer.content.typeName
            notExported(label(layer, index: index, kind: kind), warn(index, kind, "not exported: Welkin's \(kind) layers have no code export yet"))
        }
    }

    /// The run of Metal layers `m` belongs to: Metal layers whose scene layers follow one another
    /// with nothing between them, so one MTKView draws them all in their order.
    func metalRun(from m: MetalExport.Layer) -> [MetalExport.Layer] {
        let sorted = metal.sorted { ($0.sceneLayers.first ?? 0) < ($1.sceneLayers.first ?? 0) }
        guard let at = sorted.firstIndex(where: { $0.name == m.name }) else { return [m] }
        var start = at, end = at
        while start > 0, let a = sorted[start - 1].sceneLayers.last, let b = sorted[start].sceneLayers.first, a + 1 == b { start -= 1 }
        while end + 1 < sorted.count, let a = sorted[end].sceneLayers.last, let b = sorted[end + 1].sceneLayers.first, a + 1 == b { end += 1 }
        return Array(sorted[start...end])
    }

    /// A kind's view (SwiftUI) or CALayer (Core Animation) with the layer's transform, shadow and
    /// animated opacity (LayerModifiers); a text layer places its own (its anchor is its box).
    func exportModified(_ content: CodeExportable, _ layer: Layer, index: Int) {
        let before = items.count
        lastName = nil
        content.export(layer: layer, index: index, context: self)
        if target == .coreAnimation, let g = content as? Gradient, g.animation?.isAnimated == true {
            warn(index, layer.content.typeName, "not exported: the gradient's animated stops and geometry (drawn at their values at time 0); export with --swiftui to animate them")
        }
        if target == .swiftUI {
            guard !(content is TextLayer), items.count > before, let last = items.indices.last, items[last].isView else { return }
            items[last].source = LayerModifiers.finishSwiftUI(items[last].source, layer, index: index, self)
        } else if let name = lastName {
            body.lines(LayerModifiers.coreAnimation(layer, index: index, name: name, self).joined(separator: "\n"))
        }
    }

    /// SwiftUI: the views (and comments) that `build` adds, instead of adding them to the ZStack.
    func collect(_ build: () -> Void) -> [(source: String, isView: Bool)] {
        let saved = items
        items = []
        build()
        let collected = items
        items = saved
        return collected
    }

    /// SwiftUI: one child of the ZStack.
    func addView(_ build: (inout SwiftSource) -> Void) {
        var s = SwiftSource()
        build(&s)
        items.append((s.text, true))
    }

    /// A comment among the ZStack's children (SwiftUI) or in `setUp()` (Core Animation).
    func addComment(_ lines: [String]) {
        var s = SwiftSource()
        for l in lines { s.comment(l) }
        if target == .swiftUI { items.append((s.text, false)) } else { body.lines(s.text) }
    }

    /// True for the SwiftUI target; for Core Animation, notes the layer as not exported with `why`
    /// (a warning and a comment where it would have been) and returns false.
    func swiftUIOnly(_ layer: Layer, index: Int, _ why: String) -> Bool {
        guard target != .swiftUI else { return true }
        let kind = layer.content.typeName
        notExported(label(layer, index: index, kind: kind), warn(index, kind, "not exported: " + why))
        return false
    }

    /// A comment in the code where a layer would have been.
    func notExported(_ label: String, _ message: String, details: [String] = []) {
        addComment([label, "  " + message] + details.map { "  " + $0 })
    }

    static func describe(_ v: UniformValue) -> String {
        switch v {
        case .floats(let f): return f.count == 1 ? Double(f[0]).description : "[" + f.map { Double($0).description }.joined(separator: ", ") + "]"
        case .color(let c): return "[" + [c.r, c.g, c.b, c.a].map(SwiftLiteral.number).joined(separator: ", ") + "]"
        }
    }

    /// The weather's rain and snow: the hidden emitters Welkin adds in front of the last sky layer
    /// (PrecipitationExport).
    func exportWeather() {
        PrecipitationExport.export(self)
    }

    // MARK: literals

    /// `Color(.sRGB, red: …, green: …, blue: …, opacity: …)`; a colour the scene wrote as
    /// `color(display-p3 …)` or `color(srgb-linear …)` in that space, with the components it wrote.
    func color(_ c: RGBA) -> String {
        if let w = c.written, w.space != .srgb {
            let space = w.space == .displayP3 ? ".displayP3" : ".sRGBLinear"
            return "Color(\(space), red: \(n(w.components.x)), green: \(n(w.components.y)), blue: \(n(w.components.z)), opacity: \(n(c.a)))"
        }
        return "Color(.sRGB, red: \(n(c.r)), green: \(n(c.g)), blue: \(n(c.b)), opacity: \(n(c.a)))"
    }

    /// `CGColor(srgbRed: …, green: …, blue: …, alpha: …)`; a `color(display-p3 …)` in Core
    /// Graphics' Display P3 space, with the components the scene wrote.
    func cgColor(_ c: RGBA) -> String {
        if let w = c.written, w.space == .displayP3 {
            return "CGColor(colorSpace: CGColorSpace(name: CGColorSpace.displayP3)!, components: ["
                + [w.components.x, w.components.y, w.components.z, c.a].map(n).joined(separator: ", ") + "])!"
        }
        return "CGColor(srgbRed: \(n(c.r)), green: \(n(c.g)), blue: \(n(c.b)), alpha: \(n(c.a)))"
    }

    /// `WelkinRGBA(r, g, b, a)`.
    func rgba(_ c: RGBA) -> String {
        runtime.insert("rgba")
        return "WelkinRGBA(\(n(c.r)), \(n(c.g)), \(n(c.b)), \(n(c.a)))"
    }

    /// `[r, g, b, a]`, for comments and messages.
    func rgbaList(_ c: RGBA) -> String { "[\(n(c.r)), \(n(c.g)), \(n(c.b)), \(n(c.a))]" }

    /// ` // #RRGGBB` after a colour whose components are long fractions (from hex), else "".
    func hexComment(_ c: RGBA) -> String {
        [c.r, c.g, c.b, c.a].contains(where: { n($0).count > 6 }) ? " // \(c)" : ""
    }

    func n(_ v: Double) -> String { SwiftLiteral.number(v) }
}

// MARK: - SwiftUI

/// Assembles a SwiftUI file: imports, the view, emitter builders, runtime support.
enum SwiftUIFile {
    static func assemble(_ c: ExportContext, typeName: String, sceneFile: String?) -> String {
        var s = SwiftSource()
        FileHeader.write(&s, c, typeName: typeName, sceneFile: sceneFile,
                         use: "Show it at the scene's size to see Welkin's picture: \(typeName)().frame(width: \(c.scene.size.x), height: \(c.scene.size.y)). Elsewhere it fills its frame: unit points stretch and points stay points, as in Welkin's viewer window.")
        s.line("import SwiftUI")
        s.line("import Foundation")
        if c.usesEmitters {
            s.line("import CoreGraphics")
            s.line("import QuartzCore")
            FileHeader.platformImports(&s)
        }
        s.line()
        s.line("/// \(SwiftLiteral.commentText(c.scene.name)), exported from Welkin.")
        s.line("@available(iOS \(c.minimum.iOS).0, macOS \(c.minimum.macOS).0, *)")
        s.block("struct \(typeName): View {") { s in
            if c.animates {
                s.line("/// Scene time 0: when the view appeared.")
                s.line("@State private var start = Date()")
            }
            if !c.members.text.isEmpty {
                if c.animates { s.line() }
                s.lines(c.members.text)
            }
            if c.animates || !c.members.text.isEmpty { s.line() }
            s.block("var body: some View {") { s in
                s.block("ZStack {") { s in
                    var background = SwiftSource()
                    background.comment("The scene's background.")
                    background.line(c.color(c.scene.background) + c.hexComment(c.scene.background))
                    writeChildren([(background.text, true)] + c.items, into: &s)
                }
                s.line(".ignoresSafeArea()")
                if !c.appear.isEmpty {
                    s.comment("The scene's animations start at scene time 0, when the view appears.")
                    s.block(".onAppear {") { s in for line in c.appear { s.line(line) } }
                }
            }
        }
        // Xcode's canvas: the view at the scene's size (DeveloperToolsSupport, which SwiftUI's
        // #Preview comes from, is in Xcode 15's SDKs and later).
        s.line()
        s.line("#if canImport(DeveloperToolsSupport)")
        s.line("@available(iOS \(c.minimum.iOS).0, macOS \(c.minimum.macOS).0, *)")
        s.block("#Preview(\(SwiftLiteral.string(c.scene.name))) {") { s in
            s.line("\(typeName)().frame(width: \(c.scene.size.x), height: \(c.scene.size.y))")
        }
        s.line("#endif")
        if !c.fileScope.text.isEmpty {
            s.line()
            s.lines(c.fileScope.text)
        }
        RuntimeFooter.write(&s, c)
        return s.text
    }

    /// A view builder takes at most 10 children on SDKs before Swift 5.9's parameter packs
    /// (Xcode 14): longer lists are wrapped in `Group`s of at most 10, nested as deep as needed.
    static let childrenPerBuilder = 10

    static func writeChildren(_ items: [(source: String, isView: Bool)], into s: inout SwiftSource) {
        var items = items
        while items.filter(\.isView).count > childrenPerBuilder {
            var grouped: [(source: String, isView: Bool)] = []
            var chunk: [(source: String, isView: Bool)] = []
            func flush() {
                guard !chunk.isEmpty else { return }
                if chunk.contains(where: \.isView) {
                    var g = SwiftSource()
                    g.block("Group {") { g in for item in chunk { g.lines(item.source) } }
                    grouped.append((g.text, true))
                } else {
                    grouped += chunk
                }
                chunk = []
            }
            for item in items {
                if item.isView, chunk.filter(\.isView).count == childrenPerBuilder { flush() }
                chunk.append(item)
            }
            flush()
            items = grouped
        }
        for item in items { s.lines(item.source) }
    }
}

// MARK: - Core Animation

/// Assembles a Core Animation file: a CALayer subclass whose sublayers are the scene's layers.
enum CoreAnimationFile {
    static func assemble(_ c: ExportContext, typeName: String, sceneFile: String?) -> String {
        c.runtime.insert("platformY")
        var s = SwiftSource()
        FileHeader.write(&s, c, typeName: typeName, sceneFile: sceneFile,
                         use: "Add it to a view's layer and keep its frame equal to the view's bounds: let scene = \(typeName)(); view.layer.addSublayer(scene); scene.frame = view.bounds. Welkin's picture is what it shows at \(c.scene.size.x) × \(c.scene.size.y) points; elsewhere unit points stretch and points stay points.")
        s.line("import QuartzCore")
        s.line("import CoreGraphics")
        s.line("import Foundation")
        if c.usesImages { FileHeader.platformImports(&s) }
        s.line()
        s.line("/// \(SwiftLiteral.commentText(c.scene.name)), exported from Welkin: one sublayer per scene layer, in order.")
        s.line("@available(iOS \(c.minimum.iOS).0, macOS \(c.minimum.macOS).0, *)")
        s.block("final class \(typeName): CALayer {") { s in
            if !c.members.text.isEmpty {
                s.lines(c.members.text)
                s.line()
            }
            s.block("override init() {") { s in
                s.line("super.init()")
                s.line("setUp()")
            }
            s.line()
            s.line("/// Core Animation's copies for presentation: they take their state from `layer`.")
            s.block("override init(layer: Any) {") { s in s.line("super.init(layer: layer)") }
            s.line()
            s.block("required init?(coder: NSCoder) {") { s in
                s.line("super.init(coder: coder)")
                s.line("setUp()")
            }
            s.line()
            s.block("private func setUp() {") { s in
                s.comment("The scene's background.")
                s.line("backgroundColor = " + c.cgColor(c.scene.background) + c.hexComment(c.scene.background))
                s.lines(c.body.text)
            }
            s.line()
            s.block("override func layoutSublayers() {") { s in
                s.line("super.layoutSublayers()")
                s.line("guard bounds.width > 0, bounds.height > 0 else { return }")
                s.lines(c.layout.text)
            }
        }
        if !c.fileScope.text.isEmpty {
            s.line()
            s.lines(c.fileScope.text)
        }
        RuntimeFooter.write(&s, c)
        return s.text
    }
}

/// The comment block that opens every exported file, and imports.
enum FileHeader {
    /// UIKit where it exists (iOS, iPadOS, tvOS, visionOS, Mac Catalyst), AppKit elsewhere (macOS).
    /// `canImport` rather than `os(iOS)` also lets the tests check both branches on Linux.
    static func platformImports(_ s: inout SwiftSource) {
        s.line("#if canImport(UIKit)")
        s.line("import UIKit")
        s.line("#else")
        s.line("import AppKit")
        s.line("#endif")
    }

    static func write(_ s: inout SwiftSource, _ c: ExportContext, typeName: String, sceneFile: String?, use: String) {
        let from = sceneFile.map { " from \(SwiftLiteral.commentText($0))" } ?? ""
        let api = c.target == .swiftUI ? "SwiftUI" : "Core Animation"
        s.line("// \(typeName).swift — generated by `welkin export-code`\(from).")
        s.line("//")
        s.comment("\(SwiftLiteral.string(SwiftLiteral.commentText(c.scene.name))): \(c.scene.size.x) × \(c.scene.size.y) points, seed \(c.scene.seed). \(api), iOS \(c.minimum.iOS) / macOS \(c.minimum.macOS) or later. Self-contained: the helpers at the end of the file are copies of the Welkin maths the scene needs, and every number is the scene's own.")
        s.line("//")
        s.comment(use)
        if let images = AssetExport.headerNote(c.assets, inPackage: c.inPackage) {
            s.line("//")
            s.comment(images)
        }
        let notes = c.warnings
        if !notes.isEmpty {
            s.line("//")
            s.line("// Not exactly as in Welkin (also printed as warnings):")
            for w in notes { s.comment("- \(w)", prefix: "//   ") }
        }
        s.line()
    }
}

/// Runtime support at the end of a file.
enum RuntimeFooter {
    static func write(_ s: inout SwiftSource, _ c: ExportContext) {
        let snippets = RuntimeSupport.closure(c.runtime)
        guard !snippets.isEmpty else { return }
        s.line()
        s.line("// MARK: - Welkin's maths, copied so that this file needs nothing but Apple's frameworks")
        for snippet in snippets {
            s.line()
            s.lines(snippet.source)
        }
    }
}
