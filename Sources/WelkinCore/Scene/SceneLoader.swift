// Loading and validating scene files.

import Foundation

public enum SceneLoader {
    /// Reads, parses and validates a scene file.
    public static func load(path: String) throws -> Scene {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw SceneError(.unreadableFile, file: path, path: "$", reason)
        }
        var scene = try decode(Array(data), file: path, directory: (path as NSString).deletingLastPathComponent)
        scene.sourcePath = path
        if scene.name == "untitled" {
            scene.name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        return scene
    }

    /// Parses and validates scene JSON. `file` is used only in error messages.
    /// `directory` resolves relative paths inside the scene (shader files); default: the current directory.
    public static func decode(_ bytes: [UInt8], file: String, directory: String? = nil) throws -> Scene {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let e as JSONSyntaxError {
            throw SceneError(.invalidJSON, file: file, path: e.position.description, "invalid JSON: \(e.message)")
        }
        return try decode(Node(root, path: "$", file: file), directory: directory)
    }

    public static func decode(_ text: String, file: String = "<scene>", directory: String? = nil) throws -> Scene {
        try decode(Array(text.utf8), file: file, directory: directory)
    }

    static let sceneKeys = ["name", "description", "size", "seed", "background", "dither", "colorSpace", "layers", "weather", "wind"]

