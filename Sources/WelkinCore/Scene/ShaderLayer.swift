// The `shader` layer: a user's own GLSL 3.30 fragment shader drawn over the frame, or a
// Shadertoy image shader (`mainImage`) with up to four PNG input channels (Shadertoy.swift).

import Foundation

/// A value for one of a user shader's uniforms.
public enum UniformValue: Sendable, Equatable {
    /// A float, or a vec2/vec3/vec4 (1…4 components).
    case floats([Float])
    /// A colour, passed as a straight-alpha sRGB vec4.
    case color(RGBA)

    /// The components as uploaded to the GPU.
    public var components: [Float] {
        switch self {
        case .floats(let f): return f
        case .color(let c): return [Float(c.r), Float(c.g), Float(c.b), Float(c.a)]
        }
    }
}

/// One of a shader pass's inputs: Shadertoy's iChannel0…3.
public struct ShaderChannel: Sendable, Equatable {
    /// How the image is sampled between and across texels (Shadertoy's channel settings).
    public enum Filter: String, Sendable, CaseIterable {
        case nearest, linear
        /// Trilinear, from mipmaps Welkin builds when it uploads the image (or after a buffer is drawn).
        case mipmap
    }

    /// What texture coordinates outside 0…1 read.
    public enum Wrap: String, Sendable, CaseIterable {
        /// The edge texels.
        case clamp
        case `repeat`
    }

    /// The shape of a generated noise channel: Shadertoy's media textures a scene does not have
    /// (an imported shader's "Gray Noise Small", "RGBA Noise Medium", "Grey Noise3D", a cube map).
    public enum NoiseShape: String, Sendable, CaseIterable {
        /// A 2D image (sampler2D).
        case image
        /// A volume (sampler3D), size³ texels.
        case volume
        /// A cube map (samplerCube), six faces of size² texels.
        case cube
    }

    /// What the channel reads.
    public enum Source: Sendable, Equatable {
        /// A PNG (absolute path) and its size in pixels, from its header at load time.
        case image(path: String, size: SIMD2<Int>)
        /// One of the layer's buffers ("A"…"D", or "cube": its Cube A): this frame's picture when that
        /// buffer runs before the reading pass, else its previous frame's (a buffer reading itself reads
        /// its last frame).
        case buffer(String)
        /// Deterministic white noise (ShaderNoise), every byte of every channel independent.
        case noise(NoiseShape, size: Int)
        /// Shadertoy's keyboard: a 256×3 one-channel texture (row 0 held, row 1 pressed this frame,
        /// row 2 toggled) from the viewer's keys; all zero headless.
        case keyboard
        /// Nothing: reads black, as a Shadertoy channel left empty (it holds a place in the list).
        case empty
    }

    public var source: Source
    public var filter: Filter = .mipmap
    public var wrap: Wrap = .repeat
    /// Shadertoy's "vflip": the PNG's top row at texture coordinate y = 1, so the image reads upright
    /// with `fragCoord / iResolution` (y up). false puts the top row at y = 0. Images only.
    public var vflip: Bool = true

    public init(source: Source, filter: Filter = .mipmap, wrap: Wrap = .repeat, vflip: Bool = true) {
        self.source = source; self.filter = filter; self.wrap = wrap; self.vflip = vflip
    }

    /// An image channel.
    public init(imagePath: String, imageSize: SIMD2<Int>, filter: Filter = .mipmap, wrap: Wrap = .repeat, vflip: Bool = true) {
        self.init(source: .image(path: imagePath, size: imageSize), filter: filter, wrap: wrap, vflip: vflip)
    }

    /// The PNG's path, for an image channel.
    public var imagePath: String? {
        if case .image(let path, _) = source { return path }
        return nil
    }

    /// The buffer's name, for a buffer channel.
    public var bufferName: String? {
        if case .buffer(let name) = source { return name }
        return nil
    }

    /// The GLSL sampler type iChannelN is declared with.
    public var samplerType: String {
        switch source {
        case .noise(.volume, _): return "sampler3D"
        case .noise(.cube, _), .buffer(ShaderCube.name): return "samplerCube"
        default: return "sampler2D"
        }
    }

