// UserShaderPass: `shader` layers, a user's own GLSL 3.30 fragment shader over the frame.
//
// A user shader is compiled with Welkin's full-screen vertex shader; its includes resolve beside
// the user's file first, then in Welkin's shader library. A Shadertoy file (`mainImage`, no `main`)
// is rewritten and wrapped first (ShadertoyWrapping), with the layer's Common file. It writes a
// straight-alpha sRGB colour into a float target, and layer.frag composites that (premultiplied,
// × opacity) like any layer. Built-in uniforms — Welkin's u_* and Shadertoy's i* — are set when the
// program declares them; channels are bound to texture units 0…3 (ChannelTextures, or a buffer).
// Programs are cached per file, Common file and channel types; a reload that fails keeps the last
// good program.
//
// Buffers (Shadertoy's Buffer A…D, ShaderBuffers below) run before the layer's own pass, each into
// a pair of RGBA32F targets kept from frame to frame (one written, the other holding the previous
// frame), so a buffer can read its own last frame.

@preconcurrency import CEpoxy
import Foundation
import WelkinCore

/// A user shader layer whose uniforms do not fit what the scene gives.
public struct ShaderLayerError: UserFacingError, Sendable {
    /// The scene file, when the caller knows it (a Frame does not): `inFile(_:)` sets it.
    public var file: String? = nil
    /// The scene's JSON path of the offending value, e.g. `layers[2].uniforms.u_tint`.
    public var path: String
    public var message: String
    /// `file: json.path: sentence`, as every scene error prints (`json.path: sentence` without a file).
    public var description: String { (file.map { "\($0): " } ?? "") + "\(path): \(message)" }

    /// The same error naming `file` (nil leaves it as it is).
    public func inFile(_ file: String?) -> ShaderLayerError {
        var e = self
        if let file { e.file = file }
        return e
    }
    public func inScene(_ file: String?) -> any UserFacingError { inFile(file) }
    public var filePath: String? { file }
    public var jsonPath: String? { path }
}

final class UserShaderPass {
    /// What a program declares about one active uniform.
    struct Uniform {
        var location: GLint
        var type: GLenum
        var size: GLint
    }

    /// One user shader: the last good program, and the files of the latest attempt.
    final class Entry {
        var program: ShaderProgram?
        var uniforms: [String: Uniform] = [:]
        /// The user's file and everything it included (the last attempt's, so new includes are watched).
        var files: [String]
        /// The latest attempt's error, nil when it compiled.
        var error: ShaderError?
        /// Whether the last good program is a wrapped Shadertoy `mainImage` file.
        var isShadertoy = false

        init(path: String) { files = [path] }
    }

    /// What one compiled program is: a file, the Common file put before it, its channels' sampler
    /// types, and whether it must be a Shadertoy shader (a buffer, or a pass with a Common file).
    struct ProgramKey: Hashable {
        var path: String
        var common: String?
        var samplers: [String]
        var isBuffer: Bool
        /// A Cube A pass (mainCubemap, drawn face by face).
        var isCube = false

        init(path: String, common: String?, channels: [ShaderChannel], isBuffer: Bool, isCube: Bool = false) {
            self.path = path; self.common = common; self.isBuffer = isBuffer; self.isCube = isCube
            samplers = channels.map(\.samplerType)
        }
        /// A plain user shader or a single-pass Shadertoy shader (what `loadUserShader(at:)` builds).
        init(path: String) { self.init(path: path, common: nil, channels: [], isBuffer: false) }
    }

    private(set) var entries: [ProgramKey: Entry] = [:]
    /// Buffers of multipass layers, by layer (ShaderBuffers.key), and the frame each last ran in:
    /// a layer's buffers not drawn for `buffersKeptFrames` frames (an edited or removed layer) are freed.
    var buffers: [String: ShaderBuffers] = [:]
    var buffersLastUse: [String: Int] = [:]
    private(set) var framesBegun = 0
    static let buffersKeptFrames = 120
    private let composite: ResolveVariants<CompositeProgram>
    /// Warnings already printed (layer index and uniform), so each shows once.
    private var warned: Set<String> = []
    var warn: (String) -> Void
    /// User shaders the last frame drew (or loaded by hand since): what a reload recompiles.
    var inUse: Set<ProgramKey> = []

