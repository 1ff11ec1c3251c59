// ChannelTextures: the PNG images of shader layers' channels (iChannel0…3) as GL textures, and
// the sampler objects that give each channel its filter and wrap.
//
// Texels are the PNG's bytes as they are: RGBA8, straight alpha, sRGB-encoded and not decoded
// (no GL_SRGB8_ALPHA8), which is what Shadertoy uploads, so a shader's maths on texture() values
// works unchanged. One texture per image and orientation (vflip), with mipmaps; filter and wrap
// live in sampler objects, so one image can serve channels with different settings. GLRenderer owns
// this (it outlives shader reloads); `reload` replaces an image in place and keeps the last good
// one when the file does not read.

@preconcurrency import CEpoxy
import WelkinCore
import WelkinImage

final class ChannelTextures {
    /// An uploaded channel image.
    struct Texture {
        var id: GLuint
        var size: SIMD2<Int>
        /// GL_TEXTURE_2D, GL_TEXTURE_3D or GL_TEXTURE_CUBE_MAP.
        var target: GLenum = GLenum(GL_TEXTURE_2D)
    }

    private struct Key: Hashable {
        var path: String
        var vflip: Bool
    }

    private struct SamplerKey: Hashable {
        var filter: ShaderChannel.Filter
        var wrap: ShaderChannel.Wrap
    }

    private var textures: [Key: Texture] = [:]
    private var samplers: [SamplerKey: GLuint] = [:]
    /// Generated noise, by shape and size.
    private var noises: [String: Texture] = [:]
    /// The keyboard texture (256×3, R8) and what it holds.
    private var keyboardTexture: Texture?
    private var keyboardState: ShadertoyKeyboard?

    deinit {
        guard GL.hasCurrentContext else { return }
        removeAll()
        for var s in samplers.values { epoxy_glDeleteSamplers(1, &s) }
    }

    /// Whether the image at `path` has been uploaded (for either orientation).
    func holds(_ path: String) -> Bool { textures.keys.contains { $0.path == path } }

