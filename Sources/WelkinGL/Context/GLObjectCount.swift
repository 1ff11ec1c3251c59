// Counting live GL objects, for leak checks (`welkin soak`, the viewer's `resources` command).

@preconcurrency import CEpoxy

/// Live GL objects in the current context, counted by asking GL about every name up to a bound.
public struct GLObjectCount: Equatable, Sendable, CustomStringConvertible {
    public var textures = 0, buffers = 0, framebuffers = 0, programs = 0, shaders = 0, vertexArrays = 0, samplers = 0

    public init() {}

    /// Names are small integers handed out in order; 4096 is far above what Welkin uses.
    public static let probeLimit: GLuint = 4096

    /// The objects alive in the current context (a context must be current).
    public static func live() -> GLObjectCount {
        var c = GLObjectCount()
        for name in 1...probeLimit {
            if epoxy_glIsTexture(name) != 0 { c.textures += 1 }
            if epoxy_glIsBuffer(name) != 0 { c.buffers += 1 }
            if epoxy_glIsFramebuffer(name) != 0 { c.framebuffers += 1 }
            if epoxy_glIsProgram(name) != 0 { c.programs += 1 }
            if epoxy_glIsShader(name) != 0 { c.shaders += 1 }
            if epoxy_glIsVertexArray(name) != 0 { c.vertexArrays += 1 }
            if epoxy_glIsSampler(name) != 0 { c.samplers += 1 }
        }
        return c
    }

    public var description: String {
        "\(textures) textures, \(buffers) buffers, \(framebuffers) framebuffers, \(programs) programs, \(shaders) shaders, \(vertexArrays) vertex arrays, \(samplers) samplers"
    }
}
