// WebExport: a scene as one self-contained HTML page drawn by WebGL2 (`welkin export-web`,
// docs/export.md).
//
// Every program is the very GLSL the GL path compiles (WebPrograms: same files, prelude and variant
// defines), taken GLSL → SPIR-V (glslangValidator, checked by spirv-val) → GLSL ES 3.00
// (spirv-cross) by ShaderPipeline. The page holds those programs, the scene's values and the images
// it samples as one JSON document, and Shaders/web-runtime.js, which computes each frame's uniforms
// from the time and the canvas's size and draws the passes GLRenderer draws: every layer blended
// into a float target cleared to the background, then the resolve pass (output transform, dither).
//
// Safety: the JSON is escaped so no `</script>` or `<!--` can appear in it, the only script is the
// runtime (allowed by its SHA-256 in a Content-Security-Policy that forbids network access and eval),
// and the page embeds files from the scene's folder only (`allowOutside` overrides).

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

public enum WebExport {
    /// How the page fills its window with the scene's picture: `welkin render --fit`'s modes.
    public enum Framing: String, Sendable, CaseIterable {
        /// All of the scene, as large as fits, between bars in the scene's background colour.
        case contain
        /// The window filled, the scene's edges cropped where the shapes differ.
        case cover
        /// The whole scene squeezed to the window (points scaled per axis).
        case stretch
    }

    public struct Options: Sendable {
        /// Play/pause, a time scrubber and the time under the picture.
        public var controls = false
        /// Embed files from outside the scene's folder.
        public var allowOutside = false
        public var framing: Framing = .contain
        public init() {}
    }

    /// The page and what was left out.
    public struct Page: Sendable {
        public var html: String
        /// `layers[N] (kind "name"): sentence`, one per layer left out or changed.
        public var warnings: [String]
        /// The scene's layers the page draws.
        public var layerCount: Int
        /// The weather's precipitation it draws too (`rain`, `snow`).
        public var precipitation: [String]
    }

    /// Why a page cannot be made.
    public struct Failure: UserFacingError, Sendable {
        public var message: String
        public var description: String { message }
        init(description: String) { message = description }
    }

    /// The page of `scene`. `shaders` is Welkin's shader library (its programs and web-runtime.js).
    /// What GLRenderer hands each full-screen draw of a frame (GLRenderer.capture): the scene's
    /// frame at time t and pixel size, by frame position, and each position's scene layer.
    public typealias Capture = (_ time: Double, _ pixelSize: SIMD2<Int>) throws -> (draws: [Int: [GLCapture.Draw]], sources: [Int])

