// CloudsPass: the `clouds` layer in two passes. Shaders/clouds.frag marches the volume at the
// grid's size (CloudsDraw.gridSize, a fraction of the output's) into a float target; then
// Shaders/clouds-upsample.frag upsamples it bilinearly and composites it as a layer, or as the
// frame's last pass. The noise textures (CloudNoise) are uploaded once, before the first march, RG32F with GL_LINEAR and
// GL_REPEAT, whose filtering CloudNoise.sample2D / sample3D spell out for the CPU.

@preconcurrency import CEpoxy
import WelkinCore

final class CloudsPass: GLLayerPass {
    /// clouds.frag per tone map and output (WELKIN_TONE_MAP, WELKIN_CLOUDS_LINEAR: constants of a
    /// draw, compiled in), made on first use; `march` is the one in use, `locations` its uniforms'.
    private var marches: [MarchVariant: ShaderProgram] = [:]
    private(set) var march: ShaderProgram
    private var locations: [String: GLint] = [:]
    private var current: MarchVariant
    /// Marching for a Swift package (GLRenderer.packageVariants): the Earth's shadow, fog, bolts and
    /// shafts compiled in at every frame, each exactly nothing where the frame has none (the shadow
    /// is 1 where no marched point can be in it, a fog column of 0, a bolt of no light, shafts of no
    /// density), so one program draws every hour and weather of a live sky.
    var packageVariants = false
    private let shaders: ShaderLibrary

    struct MarchVariant: Hashable {
        var toneMap: Int32
        var linear: Bool
        var projectionKind: Int32
        /// Whether a point the march reaches can be in the Earth's shadow (CloudsDraw.shadowed).
        var shadowed = false
        /// Whether it marches one slice of the grid (one pixel of each 4×4 block; the refinement).
        var sliced = false
        /// Whether the physical sky's ground fog is in front (CloudsDraw.fogs), and the weather can strike (CloudsDraw.bolts).
        var fog = false
        var bolt = false
        /// Whether rain shafts hang under the base (CloudsDraw.shafts).
        var shafts = false
        var defines: [(name: String, value: String)] {
            [("WELKIN_TONE_MAP", String(toneMap)), ("WELKIN_CLOUDS_LINEAR", linear ? "1" : "0"), ("WELKIN_PROJECTION_KIND", String(projectionKind)),
             ("WELKIN_CLOUDS_SHADOW", shadowed ? "1" : "0"), ("WELKIN_CLOUDS_SLICE", sliced ? "1" : "0"), ("WELKIN_CLOUDS_FOG", fog ? "1" : "0"),
             ("WELKIN_CLOUDS_BOLT", bolt ? "1" : "0"), ("WELKIN_CLOUDS_SHAFTS", shafts ? "1" : "0")]
        }
    }

