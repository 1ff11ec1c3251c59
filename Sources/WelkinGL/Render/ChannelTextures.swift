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

    deinit {
        guard GL.hasCurrentContext else { return }
        removeAll()
        for var s in samplers.values { epoxy_glDeleteSamplers(1, &s) }
    }

    /// Whether the image at `path` has been uploaded (for either orientation).
    func holds(_ path: String) -> Bool { textures.keys.contains { $0.path == path } }

    /// The texture of `channel`'s image, read and uploaded on first use.
    func texture(for channel: ShaderChannel) throws -> Texture {
        let key = Key(path: channel.imagePath, vflip: channel.vflip)
        if let t = textures[key] { return t }
        let t = try upload(Self.read(channel.imagePath), path: channel.imagePath, vflip: channel.vflip)
        textures[key] = t
        return t
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
        for var t in textures.values.map(\.id) { epoxy_glDeleteTextures(1, &t) }
        textures = [:]
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
    private func upload(_ image: Image, path: String, vflip: Bool) throws -> Texture {
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