    /// layer.frag as a layer (blended) or as the frame's last pass (resolving).
    final class CompositeProgram {
        let program: ShaderProgram
        let u_pixelSize, u_layer, u_opacity: GLint
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, resolve: ResolveVariant?) throws {
            program = try .fullScreen(shaders, fragment: "layer.frag", resolve: resolve)
            u_pixelSize = program.uniform("u_pixelSize")
            u_layer = program.uniform("u_layer")
            u_opacity = program.uniform("u_opacity")
            composite = CompositeUniforms(program)
        }
    }

    init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws {
        self.warn = warn
        composite = try ResolveVariants { try CompositeProgram(shaders, resolve: $0) }
    }

    /// Files of the composite programs (Welkin's own).
    var files: [String] { composite.all.first?.program.files ?? [] }

    /// Takes over the user shaders of `old` that are in `keeping` (a reload builds a new pass;
    /// the programs of shaders still in use carry over, the others are dropped).
    func adopt(_ old: UserShaderPass, keeping: Set<ProgramKey>) {
        for (key, entry) in old.entries {
            if keeping.contains(key) { entries[key] = entry } else { entry.program?.delete() }
        }
        warned = old.warned
        buffers = old.buffers
        buffersLastUse = old.buffersLastUse
        framesBegun = old.framesBegun
        old.buffers = [:]
    }

    /// Compiles the program of `key` (again). On failure the last good program stays and the error
    /// is thrown (and kept in the entry).
    func load(_ key: ProgramKey, shaders: ShaderLibrary) throws {
        let entry = entries[key] ?? Entry(path: key.path)
        entries[key] = entry
        do {
            let (fragment, isShadertoy) = try Self.fragmentSource(key, shaders: shaders)
            entry.files = fragment.files
            let program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: fragment)
            entry.program?.delete()
            entry.program = program
            entry.uniforms = Self.activeUniforms(program)
            entry.isShadertoy = isShadertoy
            entry.error = nil
        } catch let error as ShaderError {
            entry.error = error
            throw error
        }
    }

    /// The fragment program of `key` as it is compiled (a Shadertoy file wrapped with the layer's
    /// Common file and its channels' sampler types), and whether it is a Shadertoy `mainImage` file.
    static func fragmentSource(_ key: ProgramKey, shaders: ShaderLibrary) throws -> (source: ShaderSource, isShadertoy: Bool) {
        let text = try ShaderSource.read(key.path)
        let common = try key.common.map { (path: $0, text: try ShaderSource.read($0)) }
        let prepared = try ShadertoyWrapping.prepare(text, path: key.path, library: shaders, common: common, samplers: key.samplers,
                                                     needsMainImage: key.isBuffer || key.common != nil, cube: key.isCube)
        let fragment = try ShaderSource(text: prepared.text, path: key.path, defines: prepared.defines, includeDirectories: [shaders.directory],
                                        wrapping: prepared.wrapping, constants: .beforeLibrary(shaders.directory))
        return (fragment, prepared.isShadertoy)
    }

    /// The entry for `key`, compiled on first use; throws when there is no good program.
    func entry(_ key: ProgramKey, shaders: ShaderLibrary) throws -> Entry {
        if let entry = entries[key] {
            if entry.program != nil { return entry }
            if let error = entry.error { throw error }
        }
        try load(key, shaders: shaders)
        return entries[key]!
    }

    static func activeUniforms(_ program: ShaderProgram) -> [String: Uniform] {
        var count: GLint = 0, maxLength: GLint = 0
        epoxy_glGetProgramiv(program.id, GLenum(GL_ACTIVE_UNIFORMS), &count)
        epoxy_glGetProgramiv(program.id, GLenum(GL_ACTIVE_UNIFORM_MAX_LENGTH), &maxLength)
        var out: [String: Uniform] = [:]
        var name = [GLchar](repeating: 0, count: Int(max(maxLength, 1)) + 1)
        for i in 0..<max(count, 0) {
            var length: GLsizei = 0, size: GLint = 0, type: GLenum = 0
            epoxy_glGetActiveUniform(program.id, GLuint(i), GLsizei(name.count), &length, &size, &type, &name)
            var key = String(cString: name)
            if key.hasSuffix("[0]") { key.removeLast(3) }
            out[key] = Uniform(location: program.uniform(key), type: type, size: size)
        }
        return out
    }

    static func typeName(_ type: GLenum) -> String {
        switch Int32(type) {
        case GL_FLOAT: return "float"
        case GL_FLOAT_VEC2: return "vec2"
        case GL_FLOAT_VEC3: return "vec3"
        case GL_FLOAT_VEC4: return "vec4"
        case GL_INT: return "int"
        case GL_INT_VEC2: return "ivec2"
        case GL_BOOL: return "bool"
        case GL_UNSIGNED_INT: return "uint"
        case GL_SAMPLER_2D: return "sampler2D"
        case GL_SAMPLER_3D: return "sampler3D"
        case GL_SAMPLER_CUBE: return "samplerCube"
        case GL_FLOAT_MAT2: return "mat2"
        case GL_FLOAT_MAT3: return "mat3"
        case GL_FLOAT_MAT4: return "mat4"
        default: return "a type (0x\(String(type, radix: 16)))"
        }
    }

    /// One pass of a shader layer as it is drawn: the layer's own, or one of its buffers.
    struct PassInputs {
        var draw: ShaderDraw
        /// The pass's file, and the JSON path of its channels (for messages).
        var path: String
        var channelsPath: String
        var channels: [ShaderChannel]
        var isBuffer: Bool
        var isCube = false
        var time: Double
        var frameNumber: Int
        /// The size of the layer's buffers (the frame's pixel size).
        var bufferSize: SIMD2<Int>
        /// The size the pass draws at (iResolution): the frame's, or the cube's faces'.
        var resolution: SIMD2<Int>

        var file: String { (path as NSString).lastPathComponent }
        var key: ProgramKey { ProgramKey(path: path, common: draw.layer.commonPath, channels: channels, isBuffer: isBuffer, isCube: isCube) }
        var cubeSize: Int { draw.layer.cube?.size ?? ShaderCube.defaultSize }

        /// The layer's own pass at the frame's time.
        init(_ s: ShaderDraw, frame: Frame) {
            draw = s; path = s.layer.fragmentPath; channelsPath = "layers[\(s.index)].channels"; channels = s.layer.channels
            isBuffer = false; time = frame.time; frameNumber = frame.frameNumber; bufferSize = frame.pixelSize
            resolution = frame.pixelSize
        }

        /// The Cube A pass of `s` at frame `number`, time `time`.
        init(_ s: ShaderDraw, cube c: ShaderCube, time: Double, frameNumber: Int, bufferSize: SIMD2<Int>) {
            draw = s; path = c.fragmentPath; channelsPath = "layers[\(s.index)].cube.channels"; channels = c.channels
            isBuffer = true; isCube = true; self.time = time; self.frameNumber = frameNumber; self.bufferSize = bufferSize
            resolution = SIMD2(c.size, c.size)
        }

        /// Buffer `b` of `s` at frame `number`, time `time`.
        init(_ s: ShaderDraw, buffer b: ShaderBuffer, time: Double, frameNumber: Int, bufferSize: SIMD2<Int>) {
            draw = s; path = b.fragmentPath; channelsPath = "layers[\(s.index)].buffers.\(b.name).channels"; channels = b.channels
            isBuffer = true; self.time = time; self.frameNumber = frameNumber; self.bufferSize = bufferSize
            resolution = bufferSize
        }
    }

    /// Sets the built-in and user uniforms the pass's program declares, and binds its channels
    /// (`buffers`: the layer's buffers, for buffer channels). The program must be in use.
    func setUniforms(_ entry: Entry, _ p: PassInputs, frame: Frame, channels: ChannelTextures, buffers: ShaderBuffers?) throws {
        let s = p.draw
        let file = p.file
        /// The location of built-in `name` when the program uses it; a `ShaderLayerError` when it
        /// declares another type. `count` > 1: an array of at most that many (a compiler may trim
        /// an array to the elements the shader reads).
        func declared(_ name: String, as expected: GLenum, _ welkinType: String, count: Int = 1) throws -> GLint? {
            guard let u = entry.uniforms[name], u.location >= 0 else { return nil }
            guard u.type == expected, count == 1 ? u.size == 1 : (1...count).contains(Int(u.size)) else {
                throw ShaderLayerError(path: "layers[\(s.index)]",
                                       message: "\(file) declares \(name) as \(Self.typeName(u.type))\(u.size > 1 ? "[\(u.size)]" : ""), but Welkin sets it as \(welkinType)")
            }
            return u.location
        }
        let size = frame.pixelSize
        if let l = try declared("u_time", as: GLenum(GL_FLOAT), "float") { epoxy_glUniform1f(l, Float(p.time)) }
        if let l = try declared("u_resolution", as: GLenum(GL_FLOAT_VEC2), "vec2") { epoxy_glUniform2f(l, Float(size.x), Float(size.y)) }
        if let l = try declared("u_frame", as: GLenum(GL_INT), "int") {
            epoxy_glUniform1i(l, GLint(clamping: p.frameNumber))
        }
        if let l = try declared("u_mouse", as: GLenum(GL_FLOAT_VEC2), "vec2") { epoxy_glUniform2f(l, frame.mouse.x, frame.mouse.y) }
        if let l = try declared("u_pixelScale", as: GLenum(GL_FLOAT_VEC2), "vec2") {
            epoxy_glUniform2f(l, Float(frame.scale.x), Float(frame.scale.y))
        }
        try setSkyUniforms(frame, size: size, declared: { try declared($0, as: $1, $2) })
        try setShadertoyUniforms(entry, p, frame: frame, channels: channels, buffers: buffers, declared: declared)
        for (name, value) in s.layer.uniforms {
            let path = "layers[\(s.index)].uniforms.\(name)"
            guard let u = entry.uniforms[name], u.location >= 0 else {
                // A layer's uniforms are for all its passes: a buffer need not use them all.
                if !p.isBuffer && !s.layer.isMultipass && warned.insert("\(s.layer.fragmentPath) \(name)").inserted {
                    warn("\(path): \(file) does not use this uniform (not declared, or unused and removed by the compiler); ignored")
                }
                continue
            }
            let c = value.components
            let expected: [Int32] = [GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4]
            let given: String
            switch value {
            case .floats(let f): given = f.count == 1 ? "1 number" : "\(f.count) numbers"
            case .color: given = "a colour (a vec4)"
            }
            guard u.size == 1, let index = expected.firstIndex(of: Int32(u.type)) else {
                throw ShaderLayerError(path: path, message: "\(file) declares \(Self.typeName(u.type))\(u.size > 1 ? "[\(u.size)]" : "") but the scene gives \(given); only float, vec2, vec3 and vec4 uniforms can be set from a scene")
            }
            guard index + 1 == c.count else {
                throw ShaderLayerError(path: path, message: "\(file) declares \(Self.typeName(u.type)) but the scene gives \(given)")
            }
            switch c.count {
            case 1: epoxy_glUniform1f(u.location, c[0])
            case 2: epoxy_glUniform2f(u.location, c[0], c[1])
            case 3: epoxy_glUniform3f(u.location, c[0], c[1], c[2])
            default: epoxy_glUniform4f(u.location, c[0], c[1], c[2], c[3])
            }
        }
    }

    /// Runs the pass's shader into the bound target (blending off).
    /// Expects the full-screen vertex array bound.
    func drawShader(_ p: PassInputs, frame: Frame, shaders: ShaderLibrary, channels: ChannelTextures) throws {
        let entry = try entry(p.key, shaders: shaders)
        guard let program = entry.program else { return }
        epoxy_glUseProgram(program.id)
        // Channel textures and samplers are bound on units 0…3 by setUniforms: unbind them however
        // it ends, since Welkin's own passes read their targets without sampler objects.
        defer { Self.unbindChannels() }
        try setUniforms(entry, p, frame: frame, channels: channels, buffers: buffers[ShaderBuffers.key(p.draw)])
        GLCapture.drawFullScreenTriangle()
    }

    /// Runs a Cube A pass into the six faces of `target` (each bound in turn). Expects the
    /// full-screen vertex array bound and blending off.
    func drawCube(_ p: PassInputs, into target: CubeTarget, frame: Frame, shaders: ShaderLibrary, channels: ChannelTextures) throws {
        let entry = try entry(p.key, shaders: shaders)
        guard let program = entry.program else { return }
        epoxy_glUseProgram(program.id)
        defer { Self.unbindChannels() }
        try setUniforms(entry, p, frame: frame, channels: channels, buffers: buffers[ShaderBuffers.key(p.draw)])
        let basis = program.uniform("welkin_cubeBasis")
        for face in 0..<6 {
            target.bind(face: face)
            var m = ShaderBuffers.cubeBases[face]
            epoxy_glUniformMatrix3fv(basis, 1, GLboolean(GL_FALSE), &m)
            GLCapture.drawFullScreenTriangle()
        }
    }

    /// Composites the user shader's output (`layer`, a float texture) as a layer (`resolve` nil:
    /// the float target bound, blending set) or as the last pass (the RGBA8 target bound).
    func drawComposite(layer: GLuint, opacity: Float, pixelSize: SIMD2<Int>, resolve: ResolveInput?) throws {
        let p = try composite[resolve.map { ResolveVariant($0) }]
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        epoxy_glUniform1f(p.u_opacity, opacity)
        if let resolve { p.composite.set(resolve) }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE1))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), layer)
        epoxy_glUniform1i(p.u_layer, 1)
        GLCapture.drawFullScreenTriangle()
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    }
}