    static func marchProgram(_ shaders: ShaderLibrary, _ v: MarchVariant) throws -> ShaderProgram {
        try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: ShaderSource(path: shaders.path("clouds.frag"), defines: v.defines))
    }

    /// Makes the march program of `variant` the one in use.
    private func useMarch(_ variant: MarchVariant) throws {
        guard variant != current else { return }
        let p = try marches[variant] ?? Self.marchProgram(shaders, variant)
        marches[variant] = p
        march = p
        current = variant
        locations = [:]
    }
    /// clouds-upsample.frag as a layer (nil) and as the frame's last pass (its resolve variant).
    private let upsample: ResolveVariants<Upsample>
    /// The same reading the grid's 2×2 box means (boxMeans) once a pixel through the texture unit's
    /// bilinear filter (WELKIN_CLOUDS_GRID_FILTERED: one read for sixteen texel fetches): Welkin's own
    /// frames. An export's capture keeps the texel reads (RGBA32F is not filterable in WebGL2
    /// without OES_texture_float_linear, nor on iOS's GPUs).
    private let upsampleFiltered: ResolveVariants<Upsample>
    /// clouds-interleave.frag: the refinement's 16 slices into the final grid.
    private let interleaveProgram: ShaderProgram
    /// clouds-box.frag: the grid's 2×2 box means, which upsampleFiltered reads once a pixel.
    private let boxProgram: ShaderProgram
    private var box: RenderTarget?

    /// clouds-upsample.frag and its uniforms' locations.
    struct Upsample {
        let program: ShaderProgram
        let composite: CompositeUniforms
        let pixelSize, gridSize, inverseGridScale, grid: GLint

        init(_ program: ShaderProgram) {
            self.program = program
            composite = CompositeUniforms(program)
            pixelSize = program.uniform("u_pixelSize"); gridSize = program.uniform("u_gridSize")
            inverseGridScale = program.uniform("u_inverseGridScale"); grid = program.uniform("u_grid")
        }
    }
    /// The viewer's refinement (FrameOptions.interactive): for each clouds draw of the frame, in
    /// order, the final-quality draw a still picture is refined to (CloudsDraw.atFinalQuality),
    /// its grid at every pixel, and how many of its 16 slices are marched. A frame whose draw is
    /// the same as the last frame's marches the next slice (costing what the interactive grid
    /// costs); once all 16 are marched the layer shows the final grid, the picture a render draws.
    /// A changed draw starts again.
    private struct Refinement {
        var key: CloudsDraw
        var grid: RenderTarget
        var slices: Int
        /// The slices as marched: ⌈W/4⌉ × 16·⌈H/4⌉, slice k's band from row k·⌈H/4⌉
        /// (clouds-interleave.frag puts them into `grid` once all 16 are in).
        var sliceTarget: RenderTarget
    }
    private var refinements: [Int: Refinement] = [:]
    /// A viewer frame's grid, by draw index (temporal accumulation, as Nubis does): the grid cut
    /// in 2×2 blocks, one of the four phases marched a frame (a quarter of the march, into its band
    /// of `slices`) and the other three kept from the frames before, while the draw differs from
    /// theirs only in what moves with the clock (CloudsDraw.steadyKey: the wind's offsets, the
    /// clouds' evolution, the light) and where the camera looks, and the clouds and the camera
    /// together have moved at most `phaseLag`; anything else (the camera's kind or field, the
    /// layer's shape, a flash) marches all four. A frame whose draw is the last one's marches nothing (a still picture
    /// being refined shows it).
    private struct Phases {
        var key: CloudsDraw
        var last: CloudsDraw
        var slices: RenderTarget
        var grid: RenderTarget
        var next: Int
        /// The draw each phase was marched for.
        var marched: [CloudsDraw]
        /// The grid of the frame before, once a frame has been reprojected (its two grids alternate).
        var history: RenderTarget?
        func delete() { slices.delete(); grid.delete(); history?.delete() }
    }
    private var phases: [Int: Phases] = [:]
    static let phaseBlock = 2
    /// The most the clouds may have moved (grid pixels, CloudsDraw.motion) since a kept phase was
    /// marched for the kept phases to stand where they are, the camera still: a faster sky (a
    /// storm's deck in its wind at 720p) or any turn of the camera moves the frame before's grid
    /// into this one instead (`reprojectLimit`). (The six cloud examples stay within 2/255 of the
    /// full march on ≥ 99.7 % of pixels; storm, reprojected, 99.74 %.)
    static let phaseLag: Float = 1.0
    /// The most the clouds and the camera together may have moved (grid pixels) since the frame
    /// before for its grid to be moved into this one (clouds-interleave.frag's
    /// WELKIN_CLOUDS_REPROJECT) rather than all four phases marched: a storm's deck in its wind
    /// (1.5 a frame at 720p), a brisk pan. Beyond it (a fast drag, a time-lapse) all four are marched.
    static let reprojectLimit: Float = 6

    private func phased(_ clouds: CloudsDraw, index: Int) throws -> RenderTarget {
        let n = Self.phaseBlock
        let key = clouds.steadyKey
        if var p = phases[index], p.key == key, p.grid.size == clouds.gridSize, clouds.projection == p.last.projection,
           p.marched.indices.allSatisfy({ $0 == p.next || clouds.motion(since: p.marched[$0]) + clouds.cameraMotion(since: p.marched[$0]) <= Self.phaseLag }) {
            if p.last == clouds { return p.grid }
            try marchGrid(clouds, into: p.slices, slice: p.next, block: n)
            p.marched[p.next] = clouds
            p.next = (p.next + 1) % (n * n)
            p.last = clouds
            phases[index] = p
            try interleave(p.slices, into: p.grid, gridSize: clouds.gridSize, block: n)
            return p.grid
        }
        if var p = phases[index], p.key == key, p.grid.size == clouds.gridSize, p.last.projection.kind == clouds.projection.kind,
           clouds.motion(since: p.last) + clouds.cameraMotion(since: p.last) <= Self.reprojectLimit {
            // The camera turned, or the clouds moved too far for the kept phases to stand: this
            // frame's phase marched, the rest moved from the frame before's grid (a turn moves
            // every pixel exactly: look-around's slow pan 96.5 % within 2/255 of the full march with
            // the phases kept in place, 99.6 % moved).
            try marchGrid(clouds, into: p.slices, slice: p.next, block: n)
            let history = try p.history ?? RenderTarget(size: clouds.gridSize, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.grid")
            try reproject(p.slices, phase: p.next, from: p.grid, as: p.last, into: history, for: clouds)
            p.history = p.grid
            p.grid = history
            p.marched[p.next] = clouds
            p.next = (p.next + 1) % (n * n)
            p.last = clouds
            phases[index] = p
            return p.grid
        }
        if let old = phases[index], old.grid.size != clouds.gridSize { old.delete(); phases[index] = nil }
        let grid = try phases[index]?.grid ?? RenderTarget(size: clouds.gridSize, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.grid")
        let slices = try phases[index]?.slices
            ?? RenderTarget(size: Self.sliceTargetSize(clouds.gridSize, block: n), internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.phases")
        for k in 0..<(n * n) { try marchGrid(clouds, into: slices, slice: k, block: n) }
        try interleave(slices, into: grid, gridSize: clouds.gridSize, block: n)
        phases[index] = Phases(key: key, last: clouds, slices: slices, grid: grid, next: 0, marched: Array(repeating: clouds, count: n * n),
                               history: phases[index]?.history)
        return grid
    }
    private var drawIndex = 0
    private var used: Set<Int> = []
    private(set) var isRefining = false
    static let sliceCount = 16

    func willDraw(_ frame: Frame) {
        for key in refinements.keys where !used.contains(key) {
            refinements[key]?.grid.delete(); refinements[key]?.sliceTarget.delete(); refinements[key] = nil
        }
        for key in phases.keys where !used.contains(key) { phases[key]?.delete(); phases[key] = nil }
        used = []
        drawIndex = 0
        isRefining = false
    }

    /// The draw and grid the layer shows this frame: the final grid once refined, else `clouds`
    /// marched into the pass's grid (with the next slice of the refinement marched too).
    private func prepare(_ clouds: CloudsDraw) throws -> (draw: CloudsDraw, grid: RenderTarget?) {
        let index = drawIndex
        drawIndex += 1
        guard !clouds.isFinalQuality else {
            try marchGrid(clouds)
            return (clouds, grid)
        }
        used.insert(index)
        let final = clouds.atFinalQuality()
        if var r = refinements[index], r.key == final {
            if r.slices < Self.sliceCount {
                try marchGrid(final, into: r.sliceTarget, slice: r.slices)
                r.slices += 1
                refinements[index] = r
                if r.slices == Self.sliceCount { try interleave(r.sliceTarget, into: r.grid, gridSize: final.gridSize) }
            }
            if r.slices == Self.sliceCount { return (final, r.grid) }
        } else {
            if let old = refinements[index], old.grid.size != final.gridSize {
                old.grid.delete(); old.sliceTarget.delete(); refinements[index] = nil
            }
            let target = try refinements[index]?.grid ?? RenderTarget(size: final.gridSize, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.grid")
            let slices = try refinements[index]?.sliceTarget
                ?? RenderTarget(size: Self.sliceTargetSize(final.gridSize), internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.slices")
            refinements[index] = Refinement(key: final, grid: target, slices: 0, sliceTarget: slices)
        }
        isRefining = true
        return (clouds, try phased(clouds, index: index))
    }

    private var weatherTexture: GLuint = 0
    private var shapeTexture: GLuint = 0
    private var grid: RenderTarget?
    let files: [String]

    static let weatherUnit: Int32 = 2, shapeUnit: Int32 = 3, gridUnit: Int32 = 1, historyUnit: Int32 = 4

    init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws {
        self.shaders = shaders
        current = MarchVariant(toneMap: ToneMap.neutral.code, linear: false, projectionKind: SkyProjection.Kind.panorama.rawValue)
        march = try Self.marchProgram(shaders, current)
        marches[current] = march
        let programs = try ResolveVariants { Upsample(try ShaderProgram.fullScreen(shaders, fragment: "clouds-upsample.frag", resolve: $0)) }
        upsample = programs
        upsampleFiltered = try ResolveVariants { resolve in
            Upsample(try ShaderProgram(vertex: shaders.source("fullscreen.vert"),
                                       fragment: ShaderSource(path: shaders.path("clouds-upsample.frag"),
                                                              defines: (resolve?.defines ?? []) + [("WELKIN_CLOUDS_GRID_FILTERED", "1")])))
        }
        interleaveProgram = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("clouds-interleave.frag"))
        boxProgram = try ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("clouds-box.frag"))
        let marchFiles = march.files
        // (The cover's programs are built at the first cover; their files are watched from the start.)
        let coverFiles = ["clouds-cover-tiles.frag", "clouds-cover.vert", "clouds-cover.frag"].map { shaders.path($0) }
        files = marchFiles + ((try programs[.standard]).program.files + interleaveProgram.files + boxProgram.files + coverFiles)
            .filter { !marchFiles.contains($0) }
    }

    /// Uploads the noise textures before the first march: making CloudNoise's fields takes some
    /// 90 ms on this 2-core machine, which a renderer that never draws clouds (most `welkin render`
    /// runs, the viewer on a gradient) no longer pays when it starts.
    private func uploadNoise() throws {
        guard weatherTexture == 0 else { return }
        weatherTexture = Self.texture(GL_TEXTURE_2D, size: SIMD3(CloudNoise.weatherSize, CloudNoise.weatherSize, 1), CloudNoise.weather)
        shapeTexture = Self.texture(GL_TEXTURE_3D, size: SIMD3(repeating: CloudNoise.shapeSize), CloudNoise.shape)
        try GL.check("uploading the clouds' noise")
    }

    deinit {
        guard GL.hasCurrentContext else { return }
        for p in marches.values { p.delete() }
        for p in upsample.all + upsampleFiltered.all { p.program.delete() }
        interleaveProgram.delete()
        for p in reprojectPrograms.values { p.delete() }
        boxProgram.delete()
        coverPrograms?.tiles.delete(); coverPrograms?.quads.delete()
        coverTiles?.delete()
        box?.delete()
        if weatherTexture != 0 { epoxy_glDeleteTextures(1, &weatherTexture) }
        if shapeTexture != 0 { epoxy_glDeleteTextures(1, &shapeTexture) }
        for r in refinements.values { r.grid.delete(); r.sliceTarget.delete() }
        for p in phases.values { p.delete() }
        grid?.delete()
    }

    private static func texture(_ target: Int32, size: SIMD3<Int>, _ texels: [Float]) -> GLuint {
        var id: GLuint = 0
        epoxy_glGenTextures(1, &id)
        epoxy_glBindTexture(GLenum(target), id)
        epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        texels.withUnsafeBytes { bytes in
            if target == GL_TEXTURE_3D {
                epoxy_glTexImage3D(GLenum(target), 0, GL_RG32F, GLsizei(size.x), GLsizei(size.y), GLsizei(size.z), 0,
                                   GLenum(GL_RG), GLenum(GL_FLOAT), bytes.baseAddress)
            } else {
                epoxy_glTexImage2D(GLenum(target), 0, GL_RG32F, GLsizei(size.x), GLsizei(size.y), 0, GLenum(GL_RG), GLenum(GL_FLOAT), bytes.baseAddress)
            }
        }
        for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R] {
            epoxy_glTexParameteri(GLenum(target), GLenum(parameter), GL_REPEAT)
        }
        epoxy_glTexParameteri(GLenum(target), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        epoxy_glTexParameteri(GLenum(target), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        epoxy_glBindTexture(GLenum(target), 0)
        return id
    }

    private func uniform(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = march.uniform(name)
        locations[name] = l
        return l
    }

    /// Marches `clouds` into the pass's grid target (blending off); leaves it bound.
    func marchGrid(_ clouds: CloudsDraw) throws {
        let size = clouds.gridSize
        if grid?.size != size {
            grid?.delete(); grid = nil
            grid = try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.grid")
        }
        try marchGrid(clouds, into: grid!, slice: nil)
    }

    /// Puts the marched slices of `slices` (n × n of them, n = `block`) into `grid` (clouds-interleave.frag).
    private func interleave(_ slices: RenderTarget, into grid: RenderTarget, gridSize: SIMD2<Int>, block: Int = 4) throws {
        epoxy_glDisable(GLenum(GL_BLEND))
        grid.bind()
        epoxy_glUseProgram(interleaveProgram.id)
        epoxy_glUniform2i(interleaveProgram.uniform("u_gridSize"), GLint(gridSize.x), GLint(gridSize.y))
        epoxy_glUniform1i(interleaveProgram.uniform("u_sliceRows"), GLint((gridSize.y + block - 1) / block))
        epoxy_glUniform1i(interleaveProgram.uniform("u_block"), GLint(block))
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), slices.texture)
        epoxy_glUniform1i(interleaveProgram.uniform("u_slices"), Self.gridUnit)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("putting the clouds' refinement together")
    }

    /// clouds-interleave.frag with WELKIN_CLOUDS_REPROJECT, by projection kind.
    private var reprojectPrograms: [Int32: ShaderProgram] = [:]

    /// Puts the phase `phase` of `slices` (marched for `clouds`) and the rest of the grid moved
    /// from `history` (the frame before's, drawn for `last`) into `grid` (clouds-interleave.frag's
    /// WELKIN_CLOUDS_REPROJECT): the drift of the clouds' base between the two draws and the turn
    /// of the camera.
    private func reproject(_ slices: RenderTarget, phase: Int, from history: RenderTarget, as last: CloudsDraw,
                           into grid: RenderTarget, for clouds: CloudsDraw) throws {
        let kind = clouds.projection.kind.rawValue
        let program = try reprojectPrograms[kind] ?? ShaderProgram(
            vertex: shaders.source("fullscreen.vert"),
            fragment: ShaderSource(path: shaders.path("clouds-interleave.frag"), defines: [("WELKIN_CLOUDS_REPROJECT", "1"), ("WELKIN_PROJECTION_KIND", String(kind))]))
        reprojectPrograms[kind] = program
        let block = Self.phaseBlock, size = clouds.gridSize
        epoxy_glDisable(GLenum(GL_BLEND))
        grid.bind()
        epoxy_glUseProgram(program.id)
        epoxy_glUniform2i(program.uniform("u_gridSize"), GLint(size.x), GLint(size.y))
        epoxy_glUniform1i(program.uniform("u_sliceRows"), GLint((size.y + block - 1) / block))
        epoxy_glUniform1i(program.uniform("u_block"), GLint(block))
        epoxy_glUniform1i(program.uniform("u_phase"), GLint(phase))
        epoxy_glUniform2f(program.uniform("u_gridScale"), clouds.gridScale.x, clouds.gridScale.y)
        let drift = Self.drift(from: last, to: clouds)
        epoxy_glUniform3f(program.uniform("u_reproject"), clouds.base, drift.x, drift.y)
        clouds.projection.setUniforms { program.uniform($0) }
        last.projection.setUniforms({ program.uniform($0) }, prefix: "u_lastProjection")
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), slices.texture)
        epoxy_glUniform1i(program.uniform("u_slices"), Self.gridUnit)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.historyUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), history.texture)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        epoxy_glUniform1i(program.uniform("u_history"), Self.historyUnit)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("moving the clouds' kept phases")
    }

    /// How far (km, x east, y north) the clouds drifted from draw `a` to draw `b`: the shape's
    /// offset (tiles; CloudsFrame moves it by −drift / tile, the weather map's by the same km)
    /// the short way round its wrap.
    static func drift(from a: CloudsDraw, to b: CloudsDraw) -> SIMD2<Float> {
        var d = SIMD2(b.offset.z - a.offset.z, b.offset.w - a.offset.w)
        d -= d.rounded(.toNearestOrEven)
        return -d / max(b.inverseScales.y, 1e-6)
    }

    /// The slice target for a grid of `size` cut in n × n blocks (n = `block`): a band of
    /// ⌈W/n⌉ × ⌈H/n⌉ for each of the n² slices.
    static func sliceTargetSize(_ size: SIMD2<Int>, block: Int = 4) -> SIMD2<Int> {
        SIMD2((size.x + block - 1) / block, block * block * ((size.y + block - 1) / block))
    }

    /// Marches `clouds` into `target`: every pixel, or (`slice` k) the pixel k of each n×n block
    /// (k = x + n·y within the block, n = `block`) into slice k's band of the slice target (sliceTargetSize).
    func marchGrid(_ clouds: CloudsDraw, into target: RenderTarget, slice: Int?, block: Int = 4) throws {
        let size = clouds.gridSize
        epoxy_glDisable(GLenum(GL_BLEND))
        target.bind()
        let sliceRows = (size.y + block - 1) / block
        if let slice { epoxy_glViewport(0, GLint(slice * sliceRows), GLsizei((size.x + block - 1) / block), GLsizei(sliceRows)) }
        try useMarch(MarchVariant(toneMap: clouds.toneMap, linear: clouds.linearOutput != 0, projectionKind: clouds.projection.kind.rawValue,
                                  shadowed: clouds.shadowed || packageVariants, sliced: slice != nil, fog: clouds.fogs || packageVariants,
                                  bolt: clouds.bolts || packageVariants, shafts: clouds.shafts.x > 0 || packageVariants))
        epoxy_glUseProgram(march.id)
        if let slice {
            epoxy_glUniform1i(uniform("u_slice"), GLint(slice)); epoxy_glUniform1i(uniform("u_sliceRows"), GLint(sliceRows))
            epoxy_glUniform1i(uniform("u_sliceBlock"), GLint(block))
        }
        func f(_ name: String, _ v: Float) { epoxy_glUniform1f(uniform("u_clouds." + name), v) }
        func i(_ name: String, _ v: Int32) { epoxy_glUniform1i(uniform("u_clouds." + name), v) }
        func v2(_ name: String, _ v: SIMD2<Float>) { epoxy_glUniform2f(uniform("u_clouds." + name), v.x, v.y) }
        func v3(_ name: String, _ v: SIMD3<Float>) { epoxy_glUniform3f(uniform("u_clouds." + name), v.x, v.y, v.z) }
        func v4(_ name: String, _ v: SIMD4<Float>) { epoxy_glUniform4f(uniform("u_clouds." + name), v.x, v.y, v.z, v.w) }
        let c = clouds
        c.projection.setUniforms(uniform)
        epoxy_glUniform2i(uniform("u_clouds.gridSize"), GLint(size.x), GLint(size.y))
        v2("gridScale", c.gridScale); v2("inverseGridScale", c.inverseGridScale)
        f("base", c.base); f("top", c.top); f("inverseThickness", c.inverseThickness)
        v4("profile", c.profile); v2("inverseScales", c.inverseScales)
        f("shapeWeight", c.shapeWeight); f("relief", c.relief); f("lodScale", c.lodScale); f("threshold", c.threshold); f("extinction", c.extinction)
        v4("offset", c.offset); f("evolution", c.evolution); i("steps", c.steps)
        f("maxDistance", c.maxDistance); f("farCover", c.farCover); f("hazeInverse", c.hazeInverse); v3("hazeColor", c.hazeColor); v4("hazeGlow", c.hazeGlow)
        if c.shafts.x > 0 || packageVariants { v4("shafts", c.shafts) }
        v3("sunDirection", c.sunDirection); v3("sunLight", c.sunLight); v4("sunShadow", c.sunShadow); f("lightReach", c.lightReach); v3("diffuseLight", c.diffuseLight)
        v3("ambientTop", c.ambientTop); v3("ambientBottom", c.ambientBottom); f("ambientShade", c.ambientShade); v3("flash", c.flash); v3("flashPoint", c.flashPoint)
        v3("cirrus", c.cirrus); v2("cirrusOffset", c.cirrusOffset)
        f("opacity", c.opacity); f("groundShade", c.groundShade)
        if c.fogs || packageVariants {
            let fog = c.packageFog
            v3("fog", fog.column); v3("fogAmbient", fog.ambient); v3("fogSun", fog.sun); v3("fogBalance", fog.balance)
        }
        if c.bolts || packageVariants {
            let bolt = c.packageBolt
            let flat = bolt.vertices.flatMap { [$0.x, $0.y, $0.z] }
            epoxy_glUniform3fv(uniform("u_bolt"), GLsizei(bolt.vertices.count), flat)
            epoxy_glUniform4f(uniform("u_boltLight"), bolt.light.x, bolt.light.y, bolt.light.z, bolt.light.w)
        }
        try uploadNoise()
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.weatherUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), weatherTexture)
        epoxy_glUniform1i(uniform("u_weather"), Self.weatherUnit)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.shapeUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_3D), shapeTexture)
        epoxy_glUniform1i(uniform("u_shape"), Self.shapeUnit)
        GLCapture.drawFullScreenTriangle()
        epoxy_glBindTexture(GLenum(GL_TEXTURE_3D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.weatherUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("marching clouds")
    }

    /// The grid and draw `drawUpsampled` reads next (set by `march`).
    /// The draw marched before the frame's first layer (GLRenderer's cover), which the layer's own
    /// draw then does not march again.
    private var marchedEarly: CloudsDraw?
    private var shown: (draw: CloudsDraw, grid: RenderTarget?)?
    /// The box means of the shown grid (`march(_:filtered:)` with filtered: true), else nil.
    private var shownBox: RenderTarget?

    /// Marches what this frame shows of `clouds` (CloudsDraw.draw and prepareResolving).
    /// `filtered`: the upsample reads the grid's box means through the texture unit's filter
    /// (Welkin's frames); false: the four taps by hand (an export's capture).
    func march(_ clouds: CloudsDraw, filtered: Bool) throws {
        if let early = marchedEarly {
            marchedEarly = nil
            if early == clouds { return }
        }
        shown = try prepare(clouds)
        shownBox = nil
        if filtered, let shown, let grid = shown.grid { shownBox = try boxMeans(grid, gridSize: shown.draw.gridSize) }
    }

    /// The 2×2 box means of `grid` into the pass's box target, (W + 1) × (H + 1) (clouds-box.frag).
    private func boxMeans(_ grid: RenderTarget, gridSize: SIMD2<Int>) throws -> RenderTarget {
        let size = gridSize &+ 1
        if box?.size != size {
            box?.delete(); box = nil
            let made = try RenderTarget(size: size, internalFormat: GL_RGBA32F, type: GL_FLOAT, label: "clouds.box")
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), made.texture)
            GL.filterBoundTexture2D(linear: true)
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            box = made
        }
        guard let box else { throw GLError("the clouds' box target was not made") }
        epoxy_glDisable(GLenum(GL_BLEND))
        box.bind()
        epoxy_glUseProgram(boxProgram.id)
        epoxy_glUniform2i(boxProgram.uniform("u_gridSize"), GLint(gridSize.x), GLint(gridSize.y))
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), grid.texture)
        GL.filterBoundTexture2D(linear: true)
        epoxy_glUniform1i(boxProgram.uniform("u_grid"), Self.gridUnit)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        // Back to nearest: the march writes the grid, and the texel reads read it.
        GL.filterBoundTexture2D(linear: false)
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        try GL.check("the clouds' box means")
        return box
    }

    /// Marches `clouds` ahead of its layer (filtered, Welkin's own frames), for `drawCover`.
    func marchEarly(_ clouds: CloudsDraw) throws {
        try march(clouds, filtered: true)
        marchedEarly = clouds
    }

    /// Leaves, in `target`'s stencil (cleared to 1), 1 only at pixels where the upsampled clouds
    /// are exactly opaque (1): which blocks of 4 × 4 box texels are opaque throughout, one pixel a
    /// block (clouds-cover-tiles.frag, into the pass's tiles target), then a quad writing 0 over the
    /// pixels of every other block (clouds-cover.vert, instanced), its colour masked off: the
    /// stencil costs only where the deck is not closed. Leaves `target` bound and the stencil test
    /// passing where it is 0.
    /// (A program that did not build is not tried again until the shaders are read again: a new pass.)
    func drawCover(_ clouds: CloudsDraw, into target: RenderTarget) throws {
        guard let shownBox, let shown, !coverFailed else { return }
        let programs: (tiles: ShaderProgram, quads: ShaderProgram)
        do {
            programs = try coverPrograms ?? (
                ShaderProgram(vertex: shaders.source("fullscreen.vert"), fragment: shaders.source("clouds-cover-tiles.frag")),
                ShaderProgram(vertex: shaders.source("clouds-cover.vert"), fragment: shaders.source("clouds-cover.frag")))
        } catch {
            coverFailed = true
            throw error
        }
        coverPrograms = programs
        let grid = shown.draw.gridSize
        let across = (grid.x + 3) / 4, up = (grid.y + 3) / 4
        if coverTiles?.size != SIMD2(across, up) {
            coverTiles?.delete(); coverTiles = nil
            coverTiles = try RenderTarget(size: SIMD2(across, up), internalFormat: GL_RGBA8, type: GL_UNSIGNED_BYTE, label: "clouds.cover")
        }
        guard let tiles = coverTiles else { return }
        // Which blocks are opaque.
        epoxy_glDisable(GLenum(GL_BLEND))
        tiles.bind()
        epoxy_glUseProgram(programs.tiles.id)
        epoxy_glUniform2i(programs.tiles.uniform("u_gridSize"), GLint(grid.x), GLint(grid.y))
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), shownBox.texture)
        epoxy_glUniform1i(programs.tiles.uniform("u_grid"), Self.gridUnit)
        PassTiming.time { epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        // A quad over each, into the target's stencil.
        target.bind()
        epoxy_glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        // (The target's stencil was cleared to 1: every block not opaque throughout writes 0.)
        epoxy_glEnable(GLenum(GL_STENCIL_TEST))
        epoxy_glStencilFunc(GLenum(GL_ALWAYS), 0, 0xff)
        epoxy_glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        let q = programs.quads
        epoxy_glUseProgram(q.id)
        epoxy_glUniform2f(q.uniform("u_pixelSize"), Float(shown.draw.pixelSize.x), Float(shown.draw.pixelSize.y))
        epoxy_glUniform2i(q.uniform("u_gridSize"), GLint(grid.x), GLint(grid.y))
        epoxy_glUniform2f(q.uniform("u_inverseGridScale"), shown.draw.inverseGridScale.x, shown.draw.inverseGridScale.y)
        epoxy_glUniform1i(q.uniform("u_tilesAcross"), GLint(across))
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), tiles.texture)
        epoxy_glUniform1i(q.uniform("u_tiles"), Self.gridUnit)
        PassTiming.time { epoxy_glDrawArraysInstanced(GLenum(GL_TRIANGLES), 0, 6, GLsizei(across * up)) }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        epoxy_glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        // The layers below are drawn where the stencil is still 0.
        epoxy_glStencilFunc(GLenum(GL_EQUAL), 0, 0xff)
        epoxy_glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        try GL.check("the clouds' cover")
    }
    private var coverPrograms: (tiles: ShaderProgram, quads: ShaderProgram)?
    private var coverTiles: RenderTarget?
    private var coverFailed = false

    /// Upsamples the grid into the bound target (a layer, or the output when `resolve` is set).
    func drawUpsampled(_ interactive: CloudsDraw, resolve: ResolveInput?, filtered: Bool) throws {
        let clouds = shown?.draw ?? interactive
        let grid = shown?.grid ?? self.grid
        let p = try (filtered ? upsampleFiltered : upsample)[resolve.map { ResolveVariant($0) }]
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.pixelSize, Float(clouds.pixelSize.x), Float(clouds.pixelSize.y))
        epoxy_glUniform2i(p.gridSize, GLint(clouds.gridSize.x), GLint(clouds.gridSize.y))
        epoxy_glUniform2f(p.inverseGridScale, clouds.inverseGridScale.x, clouds.inverseGridScale.y)
        if let resolve { p.composite.set(resolve) }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + Self.gridUnit))
        // Filtered: the box means (filtered bilinearly, clamped); else the grid, read texel by texel.
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), (filtered ? shownBox?.texture : grid?.texture) ?? 0)
        epoxy_glUniform1i(p.grid, Self.gridUnit)
        GLCapture.drawFullScreenTriangle()
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    }
}

