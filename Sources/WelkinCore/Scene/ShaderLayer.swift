// The `shader` layer: a user's own GLSL 3.30 fragment shader drawn over the frame.

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

/// A user fragment shader layer.
public struct ShaderLayer: Sendable, Equatable {
    /// Absolute path of the fragment shader (resolved against the scene file's folder).
    public var fragmentPath: String
    /// User uniforms, in file order.
    public var uniforms: [(name: String, value: UniformValue)]

    public static func == (a: ShaderLayer, b: ShaderLayer) -> Bool {
        a.fragmentPath == b.fragmentPath && a.uniforms.elementsEqual(b.uniforms, by: { $0.name == $1.name && $0.value == $1.value })
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
    ]) { object, context in .shader(try SceneLoader.decodeShader(object, sceneDirectory: context.directory)) }
}

extension SceneLoader {
    static func decodeShader(_ object: ObjectReader, sceneDirectory: String?) throws -> ShaderLayer {
        let fragmentNode = try object.required("fragment")
        let relative = try fragmentNode.string()
        guard !relative.isEmpty else { throw fragmentNode.error(.invalidValue, "expected a path to a fragment shader, got \"\"") }
        let base = sceneDirectory ?? FileManager.default.currentDirectoryPath
        let path = relative.hasPrefix("/") ? relative : URL(fileURLWithPath: base).appendingPathComponent(relative).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw fragmentNode.error(.unreadableFile, "no such shader file '\(relative)' (looked for \(path))")
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
                if ShaderLayer.builtInUniforms.contains(where: { $0.name == name }) {
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
        return ShaderLayer(fragmentPath: path, uniforms: uniforms)
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && CharacterSet.letters.contains(first)) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && CharacterSet.alphanumerics.contains($0)) }
    }
}
