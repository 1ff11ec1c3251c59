// GLCapture: what Welkin's own GL passes hand each full-screen draw, read back from GL.
//
// `welkin export-code --package` exports the sky, the clouds and user shaders as Metal made from
// the very programs the GL path compiles. Rather than restating which Swift value feeds which
// uniform (SkyPass, CloudsPass and UserShaderPass each say it once), the export draws the frame
// with a capture active: at every full-screen draw of those passes it reads the bound program's
// sources, every active uniform's value (glGetUniform*) and every sampler's texture (glGetTexImage,
// with the filter and wrap the draw samples it with). The draw itself is skipped when
// `skipsDraws` is set: the values are all the export needs.

@preconcurrency import CEpoxy
import WelkinCore

/// The state of Welkin's full-screen draws while a capture is active (`GLRenderer.capture`).
public final class GLCapture {
    /// One active uniform: its GLSL name (`u_sky.zenith`, `u_spriteBoxes` for a whole array), type and
    /// value as 32-bit words (floats as their bits; an array's elements one after another).
    public struct Uniform: Sendable, Equatable {
        public var name: String
        /// The GLSL type of one element: `float`, `vec3`, `int`, `uint`, `ivec2`, `bool`.
        public var type: String
        public var count: Int
        public var words: [UInt32]
    }

    /// A texture a sampler reads: its texels as GL holds them, and how the draw samples it.
    public struct Texture: Sendable, Equatable {
        public enum Format: String, Sendable { case rgba32Float, rg32Float, rg32Uint, rgba16Float, rgba8Unorm, r8Unorm }
        public var format: Format
        /// Width, height, depth (1 for a 2D texture).
        public var size: SIMD3<Int>
        public var is3D: Bool
        public var linear: Bool
        public var repeats: Bool
        /// Whether rows (t) repeat too where columns (s) do: false for a map that repeats in
        /// longitude and is clamped at the poles (the Milky Way's).
        public var repeatsRows: Bool = true
        /// Row 0 is GL's first row (the bottom of an image; the texel row t = 0).
        public var bytes: [UInt8]
    }

    /// What a sampler reads: data, or what an earlier draw of the same layer wrote.
    public enum Input: Sendable, Equatable {
        case texture(Texture)
        /// The target of `draws[index]` of the same layer.
        case draw(Int)
    }

    /// One full-screen draw.
    public struct Draw: @unchecked Sendable {
        public var vertex: ShaderSource
        public var fragment: ShaderSource
        public var uniforms: [Uniform]
        /// Sampler uniform name → what it reads.
        public var samplers: [String: Input]
        /// The size of the target it draws into, in pixels.
        public var targetSize: SIMD2<Int>
        /// Whether the draw blends into its target (a layer composited) or replaces it (an intermediate).
        public var blends: Bool
        /// The GL texture it draws into (to link later draws' samplers to it).
        var targetTexture: GLuint
    }

    /// The capture in progress, if any (GL is used from one thread).
    nonisolated(unsafe) static var active: GLCapture?

    /// Draws captured so far, by the position of their layer in `Frame.layers`.
    public internal(set) var layers: [Int: [Draw]] = [:]
    var currentLayer: Int?
    let skipsDraws: Bool

    init(skipsDraws: Bool) { self.skipsDraws = skipsDraws }

    /// The one full-screen triangle of the sky, clouds and user-shader passes, captured when a capture is active.
    static func drawFullScreenTriangle() {
        if let capture = active, let layer = capture.currentLayer {
            capture.layers[layer, default: []].append(capture.read(earlier: capture.layers[layer] ?? []))
            if capture.skipsDraws { return }
        }
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }

    private func integer(_ name: Int32) -> GLint {
        var v: GLint = 0
        epoxy_glGetIntegerv(GLenum(name), &v)
        return v
    }