/// A layer whose exactly opaque pixels leave the layers below it undrawn there (FramePlan.cover):
/// its own passes split into what runs before the frame's first layer and what composites it.
protocol GLCovering: GLDrawable {
    /// Whether this draw covers enough to pay for the cover pass (drawn at full opacity, and
    /// opaque over much of the frame).
    var covers: Bool { get }
    /// The passes made before the frame's first layer (into the layer's own targets).
    func planAhead(_ b: inout FramePlan.Builder)
    /// The passes that mark its opaque pixels in `target`'s stencil (after the frame's clear).
    func planCover(_ b: inout FramePlan.Builder, into target: String)
    /// The passes that composite it, after the layers below.
    func planComposite(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?)
    /// Draws the passes ahead (`planAhead`).
    func drawAhead(_ pass: Pass) throws
    /// Leaves 1, in `target`'s stencil (cleared to 1), only at pixels it leaves nothing below of,
    /// 0 elsewhere, and leaves `target` bound and the stencil test passing where it is 0.
    func drawCover(_ pass: Pass, into target: RenderTarget) throws
}

extension CloudsDraw: GLCovering {
    /// A deck or a broken one (its far cover at least ¼: coverage 0.64 or more; phone-snow's 0.75
    /// gains 10 ms), at full opacity: scattered heaps leave too little opaque to pay for the cover
    /// pass (look-around's cumulus over a physical sky: no gain).
    var covers: Bool { opacity == 1 && farCover >= 0.25 }
    func planAhead(_ b: inout FramePlan.Builder) { planMarch(&b) }
    func planCover(_ b: inout FramePlan.Builder, into target: String) {
        let tiles = b.target("clouds.cover", .rgba8, .persistent, size: (gridSize &+ 3) / 4,
                             why: "which blocks of 4 × 4 box means are opaque throughout, a pixel each")
        b.pass("cover blocks", program: "clouds-cover-tiles.frag", layer: b.layer, reads: ["clouds.box"], writes: tiles, blend: .replace)
        b.pass("cover", program: "clouds-cover.frag", layer: b.layer, reads: [tiles], writes: target, blend: .stencil)
    }
    func planComposite(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        planUpsample(&b, into: target, resolving: resolving)
    }
    func drawAhead(_ pass: CloudsPass) throws { try pass.marchEarly(self) }
    func drawCover(_ pass: CloudsPass, into target: RenderTarget) throws { try pass.drawCover(self, into: target) }
}