    /// The page of `scene`. `capture` (a headless GLRenderer) lets the page carry layers whose
    /// draws it replays as Welkin's GL path made them (the sky, clouds, cloud sprites), when their
    /// values do not change with time but for the clock.
    public static func page(_ scene: Scene, shaders: ShaderLibrary, options: Options = Options(), capture: Capture? = nil) throws -> Page {
        var b = Builder(scene: scene, shaders: shaders, options: options)
        b.capture = capture
        // The weather's rain and snow fall in front of the last sky layer (Frame.init).
        let lastSky = scene.layers.lastIndex { $0.content.isSkySpace } ?? scene.layers.count - 1
        var precipitationAt: Int?
        for (index, layer) in scene.layers.enumerated() {
            if let node = try b.node(layer, index: index, path: "layers[\(index)]") { b.layers.append(node) }
            if index == lastSky { precipitationAt = b.layers.count }
        }
        let falling = PrecipitationKind.allCases.filter { $0.falls(in: scene) }
        var sceneLayers = b.layers.count, precipitation: [String] = []
        if let weather = scene.weather, !falling.isEmpty {
            if weather.schedule.isEmpty {
                let nodes = try falling.compactMap { try b.precipitationNode($0, weather: weather) }
                sceneLayers = b.layers.count
                b.layers.insert(contentsOf: nodes, at: precipitationAt ?? b.layers.count)
                precipitation = falling.map { $0 == .rain ? "rain" : "snow" }
            } else {
                b.warnings.append("weather: not exported yet: rain and snow under a weather schedule (their intensity and wind change over time); left out of the page")
            }
        }
        let runtime = try String(contentsOfFile: shaders.path(runtimeFile), encoding: .utf8)
        let resolve = try b.program(vertex: WebPrograms.fullScreenVertex(shaders),
                                    fragment: WebPrograms.resolve(shaders, dither: scene.dither, outputSpace: scene.outputColorSpace))
        let bg = scene.background.premultiplied
        let data: WebJSON = .object([
            ("format", .number(1)),
            ("name", .string(scene.name)),
            ("size", .numbers([Double(scene.size.x), Double(scene.size.y)])),
            ("background", .floats([bg.x, bg.y, bg.z, bg.w])),
            ("outputSpace", .string(scene.outputColorSpace.rawValue)), ("colorSpace", .number(Double(scene.colorSpace.code))),
            ("framing", .string(options.framing.rawValue)),
            ("controls", .bool(options.controls)),
            ("programs", .array(b.programs.map { .object([("key", .string($0.key)), ("vertex", .string($0.vertex)), ("fragment", .string($0.fragment))]) })),
            ("textures", .array(b.textures.map(\.json))), ("capturedTextures", .array(b.textureStore)),
            ("layers", .array(b.layers)),
            ("resolve", .number(Double(resolve))),
            // Text layouts and captured layers are made for these pixel scales of the scene's size; a
            // page that has them draws at one of them and lets the browser fit the canvas.
            ("fixedScales", b.usesFixedScales ? .numbers(Builder.fixedScales.map(Double.init)) : .null),
            ("warnings", .array(b.warnings.map(WebJSON.string))),
        ])
        let html = document(title: scene.name, data: data.text, runtime: runtime, controls: options.controls)
        return Page(html: html, warnings: b.warnings, layerCount: sceneLayers, precipitation: precipitation)
    }

    /// The runtime's file in Welkin's shader library.
    public static let runtimeFile = "web-runtime.js"

    // MARK: - Layers

    struct Program {
        var key: String
        var vertex: String
        var fragment: String
    }

    struct Texture {
        var png: [UInt8]
        var width: Int
        var height: Int
        var vflip: Bool
        var json: WebJSON {
            .object([("png", .string(Base64.encode(png))), ("width", .number(Double(width))), ("height", .number(Double(height))),
                     ("vflip", .bool(vflip))])
        }
    }

    struct Builder {
        let scene: Scene
        let shaders: ShaderLibrary
        let options: Options
        var programs: [Program] = []
        var programIndex: [String: Int] = [:]
        var textures: [Texture] = []
        var textureIndex: [String: Int] = [:]
        var layers: [WebJSON] = []
        var warnings: [String] = []

        init(scene: Scene, shaders: ShaderLibrary, options: Options) {
            self.scene = scene; self.shaders = shaders; self.options = options
        }

        /// The scene's folder, symlinks resolved (nil for the built-in scene).
        var folder: String? {
            scene.sourcePath.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent().path }
        }

        /// Refuses `path` when it is outside the scene's folder (and not Welkin's own shader library).
        func checkInside(_ path: String, what: String, jsonPath: String) throws {
            guard !options.allowOutside, let folder else { return }
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            let library = URL(fileURLWithPath: shaders.directory).standardizedFileURL.resolvingSymlinksInPath().path
            for dir in [folder, library] where resolved.hasPrefix(dir.hasSuffix("/") ? dir : dir + "/") { return }
            throw Failure(description: "\(jsonPath): \(what) \(path) is outside the scene's folder (\(folder)); "
                          + "a page embeds only files beside its scene: move the file there, or pass --allow-outside to embed it anyway")
        }

        /// The index of the program made of these two stages (translated once).
        mutating func program(vertex: ShaderSource, fragment: ShaderSource) throws -> Int {
            let key = vertex.text + "\u{0}" + fragment.text
            if let i = programIndex[key] { return i }
            func translate(_ s: ShaderSource, _ stage: ShaderPipeline.Stage) throws -> String {
                do { return try ShaderPipeline.essl(s.text, stage: stage) } catch let f as ShaderPipeline.Failure {
                    throw Failure(description: "\((s.path as NSString).lastPathComponent): cannot be translated for WebGL2: \(f.description)")
                }
            }
            let name = (fragment.path as NSString).lastPathComponent
            programs.append(Program(key: name, vertex: try translate(vertex, .vertex), fragment: try translate(fragment, .fragment)))
            programIndex[key] = programs.count - 1
            return programs.count - 1
        }

