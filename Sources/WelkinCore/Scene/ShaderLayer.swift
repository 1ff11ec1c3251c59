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

/// One of a shader layer's input images: Shadertoy's iChannel0…3.
public struct ShaderChannel: Sendable, Equatable {
    /// How the image is sampled between and across texels (Shadertoy's channel settings).
    public enum Filter: String, Sendable, CaseIterable {
        case nearest, linear
        /// Trilinear, from mipmaps Welkin builds when it uploads the image.
        case mipmap
    }

    /// What texture coordinates outside 0…1 read.
    public enum Wrap: String, Sendable, CaseIterable {
        /// The edge texels.
        case clamp
        case `repeat`
    }

    /// Absolute path of the PNG (resolved against the scene file's folder).
    public var imagePath: String
    /// The image's size in pixels, from its header at load time.
    public var imageSize: SIMD2<Int>
    public var filter: Filter = .mipmap
    public var wrap: Wrap = .repeat
    /// Shadertoy's "vflip": the PNG's top row at texture coordinate y = 1, so the image reads upright
    /// with `fragCoord / iResolution` (y up). false puts the top row at y = 0.
    public var vflip: Bool = true
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

    public static func == (a: ShaderLayer, b: ShaderLayer) -> Bool {
        a.fragmentPath == b.fragmentPath && a.uniforms.elementsEqual(b.uniforms, by: { $0.name == $1.name && $0.value == $1.value })
            && a.channels == b.channels && a.alpha == b.alpha
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
                 "Input images for iChannel0…3, in order (Shadertoy's channels; docs/shaders.md)."),
        Property("alpha", .choice(ShadertoyAlpha.allCases.map(\.rawValue)), default: .string(ShadertoyAlpha.opaque.rawValue),
                 expected: "alpha", "A mainImage shader's alpha: opaque (1, as Shadertoy shows it) or shader (what mainImage writes)."),
    ], draws: [ShaderDraw.self]) { object, context in try SceneLoader.decodeShader(object, sceneDirectory: context.directory) }
}

extension ShaderChannel {
    /// The largest side of a channel image, in pixels (what every GL 3.3 GPU can hold, and what
    /// bounds the upload: 4096² RGBA8 is 64 MiB).
    public static let maximumImageDimension = 4096

    public static let properties: PropertyTable = {
        let d = ShaderChannel(imagePath: "", imageSize: .zero)
        return PropertyTable("shaderChannel", title: "shader channel",
                             "An input image of a shader layer, read by the shader as iChannel0…3 (Shadertoy's channels).", [
            Property("image", .path("a PNG image"), required: true, live: false,
                     "A PNG (at most \(maximumImageDimension)×\(maximumImageDimension)), relative to the scene file; its sRGB bytes are sampled as they are."),
            Property("filter", .choice(Filter.allCases.map(\.rawValue)), default: .string(d.filter.rawValue), expected: "filter",
                     "nearest, linear, or mipmap (trilinear)."),
            Property("wrap", .choice(Wrap.allCases.map(\.rawValue)), default: .string(d.wrap.rawValue), expected: "wrap",
                     "Outside 0…1: clamp to the edge texels, or repeat."),
            Property("vflip", .bool, default: .bool(d.vflip), "The image's top row at texture y = 1 (upright with y up), as Shadertoy's default."),
        ])
    }()
}

extension SceneLoader {
    static func decodeShader(_ object: ObjectReader, sceneDirectory: String?) throws -> ShaderLayer {
        let fragmentNode = try object.required("fragment")
        let relative = try fragmentNode.string()
        guard !relative.isEmpty else { throw fragmentNode.error(.invalidValue, "expected a path to a fragment shader, got \"\"") }
        let base = sceneDirectory ?? FileManager.default.currentDirectoryPath
        let path = relative.hasPrefix("/") ? relative : URL(fileURLWithPath: base).appendingPathComponent(relative).standardizedFileURL.path
        if let problem = RegularFile.check(path) {
            if problem == .missing { throw fragmentNode.error(.unreadableFile, "no such shader file '\(relative)' (looked for \(path))") }
            throw fragmentNode.error(.unreadableFile, "the shader file '\(relative)' (\(path)) \(problem)")
        }
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
        return layer
    }

    static func decodeChannel(_ node: Node, sceneDirectory: String?) throws -> ShaderChannel {
        let object = try node.object(ShaderChannel.properties)
        try object.checkKeys()
        let imageNode = try object.required("image")
        let (path, size) = try decodePNGPath(imageNode, sceneDirectory: sceneDirectory,
                                             limit: ShaderChannel.maximumImageDimension, what: "channel images")
        var c = ShaderChannel(imagePath: path, imageSize: size)
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
    public var imagePaths: [String] { channels.map(\.imagePath) }

    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        frame.layers.append(ShaderDraw(layer: self, opacity: Float(layer.opacity), index: index))
    }
}