extension CloudsDraw: GLDrawable {
    typealias Pass = CloudsPass

    var canResolveFrame: Bool { true }
    var planProgram: String { "clouds-upsample.frag" }

    /// The march into the grid (a fraction of the frame's pixels), then the upsample. A viewer
    /// frame (not final quality) marches one 2×2 phase of the grid into the phases target and
    /// puts the four together (CloudsPass's phases; the first frame and any change beyond the
    /// clock march all four). A still viewer frame's refinement adds a slice of the final grid,
    /// which depends on the frames before, not on this frame: not planned.
    func plan(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        planMarch(&b)
        planUpsample(&b, into: target, resolving: resolving)
    }

    /// The march's passes, into the grid and its box means (before the frame's first layer when
    /// the layer covers those below: FramePlan.cover).
    func planMarch(_ b: inout FramePlan.Builder) {
        let grid = b.target("clouds.grid", .rgba32f, .persistent, size: gridSize, why: "the march's colour and transmittance, upsampled bilinearly")
        if isFinalQuality {
            b.pass("clouds march", program: "clouds.frag", layer: b.layer, reads: [], writes: grid, blend: .replace)
        } else {
            let phases = b.target("clouds.phases", .rgba32f, .persistent, size: CloudsPass.sliceTargetSize(gridSize, block: CloudsPass.phaseBlock),
                                  why: "the grid's four 2×2 phases, one marched a frame")
            b.pass("clouds march (a phase)", program: "clouds.frag", layer: b.layer, reads: [], writes: phases, blend: .replace)
            // A frame whose clouds or camera moved beyond the lag reads the frame before's grid, moved
            // (the two grids alternate): the same program, WELKIN_CLOUDS_REPROJECT.
            _ = b.target("clouds.history", .rgba32f, .persistent, size: gridSize, why: "the frame before's grid, moved into this one's where the clouds or camera moved beyond the kept phases' lag")
            b.pass("clouds phases together", program: "clouds-interleave.frag", layer: b.layer, reads: [phases], writes: grid, blend: .replace)
        }
        let box = b.target("clouds.box", .rgba32f, .persistent, size: gridSize &+ 1, why: "the grid's 2×2 box means, which the upsample reads once a pixel")
        b.pass("clouds box means", program: "clouds-box.frag", layer: b.layer, reads: [grid], writes: box, blend: .replace)
    }

    /// The upsample into `target` (composited, or resolving the frame).
    func planUpsample(_ b: inout FramePlan.Builder, into target: String, resolving: ResolveVariant?) {
        b.layerPass("clouds upsample", program: planProgram, into: target, resolving: resolving, reads: ["clouds.box"])
    }

    func draw(_ pass: CloudsPass, in context: GLLayerContext, into target: RenderTarget) throws {
        pass.packageVariants = context.renderer.exportVariants && context.renderer.packageVariants
        try pass.march(self, filtered: !context.renderer.exportVariants)
        try context.waitWhileRendering()   // the upsample reads the grid
        context.compositing(into: target)
        try pass.drawUpsampled(self, resolve: nil, filtered: !context.renderer.exportVariants)
    }

    func prepareResolving(_ pass: CloudsPass, in context: GLLayerContext) throws -> Bool {
        pass.packageVariants = context.renderer.exportVariants && context.renderer.packageVariants
        try pass.march(self, filtered: !context.renderer.exportVariants)
        try context.waitWhileRendering()
        return true
    }

    func drawResolving(_ pass: CloudsPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.drawUpsampled(self, resolve: resolve, filtered: !context.renderer.exportVariants)
    }
}