    /// The texture of an image, noise or keyboard channel, made on first use (`keyboard`: the
    /// frame's keys, uploaded when they changed). nil for a buffer channel (the pass holds those).
    func texture(for channel: ShaderChannel, keyboard: ShadertoyKeyboard = ShadertoyKeyboard()) throws -> Texture? {
        switch channel.source {
        case .image(let path, _):
            let key = Key(path: path, vflip: channel.vflip)
            if let t = textures[key] { return t }
            let t = try upload(Self.read(path), path: path, vflip: channel.vflip)
            textures[key] = t
            return t
        case .buffer, .empty:
            return nil
        case .noise(let shape, let size):
            let key = "\(shape.rawValue) \(size)"
            if let t = noises[key] { return t }
            let t = try makeNoise(shape, size: size)
            noises[key] = t
            return t
        case .keyboard:
            if keyboardTexture == nil {
                var t: GLuint = 0
                epoxy_glGenTextures(1, &t)
                keyboardTexture = Texture(id: t, size: SIMD2(256, 3))
                keyboardState = nil
            }
            let t = keyboardTexture!
            if keyboardState != keyboard {
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), t.id)
                epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
                keyboard.texels.withUnsafeBytes {
                    epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, 256, 3, 0, GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
                }
                epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
                keyboardState = keyboard
                try GL.check("uploading the keyboard texture")
            }
            return t
        }
    }

    /// A noise channel's texture: RGBA8 white noise (ShaderNoise.byte), with mipmaps.
    private func makeNoise(_ shape: ShaderChannel.NoiseShape, size n: Int) throws -> Texture {
        var t: GLuint = 0
        epoxy_glGenTextures(1, &t)
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let target: GLenum
        switch shape {
        case .image:
            target = GLenum(GL_TEXTURE_2D)
            epoxy_glBindTexture(target, t)
            let bytes = ShaderNoise.bytes(width: n, height: n, depth: 1, layer: 0)
            bytes.withUnsafeBytes { epoxy_glTexImage2D(target, 0, GL_RGBA8, GLsizei(n), GLsizei(n), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress) }
        case .volume:
            target = GLenum(GL_TEXTURE_3D)
            epoxy_glBindTexture(target, t)
            let bytes = ShaderNoise.bytes(width: n, height: n, depth: n, layer: 0)
            bytes.withUnsafeBytes { epoxy_glTexImage3D(target, 0, GL_RGBA8, GLsizei(n), GLsizei(n), GLsizei(n), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress) }
        case .cube:
            target = GLenum(GL_TEXTURE_CUBE_MAP)
            epoxy_glBindTexture(target, t)
            for face in 0..<6 {
                let bytes = ShaderNoise.bytes(width: n, height: n, depth: 1, layer: face)
                bytes.withUnsafeBytes {
                    epoxy_glTexImage2D(GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + Int32(face)), 0, GL_RGBA8, GLsizei(n), GLsizei(n), 0,
                                       GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
                }
            }
        }
        epoxy_glGenerateMipmap(target)
        epoxy_glBindTexture(target, 0)
        do { try GL.check("making a \(shape.rawValue) noise channel of \(n)") } catch {
            epoxy_glDeleteTextures(1, &t)
            throw error
        }
        return Texture(id: t, size: SIMD2(n, n), target: target)
    }

    /// Reads the image at `path` again and re-uploads every texture made of it. When the file does
    /// not read, the textures stay as they were and the error (`FILE: message`) is thrown.
    func reload(_ path: String) throws {
        let image = try Self.read(path)
        for key in textures.keys where key.path == path {
            var old = textures[key]!.id
            epoxy_glDeleteTextures(1, &old)
            textures[key] = try upload(image, path: path, vflip: key.vflip)
        }
    }

    /// Deletes every texture: each image is read again when next drawn.
    func removeAll() {
        for var t in textures.values.map(\.id) + noises.values.map(\.id) + [keyboardTexture?.id].compactMap({ $0 }) { epoxy_glDeleteTextures(1, &t) }
        textures = [:]; noises = [:]; keyboardTexture = nil; keyboardState = nil
    }

    /// The sampler object for `filter` and `wrap` (made once).
    func sampler(_ filter: ShaderChannel.Filter, _ wrap: ShaderChannel.Wrap) -> GLuint {
        let key = SamplerKey(filter: filter, wrap: wrap)
        if let s = samplers[key] { return s }
        var s: GLuint = 0
        epoxy_glGenSamplers(1, &s)
        let (minifying, magnifying): (Int32, Int32) = switch filter {
        case .nearest: (GL_NEAREST, GL_NEAREST)
        case .linear: (GL_LINEAR, GL_LINEAR)
        case .mipmap: (GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)
        }
        let mode: Int32 = wrap == .clamp ? GL_CLAMP_TO_EDGE : GL_REPEAT
        epoxy_glSamplerParameteri(s, GLenum(GL_TEXTURE_MIN_FILTER), minifying)
        epoxy_glSamplerParameteri(s, GLenum(GL_TEXTURE_MAG_FILTER), magnifying)
        epoxy_glSamplerParameteri(s, GLenum(GL_TEXTURE_WRAP_S), mode)
        epoxy_glSamplerParameteri(s, GLenum(GL_TEXTURE_WRAP_T), mode)
        epoxy_glSamplerParameteri(s, GLenum(GL_TEXTURE_WRAP_R), mode)
        samplers[key] = s
        return s
    }

    /// The PNG at `path`, checked against the channel image limit (the file may have changed
    /// since the scene was loaded).
    static func read(_ path: String) throws -> Image {
        let image = try PNG.read(path: path)
        let limit = ShaderChannel.maximumImageDimension
        guard image.width <= limit, image.height <= limit else {
            throw ImageFileError(path: path, message: "image is \(image.width)×\(image.height); channel images may be at most \(limit)×\(limit)")
        }
        return image
    }

    /// Uploads `image` with mipmaps. GL's first row is texture y = 0, so with `vflip` the image goes
    /// up bottom row first and its top row lands at y = 1.
    fileprivate func upload(_ image: Image, path: String, vflip: Bool) throws -> Texture {
        let rows = vflip ? image.flippedVertically() : image
        var t: GLuint = 0
        epoxy_glGenTextures(1, &t)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), t)
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        rows.pixels.withUnsafeBytes {
            epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                               GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        epoxy_glGenerateMipmap(GLenum(GL_TEXTURE_2D))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        do {
            try GL.check("uploading the channel image \(path)")
        } catch {
            epoxy_glDeleteTextures(1, &t)
            throw error
        }
        return Texture(id: t, size: SIMD2(image.width, image.height))
    }
}

/// The bytes of a generated noise channel: every byte of every texel an independent hash of its
/// position (a stand-in for Shadertoy's noise textures, the same on every run and machine).
enum ShaderNoise {
    static func byte(_ x: Int, _ y: Int, _ z: Int, _ channel: Int) -> UInt8 {
        var h = UInt32(truncatingIfNeeded: x) &* 0x8DA6_B343
        h ^= UInt32(truncatingIfNeeded: y) &* 0xD816_3841
        h ^= UInt32(truncatingIfNeeded: z) &* 0xCB1A_B31F
        h ^= UInt32(truncatingIfNeeded: channel) &* 0x165_667B1
        h ^= h >> 15; h &*= 0x2C1B_3C6D; h ^= h >> 12; h &*= 0x297A_2D39; h ^= h >> 15
        return UInt8(truncatingIfNeeded: h >> 24)
    }

    /// width × height × depth texels, RGBA, rows first; `layer` offsets z (a cube map's face).
    static func bytes(width: Int, height: Int, depth: Int, layer: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * depth * 4)
        var i = 0
        for z in 0..<depth {
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<4 { out[i] = byte(x, y, z + layer * depth, c); i += 1 }
                }
            }
        }
        return out
    }
}