extension UserShaderPass {
    /// The sky's built-in uniforms (SkyState.builtInUniforms), when the frame has a sky; a shader
    /// that declares them in a scene without one reads zeros.
    func setSkyUniforms(_ frame: Frame, size: SIMD2<Int>,
                        declared: (String, GLenum, String) throws -> GLint?) throws {
        guard let sky = frame.sky else { return }
        let d = SIMD3<Float>(sky.sunDirection)
        if let l = try declared("u_sunDirection", GLenum(GL_FLOAT_VEC3), "vec3") { epoxy_glUniform3f(l, d.x, d.y, d.z) }
        if let l = try declared("u_sunElevation", GLenum(GL_FLOAT), "float") { epoxy_glUniform1f(l, Float(sky.sunElevation)) }
        if let l = try declared("u_sunPosition", GLenum(GL_FLOAT_VEC2), "vec2") {
            // Where the sun is through the scene's camera (off screen: beyond the frame, behind a pinhole camera far away).
            let p = frame.skySetup.projection == nil ? sky.sunPixel(pixelSize: size)
                : frame.skySetup.pixel(of: sky.sunDirection, state: sky).map { $0 * SIMD2(Double(size.x), Double(size.y)) / SIMD2(Double(frame.pixelSize.x), Double(frame.pixelSize.y)) }
                    ?? SIMD2(-1e6, -1e6)
            epoxy_glUniform2f(l, Float(p.x), Float(Double(size.y) - p.y))
        }
        for (name, color) in [("u_skyZenith", sky.colors.zenith), ("u_skyHorizon", sky.colors.horizon)] {
            if let l = try declared(name, GLenum(GL_FLOAT_VEC3), "vec3") {
                let c = color.rgba
                epoxy_glUniform3f(l, Float(c.r), Float(c.g), Float(c.b))
            }
        }
        if let l = try declared("u_sunGlow", GLenum(GL_FLOAT_VEC4), "vec4") {
            let c = sky.colors.sunGlow.rgba
            epoxy_glUniform4f(l, Float(c.r), Float(c.g), Float(c.b), Float(c.a))
        }
    }
}