    private func read(earlier: [Draw]) -> Draw {
        let id = GLuint(integer(GL_CURRENT_PROGRAM))
        guard let program = ShaderProgram.built(id) else {
            preconditionFailure("GLCapture: the bound program \(id) was not built by ShaderProgram")
        }
        var viewport = [GLint](repeating: 0, count: 4)
        epoxy_glGetIntegerv(GLenum(GL_VIEWPORT), &viewport)
        var attachment: GLint = 0
        epoxy_glGetFramebufferAttachmentParameteriv(GLenum(GL_DRAW_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0),
                                                    GLenum(GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), &attachment)
        var uniforms: [Uniform] = []
        var samplers: [String: Input] = [:]
        var count: GLint = 0, maxLength: GLint = 0
        epoxy_glGetProgramiv(id, GLenum(GL_ACTIVE_UNIFORMS), &count)
        epoxy_glGetProgramiv(id, GLenum(GL_ACTIVE_UNIFORM_MAX_LENGTH), &maxLength)
        var nameBuffer = [GLchar](repeating: 0, count: Int(max(maxLength, 1)) + 1)
        for i in 0..<max(count, 0) {
            var length: GLsizei = 0, size: GLint = 0, type: GLenum = 0
            epoxy_glGetActiveUniform(id, GLuint(i), GLsizei(nameBuffer.count), &length, &size, &type, &nameBuffer)
            var name = String(cString: nameBuffer)
            if name.hasSuffix("[0]") { name.removeLast(3) }
            if let sampler = Self.samplerTargets[Int32(type)] {
                var unit: GLint = 0
                epoxy_glGetUniformiv(id, program.uniform(name), &unit)
                let texture = boundTexture(unit: unit, target: sampler)
                if let index = earlier.firstIndex(where: { $0.targetTexture == texture && texture != 0 }) {
                    samplers[name] = .draw(index)
                } else {
                    samplers[name] = .texture(readTexture(texture, unit: unit, target: sampler))
                }
                continue
            }
            guard let (glsl, components, kind) = Self.valueTypes[Int32(type)] else {
                preconditionFailure("GLCapture: uniform \(name) has a type (0x\(String(type, radix: 16))) Welkin's passes do not use")
            }
            var words: [UInt32] = []
            for element in 0..<Int(size) {
                let location = program.uniform(size > 1 ? "\(name)[\(element)]" : name)
                var value = [UInt32](repeating: 0, count: 16)
                value.withUnsafeMutableBufferPointer { b in
                    switch kind {
                    case .float: b.withMemoryRebound(to: GLfloat.self) { epoxy_glGetUniformfv(id, location, $0.baseAddress) }
                    case .int: b.withMemoryRebound(to: GLint.self) { epoxy_glGetUniformiv(id, location, $0.baseAddress) }
                    case .uint: epoxy_glGetUniformuiv(id, location, b.baseAddress)
                    }
                }
                words += value.prefix(components)
            }
            uniforms.append(Uniform(name: name, type: glsl, count: Int(size), words: words))
        }
        uniforms.sort { $0.name < $1.name }
        return Draw(vertex: program.vertexSource, fragment: program.fragmentSource, uniforms: uniforms, samplers: samplers,
                    targetSize: SIMD2(Int(viewport[2]), Int(viewport[3])),
                    blends: epoxy_glIsEnabled(GLenum(GL_BLEND)) != 0, targetTexture: GLuint(attachment))
    }

    private enum Kind { case float, int, uint }

    private static let valueTypes: [Int32: (String, Int, Kind)] = [
        GL_FLOAT: ("float", 1, .float), GL_FLOAT_VEC2: ("vec2", 2, .float), GL_FLOAT_VEC3: ("vec3", 3, .float),
        GL_FLOAT_VEC4: ("vec4", 4, .float), GL_INT: ("int", 1, .int), GL_INT_VEC2: ("ivec2", 2, .int),
        GL_INT_VEC3: ("ivec3", 3, .int), GL_INT_VEC4: ("ivec4", 4, .int), GL_UNSIGNED_INT: ("uint", 1, .uint),
        GL_UNSIGNED_INT_VEC2: ("uvec2", 2, .uint), GL_BOOL: ("bool", 1, .int),
        GL_FLOAT_MAT3: ("mat3", 9, .float), GL_FLOAT_MAT4: ("mat4", 16, .float),
    ]

    private static let samplerTargets: [Int32: Int32] = [
        GL_SAMPLER_2D: GL_TEXTURE_2D, GL_SAMPLER_3D: GL_TEXTURE_3D, GL_UNSIGNED_INT_SAMPLER_2D: GL_TEXTURE_2D,
        GL_INT_SAMPLER_2D: GL_TEXTURE_2D,
    ]

