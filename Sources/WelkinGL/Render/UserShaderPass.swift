// UserShaderPass: `shader` layers, a user's own GLSL 3.30 fragment shader over the frame.
//
// A user shader is compiled with Welkin's full-screen vertex shader; its includes resolve beside
// the user's file first, then in Welkin's shader library. A Shadertoy file (`mainImage`, no `main`)
// is wrapped first (ShadertoyWrapping). It writes a straight-alpha sRGB colour into a float target,
// and layer.frag composites that (premultiplied, × opacity) like any layer. Built-in uniforms —
// Welkin's u_* and Shadertoy's i* — are set when the program declares them; channel images are
// bound to texture units 0…3 (ChannelTextures). Programs are cached per fragment path; a reload
// that fails keeps the last good program.

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

    private(set) var entries: [String: Entry] = [:]
    private let composite: ResolveVariants<CompositeProgram>
    /// Warnings already printed (layer index and uniform), so each shows once.
    private var warned: Set<String> = []
    var warn: (String) -> Void
    /// User shaders the last frame drew (or loaded by hand since): what a reload recompiles.
    var inUse: Set<String> = []

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
    func adopt(_ old: UserShaderPass, keeping: Set<String>) {
        for (path, entry) in old.entries {
            if keeping.contains(path) { entries[path] = entry } else { entry.program?.delete() }
        }
        warned = old.warned
    }

    /// Compiles the shader at `path` (again). On failure the last good program stays and the error
    /// is thrown (and kept in the entry).
    func load(_ path: String, shaders: ShaderLibrary) throws {
        let entry = entries[path] ?? Entry(path: path)
        entries[path] = entry
        do {
            let text = try ShaderSource.read(path)
            let wrapping = try ShadertoyWrapping.wrapping(for: text, path: path, library: shaders)
            let fragment = try ShaderSource(text: text, path: path, includeDirectories: [shaders.directory], wrapping: wrapping)
            entry.files = fragment.files
            let program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: fragment)
            entry.program?.delete()
            entry.program = program
            entry.uniforms = Self.activeUniforms(program)
            entry.isShadertoy = wrapping != nil
            entry.error = nil
        } catch let error as ShaderError {
            entry.error = error
            throw error
        }
    }

    /// The entry for `path`, compiled on first use; throws when there is no good program.
    func entry(_ path: String, shaders: ShaderLibrary) throws -> Entry {
        if let entry = entries[path] {
            if entry.program != nil { return entry }
            if let error = entry.error { throw error }
        }
        try load(path, shaders: shaders)
        return entries[path]!
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
        case GL_FLOAT_MAT2: return "mat2"
        case GL_FLOAT_MAT3: return "mat3"
        case GL_FLOAT_MAT4: return "mat4"
        default: return "a type (0x\(String(type, radix: 16)))"
        }
    }

    /// Sets the built-in and user uniforms `s` declares. The program must be in use.
    func setUniforms(_ entry: Entry, _ s: ShaderDraw, frame: Frame, channels: ChannelTextures) throws {
        let file = (s.layer.fragmentPath as NSString).lastPathComponent
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
        if let l = try declared("u_time", as: GLenum(GL_FLOAT), "float") { epoxy_glUniform1f(l, Float(frame.time)) }
        if let l = try declared("u_resolution", as: GLenum(GL_FLOAT_VEC2), "vec2") { epoxy_glUniform2f(l, Float(size.x), Float(size.y)) }
        if let l = try declared("u_frame", as: GLenum(GL_INT), "int") {
            epoxy_glUniform1i(l, GLint(clamping: frame.frameNumber))
        }
        if let l = try declared("u_mouse", as: GLenum(GL_FLOAT_VEC2), "vec2") { epoxy_glUniform2f(l, frame.mouse.x, frame.mouse.y) }
        if let l = try declared("u_pixelScale", as: GLenum(GL_FLOAT_VEC2), "vec2") {
            epoxy_glUniform2f(l, Float(frame.scale.x), Float(frame.scale.y))
        }
        try setSkyUniforms(frame, size: size, declared: { try declared($0, as: $1, $2) })
        try setShadertoyUniforms(entry, s, frame: frame, channels: channels, declared: declared)
        for (name, value) in s.layer.uniforms {
            let path = "layers[\(s.index)].uniforms.\(name)"
            guard let u = entry.uniforms[name], u.location >= 0 else {
                if warned.insert("\(s.layer.fragmentPath) \(name)").inserted {
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
                throw ShaderLayerError(path: path, message: "the shader declares \(Self.typeName(u.type))\(u.size > 1 ? "[\(u.size)]" : "") but the scene gives \(given); only float, vec2, vec3 and vec4 uniforms can be set from a scene")
            }
            guard index + 1 == c.count else {
                throw ShaderLayerError(path: path, message: "the shader declares \(Self.typeName(u.type)) but the scene gives \(given)")
            }
            switch c.count {
            case 1: epoxy_glUniform1f(u.location, c[0])
            case 2: epoxy_glUniform2f(u.location, c[0], c[1])
            case 3: epoxy_glUniform3f(u.location, c[0], c[1], c[2])
            default: epoxy_glUniform4f(u.location, c[0], c[1], c[2], c[3])
            }
        }
    }

    /// Runs the user shader into the bound float target (blending off, target cleared).
    /// Expects the full-screen vertex array bound.
    func drawShader(_ s: ShaderDraw, frame: Frame, shaders: ShaderLibrary, channels: ChannelTextures) throws {
        let entry = try entry(s.layer.fragmentPath, shaders: shaders)
        guard let program = entry.program else { return }
        epoxy_glUseProgram(program.id)
        // Channel textures and samplers are bound on units 0…3 by setUniforms: unbind them however
        // it ends, since Welkin's own passes read their targets without sampler objects.
        defer { Self.unbindChannels() }
        try setUniforms(entry, s, frame: frame, channels: channels)
        GLCapture.drawFullScreenTriangle()
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
    /// it, and the channel images bound: iChannelN on texture unit N with its sampler object.
    func setShadertoyUniforms(_ entry: Entry, _ s: ShaderDraw, frame: Frame, channels: ChannelTextures,
                              declared: (String, GLenum, String, Int) throws -> GLint?) throws {
        let size = frame.pixelSize
        let float = GLenum(GL_FLOAT), vec3 = GLenum(GL_FLOAT_VEC3), vec4 = GLenum(GL_FLOAT_VEC4)
        if let l = try declared("iResolution", vec3, "vec3", 1) { epoxy_glUniform3f(l, Float(size.x), Float(size.y), 1) }
        if let l = try declared("iTime", float, "float", 1) { epoxy_glUniform1f(l, Float(frame.time)) }
        if let l = try declared("iTimeDelta", float, "float", 1) { epoxy_glUniform1f(l, Float(1 / Shadertoy.frameRate)) }
        if let l = try declared("iFrameRate", float, "float", 1) { epoxy_glUniform1f(l, Float(Shadertoy.frameRate)) }
        if let l = try declared("iFrame", GLenum(GL_INT), "int", 1) { epoxy_glUniform1i(l, GLint(clamping: frame.frameNumber)) }
        if let l = try declared("iMouse", vec4, "vec4", 1) { epoxy_glUniform4f(l, frame.mouse.x, frame.mouse.y, 0, 0) }
        if let l = try declared("iDate", vec4, "vec4", 1) {
            let d = SIMD4<Float>(Shadertoy.date(sky: frame.sky, time: frame.time))
            epoxy_glUniform4f(l, d.x, d.y, d.z, d.w)
        }
        if let l = try declared("iSampleRate", float, "float", 1) { epoxy_glUniform1f(l, Float(Shadertoy.sampleRate)) }
        if let l = try declared(ShadertoyWrapping.alphaUniform, GLenum(GL_INT), "int", 1) {
            epoxy_glUniform1i(l, s.layer.alpha == .shader ? 1 : 0)
        }
        let count = Shadertoy.channelCount
        if let l = try declared("iChannelTime", float, "float[\(count)]", count) {
            let zeros = [Float](repeating: 0, count: count)
            epoxy_glUniform1fv(l, GLsizei(entry.uniforms["iChannelTime"]!.size), zeros)
        }
        var resolutions = [Float](repeating: 0, count: 3 * count)
        for (i, channel) in s.layer.channels.prefix(count).enumerated() {
            resolutions[3 * i] = Float(channel.imageSize.x)
            resolutions[3 * i + 1] = Float(channel.imageSize.y)
            resolutions[3 * i + 2] = 1
            guard let l = try declared("iChannel\(i)", GLenum(GL_SAMPLER_2D), "sampler2D", 1) else {
                if warned.insert("\(s.layer.fragmentPath) iChannel\(i)").inserted {
                    warn("layers[\(s.index)].channels[\(i)]: \((s.layer.fragmentPath as NSString).lastPathComponent) does not use iChannel\(i) (not declared, or unused and removed by the compiler); ignored")
                }
                continue
            }
            let texture = try channels.texture(for: channel)
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture.id)
            epoxy_glBindSampler(GLuint(i), channels.sampler(channel.filter, channel.wrap))
            epoxy_glUniform1i(l, GLint(i))
            // The image as uploaded: a hot-reloaded file may have a new size.
            resolutions[3 * i] = Float(texture.size.x)
            resolutions[3 * i + 1] = Float(texture.size.y)
        }
        // A channel the scene does not give reads unit N with no texture: black, as on Shadertoy
        // (unbound here, since an earlier pass may have left its target on unit 0).
        for i in s.layer.channels.count..<max(count, s.layer.channels.count) {
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

    /// Leaves texture units 0…3 with no texture and no sampler object.
    static func unbindChannels() {
        for i in 0..<Shadertoy.channelCount {
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
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
        inUse = Set(frame.layers.compactMap { ($0 as? ShaderDraw)?.layer.fragmentPath })
    }

    /// Recompiles the user shaders whose files changed, and those that never compiled.
    func reload(shaders: ShaderLibrary, affected: ([String]) -> Bool) throws -> [ShaderError] {
        var failures: [ShaderError] = []
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where affected(entry.files) || entry.program == nil {
            do { try load(path, shaders: shaders) } catch let e as ShaderError { failures.append(e) }
        }
        return failures
    }
}

extension ShaderDraw: GLDrawable {
    typealias Pass = UserShaderPass

    var canResolveFrame: Bool { true }
    var usesLayerTarget: Bool { true }
    var planProgram: String { "layer.frag" }

    /// The user's shader into the layer target (cleared), then composited from there.
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        let layerTarget = b.target("layer", .rgba32f, .persistent, why: "a user shader's output, premultiplied float")
        b.pass("clear", program: "—", layer: b.layer, reads: [], writes: layerTarget, blend: .replace)
        let file = (layer.fragmentPath as NSString).lastPathComponent
        b.pass("user shader", program: file, layer: b.layer, reads: [], writes: layerTarget, blend: .replace)
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

    /// Runs the user shader into the layer target (cleared to transparent, so discarded fragments
    /// add nothing) and leaves blending off.
    private func run(_ pass: UserShaderPass, in context: GLLayerContext) throws {
        guard let layerTarget = context.layerTarget else { return }
        epoxy_glDisable(GLenum(GL_BLEND))
        layerTarget.bind()
        epoxy_glClearColor(0, 0, 0, 0)
        epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        try pass.drawShader(self, frame: context.frame, shaders: context.shaders, channels: context.channels)
    }
}

extension GLRenderer {
    /// Welkin's shader files and every user shader file `frame` draws, with their includes.
    public func shaderFiles(for frame: Frame) -> [String] {
        var paths: [String] = []
        for case let s as ShaderDraw in frame.layers where !paths.contains(s.layer.fragmentPath) { paths.append(s.layer.fragmentPath) }
        return shaderFiles(forUserShaders: paths)
    }

    /// Welkin's shader files and every user shader file `scene` uses, with their includes.
    public func shaderFiles(for scene: Scene) -> [String] {
        var paths: [String] = []
        for layer in scene.layers {
            if let s = layer.content as? ShaderLayer, !paths.contains(s.fragmentPath) { paths.append(s.fragmentPath) }
        }
        return shaderFiles(forUserShaders: paths)
    }

    private func shaderFiles(forUserShaders paths: [String]) -> [String] {
        var out = shaderFiles
        for path in paths {
            // Not compiled yet: preprocess to find the includes (a broken include still lists the file).
            let files = pass(UserShaderPass.self).entries[path]?.files
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
        user.inUse.insert(path)
        try user.load(path, shaders: shaders)
    }

    /// The error of the latest attempt to compile the user shader at `path`, nil if it compiled
    /// (or was never loaded).
    public func userShaderError(at path: String) -> ShaderError? {
        pass(UserShaderPass.self).entries[path]?.error
    }
}