extension UserShaderPass {
    /// Shadertoy's uniforms (WelkinCore's `Shadertoy.uniforms`), each set when the program declares
    /// it, and the channels bound: iChannelN on texture unit N with its sampler object.
    func setShadertoyUniforms(_ entry: Entry, _ p: PassInputs, frame: Frame, channels: ChannelTextures, buffers: ShaderBuffers?,
                              declared: (String, GLenum, String, Int) throws -> GLint?) throws {
        let s = p.draw
        let size = p.resolution
        let float = GLenum(GL_FLOAT), vec3 = GLenum(GL_FLOAT_VEC3), vec4 = GLenum(GL_FLOAT_VEC4)
        if let l = try declared("iResolution", vec3, "vec3", 1) { epoxy_glUniform3f(l, Float(size.x), Float(size.y), 1) }
        if let l = try declared("iTime", float, "float", 1) { epoxy_glUniform1f(l, Float(p.time)) }
        if let l = try declared("iTimeDelta", float, "float", 1) { epoxy_glUniform1f(l, Float(1 / Shadertoy.frameRate)) }
        if let l = try declared("iFrameRate", float, "float", 1) { epoxy_glUniform1f(l, Float(Shadertoy.frameRate)) }
        if let l = try declared("iFrame", GLenum(GL_INT), "int", 1) { epoxy_glUniform1i(l, GLint(clamping: p.frameNumber)) }
        if let l = try declared("iMouse", vec4, "vec4", 1) {
            let m = frame.shadertoyMouse
            epoxy_glUniform4f(l, m.x, m.y, m.z, m.w)
        }
        if let l = try declared("iDate", vec4, "vec4", 1) {
            let d = SIMD4<Float>(Shadertoy.date(sky: frame.sky, time: p.time))
            epoxy_glUniform4f(l, d.x, d.y, d.z, d.w)
        }
        if let l = try declared("iSampleRate", float, "float", 1) { epoxy_glUniform1f(l, Float(Shadertoy.sampleRate)) }
        if let l = try declared(ShadertoyWrapping.alphaUniform, GLenum(GL_INT), "int", 1) {
            // A buffer keeps all four channels, as Shadertoy's do.
            epoxy_glUniform1i(l, p.isBuffer || s.layer.alpha == .shader ? 1 : 0)
        }
        let count = Shadertoy.channelCount
        if let l = try declared("iChannelTime", float, "float[\(count)]", count) {
            // Images do not play; a buffer's time is the pass's.
            let times = (0..<count).map { i in i < p.channels.count && p.channels[i].bufferName != nil ? Float(p.time) : 0 }
            epoxy_glUniform1fv(l, GLsizei(entry.uniforms["iChannelTime"]!.size), times)
        }
        var resolutions = [Float](repeating: 0, count: 3 * count)
        // Every texture is made (read, uploaded) before any is bound: making one binds it on the
        // active unit, which would unbind the channel bound there before.
        var textures: [(id: GLuint, target: GLenum)?] = []
        for (i, channel) in p.channels.prefix(count).enumerated() {
            let r = channel.resolution(bufferSize: p.bufferSize, cubeSize: p.cubeSize)
            resolutions[3 * i] = Float(r.x); resolutions[3 * i + 1] = Float(r.y); resolutions[3 * i + 2] = Float(r.z)
            if let name = channel.bufferName {
                let target = GLenum(name == ShaderCube.name ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D)
                textures.append(buffers?.texture(name).map { ($0, target) })
            } else if entry.uniforms["iChannel\(i)"] != nil, let texture = try channels.texture(for: channel, keyboard: frame.keyboard) {
                textures.append((texture.id, texture.target))
                if case .image = channel.source {
                    // The image as uploaded: a hot-reloaded file may have a new size.
                    resolutions[3 * i] = Float(texture.size.x)
                    resolutions[3 * i + 1] = Float(texture.size.y)
                }
            } else {
                textures.append(nil)
            }
        }
        for (i, channel) in p.channels.prefix(count).enumerated() {
            guard let l = try declared("iChannel\(i)", Self.samplerEnum(channel.samplerType), channel.samplerType, 1) else {
                if channel.source != .empty && warned.insert("\(p.path) iChannel\(i)").inserted {
                    warn("\(p.channelsPath)[\(i)]: \(p.file) does not use iChannel\(i) (not declared, or unused and removed by the compiler); ignored")
                }
                continue
            }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            epoxy_glUniform1i(l, GLint(i))
            guard let (id, target) = textures[i] else {
                // An empty channel: no texture on its unit, black.
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
                continue
            }
            epoxy_glBindTexture(target, id)
            epoxy_glBindSampler(GLuint(i), channels.sampler(channel.filter, channel.wrap))
        }
        // A channel the pass does not give reads unit N with no texture: black, as on Shadertoy
        // (unbound here, since an earlier pass may have left its target on unit 0).
        for i in p.channels.count..<max(count, p.channels.count) {
            guard let l = try declared("iChannel\(i)", GLenum(GL_SAMPLER_2D), "sampler2D", 1) else { continue }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            epoxy_glUniform1i(l, GLint(i))
        }
        if let l = try declared("iChannelResolution", vec3, "vec3[\(count)]", count) {
            epoxy_glUniform3fv(l, GLsizei(entry.uniforms["iChannelResolution"]!.size), resolutions)
        }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    }

