// Composite: the uniforms of Shaders/composite.glsl, shared by every pass that resolves a frame.

@preconcurrency import CEpoxy
import WelkinCore

/// What a frame's last pass composites over, and how it quantises.
struct ResolveInput {
    /// The float target holding the layers drawn so far; nil when there are none (the background alone).
    var destination: GLuint?
    /// Premultiplied.
    var background: SIMD4<Float>
    var dither: Bool
    /// The output transform before quantising (composite.glsl's u_outputSpace).
    var outputSpace: OutputColorSpace = .srgb
}

/// The shader-variant policy of a frame's last pass, in one place: every choice that is constant
/// over a draw (whether it reads the float target, whether it dithers, the output colour space,
/// 8 or 16 bits) is a compile-time define, never a uniform that picks a code path (llvmpipe runs
/// both sides of a uniform `if` on every pixel: a uniform output space cost every sRGB frame the
/// Display P3 branch's six `pow`s, 1.5 → 6.8 ms for a 720p gradient). Every pass that resolves keys
/// its programs by this value and builds them with `defines`; composite.glsl refuses to compile
/// a resolving program without them.
struct ResolveVariant: Hashable {
    var readsDestination: Bool
    var dither: Bool
    var outputSpace: OutputColorSpace
    /// WELKIN_QUANTIZE_16: whole 65535ths into an RGBA16 target, no dither (`render16`).
    var depth16 = false

    init(readsDestination: Bool, dither: Bool, outputSpace: OutputColorSpace, depth16: Bool = false) {
        self.readsDestination = readsDestination; self.dither = dither
        self.outputSpace = outputSpace; self.depth16 = depth16
    }

    init(_ input: ResolveInput, depth16: Bool = false) {
        self.init(readsDestination: input.destination != nil, dither: input.dither, outputSpace: input.outputSpace, depth16: depth16)
    }

    /// The variant programs are built as up front, so a shader error shows at load time.
    static let standard = ResolveVariant(readsDestination: true, dither: true, outputSpace: .srgb)

    /// WELKIN_RESOLVE and the constants composite.glsl compiles in.
    var defines: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("WELKIN_RESOLVE", "1"), ("WELKIN_READS_DESTINATION", readsDestination ? "1" : "0"),
            ("WELKIN_DITHER", dither ? "1" : "0"), ("WELKIN_OUTPUT_SPACE", String(outputSpace.code)),
        ]
        if depth16 { out.append(("WELKIN_QUANTIZE_16", "1")) }
        return out
    }
}

/// Uniform locations of composite.glsl's WELKIN_RESOLVE half in one program.
struct CompositeUniforms {
    private let u_destination, u_background: GLint

    init(_ program: ShaderProgram) {
        u_destination = program.uniform("u_destination")
        u_background = program.uniform("u_background")
    }

    /// Sets the uniforms and binds the destination to texture unit 0. The program must be in use
    /// and built for `ResolveVariant(input)`.
    func set(_ input: ResolveInput) {
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), input.destination ?? 0)
        epoxy_glUniform1i(u_destination, 0)
        let b = input.background
        epoxy_glUniform4f(u_background, b.x, b.y, b.z, b.w)
    }
}

/// Programs of one fragment file, built on first use for each resolve variant (nil: as a layer).
final class ResolveVariants<P> {
    private let make: (ResolveVariant?) throws -> P
    private var built: [ResolveVariant?: P] = [:]

    /// Builds the layer program and the standard resolving one at once (errors show at load time).
    init(_ make: @escaping (ResolveVariant?) throws -> P) throws {
        self.make = make
        built[nil] = try make(nil)
        built[.standard] = try make(.standard)
    }

    subscript(_ variant: ResolveVariant?) -> P {
        get throws {
            if let p = built[variant] { return p }
            let p = try make(variant)
            built[variant] = p
            return p
        }
    }

    var all: [P] { Array(built.values) }
}

extension ShaderProgram {
    /// Welkin's full-screen triangle with the library's `fragment`, built as a layer pass or, with
    /// `resolve`, as the frame's last pass (WELKIN_RESOLVE: composite.glsl composites and quantises).
    static func fullScreen(_ shaders: ShaderLibrary, fragment: String, resolve: ResolveVariant?) throws -> ShaderProgram {
        try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                          fragment: ShaderSource(path: shaders.path(fragment), defines: resolve?.defines ?? []))
    }
}

/// resolve.frag: quantises the float target when the last layer cannot resolve itself, or when
/// a frame has no layers; a program per resolve variant (16-bit frames: WELKIN_QUANTIZE_16).
final class ResolvePass {
    final class Program {
        let program: ShaderProgram
        let u_pixelSize: GLint
        let composite: CompositeUniforms
        init(_ shaders: ShaderLibrary, _ variant: ResolveVariant) throws {
            program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                        fragment: ShaderSource(path: shaders.path("resolve.frag"), defines: variant.defines))
            u_pixelSize = program.uniform("u_pixelSize")
            composite = CompositeUniforms(program)
        }
    }
    private let shaders: ShaderLibrary
    private var programs: [ResolveVariant: Program] = [:]
    /// The standard program, built up front so an error in resolve.frag shows at load time.
    let program: ShaderProgram

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        let standard = try Program(shaders, .standard)
        programs[.standard] = standard
        program = standard.program
    }

    /// Expects the RGBA8 target (RGBA16 with `depth16`) bound, blending off, and the full-screen
    /// vertex array bound.
    func draw(_ input: ResolveInput, pixelSize: SIMD2<Int>, depth16: Bool = false) throws {
        let variant = ResolveVariant(input, depth16: depth16)
        let p: Program
        if let built = programs[variant] { p = built } else { p = try Program(shaders, variant); programs[variant] = p }
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.u_pixelSize, Float(pixelSize.x), Float(pixelSize.y))
        p.composite.set(input)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }
}

/// A full-screen pass that writes a per-pixel value and nothing more: the floor a real pass is
/// measured against in benchmarks (see Shaders/bare.frag for why it is not a constant).
final class BarePass {
    let program: ShaderProgram
    private let u_invSize: GLint

    init(shaders: ShaderLibrary) throws {
        program = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("bare.frag"))
        u_invSize = program.uniform("u_invSize")
    }

    /// Expects the RGBA8 target bound, blending off, and the full-screen vertex array bound.
    func draw(pixelSize: SIMD2<Int>) {
        epoxy_glUseProgram(program.id)
        epoxy_glUniform2f(u_invSize, 1 / Float(pixelSize.x), 1 / Float(pixelSize.y))
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    }
}
