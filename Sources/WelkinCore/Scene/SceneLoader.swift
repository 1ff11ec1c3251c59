// Loading and validating scene files.

import Foundation

public enum SceneLoader {
    /// The largest scene file Welkin reads (checked before reading it).
    public static let maximumFileSize = 16 << 20

    /// Reads, parses and validates a scene file; throws the first error.
    public static func load(path: String) throws -> Scene {
        try load(path: path, diagnostics: Diagnostics(collecting: false))
    }

    /// Every error in a scene file (at most `Diagnostics.maximumErrors`), in file order; empty when
    /// the scene is valid. `validate` lists them all; so does every command that loads a scene.
    public static func validate(path: String) -> [SceneError] {
        loadCollecting(path: path).errors
    }

    /// Reads, parses and validates a scene file; throws `SceneErrors` with every error (at most
    /// `Diagnostics.maximumErrors`, in file order), as `welkin validate` lists them.
    public static func loadReportingEveryError(path: String) throws -> Scene {
        let (scene, errors) = loadCollecting(path: path)
        guard errors.isEmpty else { throw SceneErrors(errors) }
        // Neither a scene nor an error: something else stopped it; load again to throw that.
        return try scene ?? load(path: path)
    }

    /// The scene (nil when it has errors) and its errors, sorted into file order.
    static func loadCollecting(path: String) -> (scene: Scene?, errors: [SceneError]) {
        let diagnostics = Diagnostics(collecting: true)
        var scene: Scene?
        do {
            scene = try load(path: path, diagnostics: diagnostics)
        } catch let e as SceneError {
            return (nil, [e])
        } catch {
            // Diagnostics.Full: the list is as long as it may get.
        }
        let errors = diagnostics.errors.enumerated().sorted { a, b in
            let pa = a.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let pb = b.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            return (pa.0, pa.1, a.offset) < (pb.0, pb.1, b.offset)
        }.map(\.element)
        return (errors.isEmpty ? scene : nil, errors)
    }

    static func load(path: String, diagnostics: Diagnostics) throws -> Scene {
        return try decode(try readFile(path: path), path: path, diagnostics: diagnostics)
    }

    /// A scene file's bytes, its size checked before it is read. A FIFO, directory or device is
    /// refused without being opened for a blocking read.
    public static func readFile(path: String) throws -> [UInt8] {
        do {
            return try RegularFile.read(path, limit: maximumFileSize)
        } catch .missing {
            throw SceneError(.unreadableFile, file: path, path: "$", "no such file")
        } catch .tooLarge(let size, _) {
            throw SceneError(.outOfRange, file: path, path: "$", "the file is \(size) bytes; scene files may be at most \(maximumFileSize) bytes (16 MiB)")
        } catch .notRegular(let kind) {
            throw SceneError(.unreadableFile, file: path, path: "$", "the scene file is not a regular file (it is \(kind))")
        } catch .unreadable(let reason) {
            throw SceneError(.unreadableFile, file: path, path: "$", "cannot read the file: \(reason)")
        }
    }

    /// Decodes `bytes` as the content of the scene file at `path` (relative paths, the name and
    /// messages as `load(path:)` gives them) without reading the file: the viewer's edited text.
    public static func decode(_ bytes: [UInt8], path: String) throws -> Scene {
        try decode(bytes, path: path, diagnostics: Diagnostics(collecting: false))
    }

    static func decode(_ bytes: [UInt8], path: String, diagnostics: Diagnostics) throws -> Scene {
        var scene = try decode(bytes, file: path, directory: (path as NSString).deletingLastPathComponent,
                               diagnostics: diagnostics)
        scene.sourcePath = path
        if scene.name == "untitled" {
            scene.name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            if scene.seedIsDerived { scene.seed = Scene.seed(forName: scene.name) }
        }
        return scene
    }

    /// Parses and validates scene JSON. `file` is used only in error messages.
    /// `directory` resolves relative paths inside the scene (shader files); default: the current directory.
    public static func decode(_ bytes: [UInt8], file: String, directory: String? = nil) throws -> Scene {
        try decode(bytes, file: file, directory: directory, diagnostics: Diagnostics(collecting: false))
    }