    static func samplerEnum(_ type: String) -> GLenum {
        switch type {
        case "sampler3D": GLenum(GL_SAMPLER_3D)
        case "samplerCube": GLenum(GL_SAMPLER_CUBE)
        default: GLenum(GL_SAMPLER_2D)
        }
    }

    /// Leaves texture units 0…3 with no texture and no sampler object.
    static func unbindChannels() {
        for i in 0..<Shadertoy.channelCount {
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            epoxy_glBindTexture(GLenum(GL_TEXTURE_3D), 0)
            epoxy_glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
            epoxy_glBindSampler(GLuint(i), 0)
        }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    }
}

extension UserShaderPass: GLLayerPass {
    /// Takes over the user shaders `previous` had in use (a reload builds a new pass; the programs
    /// of shaders still in use carry over, the others are dropped).
    func adopt(_ previous: UserShaderPass) {
        adopt(previous, keeping: previous.inUse)
        inUse = previous.inUse
    }

    /// The user shaders of `frame` are the ones in use from now on.
    func willDraw(_ frame: Frame) {
        framesBegun += 1
        for (key, last) in buffersLastUse where framesBegun - last > Self.buffersKeptFrames {
            buffers[key] = nil
            buffersLastUse[key] = nil
        }
        var keys: Set<ProgramKey> = []
        for case let s as ShaderDraw in frame.layers {
            keys.insert(PassInputs(s, frame: frame).key)
            for b in s.layer.buffers { keys.insert(PassInputs(s, buffer: b, time: 0, frameNumber: 0, bufferSize: .zero).key) }
            if let c = s.layer.cube { keys.insert(PassInputs(s, cube: c, time: 0, frameNumber: 0, bufferSize: .zero).key) }
        }
        inUse = keys
    }