    private func boundTexture(unit: GLint, target: Int32) -> GLuint {
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + unit))
        defer { epoxy_glActiveTexture(GLenum(GL_TEXTURE0)) }
        return GLuint(integer(target == GL_TEXTURE_3D ? GL_TEXTURE_BINDING_3D : GL_TEXTURE_BINDING_2D))
    }

    private func readTexture(_ texture: GLuint, unit: GLint, target: Int32) -> Texture {
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + unit))
        defer { epoxy_glActiveTexture(GLenum(GL_TEXTURE0)) }
        let t = GLenum(target)
        func level(_ p: Int32) -> GLint { var v: GLint = 0; epoxy_glGetTexLevelParameteriv(t, 0, GLenum(p), &v); return v }
        let size = SIMD3(Int(level(GL_TEXTURE_WIDTH)), Int(level(GL_TEXTURE_HEIGHT)), target == GL_TEXTURE_3D ? Int(level(GL_TEXTURE_DEPTH)) : 1)
        let internalFormat = level(GL_TEXTURE_INTERNAL_FORMAT)
        // A sampler object on the unit (user shaders' channels) overrides the texture's own parameters.
        let sampler = GLuint(integer(GL_SAMPLER_BINDING))
        func parameter(_ p: Int32) -> GLint {
            var v: GLint = 0
            if sampler != 0 { epoxy_glGetSamplerParameteriv(sampler, GLenum(p), &v) } else { epoxy_glGetTexParameteriv(t, GLenum(p), &v) }
            return v
        }
        let linear = parameter(GL_TEXTURE_MAG_FILTER) == GL_LINEAR
        let repeats = parameter(GL_TEXTURE_WRAP_S) == GL_REPEAT
        let repeatsRows = parameter(GL_TEXTURE_WRAP_T) == GL_REPEAT
        let (format, glFormat, glType, bytesPerTexel): (Texture.Format, Int32, Int32, Int) = switch internalFormat {
        case GL_RGBA32F: (.rgba32Float, GL_RGBA, GL_FLOAT, 16)
        case GL_RG32F: (.rg32Float, GL_RG, GL_FLOAT, 8)
        case GL_RG32UI: (.rg32Uint, GL_RG_INTEGER, GL_UNSIGNED_INT, 8)
        case GL_RGBA16F: (.rgba16Float, GL_RGBA, GL_HALF_FLOAT, 8)
        case GL_R8: (.r8Unorm, GL_RED, GL_UNSIGNED_BYTE, 1)
        default: (.rgba8Unorm, GL_RGBA, GL_UNSIGNED_BYTE, 4)
        }
        var bytes = [UInt8](repeating: 0, count: size.x * size.y * size.z * bytesPerTexel)
        epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        bytes.withUnsafeMutableBytes { epoxy_glGetTexImage(t, 0, GLenum(glFormat), GLenum(glType), $0.baseAddress) }
        epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        return Texture(format: format, size: size, is3D: target == GL_TEXTURE_3D, linear: linear, repeats: repeats, repeatsRows: repeatsRows, bytes: bytes)
    }
}

extension GLRenderer {
    /// The full-screen draws of the sky, clouds and user-shader layers of `frame`, by layer position,
    /// as `welkin export-code --package` exports them: each layer drawn on its own into the float
    /// target (no last-layer fusion), the sky with its one general program per part sequence
    /// (`exportVariants`). With `skippingDraws`, nothing is rasterised.
    /// `package`: for `--package` (SkyPass.exportVariant's programs for a sky computed on the device).
    public func capture(_ frame: Frame, skippingDraws: Bool = true, package: Bool = false) throws -> [Int: [GLCapture.Draw]] {
        let capture = GLCapture(skipsDraws: skippingDraws)
        let (fuses, variants, packages) = (fusesLastLayer, exportVariants, packageVariants)
        GLCapture.active = capture
        fusesLastLayer = false
        exportVariants = true
        packageVariants = package
        defer { GLCapture.active = nil; fusesLastLayer = fuses; exportVariants = variants; packageVariants = packages }
        try draw(frame)
        return capture.layers
    }
}