    static func decode(_ node: Node, directory: String?) throws -> Scene {
        let object = try node.object(sceneKeys)
        try object.checkKeys()
        var scene = Scene()
        if let n = object["name"] { scene.name = try n.string() }
        if let n = object["description"] { _ = try n.string() }
        if let n = object["size"] { scene.size = try decodeSize(n) }
        if let n = object["seed"] { scene.seed = UInt64(try n.integer(in: 0...(1 << 53), "a whole number ≥ 0")) }
        if let n = object["background"] { scene.background = try n.color() }
        if let n = object["dither"] { scene.dither = try n.bool() }
        if let n = object["colorSpace"] { scene.colorSpace = try decodeColorSpace(n) }
        if let n = object["weather"] { scene.weather = try decodeWeather(n) }
        if let n = object["wind"] { scene.wind = try n.pair() }
        if let n = object["layers"] {
            let size = scene.size
            scene.layers = try n.array().map { try decodeLayer($0, sceneSize: size, directory: directory) }
        }
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

    static func decodeColorSpace(_ node: Node) throws -> ColorSpace {
        ColorSpace(rawValue: try node.oneOf(ColorSpace.allCases.map(\.rawValue), "colour space"))!
    }

    /// Layer types and the keys each accepts (besides the common ones).
    static let layerTypes: [(type: String, keys: [String])] = [
        ("linearGradient", ["start", "end", "stops"]),
        ("radialGradient", ["center", "startRadius", "endRadius", "stops"]),
        ("angularGradient", ["center", "startAngle", "endAngle", "stops"]),
        ("ellipticalGradient", ["center", "startRadiusFraction", "endRadiusFraction", "stops"]),
        ("shader", ["fragment", "uniforms"]),
        ("meshGradient", meshKeys),
        ("sky", skyKeys),
        ("cloudSprites", cloudSpritesKeys),
        ("cloudCover", cloudCoverKeys),
        ("emitter", emitterKeys),
    ]
    static let commonLayerKeys = ["type", "name", "opacity", "colorSpace"]

    public static var layerTypeNames: [String] { layerTypes.map(\.type) }

    static func decodeLayer(_ node: Node, sceneSize: SIMD2<Int>, directory: String?) throws -> Layer {
        // Read `type` first so unknown keys can be judged against the right list.
        guard case .object = node.value.kind else { throw node.wrongType("a layer object") }
        guard let typeValue = node.value["type"] else {
            throw node.error(.missingKey, "missing key 'type' (one of: \(layerTypeNames.joined(separator: ", ")))")
        }
        let typeNode = node.child("type", typeValue)
        let typeName = try typeNode.string()
        guard let entry = layerTypes.first(where: { $0.type == typeName }) else {
            var message = "unknown layer type '\(typeName)'"
            if let near = nearest(typeName, in: layerTypeNames) { message += "; did you mean '\(near)'?" }
            else { message += " (expected one of: \(layerTypeNames.joined(separator: ", ")))" }
            throw typeNode.error(.unknownLayerType, message)
        }
        let object = try node.object(commonLayerKeys + entry.keys)
        try object.checkKeys()
        var name: String?
        var opacity = 1.0
        if let n = object["name"] { name = try n.string() }
        if let n = object["opacity"] { opacity = try n.number(in: 0...1) }
        let colorSpace = try object["colorSpace"].map(decodeColorSpace)

        let content: Layer.Content
        switch typeName {
        case "linearGradient", "radialGradient", "angularGradient", "ellipticalGradient":
            content = .gradient(try decodeGradient(typeName, object, colorSpace: colorSpace, sceneSize: sceneSize))
        case "shader":
            content = .shader(try decodeShader(object, sceneDirectory: directory))
        case "meshGradient":
            content = .mesh(try decodeMesh(object, colorSpace: colorSpace))
        case "sky", "cloudSprites", "cloudCover":
            content = .sky(try decodeSkyContent(typeName, object))
        case "emitter":
            content = .emitter(try decodeEmitter(object, sceneDirectory: directory))
        default:
            fatalError("layer type table and decoder disagree on \(typeName)")
        }
        return Layer(name: name, opacity: opacity, content: content)
    }

    static func decodeGradient(_ type: String, _ object: ObjectReader, colorSpace: ColorSpace?,
                               sceneSize: SIMD2<Int>) throws -> Gradient {
        let stops = try decodeStops(try object.required("stops"))
        func point(_ key: String, _ fallback: UnitPoint) throws -> UnitPoint {
            try object[key]?.unitPoint() ?? fallback
        }
        func value(_ key: String, _ fallback: Double) throws -> Double {
            try object[key]?.number() ?? fallback
        }
        func radius(_ key: String, _ fallback: Double) throws -> Double {
            try object[key]?.nonNegative() ?? fallback
        }
        let shape: Gradient.Shape
        switch type {
        case "linearGradient":
            shape = .linear(start: try point("start", [0.5, 0]), end: try point("end", [0.5, 1]))
        case "radialGradient":
            shape = .radial(center: try point("center", [0.5, 0.5]),
                            startRadius: try radius("startRadius", 0), endRadius: try radius("endRadius", Double(min(sceneSize.x, sceneSize.y)) / 2))
        case "angularGradient":
            shape = .angular(center: try point("center", [0.5, 0.5]),
                             startAngle: try value("startAngle", 0), endAngle: try value("endAngle", 360))
        default:
            shape = .elliptical(center: try point("center", [0.5, 0.5]),
                                startRadiusFraction: try radius("startRadiusFraction", 0),
                                endRadiusFraction: try radius("endRadiusFraction", 0.5))
        }
        return Gradient(shape: shape, stops: stops, colorSpace: colorSpace)
    }

    /// Stops: objects `{color, location}`, or plain colours spaced evenly from 0 to 1.
    static func decodeStops(_ node: Node) throws -> [GradientStop] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.error(.emptyStops, "a gradient needs at least one stop") }
        guard items.count <= Gradient.maximumStops else {
            throw node.error(.outOfRange, "at most \(Gradient.maximumStops) stops, got \(items.count)")
        }
        let objects = items.filter { if case .object = $0.value.kind { return true } else { return false } }
        if objects.isEmpty {
            let n = items.count
            return try items.enumerated().map { i, item in
                GradientStop(color: try item.color(), location: n == 1 ? 0 : Double(i) / Double(n - 1))
            }
        }
        if objects.count != items.count, let plain = items.first(where: { if case .object = $0.value.kind { return false } else { return true } }) {
            throw plain.error(.wrongType, "expected a stop {\"color\": …, \"location\": …} like the other stops, got \(plain.value.kindName)")
        }
        return try items.map { item in
            let stop = try item.object(["color", "location"])
            try stop.checkKeys()
            return GradientStop(color: try stop.required("color").color(),
                                location: try stop.required("location").number(in: 0...1))
        }
    }
}