    /// Recompiles the user shaders whose files changed, and those that never compiled. Buffers
    /// start again from frame 0 when any shader was recompiled (Shadertoy's reset on a new compile).
    func reload(shaders: ShaderLibrary, affected: ([String]) -> Bool) throws -> [ShaderError] {
        var failures: [ShaderError] = []
        var reloaded = false
        for (key, entry) in entries.sorted(by: { $0.key.path < $1.key.path }) where affected(entry.files) || entry.program == nil {
            reloaded = true
            do { try load(key, shaders: shaders) } catch let e as ShaderError { failures.append(e) }
        }
        if reloaded { for b in buffers.values { b.reset() } }
        return failures
    }
}

/// The buffers of one multipass shader layer: a pair of RGBA32F targets per buffer (the newest
/// picture and the one before it), and how far they have run.
///
/// Headless (`live` false) a frame at time t shows buffer frame N = floor(t × 60): buffer frames
/// k = 0…N run in order at iTime = k / 60 and iFrame = k, from frame 0 (cleared targets) or from the
/// last frame run when N is beyond it, so a render at any time is the same picture every run, and an
/// export runs each buffer frame once. In the viewer (`live`) each new frame runs one buffer frame at
/// the frame's own time, counting iFrame from 0 since the last reset (a reload, a new size).
final class ShaderBuffers {
    /// The layer a state belongs to: its index and its files (a different layer starts afresh).
    static func key(_ s: ShaderDraw) -> String {
        ([String(s.index), s.layer.fragmentPath, s.layer.commonPath ?? "", s.layer.cube?.fragmentPath ?? ""] + s.layer.buffers.map { "\($0.name)=\($0.fragmentPath)" })
            .joined(separator: "\u{1}")
    }

    /// The most buffer frames one render replays (10 minutes at 60 a second).
    static let maximumReplay = 36_000

    private var pairs: [String: (current: RenderTarget, previous: RenderTarget)] = [:]
    /// Cube A's two cube maps (the newest and the one before), when the layer has one.
    private var cubes: (current: CubeTarget, previous: CubeTarget)?
    let size: SIMD2<Int>
    let cubeSize: Int?
    /// The last buffer frame run (nil: none since the targets were cleared), and the viewer's count.
    private(set) var lastFrame: Int?
    private var liveCount = 0
    /// The frame number the viewer last ran a buffer frame for.
    private var liveFrame: Int?

    init(names: [String], size: SIMD2<Int>, cubeSize: Int?) throws {
        self.size = size
        self.cubeSize = cubeSize
        for name in names {
            let a = try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT)
            let b = try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT)
            pairs[name] = (a, b)
        }
        if let cubeSize { cubes = (try CubeTarget(size: cubeSize), try CubeTarget(size: cubeSize)) }
        reset()
    }

    deinit {
        for p in pairs.values { p.current.delete(); p.previous.delete() }
        cubes?.current.delete(); cubes?.previous.delete()
    }

    /// The newest picture of buffer `name` ("cube": the cube map).
    func texture(_ name: String) -> GLuint? {
        name == ShaderCube.name ? cubes?.current.texture : pairs[name]?.current.texture
    }

    /// Each cube face's basis for shadertoy-cube-main.glsl, column by column (s axis, t axis, the
    /// outward normal), in GL's face order: CubeFace.glBasis (the cube-map export's), whose
    /// direction forward + right·sc + up·(−tc) is the one GL's lookup maps to face texel (sc, tc).
    static let cubeBases: [[Float]] = CubeFace.allCases.map { face in
        let b = face.glBasis
        return [b.right, -b.up, b.forward].flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
    }

    /// Clears every target: the next frame runs from buffer frame 0.
    func reset() {
        for p in pairs.values {
            for t in [p.current, p.previous] {
                t.bind()
                epoxy_glClearColor(0, 0, 0, 0)
                PassTiming.time(clear: true) { epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
            }
        }
        if let cubes {
            for c in [cubes.current, cubes.previous] {
                for face in 0..<6 {
                    c.bind(face: face)
                    epoxy_glClearColor(0, 0, 0, 0)
                    PassTiming.time(clear: true) { epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
                }
            }
        }
        lastFrame = nil
        liveCount = 0
        liveFrame = nil
    }

    /// The buffer frames to run for `frame`: (frame number, time) in order.
    func steps(for frame: Frame, live: Bool) throws -> [(number: Int, time: Double)] {
        if live {
            guard liveFrame != frame.frameNumber else { return [] }
            liveFrame = frame.frameNumber
            defer { liveCount += 1 }
            return [(liveCount, frame.time)]
        }
        let n = max(frame.frameNumber, 0)
        guard n <= Self.maximumReplay else {
            throw GLError("a shader layer with buffers replays every frame from 0 at 60 a second; t = \(frame.time) s needs \(n + 1) frames, at most \(Self.maximumReplay + 1) (10 minutes)")
        }
        if let last = lastFrame, last == n { return [] }
        if let last = lastFrame, last > n { reset() }
        let first = lastFrame.map { $0 + 1 } ?? 0
        return (first...n).map { ($0, Double($0) / Shadertoy.frameRate) }
    }

    /// Runs buffer frame `step` of `s`: each buffer in order into its spare target, which then
    /// becomes its newest picture (mipmaps made when a pass samples it with mipmaps).
    func run(_ s: ShaderDraw, step: (number: Int, time: Double), pass: UserShaderPass, in context: GLLayerContext) throws {
        let readers = ([s.layer.channels, s.layer.cube?.channels ?? []] + s.layer.buffers.map(\.channels)).flatMap { $0 }
        for b in s.layer.buffers {
            guard let pair = pairs[b.name] else { continue }
            pair.previous.bind()
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glBindVertexArray(context.renderer.fullScreenVertexArray)
            let inputs = UserShaderPass.PassInputs(s, buffer: b, time: step.time, frameNumber: step.number, bufferSize: size)
            try pass.drawShader(inputs, frame: context.frame, shaders: context.shaders, channels: context.channels)
            pairs[b.name] = (pair.previous, pair.current)
            if readers.contains(where: { $0.bufferName == b.name && $0.filter == .mipmap }) {
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), pair.previous.texture)
                epoxy_glGenerateMipmap(GLenum(GL_TEXTURE_2D))
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            }
        }
        if let cube = s.layer.cube, let pair = cubes {
            epoxy_glDisable(GLenum(GL_BLEND))
            epoxy_glBindVertexArray(context.renderer.fullScreenVertexArray)
            let inputs = UserShaderPass.PassInputs(s, cube: cube, time: step.time, frameNumber: step.number, bufferSize: size)
            try pass.drawCube(inputs, into: pair.previous, frame: context.frame, shaders: context.shaders, channels: context.channels)
            cubes = (pair.previous, pair.current)
            if readers.contains(where: { $0.bufferName == ShaderCube.name && $0.filter == .mipmap }) {
                epoxy_glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), pair.previous.texture)
                epoxy_glGenerateMipmap(GLenum(GL_TEXTURE_CUBE_MAP))
                epoxy_glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
            }
        }
        lastFrame = step.number
    }
}