        /// The index of the texture of the image at `path` (read and re-encoded as Welkin decodes it).
        mutating func texture(_ path: String, vflip: Bool, jsonPath: String) throws -> Int {
            try checkInside(path, what: "the image", jsonPath: jsonPath)
            let key = "\(path)\u{0}\(vflip)"
            if let i = textureIndex[key] { return i }
            let image = try PNG.read(path: path)
            // Re-encoded from Welkin's own decoding (8-bit RGBA, no colour chunks), so the browser
            // uploads the very bytes the GL path does, whatever the file's bit depth or profile.
            let png = try PNG.encode(image)
            textures.append(Texture(png: png, width: image.width, height: image.height, vflip: vflip))
            textureIndex[key] = textures.count - 1
            return textures.count - 1
        }

        var capture: Capture?
        var textureStore: [WebJSON] = []
        var textureStoreIndex: [[UInt8]: Int] = [:]

        /// The pixel scales (of the scene's size) a page with text or captured layers draws at.
        static let fixedScales = [1, 2, 3]
        /// Whether the page has scale-bound values (text layouts, captured layers).
        var usesFixedScales = false

        func label(_ layer: Layer, _ path: String) -> String {
            "\(path) (\(layer.content.typeName)\(layer.name.map { " \"\($0)\"" } ?? ""))"
        }

        mutating func leaveOut(_ layer: Layer, _ path: String, _ why: String) -> WebJSON? {
            warnings.append("\(label(layer, path)): not exported yet: \(why); left out of the page")
            return nil
        }

        /// The page's node of `layer` (at JSON path `path`; `index`: its top-level layer's position),
        /// or nil, with a warning, when the page cannot draw it yet.
        mutating func node(_ layer: Layer, index: Int, path: String) throws -> WebJSON? {
            if let transform = layer.transform {
                // Frame.resolveGroupable: at rest, the layer as without a transform; moved, a group
                // (the layer's own, or one around it) whose picture is resampled through the transform.
                var plain = layer
                plain.transform = nil
                var bare = plain
                bare.shadow = nil; bare.opacity = 1; bare.opacityAnimation = nil
                guard let plainNode = try node(plain, index: index, path: path), let bareNode = try node(bare, index: index, path: path) else { return nil }
                let isGroup = layer.content is GroupLayer
                let group = isGroup ? bareNode : try groupNode(label: label(layer, path), layers: [bareNode], mask: nil, invert: false, layer: bare)
                return .object([
                    ("kind", .string("transform")), ("label", .string(label(layer, path))), ("isGroup", .bool(isGroup)),
                    ("offset", .animated(transform.offset, WebJSON.point)), ("scale", .animated(transform.scale, WebJSON.point)),
                    ("rotation", .animated(transform.rotation, WebJSON.number)), ("anchor", .point(transform.anchor)),
                    ("plain", plainNode), ("moved", group),
                    ("opacity", .number(layer.opacity)), ("opacityAnimation", layer.opacityAnimation.map { .animated($0, WebJSON.number) } ?? .null),
                    ("shadow", layer.shadow.map(shadowJSON) ?? .null),
                ])
            }
            if layer.shadow != nil, !(layer.content is GroupLayer) {
                // Frame.shadowed: a group of one, carrying the shadow and the layer's opacity, around
                // the content at opacity 1.
                var inner = layer
                inner.shadow = nil; inner.opacity = 1; inner.opacityAnimation = nil
                guard let content = try node(inner, index: index, path: path) else { return nil }
                return try groupNode(label: label(layer, path), layers: [content], mask: nil, invert: false, layer: layer)
            }
            guard var out = try contentNode(layer, index: index, path: path) else { return nil }
            if let a = layer.opacityAnimation, case .object(var members) = out {
                members.append(("opacityAnimation", .animated(a, WebJSON.number)))
                out = .object(members)
            }
            return out
        }

        /// The node of the layer's content (its opacity static; `node` adds an animation): each
        /// kind's own (WebExportable, in the kind's Web…Export.swift), or one the GL path's draws
        /// are captured for (the sky, clouds, cloud sprites).
        mutating func contentNode(_ layer: Layer, index: Int, path: String) throws -> WebJSON? {
            if let kind = layer.content as? WebExportable { return try kind.webNode(layer, index: index, path: path, into: &self) }
            if capture != nil, path == "layers[\(index)]" { return try capturedNode(layer, index: index, path: path) }
            return leaveOut(layer, path, "this kind of layer")
        }

        /// The uniforms the page sets from its clock in a captured layer (as MetalLive's clock).
        static let clockUniforms: Set = ["u_time", "iTime", "u_sky.time", "u_physical.time"]
        /// Scene times a captured layer is compared at: its draws must be the same at each, but for
        /// the clock's uniforms.
        static let probeTimes = [0, 1.5, 7, 45.25, 600]

        /// A layer the page draws as GLRenderer drew it: its draws (programs, uniforms, textures and
        /// the intermediate targets they read) captured at each fixed scale, when nothing in them
        /// changes with time but the clock.
        mutating func capturedNode(_ layer: Layer, index: Int, path: String) throws -> WebJSON? {
            guard let capture else { return nil }
            usesFixedScales = true
            let drift = WebCloudDrift(scene: scene, index: index)
            /// Drift uniforms that move (the page computes them), and those the drift model missed.
            var drifting = Set<String>(), missed = Set<String>()
            var scales: [WebJSON] = []
            var drawsTheBand = false
            for k in Self.fixedScales {
                let size = scene.size &* k
                var reference: [GLCapture.Draw]?
                for t in Self.probeTimes {
                    let c = try capture(t, size)
                    let draws = c.sources.enumerated().filter { $0.element == index }.flatMap { c.draws[$0.offset] ?? [] }
                    // A drift uniform is the page's drift only when it is at every time, t = 0 included.
                    for d in draws { for u in d.uniforms where WebCloudDrift.names.contains(u.name) {
                        if drift.map({ u.words != $0.values(u.name, at: t).map { Float($0).bitPattern } }) ?? true { missed.insert(u.name) }
                    } }
                    guard let first = reference else { reference = draws; continue }
                    if let why = Self.difference(first, draws, time: t, drifting: WebCloudDrift.names) {
                        return leaveOut(layer, path, "its values change with time in ways the page cannot compute yet (\(why) at \(JSONValue.numberText(t)) s)")
                    }
                    // A drift uniform that moves must move as the page's drift does.
                    for (a, b) in zip(first.flatMap(\.uniforms), draws.flatMap(\.uniforms)) where WebCloudDrift.names.contains(b.name) && a.words != b.words {
                        if missed.contains(b.name) {
                            return leaveOut(layer, path, "its values change with time in ways the page cannot compute yet (\(b.name), the clouds' drift under a changing wind, at \(JSONValue.numberText(t)) s)")
                        }
                        drifting.insert(b.name)
                    }
                }
                let draws = reference ?? []
                if draws.contains(where: { $0.samplers["u_milkyWay"] != nil }) { drawsTheBand = true }
                // Draws whose picture a later draw reads are intermediate: their own target.
                var read = Set<Int>()
                for d in draws { for case .draw(let i) in d.samplers.values { read.insert(i) } }
                var out: [WebJSON] = []
                for (i, d) in draws.enumerated() {
                    let program = try program(vertex: d.vertex, fragment: d.fragment)
                    var samplers: [WebJSON] = []
                    for (name, input) in d.samplers.sorted(by: { $0.key < $1.key }) {
                        switch input {
                        case .draw(let j): samplers.append(.object([("name", .string(name)), ("draw", .number(Double(j)))]))
                        case .texture(let tex):
                            var fields: [(String, WebJSON)] = [("name", .string(name)), ("texture", .number(Double(try storedTexture(tex)))),
                                                               ("linear", .bool(tex.linear)), ("repeats", .bool(tex.repeats))]
                            if tex.repeats && !tex.repeatsRows { fields.append(("clampsRows", .bool(true))) }
                            samplers.append(.object(fields))
                        }
                    }
                    out.append(.object([
                        ("program", .number(Double(program))), ("target", .numbers([Double(d.targetSize.x), Double(d.targetSize.y)])),
                        ("blends", .bool(d.blends)), ("intermediate", .bool(read.contains(i))),
                        ("uniforms", .array(d.uniforms.map { u in
                            .object([("name", .string(u.name)), ("type", .string(u.type)), ("count", .number(Double(u.count))),
                                     ("values", .numbers(u.words.map { Self.number($0, type: u.type) })),
                                     ("clock", .bool(Self.clockUniforms.contains(u.name) || u.name == "iFrame")),
                                     ("drift", .bool(drifting.contains(u.name)))])
                        })),
                        ("samplers", .array(samplers)),
                    ]))
                }
                scales.append(.array(out))
            }
            if SkyExport.drawsMilkyWay(scene, index: index, times: Self.probeTimes), !drawsTheBand {
                // The band shows at some time the page is checked at, but not in the draws captured
                // (the export variant has the map only where the frame draws the band).
                warnings.append("\(label(layer, path)): left out of the page: the Milky Way's band (Gaia's all-sky map, which Welkin's physical night draws); the page's night shows the stars and the night's glow without it")
            }
            return .object([("kind", .string("captured")), ("label", .string(label(layer, path))), ("scales", .array(scales)),
                            ("drift", drift?.json ?? .null)])
        }

        /// A uniform's 32-bit word as the number GLSL's type holds.
        static func number(_ w: UInt32, type: String) -> Double {
            if type.hasPrefix("int") || type.hasPrefix("ivec") || type == "bool" { return Double(Int32(bitPattern: w)) }
            if type.hasPrefix("uint") || type.hasPrefix("uvec") { return Double(w) }
            return Double(Float(bitPattern: w))
        }

        /// Why `draws` (at time t) differ from `first` (at time 0) beyond the clock, or nil.
        static func difference(_ first: [GLCapture.Draw], _ draws: [GLCapture.Draw], time t: Double, drifting: Set<String> = []) -> String? {
            guard first.count == draws.count else { return "it draws \(draws.count) passes, not \(first.count)" }
            for (a, b) in zip(first, draws) {
                guard a.fragment.text == b.fragment.text, a.vertex.text == b.vertex.text else { return "another program" }
                guard a.samplers == b.samplers else { return "its textures" }
                guard a.uniforms.map(\.name) == b.uniforms.map(\.name) else { return "its uniforms" }
                for (u, v) in zip(a.uniforms, b.uniforms) where u.words != v.words {
                    if clockUniforms.contains(v.name), v.words == [Float(t).bitPattern] { continue }
                    if v.name == "iFrame", v.words == [UInt32(bitPattern: Int32(clamping: Int((t * 60).rounded(.down))))] { continue }
                    if drifting.contains(v.name) { continue }   // checked against the drift by the caller
                    // Where lightning strikes matters only while it flashes: a flash of 0 adds exactly 0.
                    if v.name.hasSuffix(".flashPoint") {
                        let flash = String(v.name.dropLast("Point".count))
                        let dark = [a, b].allSatisfy { d in d.uniforms.first { $0.name == flash }?.words.allSatisfy { Float(bitPattern: $0) == 0 } ?? false }
                        if dark { continue }
                    }
                    return v.name
                }
            }
            return nil
        }

        /// The page's index of a captured texture (each distinct texture stored once, deflated).
        mutating func storedTexture(_ t: GLCapture.Texture) throws -> Int {
            let key = t.bytes + Array("\(t.format.rawValue) \(t.size) \(t.is3D)".utf8)
            if let i = textureStoreIndex[key] { return i }
            textureStore.append(.object([("format", .string(t.format.rawValue)), ("size", .numbers([Double(t.size.x), Double(t.size.y), Double(t.size.z)])),
                                         ("is3D", .bool(t.is3D)), ("data", .string(Base64.encode(try PNGColor.deflate(t.bytes))))]))
            textureStoreIndex[key] = textureStore.count - 1
            return textureStore.count - 1
        }

        /// The weather's rain or snow (PrecipitationKind.particles): its emitter's node, with what the
        /// page does to each particle — keeps it at the weather's intensity, pushes it by the wind
        /// since its birth, wraps it across the birth line. Steady weather only (no schedule).
        mutating func precipitationNode(_ kind: PrecipitationKind, weather: Weather) throws -> WebJSON? {
            guard let emitter = kind.emitter(in: scene),
                  case .object(var members)? = try (emitter as any WebExportable).webNode(Layer(content: emitter), index: kind.layerIndex,
                                                                                         path: "weather", into: &self) else { return nil }
            let parameters = weather.preset.parameters
            let margin = kind.margin(strongestWind: PrecipitationKind.strongestWind(scene))
            members.append(("precipitation", .object([
                ("seeds", .array(kind.windPushes.indices.map { .string(String(kind.thinningSeed(scene: scene, cell: $0))) })),
                ("slot", .number(Double(PrecipitationKind.thinningSlot))), ("intensity", .number(kind.intensity(parameters))),
                ("wind", .point(parameters.wind)), ("pushes", .numbers(kind.windPushes)),
                ("margin", .number(margin)), ("period", .number(Double(max(scene.size.x, 1)) + 2 * margin)),
            ])))
            return .object(members)
        }

        /// A shadow's values (ShadowDraw is made from them each frame, at the canvas's scale).
        func shadowJSON(_ s: Shadow) -> WebJSON {
            .object([("color", .animated(s.color, WebJSON.rgba)), ("radius", .animated(s.radius, WebJSON.number)),
                     ("opacity", .animated(s.opacity, WebJSON.number)), ("offset", .point(s.offset))])
        }

        /// A group: its layers into a float target, its mask into another, then (with a shadow) the
        /// masked alpha blurred, and the composite (GroupPass; group.frag, group-blur.frag), with the
        /// layer's opacity and shadow. Its composite and alpha passes are built plain and transformed.
        mutating func groupNode(label: String, layers: [WebJSON], mask: WebJSON?, invert: Bool, layer: Layer) throws -> WebJSON {
            let masked = mask != nil
            /// GroupPass.Variant's defines for one stage.
            func stage(_ name: String, transformed: Bool = false) throws -> WebJSON {
                let blur = name == "horizontal" || name == "vertical"
                var defines = [("WELKIN_GROUP_MASK", masked && !blur ? "1" : "0"), ("WELKIN_GROUP_INVERT", masked && invert && !blur ? "1" : "0"),
                               ("WELKIN_GROUP_TRANSFORMED", transformed && !blur ? "1" : "0")]
                switch name {
                case "alpha": defines.append(("WELKIN_BLUR_ALPHA", "1"))
                case "horizontal": defines += [("WELKIN_BLUR_ALPHA", "0"), ("WELKIN_BLUR_HORIZONTAL", "1")]
                case "vertical": defines += [("WELKIN_BLUR_ALPHA", "0"), ("WELKIN_BLUR_HORIZONTAL", "0")]
                default: defines.append(("WELKIN_GROUP_SHADOW", "1"))
                }
                let file = name == "composite" ? "group.frag" : "group-blur.frag"
                return .number(Double(try program(vertex: WebPrograms.fullScreenVertex(shaders), fragment: ShaderSource(path: shaders.path(file), defines: defines))))
            }
            // The composite is built with WELKIN_GROUP_SHADOW 1 always: with no shadow its colour is
            // zero and the blurred alpha is never read (the sum adds exactly 0).
            return .object([
                ("kind", .string("offscreen")), ("label", .string(label)), ("layers", .array(layers)), ("mask", mask ?? .null),
                ("opacity", .floats([Float(layer.opacity)])), ("shadow", layer.shadow.map(shadowJSON) ?? .null),
                ("composite", .array([try stage("composite"), try stage("composite", transformed: true)])),
                ("alpha", .array([try stage("alpha"), try stage("alpha", transformed: true)])),
                ("horizontal", try stage("horizontal")), ("vertical", try stage("vertical")),
            ])
        }

    }

    // MARK: - The document

    /// The HTML page: the data as an inert JSON script, the runtime as the one script the
    /// Content-Security-Policy allows (by its hash).
    static func document(title: String, data: String, runtime: String, controls: Bool) -> String {
        let style = """
        html,body{margin:0;height:100%;background:#000;overflow:hidden}\
        #welkin-stage{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;overflow:hidden}\
        canvas{display:block;flex:none}\
        #welkin-controls{position:fixed;left:0;right:0;bottom:0;display:flex;gap:8px;align-items:center;padding:8px 12px;\
        font:13px system-ui,sans-serif;color:#fff;background:rgba(0,0,0,.45)}\
        #welkin-controls input{flex:1;min-width:0}#welkin-controls button{min-width:3.5em}#welkin-controls span{white-space:nowrap}\
        #welkin-error{position:fixed;left:0;right:0;top:0;padding:12px;font:14px system-ui,sans-serif;color:#fff;background:#a00;white-space:pre-wrap}
        """
        let csp = "default-src 'none'; script-src 'sha256-\(SHA256.base64(Array(runtime.utf8)))'; "
            + "style-src 'sha256-\(SHA256.base64(Array(style.utf8)))'; img-src data: blob:; base-uri 'none'; form-action 'none'"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(csp)">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="generator" content="Welkin export-web">
        <title>\(HTMLText.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <div id="welkin-stage"><canvas id="welkin"></canvas></div>
        <script type="application/json" id="welkin-data">\(data)</script>
        <script>\(runtime)</script>
        </body>
        </html>

        """
    }
}

/// A layer kind the page draws itself: its node (the values web-runtime.js draws it from), or nil
/// with a warning (`Builder.leaveOut`) when it cannot.
protocol WebExportable {
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON?
    }

/// Text for HTML element content and attribute values.
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

/// The page's data, written as JSON that is also safe inside a `<script>` element: `<`, `>`, `&`
/// and the two JavaScript line separators are \u escapes, so no `</script>` or `<!--` can occur.
indirect enum WebJSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([WebJSON])
    case object([(String, WebJSON)])

    static func numbers(_ v: [Double]) -> WebJSON { .array(v.map(WebJSON.number)) }
    static func point(_ p: SIMD2<Double>) -> WebJSON { .numbers([p.x, p.y]) }
    static func rgba(_ c: RGBA) -> WebJSON { .numbers([c.r, c.g, c.b, c.a]) }

    /// A timing curve or spring (Timing), as web-runtime.js's timingProgress reads it.
    static func timing(_ t: Timing) -> WebJSON {
        switch t {
        case .curve(let x1, let y1, let x2, let y2, let d): .object([("curve", .numbers([x1, y1, x2, y2, d]))])
        case .spring(let w, let z, let v, let d): .object([("spring", .numbers([w, z, v, d]))])
        }
    }

    /// An animated value (Animated): a constant, keyframes or a transition, as web-runtime.js's
    /// animatedValue reads it.
    static func animated<V>(_ a: Animated<V>, _ value: (V) -> WebJSON) -> WebJSON {
        switch a {
        case .constant(let v):
            return .object([("constant", value(v))])
        case .keyframes(let k):
            return .object([("keyframes", .object([
                ("times", .numbers(k.times)), ("values", .array(k.values.map(value))), ("repeats", .bool(k.repeats)),
                ("easing", timing(k.easing)), ("segments", .array(k.segmentEasings.map { $0.map(timing) ?? .null })),
            ]))])
        case .transition(let t):
            let repetition: WebJSON = switch t.repetition {
            case .once: .string("once")
            case .count(let n): .number(Double(n))
            case .forever: .string("forever")
            }
            return .object([("transition", .object([
                ("from", value(t.from)), ("to", value(t.to)), ("timing", timing(t.timing)), ("repetition", repetition),
                ("autoreverses", .bool(t.autoreverses)), ("delay", .number(t.delay)), ("speed", .number(t.speed)),
            ]))])
        }
    }
    /// 32-bit values, written so JavaScript's double rounds back to the same float.
    static func floats(_ v: [Float]) -> WebJSON { .array(v.map { .number(Double($0)) }) }

    var text: String {
        var out = ""
        write(&out)
        return out
    }

    func write(_ out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            out += n.isFinite ? JSONValue.numberText(n) : "0"
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(&out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(&out)
            }
            out += "}"
        }
    }

    /// JSONValue.quoted, with the characters that could end a script element or a JavaScript line
    /// (`<`, `>`, `&`, U+2028, U+2029) as \u escapes (none of them occurs in the escapes it writes).
    static func quote(_ s: String, into out: inout String) {
        for c in JSONValue.quoted(s).unicodeScalars {
            switch c {
            case "<", ">", "&", "\u{2028}", "\u{2029}": out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(c)
            }
        }
    }
}

/// Base64 (RFC 4648) for the embedded images.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

/// SHA-256 (FIPS 180-4), for the Content-Security-Policy's hashes of the page's script and style.
enum SHA256 {
    static func base64(_ message: [UInt8]) -> String { Data(digest(message)).base64EncodedString() }

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var m = message
        let bits = UInt64(message.count) * 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(m[j]) << 24 | UInt32(m[j + 1]) << 16 | UInt32(m[j + 2]) << 8 | UInt32(m[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) } }
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

/// A volumetric cloud layer's drift as the page computes it: MetalLive's CloudDrift with its travel
/// linear in time (the layer's own wind, or a weather without a schedule), in the order of
/// operations web-runtime.js's `cloudDrift` uses. A captured clouds layer uses it only when its
/// values, rounded to floats, are the GL path's at every probe time.
struct WebCloudDrift {
    var right: SIMD2<Double>, forward: SIMD2<Double>
    /// Travel per second, metres.
    var velocity: SIMD2<Double>
    var scales: SIMD2<Double>
    var random: [Double]
    var evolution: Double
    var cirrusScale: Double

    static let names: Set = ["u_clouds.offset", "u_clouds.evolution", "u_clouds.cirrusOffset"]

    init?(scene: Scene, index: Int) {
        guard let layer = scene.layers[index].content as? CloudsLayer, let drift = CloudDrift(scene: scene, layer: layer, index: index) else { return nil }
        right = drift.right; forward = drift.forward
        velocity = layer.wind ?? WeatherState(scene.weather, time: 1, seed: scene.seed).windTravel * CloudsDraw.metresPerWindPoint
        scales = layer.shape(weather: WeatherState(scene.weather, time: 0, seed: scene.seed).parameters).scales
        random = drift.random
        evolution = drift.evolution
        cirrusScale = drift.cirrusScale
    }

    static func wrapped(_ v: Double) -> Double { CloudDrift.wrapped(v) }

    /// The uniform's components at time t.
    func values(_ name: String, at t: Double) -> [Double] {
        let travel = SIMD2(velocity.x * t, velocity.y * t)
        let d = SIMD2((right.x * travel.x + forward.x * travel.y) / 1000, (right.y * travel.x + forward.y * travel.y) / 1000)
        switch name {
        case "u_clouds.offset":
            return [Self.wrapped(-d.x / scales.x + random[0]), Self.wrapped(-d.y / scales.x + random[1]),
                    Self.wrapped(-d.x / scales.y + random[2]), Self.wrapped(-d.y / scales.y + random[3])]
        case "u_clouds.evolution":
            return [Self.wrapped(t * CloudsDraw.evolutionRate * evolution + random[4])]
        default:
            return [Self.wrapped(-d.x * 1.5 / cirrusScale + random[5]), Self.wrapped(-d.y * 1.5 / cirrusScale * 0.25 + random[6])]
        }
    }

    var json: WebJSON {
        .object([("right", .point(right)), ("forward", .point(forward)), ("velocity", .point(velocity)), ("scales", .point(scales)),
                 ("random", .numbers(random)), ("evolutionRate", .number(CloudsDraw.evolutionRate)), ("evolution", .number(evolution)),
                 ("cirrusScale", .number(cirrusScale))])
    }
}
