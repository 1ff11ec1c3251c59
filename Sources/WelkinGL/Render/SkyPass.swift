// SkyPass: a run of sky layers (sky, cloudCover, cloudSprites) as one full-screen pass.
//
// Shaders/sky.frag is built per part sequence (WELKIN_SKY_PART0…2), per cloud-cover octave count,
// and as a layer (blended into the float target) or as the frame's last pass (composites and
// resolves itself, WELKIN_RESOLVE). Uniform structs carry SkyDraw's fields under the same names
// (u_sky.zenith, u_cover.offset, u_sprite.lit, …); sky.vert hands them to the fragments as flat
// varyings (Shaders/sky-values.glsl). The sky-only program is built up front so an error
// in the sky's shader files shows at load time.

@preconcurrency import CEpoxy
import WelkinCore
import WelkinAstronomy

final class SkyPass {
    struct Variant: Hashable {
        var parts: [Int32]
        var octaves: Int32?
        /// As the frame's last pass: its constants (nil: a layer).
        var resolve: ResolveVariant?
        /// Whether the star field can show (nil: decided by the uniform alone).
        var stars: Bool? = nil
        /// The sprite kinds compiled in (bit 1 << kind code; nil: all).
        var spriteKinds: Int? = nil
        /// The number of sprites, when few enough to reach the fragments as flat varyings
        /// (WELKIN_SPRITE_COUNT; nil: uniform arrays and a uniform count).
        var spriteCount: Int? = nil
        /// Whether the sun disc is compiled in (nil: always).
        var disc: Bool? = nil
        /// For the last pass: the result is opaque everywhere (WELKIN_OPAQUE).
        var opaque = false
        /// Values that make an operation exact to leave out: no pixel below the horizon
        /// (WELKIN_SKY_BELOW 0), no lightning (WELKIN_SKY_FLASH 0), the sky's and the cover's
        /// opacity exactly 1 (WELKIN_SKY_OPAQUE, WELKIN_COVER_OPAQUE).
        var noneBelow = false
        var noFlash = false
        var skyOpaque = false
        var coverOpaque = false
        /// Whether the physical sky's star field can show (WELKIN_PHYSICAL_STARS; nil: no physical part).
        var physicalStars: Bool? = nil
        /// The physical sky's tone map (WELKIN_TONE_MAP: ToneMap.code) and whether it writes scene-linear
        /// light (WELKIN_PHYSICAL_LINEAR); constant over a draw, so compiled in (nil: no physical part).
        var toneMap: Int32? = nil
        var physicalLinear = false
        /// A projection into the parts' panorama (WELKIN_SKY_PROJECTION: SkyProjection) and scene-linear output (WELKIN_SKY_LINEAR).
        var projection = false
        /// The projection's kind (WELKIN_PROJECTION_KIND, with `projection`).
        var projectionKind: Int32 = 0
        var linear = false
        /// The part code owning the night sky (WELKIN_NIGHT), and moonlight in the physical air (WELKIN_MOONLIGHT).
        var night: Int32? = nil
        var moonlight = false
        /// The physical night's own glow (WELKIN_NIGHT_GLOW: PhysicalSkyDraw.drawsNightGlow).
        var nightGlow = false
        /// Rod vision's colour shift (WELKIN_SCOTOPIC: PhysicalSkyDraw.scotopic > 0).
        var scotopic = false
        /// The Milky Way (WELKIN_MILKY_WAY: PhysicalSkyDraw.drawsMilkyWay).
        var milkyWay = false
        /// The zodiacal light (WELKIN_ZODIACAL: PhysicalSkyDraw.drawsZodiacalLight).
        var zodiacal = false
        /// The glare around the sun (WELKIN_SUN_GLARE: PhysicalSkyDraw.sunGlare nonzero).
        var sunGlare = false
        /// Ground fog (WELKIN_SKY_FOG: PhysicalSkyDraw.fogs).
        var fog = false
        /// The sky-view tables read through the texture unit's bilinear filter, one read for four
        /// texels (WELKIN_SKY_VIEW_FILTERED): Welkin's own programs. An export's program keeps
        /// reading the four texels itself: RGBA32F is not filterable in WebGL2 without
        /// OES_texture_float_linear, nor on iOS's GPUs.
        var filteredTables = false
        /// Below the horizon (WELKIN_SKY_GROUND: SkyGround.code; the first sky part's).
        var ground: Int32 = 0
        /// Whether the night sky has points and a Moon this frame (WELKIN_NIGHT_STARS, WELKIN_NIGHT_MOON).
        var nightStars = true
        var nightMoon = true
    }

    final class Program {
        let program: ShaderProgram
        private var locations: [String: GLint] = [:]
        let composite: CompositeUniforms