/// A float cube map with a framebuffer that draws into one face at a time.
final class CubeTarget {
    private(set) var texture: GLuint = 0
    private var framebuffer: GLuint = 0
    let size: Int

    init(size: Int) throws {
        self.size = size
        epoxy_glGenTextures(1, &texture)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), texture)
        for face in 0..<6 {
            epoxy_glTexImage2D(GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + Int32(face)), 0, GL_RGBA32F, GLsizei(size), GLsizei(size), 0,
                               GLenum(GL_RGBA), GLenum(GL_FLOAT), nil)
        }
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_CUBE_MAP), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_CUBE_MAP), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
        epoxy_glGenFramebuffers(1, &framebuffer)
        bind(face: 0)
        let status = epoxy_glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        do {
            try GL.check("creating a cube map of six \(size)² faces")
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                throw GLError("a cube map of six \(size)² faces is incomplete (status 0x\(String(status, radix: 16)))")
            }
        } catch {
            delete()
            throw error
        }
    }

    /// Binds the framebuffer on face `face` (0…5: +X, −X, +Y, −Y, +Z, −Z) and sets the viewport.
    func bind(face: Int) {
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        epoxy_glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0),
                                     GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + Int32(face)), texture, 0)
        epoxy_glViewport(0, 0, GLsizei(size), GLsizei(size))
    }

    func delete() {
        guard GL.hasCurrentContext else { framebuffer = 0; texture = 0; return }
        if framebuffer != 0 { epoxy_glDeleteFramebuffers(1, &framebuffer); framebuffer = 0 }
        if texture != 0 { epoxy_glDeleteTextures(1, &texture); texture = 0 }
    }

    deinit { delete() }
}

extension ShaderDraw: GLDrawable {
    typealias Pass = UserShaderPass

    var canResolveFrame: Bool { true }
    var usesLayerTarget: Bool { true }
    var planProgram: String { "layer.frag" }