    /// iChannelResolution for this channel, given the size of the layer's buffers (z = 1 but for a volume's depth).
    public func resolution(bufferSize: SIMD2<Int>, cubeSize: Int = ShaderCube.defaultSize) -> SIMD3<Int> {
        switch source {
        case .image(_, let size): return SIMD3(size.x, size.y, 1)
        case .buffer(ShaderCube.name): return SIMD3(cubeSize, cubeSize, 1)
        case .buffer: return SIMD3(bufferSize.x, bufferSize.y, 1)
        case .noise(.volume, let n): return SIMD3(n, n, n)
        case .noise(_, let n): return SIMD3(n, n, 1)
        case .keyboard: return SIMD3(256, 3, 1)
        case .empty: return .zero
        }
    }
}

/// A shader layer's Cube A: Shadertoy's cube map pass (`mainCubemap`), drawn after the buffers into
/// the six faces of a float cube map kept from frame to frame; a channel `{"buffer": "cube"}` reads it.
public struct ShaderCube: Sendable, Equatable {
    /// The name a channel gives it.
    public static let name = "cube"
    /// Shadertoy's face size.
    public static let defaultSize = 1024
    public static let maximumSize = 2048
    public var fragmentPath: String
    public var channels: [ShaderChannel] = []
    /// Each face's side in texels.
    public var size = ShaderCube.defaultSize

    public init(fragmentPath: String, channels: [ShaderChannel] = [], size: Int = ShaderCube.defaultSize) {
        self.fragmentPath = fragmentPath; self.channels = channels; self.size = size
    }

    public static let properties = PropertyTable("shaderCube", title: "shader cube map",
                                                 "A shader layer's Cube A (Shadertoy's cube map pass).", [
        Property("fragment", .path("a GLSL fragment shader"), required: true, live: false, "The pass's shader (mainCubemap), relative to the scene file."),
        Property("channels", .array(.object(ShaderChannel.properties), count: 0...Shadertoy.channelCount), default: .emptyArray, live: false,
                 "The pass's inputs for iChannel0…3 (it may read itself: its previous frame)."),
        Property("size", .integer(1...maximumSize), default: .number(Double(defaultSize)), live: false,
                 "Each face's side in texels (Shadertoy's is 1024; smaller is faster on a CPU rasteriser)."),
    ])
}

/// One of a shader layer's buffers: Shadertoy's Buffer A…D, a pass drawn into a float target the
/// size of the layer's picture before the image pass, kept from frame to frame.
public struct ShaderBuffer: Sendable, Equatable {
    /// "A", "B", "C" or "D": buffers run in that order, then the layer's own (image) pass.
    public var name: String
    /// Absolute path of the buffer's fragment shader (`mainImage`).
    public var fragmentPath: String
    public var channels: [ShaderChannel] = []

    public init(name: String, fragmentPath: String, channels: [ShaderChannel] = []) {
        self.name = name; self.fragmentPath = fragmentPath; self.channels = channels
    }

    /// The names a buffer may have, in the order they run.
    public static let names = ["A", "B", "C", "D"]
}

/// What a `mainImage` shader's alpha means.
public enum ShadertoyAlpha: String, Sendable, CaseIterable {
    /// Alpha 1, as Shadertoy shows its image pass (most shaders leave alpha unset or wrong).
    case opaque
    /// The alpha `mainImage` writes, straight, like a Welkin shader's.
    case shader
}

/// A user fragment shader layer.
public struct ShaderLayer: Sendable, Equatable {
    /// Absolute path of the fragment shader (resolved against the scene file's folder).
    public var fragmentPath: String
    /// User uniforms, in file order.
    public var uniforms: [(name: String, value: UniformValue)]
    /// Input images for iChannel0… in order (at most `Shadertoy.channelCount`).
    public var channels: [ShaderChannel] = []
    /// For a `mainImage` shader: whether its alpha is used (a shader with its own `main` writes its own).
    public var alpha: ShadertoyAlpha = .opaque
    /// Shadertoy's Common tab: a file put before every pass of the layer (its buffers' and its own).
    public var commonPath: String? = nil
    /// Buffers A…D, in the order they run (before the layer's own pass, every frame).
    public var buffers: [ShaderBuffer] = []
    /// Cube A, drawn after the buffers.
    public var cube: ShaderCube? = nil

    public init(fragmentPath: String, uniforms: [(name: String, value: UniformValue)] = [], channels: [ShaderChannel] = [],
                alpha: ShadertoyAlpha = .opaque, commonPath: String? = nil, buffers: [ShaderBuffer] = []) {
        self.fragmentPath = fragmentPath; self.uniforms = uniforms; self.channels = channels
        self.alpha = alpha; self.commonPath = commonPath; self.buffers = buffers
    }