        init(_ shaders: ShaderLibrary, _ variant: Variant) throws {
            var defines: [(name: String, value: String)] = []
            for (i, code) in variant.parts.enumerated() { defines.append(("WELKIN_SKY_PART\(i)", String(code))) }
            if let octaves = variant.octaves { defines.append(("WELKIN_COVER_OCTAVES", String(octaves))) }
            defines += variant.resolve?.defines ?? []
            if let stars = variant.stars { defines.append(("WELKIN_SKY_STARS", stars ? "1" : "0")) }
            if let kinds = variant.spriteKinds { defines.append(("WELKIN_SPRITE_KINDS", String(kinds))) }
            if let count = variant.spriteCount { defines.append(("WELKIN_SPRITE_COUNT", String(count))) }
            if let disc = variant.disc { defines.append(("WELKIN_SKY_DISC", disc ? "1" : "0")) }
            if variant.opaque { defines.append(("WELKIN_OPAQUE", "1")) }
            if variant.noneBelow { defines.append(("WELKIN_SKY_BELOW", "0")) }
            if variant.noFlash { defines.append(("WELKIN_SKY_FLASH", "0")) }
            if variant.skyOpaque { defines.append(("WELKIN_SKY_OPAQUE", "1")) }
            if variant.coverOpaque { defines.append(("WELKIN_COVER_OPAQUE", "1")) }
            if let stars = variant.physicalStars { defines.append(("WELKIN_PHYSICAL_STARS", stars ? "1" : "0")) }
            if let map = variant.toneMap {
                defines.append(("WELKIN_TONE_MAP", String(map)))
                defines.append(("WELKIN_PHYSICAL_LINEAR", variant.physicalLinear ? "1" : "0"))
            }
            if variant.projection {
                defines.append(("WELKIN_SKY_PROJECTION", "1"))
                defines.append(("WELKIN_PROJECTION_KIND", String(variant.projectionKind)))
            }
            if variant.linear { defines.append(("WELKIN_SKY_LINEAR", "1")) }
            if let night = variant.night {
                defines.append(("WELKIN_NIGHT", String(night)))
                defines.append(("WELKIN_NIGHT_STARS", variant.nightStars ? "1" : "0"))
                defines.append(("WELKIN_NIGHT_MOON", variant.nightMoon ? "1" : "0"))
            }
            if variant.moonlight { defines.append(("WELKIN_MOONLIGHT", "1")) }
            if variant.nightGlow { defines.append(("WELKIN_NIGHT_GLOW", "1")) }
            if variant.scotopic { defines.append(("WELKIN_SCOTOPIC", "1")) }
            if variant.milkyWay { defines.append(("WELKIN_MILKY_WAY", "1")) }
            if variant.zodiacal { defines.append(("WELKIN_ZODIACAL", "1")) }
            if variant.sunGlare { defines.append(("WELKIN_SUN_GLARE", "1")) }
            if variant.fog { defines.append(("WELKIN_SKY_FOG", "1")) }
            if variant.filteredTables { defines.append(("WELKIN_SKY_VIEW_FILTERED", "1")) }
            if variant.ground != 0 { defines.append(("WELKIN_SKY_GROUND", String(variant.ground))) }
            program = try ShaderProgram(vertex: ShaderSource(path: shaders.path("sky.vert"), defines: defines),
                                        fragment: ShaderSource(path: shaders.path("sky.frag"), defines: defines))
            composite = CompositeUniforms(program)
        }

        /// The location of `name` (cached; −1 when the program does not use it).
        func uniform(_ name: String) -> GLint {
            if let l = locations[name] { return l }
            let l = program.uniform(name)
            locations[name] = l
            return l
        }
    }

    private let shaders: ShaderLibrary
    private var programs: [Variant: Program] = [:]
    /// When each variant was last used (a frame counter), for evicting the least recently used.
    private var lastUse: [Variant: UInt64] = [:]
    private var uses: UInt64 = 0
    /// At most this many variants are kept: drifting cloud sprites reach new combinations of kinds,
    /// counts and the sun disc for as long as a scene runs, so without a bound an hours-long
    /// session would keep every program it ever compiled.
    static let variantLimit = 48
    /// Every file the programs read.
    private(set) var files: [String]

    init(shaders: ShaderLibrary) throws {
        self.shaders = shaders
        let first = try Program(shaders, Variant(parts: [0, 1, 2], octaves: nil, resolve: .standard))
        programs[Variant(parts: [0, 1, 2], octaves: nil, resolve: .standard)] = first
        files = first.program.files
    }