    /// The user's shader into the layer target (cleared), then composited from there.
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        // Buffers: each reads this frame's picture of a buffer that ran before it, else the last frame's.
        var ran: Set<String> = []
        func reads(_ channels: [ShaderChannel]) -> [String] {
            channels.compactMap(\.bufferName).map { ran.contains($0) ? "shader.\(index).buffer.\($0)" : "shader.\(index).buffer.\($0).previous" }
        }
        for buffer in layer.buffers {
            let written = b.target("shader.\(index).buffer.\(buffer.name)", .rgba32f, .persistent,
                                   why: "Shadertoy's buffers are float (a feedback pass keeps its precision frame to frame)")
            for name in buffer.channels.compactMap(\.bufferName) where !ran.contains(name) {
                let side = layer.cube?.size ?? 0
                _ = name == ShaderCube.name
                    ? b.target("shader.\(index).buffer.cube.previous", .rgba32f, .persistent, size: SIMD2(side, side * 6), why: "the cube map's previous frame (ping-pong)")
                    : b.target("shader.\(index).buffer.\(name).previous", .rgba32f, .persistent, why: "the buffer's previous frame (ping-pong)")
            }
            let file = (buffer.fragmentPath as NSString).lastPathComponent
            b.pass("buffer \(buffer.name)", program: file, layer: b.layer, reads: reads(buffer.channels), writes: written, blend: .replace)
            ran.insert(buffer.name)
        }
        if let cube = layer.cube {
            let written = b.target("shader.\(index).buffer.cube", .rgba32f, .persistent, size: SIMD2(cube.size, cube.size * 6),
                                   why: "Shadertoy's Cube A: six float faces")
            if cube.channels.contains(where: { $0.bufferName == ShaderCube.name }) {
                _ = b.target("shader.\(index).buffer.cube.previous", .rgba32f, .persistent, size: SIMD2(cube.size, cube.size * 6),
                             why: "the cube map's previous frame (ping-pong)")
            }
            let file = (cube.fragmentPath as NSString).lastPathComponent
            b.pass("cube A (six faces)", program: file, layer: b.layer, reads: reads(cube.channels), writes: written, blend: .replace)
            ran.insert(ShaderCube.name)
        }
        let layerTarget = b.target("layer", b.compositingFormat, .persistent, why: "a user shader's output: " + b.compositingWhy)
        b.pass("clear", program: "—", layer: b.layer, reads: [], writes: layerTarget, blend: .replace)
        let file = (layer.fragmentPath as NSString).lastPathComponent
        b.pass("user shader", program: file, layer: b.layer, reads: reads(layer.channels), writes: layerTarget, blend: .replace)
        b.layerPass("user shader composite", program: planProgram, into: target, resolving: resolving, reads: [layerTarget])
    }

    func draw(_ pass: UserShaderPass, in context: GLLayerContext, into target: RenderTarget) throws {
        try run(pass, in: context)
        try context.waitWhileRendering()   // the composite reads the layer target
        context.compositing(into: target)
        try pass.drawComposite(layer: context.layerTarget!.texture, opacity: opacity, pixelSize: context.pixelSize, resolve: nil)
    }

    func prepareResolving(_ pass: UserShaderPass, in context: GLLayerContext) throws -> Bool {
        try run(pass, in: context)
        try context.waitWhileRendering()
        return true
    }

    func drawResolving(_ pass: UserShaderPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.drawComposite(layer: context.layerTarget!.texture, opacity: opacity, pixelSize: context.pixelSize, resolve: resolve)
    }

    /// Runs the layer's buffers up to this frame (ShaderBuffers), then the user shader into the
    /// layer target (cleared to transparent, so discarded fragments add nothing) and leaves blending off.
    private func run(_ pass: UserShaderPass, in context: GLLayerContext) throws {
        guard let layerTarget = context.layerTarget else { return }
        if layer.isMultipass && GLCapture.active != nil {
            throw ShaderLayerError(path: "layers[\(index)].buffers",
                                   message: "a shader layer with buffers cannot be exported to Metal (--package): its buffers feed back from frame to frame; export the scene without this layer")
        }
        var inputs = UserShaderPass.PassInputs(self, frame: context.frame)
        if layer.isMultipass {
            let key = ShaderBuffers.key(self)
            let size = context.pixelSize
            if pass.buffers[key]?.size != size || pass.buffers[key]?.cubeSize != layer.cube?.size {
                pass.buffers[key] = nil
                pass.buffers[key] = try ShaderBuffers(names: layer.buffers.map(\.name), size: size, cubeSize: layer.cube?.size)
            }
            let buffers = pass.buffers[key]!
            pass.buffersLastUse[key] = pass.framesBegun
            for step in try buffers.steps(for: context.frame, live: context.renderer.runsBuffersLive) {
                try buffers.run(self, step: step, pass: pass, in: context)
            }
            try context.waitWhileRendering()
            // The image pass counts frames as its buffers do (in the viewer: since they started).
            inputs.frameNumber = buffers.lastFrame ?? inputs.frameNumber
        }
        epoxy_glDisable(GLenum(GL_BLEND))
        layerTarget.bind()
        epoxy_glBindVertexArray(context.renderer.fullScreenVertexArray)
        epoxy_glClearColor(0, 0, 0, 0)
        PassTiming.time(clear: true) { epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
        try pass.drawShader(inputs, frame: context.frame, shaders: context.shaders, channels: context.channels)
    }
}

extension GLRenderer {
    /// Welkin's shader files and every user shader file `frame` draws, with their includes.
    public func shaderFiles(for frame: Frame) -> [String] {
        var paths: [String] = []
        for case let s as ShaderDraw in frame.layers { for p in s.layer.shaderPaths where !paths.contains(p) { paths.append(p) } }
        return shaderFiles(forUserShaders: paths)
    }

    /// Welkin's shader files and every user shader file `scene` uses, with their includes.
    public func shaderFiles(for scene: Scene) -> [String] {
        var paths: [String] = []
        for layer in scene.layers {
            if let s = layer.content as? ShaderLayer { for p in s.shaderPaths where !paths.contains(p) { paths.append(p) } }
        }
        return shaderFiles(forUserShaders: paths)
    }

    private func shaderFiles(forUserShaders paths: [String]) -> [String] {
        var out = shaderFiles
        for path in paths {
            // Not compiled yet: preprocess to find the includes (a broken include still lists the file).
            let files = pass(UserShaderPass.self).entries.first(where: { $0.key.path == path })?.value.files
                ?? (try? ShaderSource(path: path, includeDirectories: [shaders.directory]).files) ?? [path]
            for f in files where !out.contains(f) { out.append(f) }
        }
        return out
    }

    /// Compiles (or recompiles) the user shader at `path` (absolute, as `ShaderLayer.fragmentPath`).
    /// On failure the last good program for that path stays in use and the `ShaderError`
    /// (`FILE:LINE: message`, naming the user's file or its include) is thrown.
    public func loadUserShader(at path: String) throws {
        try context.makeCurrent()
        let user = pass(UserShaderPass.self)
        user.inUse.insert(.init(path: path))
        try user.load(.init(path: path), shaders: shaders)
    }

    /// The error of the latest attempt to compile the user shader at `path`, nil if it compiled
    /// (or was never loaded).
    public func userShaderError(at path: String) -> ShaderError? {
        pass(UserShaderPass.self).entries[.init(path: path)]?.error
    }
}