    /// Whether the layer has buffers: its picture depends on every frame before it (feedback).
    public var isMultipass: Bool { !buffers.isEmpty || cube != nil }

    /// Every file the layer compiles: its own fragment, the common file and the buffers'.
    public var shaderPaths: [String] {
        var out = [fragmentPath]
        if let commonPath { out.append(commonPath) }
        for b in buffers where !out.contains(b.fragmentPath) { out.append(b.fragmentPath) }
        if let cube, !out.contains(cube.fragmentPath) { out.append(cube.fragmentPath) }
        return out
    }

    public static func == (a: ShaderLayer, b: ShaderLayer) -> Bool {
        a.fragmentPath == b.fragmentPath && a.uniforms.elementsEqual(b.uniforms, by: { $0.name == $1.name && $0.value == $1.value })
            && a.channels == b.channels && a.alpha == b.alpha && a.commonPath == b.commonPath && a.buffers == b.buffers && a.cube == b.cube
    }

    /// Uniforms Welkin feeds a user shader when it declares them (documented in docs/shaders.md).
    public static let builtInUniforms: [(name: String, type: String, meaning: String)] = [
        ("u_time", "float", "scene time in seconds"),
        ("u_resolution", "vec2", "render size in pixels"),
        ("u_frame", "int", "frame number (the viewer's counter; headless: floor(time × 60))"),
        ("u_mouse", "vec2", "mouse position in pixels, origin bottom-left like gl_FragCoord (0, 0 headless)"),
        ("u_pixelScale", "vec2", "pixels per point"),
    ] + SkyState.builtInUniforms
}

extension ShaderLayer {
    /// The most uniforms a scene may give one shader.
    public static let maximumUniforms = 64

    static let kind = LayerKind("shader", "Your own GLSL 3.30 fragment shader drawn over the frame (GPU only; docs/shaders.md).", [
        Property("fragment", .path("a GLSL fragment shader"), required: true, live: false, "The fragment shader file, relative to the scene file."),
        Property("uniforms", .map(.oneOf([.number(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude),
                                          .array(.number(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude), count: 1...4), .color]),
                                  count: 0...maximumUniforms),
                 default: .described("none"), "Values for the shader's own uniforms by name: a float, a vec2…vec4 or a colour (vec4)."),
        Property("channels", .array(.object(ShaderChannel.properties), count: 0...Shadertoy.channelCount), default: .emptyArray, live: false,
                 "Inputs for iChannel0…3, in order: images, buffers, noise or the keyboard (Shadertoy's channels; docs/shaders.md)."),
        Property("common", .path("a GLSL file"), default: .described("none"), live: false,
                 "Shadertoy's Common tab: a file put before the layer's shader and every buffer's."),
        Property("buffers", .map(.object(ShaderBuffer.properties), count: 0...ShaderBuffer.names.count), default: .described("none"), live: false,
                 "Shadertoy's Buffer A…D by name (\"A\"…\"D\"): passes drawn into float pictures kept from frame to frame, before the layer's own pass."),
        Property("cube", .object(ShaderCube.properties), default: .described("none"), live: false,
                 "Shadertoy's Cube A: a mainCubemap pass drawn after the buffers into a float cube map kept from frame to frame (a channel {\"buffer\": \"cube\"} reads it)."),
        Property("alpha", .choice(ShadertoyAlpha.allCases.map(\.rawValue)), default: .string(ShadertoyAlpha.opaque.rawValue),
                 expected: "alpha", "A mainImage shader's alpha: opaque (1, as Shadertoy shows it) or shader (what mainImage writes)."),
    ], draws: [ShaderDraw.self]) { object, context in try SceneLoader.decodeShader(object, sceneDirectory: context.directory) }
}

extension ShaderChannel {
    /// The largest side of a channel image, in pixels (what every GL 3.3 GPU can hold, and what
    /// bounds the upload: 4096² RGBA8 is 64 MiB).
    public static let maximumImageDimension = 4096

    /// The largest side of a generated noise channel (a volume's: 128³ RGBA8 is 8 MiB).
    public static let maximumNoiseSize = 1024
    public static let maximumVolumeNoiseSize = 128