    static func decode(_ bytes: [UInt8], file: String, directory: String?, diagnostics: Diagnostics) throws -> Scene {
        guard bytes.count <= maximumFileSize else {
            throw SceneError(.outOfRange, file: file, path: "$", "the scene is \(bytes.count) bytes; scene files may be at most \(maximumFileSize) bytes (16 MiB)")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let e as JSONSyntaxError {
            throw SceneError(.invalidJSON, file: file, path: e.position.description,
                             e.isLimit ? "too large: \(e.message)" : "invalid JSON: \(e.message)", position: e.position)
        }
        return try decode(Node(root, path: "$", file: file, diagnostics: diagnostics), directory: directory)
    }

    public static func decode(_ text: String, file: String = "<scene>", directory: String? = nil) throws -> Scene {
        try decode(Array(text.utf8), file: file, directory: directory)
    }

    static func decode(_ node: Node, directory: String?) throws -> Scene {
        let object = try node.object(Scene.properties)
        try object.checkKeys()
        var scene = Scene()
        if let v = try object.string("name") { scene.name = v }
        _ = try object.string("description")
        _ = try object.decode("$schema") { try $0.string() }
        if let v = try object.decode("size", decodeSize) { scene.size = v }
        if let v = try object.integer("seed") { scene.seed = UInt64(v) } else {
            scene.seed = Scene.seed(forName: scene.name)
            scene.seedIsDerived = true
        }
        if let v = try object.color("background") { scene.background = v }
        if let v = try object.bool("dither") { scene.dither = v }
        if let v = try object.choice("colorSpace", as: ColorSpace.self) { scene.colorSpace = v }
        if let v = try object.choice("outputColorSpace", as: OutputColorSpace.self) { scene.outputColorSpace = v }
        if let v = try object.decode("weather", decodeWeather) { scene.weather = v }
        if let v = try object.pair("wind") { scene.wind = v }
        if let v = try object.decode("camera", decodeCamera) { scene.camera = v }
        if let n = object["metadata"] { scene.metadata = n.value }
        let size = scene.size
        scene.layers = try object.decode("layers") { n in
            try n.elements(count: 0...Scene.maximumLayers, "layers") { try decodeLayer($0, sceneSize: size, directory: directory) }
        } ?? []
        if let d = node.diagnostics, d.collecting, !d.errors.isEmpty { return scene }
        scene.warnings += node.diagnostics?.warnings ?? []
        scene.warnings += emitterWarnings(scene, file: node.file)
        return scene
    }

    static func decodeSize(_ node: Node) throws -> SIMD2<Int> {
        let items = try node.array()
        guard items.count == 2 else { throw node.error(.wrongType, "expected [width, height], got an array of \(items.count)") }
        let range = 1...Scene.maximumDimension
        let what = "a whole number of points in 1…\(Scene.maximumDimension)"
        return SIMD2(try items[0].integer(in: range, what), try items[1].integer(in: range, what))
    }

    public static var layerTypeNames: [String] { LayerKinds.all.map(\.type) }

    /// One layer; `depth` counts the groups (and masks) around it.
    static func decodeLayer(_ node: Node, sceneSize: SIMD2<Int>, directory: String?, depth: Int = 0) throws -> Layer {
        // Read `type` first so unknown keys can be judged against the right table.
        guard case .object = node.value.kind else { throw node.wrongType("a layer object") }
        guard let typeValue = node.value["type"] else {
            throw node.error(.missingKey, "missing key 'type' (one of: \(layerTypeNames.joined(separator: ", ")))")
        }
        let typeNode = node.child("type", typeValue)
        let typeName = try typeNode.string()
        guard let kind = LayerKinds.kind(typeName) else {
            var message = "unknown layer type '\(typeName)'"
            if let near = nearest(typeName, in: layerTypeNames) { message += "; did you mean '\(near)'?" }
            else { message += " (expected one of: \(layerTypeNames.joined(separator: ", ")))" }
            throw typeNode.error(.unknownLayerType, message)
        }
        if depth > 0 && !kind.groupable {
            let kinds = LayerKinds.all.filter(\.groupable).map(\.type).joined(separator: ", ")
            throw typeNode.error(.invalidValue, "a '\(typeName)' layer cannot be in a group or be a mask (those hold: \(kinds))")
        }
        let object = try node.object(kind.properties)
        try object.checkKeys()
        let name = try object.string("name")
        let animatedOpacity = try object.animatedNumber("opacity") ?? .constant(1)
        let context = LayerKind.Context(sceneSize: sceneSize, directory: directory,
                                        colorSpace: try object.choice("colorSpace", as: ColorSpace.self), depth: depth)
        let shadow = kind.groupable ? try object.decode("shadow", Shadow.decode) : nil
        let transform = kind.groupable ? try object.decode("transform", LayerTransform.decode) : nil
        var layer = Layer(name: name, opacity: animatedOpacity.value(at: 0), shadow: shadow, content: try kind.decode(object, context))
        layer.transform = transform
        if case .constant = animatedOpacity {} else { layer.opacityAnimation = animatedOpacity }
        return layer
    }
}

extension SceneLoader {
    /// Resolves a PNG path against the scene's folder and checks its header: it must exist, be a
    /// PNG, and be at most `limit`×`limit` pixels (`what` names such images in that sentence:
    /// "channel images"). Returns the absolute path and the size in pixels.
    static func decodePNGPath(_ node: Node, sceneDirectory: String?, limit: Int, what: String) throws -> (String, SIMD2<Int>) {
        let relative = try node.string()
        guard !relative.isEmpty else { throw node.error(.invalidValue, "expected a path to a PNG image, got \"\"") }
        let base = sceneDirectory ?? FileManager.default.currentDirectoryPath
        let path = relative.hasPrefix("/") ? relative : URL(fileURLWithPath: base).appendingPathComponent(relative).standardizedFileURL.path
        if let problem = RegularFile.check(path) {
            if problem == .missing { throw node.error(.unreadableFile, "no such image '\(relative)' (looked for \(path))") }
            throw node.error(.unreadableFile, "the image '\(relative)' (\(path)) \(problem)")
        }
        let header: [UInt8]
        do { header = try RegularFile.head(path, count: 24) } catch {
            throw node.error(.unreadableFile, "the image '\(relative)' (\(path)) \(error)")
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard header.count == 24, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8) else {
            throw node.error(.unreadableFile, "'\(relative)' is not a PNG image")
        }
        func be32(_ i: Int) -> Int { header[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let size = SIMD2(be32(16), be32(20))
        guard size.x >= 1, size.y >= 1, size.x <= limit, size.y <= limit else {
            throw node.error(.outOfRange, "the image '\(relative)' is \(size.x)×\(size.y) pixels; \(what) may be at most \(limit)×\(limit)")
        }
        return (path, size)
    }
}