    /// Draws `sky`. As a layer (`resolve` nil) it expects the float target bound and blending set;
    /// as the last pass, the RGBA8 target bound and blending off.
    func draw(_ sky: SkyDraw, pixelSize: SIMD2<Int>, resolve: ResolveInput?, exportVariant: Bool = false, package: Bool = false) throws {
        if exportVariant {
            try use(Self.exportVariant(sky, resolve: resolve.map { ResolveVariant($0) }, package: package), sky, pixelSize: pixelSize, resolve: resolve)
            GLCapture.drawFullScreenTriangle()
            return
        }
        var octaves: Int32?
        for case .cover(let c) in sky.parts { octaves = c.octaves }
        var gradient: SkyGradientDraw?
        for case .sky(let s) in sky.parts { gradient = s }
        var variant = Variant(parts: sky.kindCodes, octaves: octaves, resolve: resolve.map { ResolveVariant($0) },
                              stars: gradient.map { $0.stars.x > 0 })
        // A sky part at full opacity drawn first makes every pixel's alpha exactly 1: s + 1·(1 − s)
        // rounds to 1 for every s in [0, 1], at each part composited over it.
        if resolve != nil, case .sky(let s)? = sky.parts.first, s.opacity == 1 { variant.opaque = true }
        if resolve != nil, case .physical(let s)? = sky.parts.first, s.opacity == 1, s.linearOutput == 0 { variant.opaque = true }
        if let g = gradient {
            // Pixel centres reach y = height − ½ at most; `below` is y > horizonY.
            variant.noneBelow = sky.projection == nil && g.horizonY >= Float(pixelSize.y)
            variant.noFlash = g.flash == 0
            variant.skyOpaque = g.opacity == 1
        }
        for case .cover(let c) in sky.parts { variant.coverOpaque = c.opacity == 1 }
        for case .physical(let p) in sky.parts {
            variant.physicalStars = p.stars.x > 0
            variant.toneMap = p.toneMap
            variant.physicalLinear = p.linearOutput != 0
        }
        variant.projection = sky.projection != nil
        variant.projectionKind = sky.projection?.kind.rawValue ?? 0
        variant.linear = sky.linear
        if let owner = sky.parts.first(where: { $0.nightSky != nil }), let night = owner.nightSky {
            variant.night = owner.code
            variant.nightStars = !night.entries.isEmpty
            variant.nightMoon = night.moonVisible != 0
        }
        for case .physical(let p) in sky.parts where p.moonSkyScale > 0 && p.moonTable != nil { variant.moonlight = true }
        for case .physical(let p) in sky.parts where p.drawsNightGlow { variant.nightGlow = true }
        for case .physical(let p) in sky.parts where p.scotopic > 0 { variant.scotopic = true }
        for case .physical(let p) in sky.parts where p.drawsMilkyWay && MilkyWayMap.shared != nil { variant.milkyWay = true }
        for case .physical(let p) in sky.parts where p.drawsZodiacalLight { variant.zodiacal = true }
        for case .physical(let p) in sky.parts where p.sunGlare != .zero { variant.sunGlare = true }
        for case .physical(let p) in sky.parts where p.fogs { variant.fog = true }
        for case .physical in sky.parts { variant.filteredTables = true }
        variant.ground = sky.ground.mode
        // Where the sun disc shows at all: centre and reach in pixels (it is exactly 0 beyond).
        let disc = gradient.flatMap { g -> (center: SIMD2<Float>, reach: Float)? in
            g.sunColor == .zero ? nil : (g.sun, g.sunRadius / g.degreesPerPixel + 0.5)
        }
        if gradient != nil, disc == nil { variant.disc = false }
        let sprites = sky.parts.lazy.compactMap({ part -> CloudSpritesDraw? in
            if case .sprites(let s) = part, !s.boxes.isEmpty { return s } else { return nil }
        }).first
        // The Moon's box (centre, half size in pixels; its disc is exactly 0 beyond): its maria are
        // a loop llvmpipe would run at every pixel.
        let moon = sky.parts.lazy.compactMap(\.nightSky).first.flatMap { Self.moonBox($0) }
        // A panorama's sprites, disc and Moon are not where the view's pixels put them: one pass.
        guard (sprites != nil || disc != nil || moon != nil) && sky.projection == nil else {
            try use(variant, sky, pixelSize: pixelSize, resolve: resolve)
            GLCapture.drawFullScreenTriangle()
            return
        }
        // llvmpipe runs both sides of a branch, so a pixel pays for every cloud sprite even where
        // the box test skips it, and for every kind's shape. Drawing in scissored cells, each with
        // only the sprites whose boxes reach it (in their order), with a program that holds only
        // their kinds (or no sprite part at all where none reaches), and the sun disc only where it
        // can show, leaves every pixel's result as it was: an empty sprite part composites as
        // transparent, and a disc of 0 adds 0. The cells are cut where a box or the disc begins
        // or ends, so no pixel pays for a sprite its cell merely shares with one, and neighbouring
        // cells drawn alike are one draw (each costs llvmpipe some 30 µs, which its raster threads
        // wait for).
        var reaches: [SIMD4<Float>] = []
        if let sprites { reaches = sprites.boxes.map(Self.reach) }
        if let disc { reaches.append(SIMD4(disc.center.x, disc.center.y, disc.reach + Self.margin, disc.reach + Self.margin)) }
        if let moon { reaches.append(Self.reach(moon)) }
        var groups: [Variant: [(cell: SIMD4<Int>, subset: [Int])]] = [:]
        var order: [Variant] = []
        for row in Self.cells(pixelSize: pixelSize, around: reaches) {
            var runs: [(variant: Variant, cell: SIMD4<Int>, subset: [Int])] = []
            for cell in row {
                var v = variant
                var subset: [Int] = []
                if let sprites {
                    subset = sprites.boxes.indices.filter { Self.box(sprites.boxes[$0], reaches: cell) }
                    if subset.isEmpty {
                        v.parts = variant.parts.filter { $0 != 2 }
                    } else {
                        v.spriteKinds = subset.reduce(0) { $0 | (1 << Int(sprites.info[$1].x)) }
                        if subset.count <= Self.flatSprites { v.spriteCount = subset.count }
                    }
                }
                if let disc { v.disc = Self.circle(center: disc.center, radius: disc.reach, reaches: cell) }
                if let moon { v.nightMoon = Self.box(moon, reaches: cell) }
                // A cell continuing its row's last run of the same program and sprites widens it.
                if let last = runs.last, last.variant == v, last.subset == subset {
                    runs[runs.count - 1].cell.z += cell.z
                } else {
                    runs.append((v, cell, subset))
                }
            }
            for run in runs {
                if groups[run.variant] == nil { order.append(run.variant); groups[run.variant] = [] }
                // A run just below one of the same columns, program and sprites lengthens it.
                if let i = groups[run.variant]!.firstIndex(where: { $0.subset == run.subset && $0.cell.x == run.cell.x
                        && $0.cell.z == run.cell.z && $0.cell.y + $0.cell.w == run.cell.y }) {
                    groups[run.variant]![i].cell.w += run.cell.w
                } else {
                    groups[run.variant]!.append((run.cell, run.subset))
                }
            }
        }
        epoxy_glEnable(GLenum(GL_SCISSOR_TEST))
        defer { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)) }
        for v in order {
            let p = try use(v, sky, pixelSize: pixelSize, resolve: resolve)
            for (cell, subset) in groups[v]! {
                if let sprites, !subset.isEmpty { setSprites(sprites, p, only: subset) }
                epoxy_glScissor(GLint(cell.x), GLint(pixelSize.y - cell.y - cell.w), GLsizei(cell.z), GLsizei(cell.w))
                GLCapture.drawFullScreenTriangle()
            }
        }
    }

    /// The one program `welkin export-code --package` exports for a sky of these parts: every
    /// per-frame shortcut off (no define that leaves out an operation because this frame makes it
    /// exact), the sprites and stars in uniform arrays, the sun disc, the Moon and the stars compiled in.
    /// The resolve constants (dither, destination, output space) are the scene's, compiled in.
    /// `package`: for a Swift package, whose sky is computed on the device for any date, place and
    /// weather: a physical sky's night (stars, planets, the Moon), moonlit air, Milky Way and fog,
    /// and a palette sky's night, are compiled in at every frame, each adding exactly nothing where
    /// the frame has none (an empty star grid, no Moon, a moonlight scale of 0, the band's light 0,
    /// a fog column of 0), so one program draws every hour and weather; but fog over a colour
    /// ground, whose edge it moves.
    static func exportVariant(_ sky: SkyDraw, resolve: ResolveVariant?, package: Bool = false) -> Variant {
        var octaves: Int32?
        for case .cover(let c) in sky.parts { octaves = c.octaves }
        var variant = Variant(parts: sky.kindCodes, octaves: octaves, resolve: resolve)
        for case .physical(let p) in sky.parts {
            variant.physicalStars = true
            variant.toneMap = p.toneMap
            variant.physicalLinear = p.linearOutput != 0
        }
        variant.projection = sky.projection != nil
        variant.projectionKind = sky.projection?.kind.rawValue ?? 0
        variant.linear = sky.linear
        if let owner = sky.parts.first(where: { $0.nightSky != nil }) { variant.night = owner.code }
        for case .physical(let p) in sky.parts where p.moonSkyScale > 0 && p.moonTable != nil { variant.moonlight = true }
        // Fog is the picture's, not a shortcut: compiled in whenever the frame has it (a weather
        // fading into fog changes the program, which a package's track records and a page refuses).
        for case .physical(let p) in sky.parts where p.fogs { variant.fog = true }
        // The sun's glare, the night's glow and the rods' shift are the picture's too, and each adds
        // exactly nothing where this frame has none (a glare of 0, a glow of 0, a share of 0), so
        // they are compiled in for every physical sky: a page or package whose sun sets keeps one program.
        for case .physical in sky.parts { variant.sunGlare = true; variant.nightGlow = true; variant.scotopic = true }
        // So is the zodiacal light (its light 0 and its rows the identity where the frame has none).
        for case .physical in sky.parts { variant.zodiacal = true }
        // The Milky Way's band where the frame draws it (its map a texture of the track; a sky whose
        // night begins within the track draws with two programs, as the night sky's own).
        for case .physical(let p) in sky.parts where p.drawsMilkyWay && MilkyWayMap.shared != nil { variant.milkyWay = true }
        variant.ground = sky.ground.mode
        if package, let physical = sky.parts.first(where: { if case .physical = $0 { true } else { false } }),
           sky.parts.allSatisfy({ $0.nightSky == nil || $0.code == physical.code }) {
            variant.night = physical.code
            variant.moonlight = true
            if MilkyWayMap.shared != nil { variant.milkyWay = true }
            if sky.ground.mode != 2 { variant.fog = true }
        } else if package, let palette = sky.parts.first(where: { if case .sky = $0 { true } else { false } }),
                  sky.parts.allSatisfy({ $0.nightSky == nil || $0.code == palette.code }) {
            // A palette sky's dated night (stars, planets, the Moon and its glow), likewise.
            variant.night = palette.code
        }
        return variant
    }

    /// Binds the program for `variant` and sets every uniform it uses.
    @discardableResult
    private func use(_ variant: Variant, _ sky: SkyDraw, pixelSize: SIMD2<Int>, resolve: ResolveInput?) throws -> Program {
        let p: Program
        if let cached = programs[variant] { p = cached } else {
            p = try Program(shaders, variant)
            if programs.count >= Self.variantLimit, let oldest = lastUse.min(by: { $0.value < $1.value })?.key {
                programs[oldest] = nil   // its ShaderProgram deletes the GL program
                lastUse[oldest] = nil
            }
            programs[variant] = p
        }
        uses += 1
        lastUse[variant] = uses
        epoxy_glUseProgram(p.program.id)
        epoxy_glUniform2f(p.uniform("u_pixelSize"), Float(pixelSize.x), Float(pixelSize.y))
        for part in sky.parts where variant.parts.contains(part.code) {
            switch part {
            case .sky(let s): setSky(s, p)
            case .cover(let c): setCover(c, p)
            case .sprites(let s): setSprites(s, p)
            case .physical(let s): setPhysical(s, p, variant)
            }
        }
        if variant.night != nil {
            if let night = sky.parts.lazy.compactMap(\.nightSky).first {
                setNight(night, p)
            } else if let owner = sky.parts.first(where: { $0.code == variant.night }) {
                // A package's program at a frame without a night: one that draws nothing.
                if case .physical(let s) = owner { setNight(s.packageNight, p) }
                if case .sky(let s) = owner { setNight(s.packageNight, p) }
            }
        }
        if let projection = sky.projection { projection.setUniforms { p.uniform($0) } }
        if let resolve { p.composite.set(resolve) }
        return p
    }

    /// Up to this many sprites in a cell reach its fragments as flat varyings (a uniform array
    /// costs llvmpipe a load per use per fragment); more stay uniform arrays.
    static let flatSprites = 4

    /// The frame cut into rows of cells (x, y top-left with y down, width, height in pixels) at
    /// every edge of the given areas (centre, half size), so each area covers a cell wholly or not
    /// at all. Edges fall on multiples of 4 pixels counted from the left and from the bottom (GL's
    /// origin), rounded outwards: llvmpipe shades 4×4 blocks, and a block cut by a scissor edge
    /// is shaded once for each side.
    static func cells(pixelSize: SIMD2<Int>, around areas: [SIMD4<Float>]) -> [[SIMD4<Int>]] {
        let width = pixelSize.x, height = pixelSize.y
        var xs: Set<Int> = [0, width], ys: Set<Int> = [0, height]
        // Edges as Ints, clamped while still floats: an area far off the frame (or NaN) adds no cut.
        func edge(_ v: Float, _ n: Int) -> Int { v >= Float(n) ? n : (v > 0 ? Int(v) : 0) }
        for a in areas {
            let x0 = edge((a.x - a.z).rounded(.down), width), x1 = edge((a.x + a.z).rounded(.up), width)
            if x0 > 0, x0 < width { xs.insert(x0 / 4 * 4) }
            if x1 > 0, x1 < width { xs.insert(min((x1 + 3) / 4 * 4, width)) }
            // Rows counted from the bottom for the alignment: b = height − y.
            let b0 = height - edge((a.y + a.w).rounded(.up), height), b1 = height - edge((a.y - a.w).rounded(.down), height)
            if b0 > 0, b0 < height { ys.insert(height - b0 / 4 * 4) }
            if b1 > 0, b1 < height { ys.insert(height - min((b1 + 3) / 4 * 4, height)) }
        }
        let columns = xs.sorted(), rows = ys.sorted()
        return zip(rows, rows.dropFirst()).map { y0, y1 in
            zip(columns, columns.dropFirst()).map { x0, x1 in SIMD4(x0, y0, x1 - x0, y1 - y0) }
        }
    }

    /// The Moon's disc as a box (centre, half size, pixels): the panorama stretches it by 1/cos el
    /// across; half a pixel of antialiasing and a pixel to spare around it. Nil when it is not drawn.
    static func moonBox(_ n: NightSkyDraw) -> SIMD4<Float>? {
        guard n.moonVisible != 0, n.moonInverseRadius > 0, n.moonCosElevation > 0.01 else { return nil }
        var da = n.moonAzimuth - n.viewAzimuth
        da = da - 360 * (da / 360 + 0.5).rounded(.down)
        let radius = 1 / n.moonInverseRadius / n.degreesPerPixel
        let box = SIMD4(n.centerX + da / n.degreesPerPixel, n.horizonY - n.moonElevation / n.degreesPerPixel,
                        radius / n.moonCosElevation + 1.5, radius + 1.5)
        return box.x.isFinite && box.y.isFinite && box.z.isFinite ? box : nil
    }

    /// Pixels added around every sprite box and the sun disc, so rounding never drops one.
    static let margin: Float = 2

    /// A sprite box's reach (centre, half size) as `box(_:reaches:)` tests it.
    static func reach(_ b: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(b.x, b.y, abs(b.z) * 1.05 + margin, abs(b.w) * 1.05 + margin)
    }

    /// Whether a sprite's box (centre, half size; the shader tests |x|, |y| ≤ 1.05 of it) may
    /// touch a pixel centre of `cell`, with `margin` to spare.
    static func box(_ b: SIMD4<Float>, reaches cell: SIMD4<Int>) -> Bool {
        let r = reach(b)
        return r.x + r.z > Float(cell.x) && r.x - r.z < Float(cell.x + cell.z)
            && r.y + r.w > Float(cell.y) && r.y - r.w < Float(cell.y + cell.w)
    }

    /// Whether a circle (pixels) may touch a pixel centre of `cell`, with `margin` to spare.
    static func circle(center c: SIMD2<Float>, radius: Float, reaches cell: SIMD4<Int>) -> Bool {
        let nearX = min(max(c.x, Float(cell.x)), Float(cell.x + cell.z))
        let nearY = min(max(c.y, Float(cell.y)), Float(cell.y + cell.w))
        let dx = c.x - nearX, dy = c.y - nearY
        let r = radius + margin
        return dx * dx + dy * dy <= r * r
    }

    private func set(_ p: Program, _ name: String, _ v: Float) { epoxy_glUniform1f(p.uniform(name), v) }
    private func set(_ p: Program, _ name: String, _ v: SIMD2<Float>) { epoxy_glUniform2f(p.uniform(name), v.x, v.y) }
    private func set(_ p: Program, _ name: String, _ v: SIMD3<Float>) { epoxy_glUniform3f(p.uniform(name), v.x, v.y, v.z) }
    private func set(_ p: Program, _ name: String, _ v: UInt32) { epoxy_glUniform1ui(p.uniform(name), v) }

    private func setSky(_ s: SkyGradientDraw, _ p: Program) {
        set(p, "u_sky.zenith", s.zenith)
        set(p, "u_sky.horizon", s.horizon)
        set(p, "u_sky.glow", s.glow)
        set(p, "u_sky.sunColor", s.sunColor)
        set(p, "u_sky.sun", s.sun)
        set(p, "u_sky.degreesPerPixel", s.degreesPerPixel)
        set(p, "u_sky.horizonY", s.horizonY)
        set(p, "u_sky.inverseHorizonY", s.inverseHorizonY)
        set(p, "u_sky.sunRadius", s.sunRadius)
        set(p, "u_sky.stars", s.stars)
        set(p, "u_sky.inverseStarCell", s.inverseStarCell)
        set(p, "u_sky.pixelsPerPoint", s.pixelsPerPoint)
        set(p, "u_sky.time", s.time)
        set(p, "u_sky.seed", s.seed)
        set(p, "u_sky.flash", s.flash)
        set(p, "u_sky.opacity", s.opacity)
        if s.groundMode == 2 { set(p, "u_groundColor", s.groundColor) }
    }

    /// The sky-view tables last uploaded (the Sun's on unit 1, the Moon's on unit 4), the night
    /// sky's grid (unit 2) and entries (unit 3), and their textures.
    private var skyViewTexture: GLuint = 0
    private var uploadedTable: SkyViewTable?
    private var moonViewTexture: GLuint = 0
    private var uploadedMoonTable: SkyViewTable?
    /// Whether the Moon's unit holds the one black texel (a package's program by day).
    private var moonViewEmpty = false
    private var nightTextures: [GLuint] = [0, 0]
    /// The Milky Way's map (unit 5), uploaded once.
    private var milkyWayTexture: GLuint = 0
    private var zodiacalTexture: GLuint = 0
    /// The zodiacal panorama the texture holds (nil: none yet), and the RGBA buffer it is uploaded
    /// from (kept, so a frame allocates nothing).
    private var zodiacalUploaded: [SIMD3<Float>]?
    private var zodiacalTexels: [Float] = []
    private var uploadedNight: (cells: [SIMD2<UInt32>], entries: [SIMD4<Float>], size: SIMD2<Int32>)?

    deinit {
        guard GL.hasCurrentContext else { return }
        for var t in [skyViewTexture, moonViewTexture, milkyWayTexture, zodiacalTexture] + nightTextures where t != 0 { epoxy_glDeleteTextures(1, &t) }
    }

    /// A nearest-filtered texture (the shaders read texels, as the CPU does), made on first use and
    /// bound to `unit`.
    private func bind(_ texture: inout GLuint, unit: Int32) {
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0 + unit))
        if texture == 0 {
            epoxy_glGenTextures(1, &texture)
            epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        }
        epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    }

    /// Uploads `table` (RGBA32F) unless it is the one already there, and binds it to texture unit 1
    /// (the Moon's: unit 4): filtered bilinearly for a program that reads it so
    /// (WELKIN_SKY_VIEW_FILTERED), nearest for one that filters it itself, as the CPU does.
    private func bindSkyView(_ table: SkyViewTable, moon: Bool = false, filtered: Bool) {
        if moon { bind(&moonViewTexture, unit: 4) } else { bind(&skyViewTexture, unit: 1) }
        GL.filterBoundTexture2D(linear: filtered)
        if (moon ? uploadedMoonTable : uploadedTable) !== table {
            table.texels.withUnsafeBufferPointer { b in
                epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(SkyViewTable.width), GLsizei(2 * SkyViewTable.height), 0,
                                   GLenum(GL_RGBA), GLenum(GL_FLOAT), b.baseAddress)
            }
            if moon { uploadedMoonTable = table; moonViewEmpty = false } else { uploadedTable = table }
        }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// The night sky's grid and entries (uploaded when they changed) and its uniforms.
    private func setNight(_ n: NightSkyDraw, _ p: Program) {
        let changed = uploadedNight.map { $0.size != n.gridSize || $0.cells != n.cells || $0.entries != n.entries } ?? true
        bind(&nightTextures[0], unit: 2)
        if changed {
            n.cells.withUnsafeBufferPointer { b in
                epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RG32UI, GLsizei(n.gridSize.x), GLsizei(n.gridSize.y), 0,
                                   GLenum(GL_RG_INTEGER), GLenum(GL_UNSIGNED_INT), b.baseAddress)
            }
        }
        bind(&nightTextures[1], unit: 3)
        if changed {
            let width = NightSkyDraw.entriesWidth
            let rows = max((n.entries.count + width - 1) / width, 1)
            var texels = n.entries
            texels.append(contentsOf: repeatElement(SIMD4<Float>.zero, count: rows * width - n.entries.count))
            texels.withUnsafeBufferPointer { b in
                epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(width), GLsizei(rows), 0,
                                   GLenum(GL_RGBA), GLenum(GL_FLOAT), b.baseAddress)
            }
            uploadedNight = (n.cells, n.entries, n.gridSize)
        }
        epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
        epoxy_glUniform1i(p.uniform("u_nightCells"), 2)
        epoxy_glUniform1i(p.uniform("u_nightEntries"), 3)
        set(p, "u_night.viewAzimuth", n.viewAzimuth)
        set(p, "u_night.centerX", n.centerX)
        set(p, "u_night.horizonY", n.horizonY)
        set(p, "u_night.degreesPerPixel", n.degreesPerPixel)
        set(p, "u_night.pixelAngle", n.pixelAngle)
        set(p, "u_night.gridOrigin", n.gridOrigin)
        set(p, "u_night.inverseCell", n.inverseCell)
        epoxy_glUniform2i(p.uniform("u_night.gridSize"), n.gridSize.x, n.gridSize.y)
        epoxy_glUniform1i(p.uniform("u_night.moonVisible"), n.moonVisible)
        set(p, "u_night.moonAzimuth", n.moonAzimuth)
        set(p, "u_night.moonElevation", n.moonElevation)
        set(p, "u_night.moonCosElevation", n.moonCosElevation)
        set(p, "u_night.moonInverseRadius", n.moonInverseRadius)
        set(p, "u_night.moonSun", n.moonSun)
        set(p, "u_night.moonFaceX", n.moonFaceX)
        set(p, "u_night.moonFaceY", n.moonFaceY)
        set(p, "u_night.moonFaceZ", n.moonFaceZ)
        set(p, "u_night.moonRadiance", n.moonRadiance)
        set(p, "u_night.earthshine", n.earthshine)
        set(p, "u_night.moonGlow", n.moonGlow)
        set(p, "u_night.haloRatio", n.haloRatio)
    }

    private func setPhysical(_ s: PhysicalSkyDraw, _ p: Program, _ variant: Variant) {
        bindSkyView(s.table, filtered: variant.filteredTables)
        epoxy_glUniform1i(p.uniform("u_skyView"), 1)
        set(p, "u_physical.viewAzimuth", s.viewAzimuth)
        set(p, "u_physical.centerX", s.centerX)
        set(p, "u_physical.horizonY", s.horizonY)
        set(p, "u_physical.degreesPerPixel", s.degreesPerPixel)
        set(p, "u_physical.pixelAngle", s.pixelAngle)
        set(p, "u_physical.sunAzimuth", s.sunAzimuth)
        set(p, "u_physical.sunVector", s.sunVector)
        set(p, "u_physical.sunElevation", s.sunElevation)
        set(p, "u_physical.sunSine", s.sunSine)
        set(p, "u_physical.sunCosine", s.sunCosine)
        set(p, "u_physical.sunMetric", s.sunMetric)
        set(p, "u_physical.horizonElevation", s.horizonElevation)
        set(p, "u_physical.mieG", s.mieG)
        set(p, "u_physical.mieScale", s.mieScale)
        set(p, "u_physical.sunRadiance", s.sunRadiance)
        set(p, "u_physical.sunRadius", s.sunRadius)
        set(p, "u_physical.exposure", s.exposure)
        set(p, "u_physical.stars", s.stars)
        set(p, "u_physical.inverseStarCell", s.inverseStarCell)
        set(p, "u_physical.pixelsPerPoint", s.pixelsPerPoint)
        set(p, "u_physical.time", s.time)
        set(p, "u_physical.seed", s.seed)
        set(p, "u_physical.flash", s.flash)
        set(p, "u_physical.opacity", s.opacity)
        set(p, "u_physical.moonSkyScale", s.moonTable == nil ? 0 : s.moonSkyScale)
        set(p, "u_physical.moonAzimuth", s.moonAzimuth)
        set(p, "u_physical.moonSine", s.moonSine)
        set(p, "u_physical.moonCosine", s.moonCosine)
        set(p, "u_physical.scotopic", s.scotopic)
        if variant.sunGlare { set(p, "u_sunGlare", s.sunGlare) }
        if variant.fog {
            // No fog where a package's program has it compiled in: PhysicalSkyDraw.packageFog.
            let fog = s.packageFog
            set(p, "u_fog", fog.column)
            set(p, "u_fogAmbient", fog.ambient)
            set(p, "u_fogSun", fog.sun)
            set(p, "u_fogBalance", fog.balance)
        }
        if s.groundMode == 2 { set(p, "u_groundColor", s.groundColor) }
        if let table = s.moonTable, s.moonSkyScale > 0 {
            bindSkyView(table, moon: true, filtered: variant.filteredTables)
            epoxy_glUniform1i(p.uniform("u_moonView"), 4)
        } else if variant.moonlight {
            // A package's program (moonlight compiled in) while the Moon lights no air: one black
            // texel (PhysicalSkyDraw.packageMoonView), never read (the scale is 0).
            bind(&moonViewTexture, unit: 4)
            if uploadedMoonTable != nil || !moonViewEmpty {
                var black = SIMD4<Float>.zero
                epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, 1, 1, 0, GLenum(GL_RGBA), GLenum(GL_FLOAT), &black)
                uploadedMoonTable = nil
                moonViewEmpty = true
            }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            epoxy_glUniform1i(p.uniform("u_moonView"), 4)
        }
        if variant.nightGlow {
            var flat: [Float] = []
            flat.reserveCapacity(s.nightGlow.count * 3)
            // The glow as this frame draws it: zero where it is too faint to draw (drawsNightGlow).
            for v in s.nightGlow { flat += s.drawsNightGlow ? [v.x, v.y, v.z] : [0, 0, 0] }
            epoxy_glUniform3fv(p.uniform("u_nightGlow"), GLsizei(s.nightGlow.count), flat)
            set(p, "u_nightGlowGround", s.drawsNightGlow ? s.nightGlowGround : .zero)
        }
        if variant.milkyWay, let map = MilkyWayMap.shared {
            let fresh = milkyWayTexture == 0
            bind(&milkyWayTexture, unit: 5)
            if fresh {
                // Filtered bilinearly, repeating in longitude, clamped at the poles (as the CPU reads it).
                map.rgba.withUnsafeBufferPointer { b in
                    epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(map.width), GLsizei(map.height), 0,
                                       GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), b.baseAddress)
                }
                GL.filterBoundTexture2D(linear: true)
                epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_REPEAT)
                epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
            }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            epoxy_glUniform1i(p.uniform("u_milkyWay"), 5)
            // The band, or none where a package's program has it compiled in: PhysicalSkyDraw.packageMilkyWay.
            let band = s.packageMilkyWay
            epoxy_glUniform3fv(p.uniform("u_galactic"), 3, band.galactic.flatMap { [$0.x, $0.y, $0.z] })
            epoxy_glUniform3fv(p.uniform("u_milkyWayLight"), GLsizei(band.light.count), band.light.flatMap { [$0.x, $0.y, $0.z] })
        }
        if variant.zodiacal {
            // The panorama, RGBA32F, uploaded when it changes; zero light where the frame draws none
            // (an export program has it compiled in).
            let n = PhysicalSkyDraw.zodiacalColumns * NightGlow.samples
            let panorama = s.drawsZodiacalLight && s.zodiacalPanorama.count == n ? s.zodiacalPanorama : []
            let fresh = zodiacalTexture == 0
            bind(&zodiacalTexture, unit: 6)
            if fresh || zodiacalUploaded != panorama {
                if zodiacalTexels.count != 4 * n { zodiacalTexels = [Float](repeating: 0, count: 4 * n) }
                for i in 0..<n {
                    let v = panorama.isEmpty ? SIMD3<Float>.zero : panorama[i]
                    zodiacalTexels[4 * i] = v.x; zodiacalTexels[4 * i + 1] = v.y; zodiacalTexels[4 * i + 2] = v.z
                }
                zodiacalTexels.withUnsafeBufferPointer { b in
                    if fresh {
                        epoxy_glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(PhysicalSkyDraw.zodiacalColumns), GLsizei(NightGlow.samples), 0,
                                           GLenum(GL_RGBA), GLenum(GL_FLOAT), b.baseAddress)
                    } else {
                        epoxy_glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(PhysicalSkyDraw.zodiacalColumns), GLsizei(NightGlow.samples),
                                              GLenum(GL_RGBA), GLenum(GL_FLOAT), b.baseAddress)
                    }
                }
                zodiacalUploaded = panorama
            }
            // Read through the texture unit's bilinear filter, clamped at the edges (one filtered read
            // cost llvmpipe 1.3–2 ms a 720p frame, four texelFetch reads 3.5–4.5).
            if fresh { GL.filterBoundTexture2D(linear: true) }
            epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
            epoxy_glUniform1i(p.uniform("u_zodiacal"), 6)
        }
    }

    private func setCover(_ c: CloudCoverDraw, _ p: Program) {
        set(p, "u_cover.offset", c.offset)
        set(p, "u_cover.inverseScale", c.inverseScale)
        set(p, "u_cover.centerX", c.centerX)
        set(p, "u_cover.horizonY", c.horizonY)
        set(p, "u_cover.inverseHorizonY", c.inverseHorizonY)
        set(p, "u_cover.threshold", c.threshold)
        set(p, "u_cover.sharpness", c.sharpness)
        set(p, "u_cover.darkness", c.darkness)
        set(p, "u_cover.lit", c.lit)
        set(p, "u_cover.shadow", c.shadow)
        set(p, "u_cover.glow", c.glow)
        set(p, "u_cover.sun", c.sun)
        set(p, "u_cover.degreesPerPixel", c.degreesPerPixel)
        set(p, "u_cover.key", c.key)
        epoxy_glUniform1i(p.uniform("u_coverOctaves"), c.octaves)
        set(p, "u_cover.opacity", c.opacity)
    }

    /// The sprites' uniforms; `subset` (indices, in order) limits the boxes to a cell's.
    private func setSprites(_ s: CloudSpritesDraw, _ p: Program, only subset: [Int]? = nil) {
        let boxes = subset.map { $0.map { s.boxes[$0] } } ?? s.boxes
        let info = subset.map { $0.map { s.info[$0] } } ?? s.info
        let count = min(boxes.count, CloudSpritesLayer.maximumCount)
        epoxy_glUniform1i(p.uniform("u_spriteCount"), GLint(count))
        if count > 0 {
            boxes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: Float.self) { epoxy_glUniform4fv(p.uniform("u_spriteBoxes"), GLsizei(count), $0.baseAddress) }
            }
            info.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: Float.self) { epoxy_glUniform4fv(p.uniform("u_spriteInfo"), GLsizei(count), $0.baseAddress) }
            }
        }
        guard subset == nil else { return }
        set(p, "u_sprite.lit", s.lit)
        set(p, "u_sprite.shadow", s.shadow)
        set(p, "u_sprite.glow", s.glow)
        set(p, "u_sprite.sun", s.sun)
        set(p, "u_sprite.degreesPerPixel", s.degreesPerPixel)
        set(p, "u_sprite.opacity", s.opacity)
    }
}

extension SkyPass: GLLayerPass {
    convenience init(shaders: ShaderLibrary, warn: @escaping (String) -> Void) throws { try self.init(shaders: shaders) }
}

extension SkyDraw: GLDrawable {
    var planProgram: String { "sky.frag" }
    typealias Pass = SkyPass

    var canResolveFrame: Bool { true }
    /// Every sky pass: the physical sky's atmosphere (its table's samples, phase functions, tone
    /// curve; ~15 ms at 720p on llvmpipe), the palette's gradient, glow, stars and cells (~5 ms).
    var shadesExpensively: Bool { true }

    func draw(_ pass: SkyPass, in context: GLLayerContext, into target: RenderTarget) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: nil, exportVariant: context.renderer.exportVariants, package: context.renderer.packageVariants)
    }

    func drawResolving(_ pass: SkyPass, in context: GLLayerContext, resolve: ResolveInput) throws {
        try pass.draw(self, pixelSize: context.pixelSize, resolve: resolve, exportVariant: context.renderer.exportVariants, package: context.renderer.packageVariants)
    }
}