    public static let properties: PropertyTable = {
        let d = ShaderChannel(imagePath: "", imageSize: .zero)
        return PropertyTable("shaderChannel", title: "shader channel",
                             "An input of a shader pass, read by the shader as iChannel0…3 (Shadertoy's channels): exactly one of image, buffer, noise, keyboard or empty.", [
            Property("image", .path("a PNG image"), live: false,
                     "A PNG (at most \(maximumImageDimension)×\(maximumImageDimension)), relative to the scene file; its sRGB bytes are sampled as they are."),
            Property("buffer", .choice(ShaderBuffer.names + [ShaderCube.name]), live: false,
                     "One of the layer's buffers (Shadertoy's Buffer A…D, or \"cube\": its Cube A, a samplerCube): its picture this frame if it runs before the reading pass, else last frame's."),
            Property("noise", .choice(NoiseShape.allCases.map(\.rawValue)), live: false,
                     "Generated white noise (a stand-in for Shadertoy's noise textures): an image (sampler2D), a volume (sampler3D) or a cube map (samplerCube)."),
            Property("size", .integer(1...maximumNoiseSize), default: .number(256), live: false,
                     "With noise: the side in texels (a volume at most \(maximumVolumeNoiseSize))."),
            Property("keyboard", .bool, live: false,
                     "Shadertoy's keyboard texture (256×3: held, pressed this frame, toggled), from the viewer's keys; zero headless."),
            Property("empty", .bool, live: false, "true: nothing, read as black (a place kept in the list, as an empty Shadertoy channel)."),
            Property("filter", .choice(Filter.allCases.map(\.rawValue)), default: .string(d.filter.rawValue), expected: "filter",
                     "nearest, linear, or mipmap (trilinear)."),
            Property("wrap", .choice(Wrap.allCases.map(\.rawValue)), default: .string(d.wrap.rawValue), expected: "wrap",
                     "Outside 0…1: clamp to the edge texels, or repeat."),
            Property("vflip", .bool, default: .bool(d.vflip), "The image's top row at texture y = 1 (upright with y up), as Shadertoy's default."),
        ])
    }()
}

extension ShaderBuffer {
    public static let properties = PropertyTable("shaderBuffer", title: "shader buffer",
                                                 "One of a shader layer's buffers (Shadertoy's Buffer A…D).", [
        Property("fragment", .path("a GLSL fragment shader"), required: true, live: false, "The buffer's shader (mainImage), relative to the scene file."),
        Property("channels", .array(.object(ShaderChannel.properties), count: 0...Shadertoy.channelCount), default: .emptyArray, live: false,
                 "The buffer's inputs for iChannel0…3 (a buffer may read itself: its previous frame)."),
    ])
}

extension SceneLoader {
    static func decodeShader(_ object: ObjectReader, sceneDirectory: String?) throws -> ShaderLayer {
        let fragmentNode = try object.required("fragment")
        let path = try shaderFilePath(fragmentNode, sceneDirectory: sceneDirectory, what: "shader file", expected: "a fragment shader")
        var uniforms: [(name: String, value: UniformValue)] = []
        if let node = object["uniforms"] {
            guard case .object(let members) = node.value.kind else { throw node.wrongType("an object of uniform values") }
            guard members.count <= ShaderLayer.maximumUniforms else {
                throw node.error(.outOfRange, "\(members.count) uniforms, at most \(ShaderLayer.maximumUniforms)")
            }
            for (name, value) in members {
                let child = node.child(name, value)
                guard isIdentifier(name), !name.hasPrefix("gl_") else {
                    throw child.error(.invalidValue, "'\(name)' is not a valid GLSL uniform name")
                }
                if ShaderLayer.builtInUniforms.contains(where: { $0.name == name }) || Shadertoy.uniforms.contains(where: { $0.name == name }) {
                    throw child.error(.invalidValue, "'\(name)' is a built-in uniform that Welkin sets itself")
                }
                switch value.kind {
                case .number:
                    uniforms.append((name, .floats([Float(try child.number())])))
                case .array(let items) where items.allSatisfy({ if case .number = $0.kind { return true } else { return false } }):
                    guard (1...4).contains(items.count) else {
                        throw child.error(.wrongType, "expected 1 to 4 numbers (float, vec2, vec3, vec4), got \(items.count)")
                    }
                    uniforms.append((name, .floats(try child.array().map { Float(try $0.number()) })))
                case .string:
                    uniforms.append((name, .color(try child.color())))
                default:
                    throw child.wrongType("a number, an array of 1 to 4 numbers, or a colour")
                }
            }
        }
        var layer = ShaderLayer(fragmentPath: path, uniforms: uniforms)
        if let v = try object.decode("channels", { n in
            try n.elements(count: 0...Shadertoy.channelCount, "channels") { try decodeChannel($0, sceneDirectory: sceneDirectory) }
        }) { layer.channels = v }
        if let v = try object.choice("alpha", as: ShadertoyAlpha.self) { layer.alpha = v }
        if let node = object["common"] { layer.commonPath = try shaderFilePath(node, sceneDirectory: sceneDirectory, what: "common file") }
        if let node = object["buffers"] {
            guard case .object(let members) = node.value.kind else { throw node.wrongType("an object of buffers by name (\"A\"…\"D\")") }
            for (name, value) in members {
                let child = node.child(name, value)
                guard ShaderBuffer.names.contains(name) else {
                    throw child.error(.invalidValue, "'\(name)' is not a buffer name; buffers are A, B, C and D (Shadertoy's Buffer A…D)")
                }
                let buffer = try child.object(ShaderBuffer.properties)
                try buffer.checkKeys()
                let fragment = try shaderFilePath(try buffer.required("fragment"), sceneDirectory: sceneDirectory, what: "shader file")
                var b = ShaderBuffer(name: name, fragmentPath: fragment)
                if let v = try buffer.decode("channels", { n in
                    try n.elements(count: 0...Shadertoy.channelCount, "channels") { try decodeChannel($0, sceneDirectory: sceneDirectory) }
                }) { b.channels = v }
                layer.buffers.append(b)
            }
            layer.buffers.sort { $0.name < $1.name }
            // Every buffer a channel reads must be one the layer has.
            let names = Set(layer.buffers.map(\.name))
            let hasCube = object["cube"] != nil
            func check(_ channels: [ShaderChannel], _ path: (Int) -> Node?) throws {
                for (i, c) in channels.enumerated() {
                    if let name = c.bufferName, !names.contains(name), !(name == ShaderCube.name && hasCube) {
                        let have = names.isEmpty ? "it has none" : "it has " + layer.buffers.map(\.name).joined(separator: ", ")
                        throw (path(i) ?? node).error(.invalidValue, "reads buffer \(name), but the layer has no buffer \(name) (\(have))")
                    }
                }
            }
            for b in layer.buffers {
                let list = node.child(b.name, members.first { $0.0 == b.name }!.1)
                try check(b.channels) { i in (try? list.object(ShaderBuffer.properties))?["channels"].flatMap { try? $0.array()[i] } }
            }
        }
        if let node = object["cube"] {
            let cube = try node.object(ShaderCube.properties)
            try cube.checkKeys()
            var c = ShaderCube(fragmentPath: try shaderFilePath(try cube.required("fragment"), sceneDirectory: sceneDirectory, what: "shader file"))
            if let v = try cube.decode("channels", { n in
                try n.elements(count: 0...Shadertoy.channelCount, "channels") { try decodeChannel($0, sceneDirectory: sceneDirectory) }
            }) { c.channels = v }
            if let n = cube["size"] { c.size = try n.integer(in: 1...ShaderCube.maximumSize, "size") }
            layer.cube = c
            for (i, ch) in c.channels.enumerated() {
                if let name = ch.bufferName, name != ShaderCube.name, !layer.buffers.contains(where: { $0.name == name }) {
                    let at = cube["channels"].flatMap { try? $0.array()[i] } ?? node
                    throw at.error(.invalidValue, "reads buffer \(name), but the layer has no buffer \(name)")
                }
            }
        }
        var names = Set(layer.buffers.map(\.name))
        if layer.cube != nil { names.insert(ShaderCube.name) }
        for (i, c) in layer.channels.enumerated() {
            if let name = c.bufferName, !names.contains(name) {
                let node = object["channels"].flatMap { try? $0.array()[i] } ?? fragmentNode
                let have = names.isEmpty ? "it has none" : "it has " + layer.buffers.map(\.name).joined(separator: ", ")
                throw node.error(.invalidValue, "reads buffer \(name), but the layer has no buffer \(name) (\(have))")
            }
        }
        return layer
    }

    /// The absolute path of a shader file named at `node`, which must be a readable regular file.
    /// `expected` names the file in the message for an empty path (default: `what`).
    static func shaderFilePath(_ node: Node, sceneDirectory: String?, what: String, expected: String? = nil) throws -> String {
        let relative = try node.string()
        guard !relative.isEmpty else { throw node.error(.invalidValue, "expected a path to \(expected ?? "a " + what), got \"\"") }
        let base = sceneDirectory ?? FileManager.default.currentDirectoryPath
        let path = relative.hasPrefix("/") ? relative : URL(fileURLWithPath: base).appendingPathComponent(relative).standardizedFileURL.path
        if let problem = RegularFile.check(path) {
            if problem == .missing { throw node.error(.unreadableFile, "no such \(what) '\(relative)' (looked for \(path))") }
            throw node.error(.unreadableFile, "the \(what) '\(relative)' (\(path)) \(problem)")
        }
        return path
    }

    static func decodeChannel(_ node: Node, sceneDirectory: String?) throws -> ShaderChannel {
        let object = try node.object(ShaderChannel.properties)
        try object.checkKeys()
        // Each key's own type first (a wrong one is named at its key), then the rule between them.
        if let n = object["image"] { _ = try n.string() }
        if let n = object["buffer"] { _ = try n.oneOf(ShaderBuffer.names + [ShaderCube.name], "buffer") }
        _ = try object.choice("noise", as: ShaderChannel.NoiseShape.self)
        if let n = object["keyboard"] { _ = try n.bool() }
        if let n = object["empty"] { _ = try n.bool() }
        if let n = object["size"] { _ = try n.integer(in: 1...ShaderChannel.maximumNoiseSize, "size") }
        let kinds = ["image", "buffer", "noise", "keyboard", "empty"].filter { object[$0] != nil }
        guard kinds.count == 1 else {
            throw node.error(kinds.isEmpty ? .missingKey : .invalidValue,
                             kinds.isEmpty ? "a channel needs one of image, buffer, noise, keyboard or empty"
                                           : "a channel has one of image, buffer, noise, keyboard or empty, not \(kinds.joined(separator: " and "))")
        }
        var c: ShaderChannel
        switch kinds[0] {
        case "image":
            let (path, size) = try decodePNGPath(try object.required("image"), sceneDirectory: sceneDirectory,
                                                 limit: ShaderChannel.maximumImageDimension, what: "channel images")
            c = ShaderChannel(imagePath: path, imageSize: size)
        case "buffer":
            c = ShaderChannel(source: .buffer(try object.required("buffer").oneOf(ShaderBuffer.names + [ShaderCube.name], "buffer")))
            c.vflip = false
        case "noise":
            let shape = try object.choice("noise", as: ShaderChannel.NoiseShape.self) ?? .image
            let limit = shape == .volume ? ShaderChannel.maximumVolumeNoiseSize : ShaderChannel.maximumNoiseSize
            var size = shape == .volume ? 32 : 256
            if let node = object["size"] { size = try node.integer(in: 1...limit, "size") }
            c = ShaderChannel(source: .noise(shape, size: size))
        case "empty":
            guard try object.required("empty").bool() else {
                throw try object.required("empty").error(.invalidValue, "empty: false says nothing; give image, buffer, noise or keyboard")
            }
            c = ShaderChannel(source: .empty)
        default:
            guard try object.required("keyboard").bool() else {
                throw try object.required("keyboard").error(.invalidValue, "keyboard: false reads nothing; leave the channel out instead")
            }
            c = ShaderChannel(source: .keyboard, filter: .nearest, wrap: .clamp)
        }
        if object["size"] != nil, case .noise = c.source {} else if let n = object["size"] {
            throw n.error(.invalidValue, "size is for noise channels")
        }
        if let v = try object.choice("filter", as: ShaderChannel.Filter.self) { c.filter = v }
        if let v = try object.choice("wrap", as: ShaderChannel.Wrap.self) { c.wrap = v }
        if let v = try object.bool("vflip") { c.vflip = v }
        return c
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && CharacterSet.letters.contains(first)) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && CharacterSet.alphanumerics.contains($0)) }
    }
}

/// A user shader layer at one instant: the built-in uniforms come from the Frame.
public struct ShaderDraw: LayerDraw, Equatable {
    public var layer: ShaderLayer
    public var opacity: Float
    /// The layer's index in the scene, for messages.
    public var index: Int
}

extension ShaderLayer: LayerContent {
    public var typeName: String { Self.kind.type }
    public var imagePaths: [String] {
        var out: [String] = []
        for c in channels + buffers.flatMap(\.channels) { if let p = c.imagePath, !out.contains(p) { out.append(p) } }
        return out
    }

    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        frame.layers.append(ShaderDraw(layer: self, opacity: Float(layer.opacity), index: index))
    }
}
