// The physical sky in pixels: the sky-view table sampled per pixel, the Mie phase at the pixel's
// own angle to the sun, the limb-darkened sun disc, exposure and a tone curve.
//
// Mirrored line for line by Shaders/atmosphere.glsl (same names, constants and order). Every
// per-frame quantity (the table, the sun's colour through the air, the exposure) is computed here
// in Double when the Frame is built; per pixel there is only float arithmetic.

import Foundation
import WelkinAstronomy

public struct PhysicalSkyDraw: Sendable, Equatable {
    /// The sky-view table (SkyViewTable's layout).
    public var table: SkyViewTable
    /// Pixel → direction, as the palette sky's panorama: azimuth = viewAzimuth + (x − centerX)·dpp,
    /// elevation = (horizonY − y)·dpp (degrees).
    public var viewAzimuth: Float
    public var centerX: Float
    public var horizonY: Float
    public var degreesPerPixel: Float
    /// Degrees one output pixel spans (the disc's and the horizon's antialiasing).
    public var pixelAngle: Float
    /// The sun: degrees, and as a unit vector (x east, y north, z up).
    public var sunAzimuth: Float
    public var sunVector: SIMD3<Float>
    /// The sun's elevation (degrees), and its sine and cosine.
    public var sunElevation: Float
    public var sunSine: Float
    public var sunCosine: Float
    /// The geometric horizon's elevation, degrees (the table's middle).
    public var horizonElevation: Float
    /// Cornette–Shanks: g, and 3/(8π)(1 − g²)/(2 + g²).
    public var mieG: Float
    public var mieScale: Float
    /// The disc's centre radiance × exposure (limb darkening divides it by 1 − u/3 so the disc
    /// delivers the transmitted irradiance), and its radius in degrees.
    public var sunRadiance: SIMD3<Float>
    public var sunRadius: Float
    /// The glare around the sun on screen: its irradiance through the air × exposure × sunGlare
    /// (zero for scene-linear output, a hidden sun or sunGlare 0), spread by glarePSF.
    public var sunGlare: SIMD3<Float> = .zero
    /// Below the horizon (SkyGround.code) and a colour ground's linear colour.
    public var groundMode: Int32 = 0
    public var groundColor: SIMD3<Float> = .zero
    /// 2^exposure.
    public var exposure: Float
    public var toneMap: Int32
    /// 1: write scene-linear radiance × exposure (EXR), no tone curve, no clamp.
    public var linearOutput: Int32
    /// Stars as the palette sky draws them: (visibility, density), cell, pixels per point.
    public var stars: SIMD2<Float>
    public var inverseStarCell: SIMD2<Float>
    public var pixelsPerPoint: Float
    public var time: Float
    public var seed: UInt32
    public var flash: Float
    public var opacity: Float
    /// A dated sky's stars, planets and Moon (nil when it shows none).
    public var night: NightSkyDraw?
    /// Moonlight scattered by the air: the sky-view table for the Moon's elevation, the Moon's
    /// irradiance over the Sun's (0: none), its azimuth and the sine and cosine of its elevation.
    public var moonTable: SkyViewTable?
    public var moonSkyScale: Float = 0
    public var moonAzimuth: Float = 0
    public var moonSine: Float = 0
    public var moonCosine: Float = 1
    /// The night's own light (NightGlow: airglow and the natural background, a city's dome) at
    /// NightGlow.samples elevations, and the ground's under it, before exposure. Drawn when
    /// `drawsNightGlow` (once it is 10⁻⁴ of the sky's zenith or more: never by day); always part of
    /// `skyRadiance` (the stars' limiting magnitude, the clouds' light).
    public var nightGlow: [SIMD3<Float>] = []
    public var nightGlowGround: SIMD3<Float> = .zero
    /// With the zodiacal light drawn apart (a dated sky's night: NightGlow's `zodiacalApart`), the
    /// glow with its typical share of it, for `skyRadiance` (the stars' limiting magnitude, the
    /// clouds' light: as before it was drawn apart); empty otherwise.
    public var nightGlowFull: [SIMD3<Float>] = []
    public var drawsNightGlow = false
    /// Rod vision: how far the sky's colour gives way to its scotopic luminance in a blue-grey
    /// (0 by day, 1 on a moonlit night), from the eye's adaptation to the key luminance in cd/m²
    /// across Larson, Rushmeier & Piatko's (1997) mesopic range, 5.6 … 0.0056 cd/m². On screen only.
    public var scotopic: Float = 0
    /// The Milky Way (MilkyWayMap: the band's light above the galactic poles', which the glow holds):
    /// drawn on a night whose glow is drawn and whose catalogue stars show (NightSky.galactic), unless
    /// the layer's `milkyWay` is 0. `galactic`: the rows turning a horizon direction (x east, y north,
    /// z up) into galactic; `milkyWayLight`: at the glow's elevations (NightGlow.sample), the radiance
    /// of a map value of 1: the poles' integrated starlight × the map's scale × `milkyWay`, dimmed by
    /// the air toward that elevation as the glow is (its zenith value is the one seen through the air).
    public var drawsMilkyWay = false
    public var galactic: [SIMD3<Float>] = []
    public var milkyWayLight: [SIMD3<Float>] = []
    /// The zodiacal light (ZodiacalLight: Leinert et al. 1998's Table 17 by helioecliptic longitude
    /// and ecliptic latitude): drawn with the night's glow on a dated sky's night (NightSky.ecliptic),
    /// whose glow then leaves out its typical share (NightGlow.zodiacalZenith). `ecliptic`: the rows
    /// turning a horizon direction into ecliptic (identity when not drawn: no direction is then
    /// degenerate); `sunEclipticLongitude`: the Sun's, degrees; `zodiacalLight`: at the glow's
    /// elevations, the radiance of a table value of 1 in its colour, dimmed by the air toward that
    /// elevation (the table is the light above the air). `zodiacalPanorama`: the light itself
    /// (`zodiacalAt`) every `zodiacalStep`° of azimuth (0…360°, `zodiacalColumns` columns) at each
    /// of the glow's elevations, row by row, which both renderers read bilinearly per pixel
    /// (`zodiacal`): the light varies over 5° and more (Table 17's steps), and the table's
    /// trigonometry per pixel cost llvmpipe 3.5–4.5 ms a 720p frame, the panorama's one filtered
    /// read 1.3–2.
    public var drawsZodiacalLight = false
    public var ecliptic: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
    public var sunEclipticLongitude: Float = 0
    public var zodiacalLight: [SIMD3<Float>] = []
    public var zodiacalPanorama: [SIMD3<Float>] = []
    public static let zodiacalStep: Float = 5
    public static let zodiacalColumns = 73
    /// The picture's metric at the sun, (g₁₁, g₁₂, g₂₂): the sun's disc and glare are measured as
    /// the output picture shows them, so the disc is round on screen under every camera (a
    /// rectilinear camera's off-axis ellipse, the panorama's dash high in the sky, drawn round with
    /// the same area). For an offset (east, up) from the sun in radians, its distance² is
    /// g₁₁ e² + 2 g₁₂ e u + g₂₂ u²: (JJᵀ)⁻¹ |det J| for J the projection's tangent radians per
    /// output pixel at the sun (sunMetric(…)). (1, 0, 1): the sky's own angles (an environment map's
    /// panorama or cube faces, and a sun the picture does not find).
    public var sunMetric = SIMD3<Float>(1, 0, 1)
    /// Ground fog (PhysicalSkyDraw.fogTransmittance, fogLight): its optical depth straight up from
    /// the eye and straight down to the ground (× 1/|sin elevation| along a slanted ray), its phase
    /// function's g; the light it scatters toward the eye, × exposure: the ambient (the sky's and the
    /// ground's light averaged over every direction, and the sun's light diffused by the fog itself)
    /// and the direct sun's, (1 − g²)/4π, which the Henyey–Greenstein phase shapes. `fogs` false: none.
    public var fogs = false
    public var fogColumn: Float = 0
    public var fogGround: Float = 0
    public var fogG: Float = 0
    public var fogAmbient: SIMD3<Float> = .zero
    public var fogSun: SIMD3<Float> = .zero
    /// The eye's adaptation to the fog's colour: gains on every channel of what the fog shows
    /// (1: none), so fog lit by a low, yellow sun reads as the pale grey the eye sees, not as tan.
    public var fogBalance: SIMD3<Float> = SIMD3(repeating: 1)

    /// Fog droplets' Henyey–Greenstein asymmetry: water droplets' single-scattering g is about
    /// 0.85; the fog's many orders of scattering widen the sun's aureole, so a little less.
    public static let fogPhaseG = 0.8
    /// Auto exposure inside fog brings the fog's mean luminance to this (AgX shows it near 200/255:
    /// fog looks bright, as photographers expose it).
    public static let fogKey = 1.2
    /// How far the eye adapts to the fog's colour, 0…1 (Fairchild's degree of adaptation D for a
    /// scene that fills the view is 0.8–1).
    public static let fogAdaptation = 0.85

    /// The sun's apparent diameter at 1 au, degrees.
    public static let sunDiameter = 0.533
    /// Linear limb darkening, I(θ)/I(0) = 1 − u (1 − cos θ), u for the visible band (the 0.6 of
    /// physicalColor here and in atmosphere.glsl: a prelude constant of 0.6 would collide with the
    /// shaders' other 0.6s).
    public static let limbDarkening: Float = 0.6
    /// Auto exposure: the key luminance (Ψms, the Moon's, the night's glow) is brought to this
    /// value, less the night's darkening: `nightCurve` · x² stops for a sky x = s − `nightKnee`
    /// stops further below the noon sky's than the knee (x through a softplus), so twilight shows
    /// as it is, a moonlit sky (some 22 stops below noon) loses 3 stops and reads as a deep blue,
    /// and a moonless one (25) `nightDarkest`, darker still: no more, as the dark-adapted eye
    /// sees the Milky Way's band (1.5–2 stops above a dark site's background) plainly.
    public static let autoKey = 0.25
    public static let nightKnee = 12.0
    public static let nightCurve = 0.03
    public static let nightDarkest = 4.0
    /// Auto exposure follows the sky over this window of scene seconds (a day cycle at any speed
    /// changes it smoothly), sampled this many times.
    public static let autoWindow = 1.0
    public static let autoSamples = 5
    /// The Sun's illuminance above the air, lux: radiance 1 in the model's units is 133 000 cd/m².
    public static let solarIlluminance = 133_000.0
    /// The mesopic range (cd/m² of adaptation) and the rods' colour on screen: a blue of luminance
    /// 1, as night scenes are shown blue-shifted (Thompson, Shirley & Ferwerda 2002 shift grey to
    /// (1.05, 0.97, 1.27); that alone reads as a lilac grey under the tone curve, so the blue is
    /// stronger and the rods take at most `scotopicMaximum` of the colour: a moonlit sky stays blue).
    public static let photopicAdaptation = 5.6
    public static let scotopicAdaptation = 0.0056
    public static let scotopicTint = SIMD3<Float>(0.82, 1.01, 1.6)
    public static let scotopicMaximum = 0.6

    /// The rods' share at an adaptation luminance (cd/m²): smooth in log between the mesopic bounds.
    public static func scotopicShare(adaptation la: Double) -> Double {
        let high = log10(photopicAdaptation), low = log10(scotopicAdaptation)
        let u = min(max((high - log10(max(la, 1e-12))) / (high - low), 0), 1)
        return scotopicMaximum * u * u * (3 - 2 * u)
    }

    public init(_ layer: SkyLayer, state: SkyState, opacity: Double, time: Double, seed: UInt64,
                pixelSize: SIMD2<Int>, scale: SIMD2<Double>, linear: Bool = false, panoramaPixelAngle: Double? = nil,
                environmentMap: Bool = false) {
        let settings = layer.physical
        let altitude = settings.atmosphere.altitude / 1000
        // The night's own light and the Moon's, which the exposure keys to as well as the Sun's.
        // Through a weather cross-fade, the two end atmospheres' tables (FadingAtmosphere), never a
        // set built for one frame's in-between aerosols.
        let air = FadingAtmosphere(settings.atmosphere, weather: state.weather)
        let glow = NightGlow(air, r: air.coefficients.groundRadius + altitude, groundAlbedo: settings.atmosphere.groundAlbedo,
                             pollution: settings.lightPollution, zodiacalApart: state.night != nil)
        var moonKey: SIMD2<Double>?
        if let moon = state.night?.moon, moon.elevation > -6 {
            moonKey = SIMD2(sin(moon.elevation * .pi / 180), pow(10, -0.4 * (moon.magnitude - NightSkyDraw.sunMagnitude)))
        }
        // The sky of one atmosphere: its table, the sun's transmittance and the exposure.
        func sky(_ c: AtmosphereCoefficients) -> (table: SkyViewTable, sun: SIMD3<Double>, ev: Double) {
            let table = SkyViewTable.blended(for: SkyViewTable.Key(coefficients: c, altitude: altitude, sunElevation: state.sunElevation))
            let sun = AtmosphereTables.shared(for: c).transmittanceToSun(r: c.groundRadius + altitude, mus: sin(state.sunElevation * .pi / 180))
            let ev: Double
            switch settings.exposure {
            case .ev(let stops): ev = stops
            case .auto:
                ev = linear ? 0 : Self.autoExposure(layer, coefficients: c, altitude: altitude, time: time, glow: glow.meanLuminance, moon: moonKey)
            }
            return (table, sun, ev)
        }
        // A weather cross-fade blends the skies of its two ends (two atmospheres for the whole
        // fade, rather than one for every frame's blend of the aerosols).
        let fade = state.weather.aerosolFade
        let ends = FadingAtmosphere.ends(settings.atmosphere, weather: state.weather)
        let blended: (table: SkyViewTable, sun: SIMD3<Double>, ev: Double)
        if ends.count == 2 {
            let a = sky(ends[0]), b = sky(ends[1])
            blended = (SkyViewTable.mixed(a.table, b.table, weight: fade.weight), a.sun + (b.sun - a.sun) * fade.weight,
                       a.ev + (b.ev - a.ev) * fade.weight)
        } else {
            blended = sky(ends[0])
        }
        table = blended.table
        let sunTransmittance = blended.sun
        let dpp = state.degreesPerPixel(width: pixelSize.x)
        viewAzimuth = Float(state.viewAzimuth)
        centerX = Float(pixelSize.x) / 2
        horizonY = Float(state.horizon * Double(pixelSize.y))
        degreesPerPixel = Float(dpp)
        pixelAngle = Float(dpp)
        sunAzimuth = Float(state.sunAzimuth)
        sunVector = SIMD3<Float>(state.sunDirection)
        sunElevation = Float(state.sunElevation)
        sunSine = Float(sin(state.sunElevation * .pi / 180))
        sunCosine = Float(cos(state.sunElevation * .pi / 180))
        horizonElevation = Float(table.horizonElevation)
        let g = settings.atmosphere.mieG
        mieG = Float(g)
        mieScale = Float(3 / (8 * Double.pi) * (1 - g * g) / (2 + g * g))
        var multiplier = pow(2, blended.ev)
        if !linear {
            // The eye adapts to the sky's key luminance now (the Sun's, the Moon's and the glow's).
            // (Through a weather fade, its two ends' tables: never a set for one frame's aerosols.)
            let r = air.coefficients.groundRadius + altitude
            func luminance(_ c: SIMD3<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }
            var key = luminance(air.multipleScattering(r: r, mus: sin(state.sunElevation * .pi / 180))) + glow.meanLuminance
            if let moonKey { key += luminance(air.multipleScattering(r: r, mus: moonKey.x)) * moonKey.y }
            scotopic = Float(Self.scotopicShare(adaptation: key * Self.solarIlluminance))
        }
        exposure = Float(multiplier)
        // Ground fog: the layer's, or the weather's (its extinction fades with the weather).
        let fog: Fog?
        switch settings.fog {
        case .off: fog = nil
        case .fog(let f): fog = f
        case .weather:
            let sigma = state.weather.parameters.fog
            fog = sigma > 0 ? Fog(visibility: Fog.koschmieder / sigma) : nil
        }
        // The sun's light through the fog above the eye (1: no fog), the sun's light it diffuses and
        // the direct sun's at the eye (the ambient's other part is the sky's: below, once the table is read).
        var fogSunTransmittance = 1.0
        var fogAmbientRadiance = SIMD3<Double>.zero, fogDirect = SIMD3<Double>.zero
        if let fog {
            let sigma = fog.extinction, height = fog.height, eye = settings.atmosphere.altitude
            let column = sigma * height * Foundation.exp(-eye / height)
            let sunSine = sin(state.sunElevation * .pi / 180)
            fogs = true
            fogColumn = Float(column)
            fogGround = Float(sigma * height * (1 - Foundation.exp(-eye / height)))
            fogG = Float(Self.fogPhaseG)
            fogSunTransmittance = sunSine > 0 ? Foundation.exp(-column / max(sunSine, 1e-4)) : 0
            // The sun's light the fog diffuses (two-stream: a conservative slab of optical depth
            // τ/μ passes 1/(1 + ¾(1 − g)τ/μ) of it, the direct beam e^(−τ/μ) of that unscattered),
            // spread evenly: radiance E·μ·(T − T_direct)/π.
            let mu = max(sunSine, 0)
            let total = 1 / (1 + 0.75 * (1 - Self.fogPhaseG) * column / max(mu, 0.05))
            let diffused = sunTransmittance * (mu * max(total - fogSunTransmittance, 0) / Double.pi)
            fogAmbientRadiance = diffused
            fogDirect = sunTransmittance * fogSunTransmittance
        }
        let radius = Self.sunDiameter / 2 * .pi / 180
        let solidAngle = Double.pi * radius * radius
        let u = Double(Self.limbDarkening)
        let centre = sunTransmittance / (solidAngle * (1 - u / 3))
        var disc = centre * multiplier
        // On screen the disc's brightest channel is held at the tone curve's white, so its colour
        // (white at noon, orange at the horizon) shows rather than clipping to white as a camera
        // exposed for the sky would; the EXR keeps its radiance.
        // (Seen through fog, the disc's light after the fog's transmittance is what is held there,
        // so a bright sun shows as a pale white disc through fog that hides the sky behind it.)
        let white = settings.toneMap.white / max(fogSunTransmittance, 1e-30)
        if !linear, disc.max() > white { disc *= white / disc.max() }
        sunRadiance = settings.sunDisc ? SIMD3<Float>(disc) : .zero
        sunRadius = Float(Self.sunDiameter / 2 * settings.sunScale)
        // The glare is the eye's (a camera's): an environment map (equirect, cube, fisheye export) is
        // looked through later and leaves it out, as scene-linear output does.
        if !linear && !environmentMap && settings.sunDisc {
            sunGlare = SIMD3<Float>(sunTransmittance * (multiplier * settings.sunGlare * fogSunTransmittance))
        }
        toneMap = settings.toneMap.code
        linearOutput = linear ? 1 : 0
        groundMode = layer.ground.code
        if case .color(let c) = layer.ground { groundColor = ColorMath.srgbToLinear(SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))) }
        let e = state.sunElevation
        let night = min(max((-6 - e) / 6, 0), 1)
        let random = layer.stars && layer.effectiveStarSource == .random
        let visible = random ? night * night * (3 - 2 * night) * state.weather.parameters.starVisibility : 0
        stars = SIMD2(Float(visible), Float(layer.starDensity))
        inverseStarCell = SIMD2<Float>(1 / (SkyGradientDraw.starCellPoints * scale))
        pixelsPerPoint = Float(scale.x)
        self.time = Float(time)
        self.seed = UInt32(truncatingIfNeeded: seed)
        flash = Float(state.weather.flash * 0.35)
        self.opacity = Float(opacity)
        if let panoramaPixelAngle { pixelAngle = Float(panoramaPixelAngle) }
        nightGlow = glow.sky.map { SIMD3<Float>($0) }
        if state.night != nil { nightGlowFull = glow.full.map { SIMD3<Float>($0) } }
        nightGlowGround = SIMD3<Float>(glow.ground)
        if fogs {
            // The sky's and the ground's light averaged over every direction (12 azimuths × 8 bands
            // equal in solid angle), which the fog scatters toward the eye whatever its phase, and
            // the sun's light it diffuses; the direct sun's is shaped per pixel (fogLight).
            var sum = SIMD3<Double>.zero
            for band in 0..<8 {
                let el = asin(-1 + (Double(band) + 0.5) / 4) * 180 / .pi
                for k in 0..<12 {
                    sum += SIMD3<Double>(skyRadiance(azimuth: sunAzimuth + Float(k) * 30, elevation: Float(el)))
                }
            }
            let ambient = sum / 96 + fogAmbientRadiance
            if case .auto = settings.exposure, !linear {
                // The eye adapts to the fog it stands in as much as the fog hides the sky overhead:
                // the fog's mean luminance (its ambient and the direct sun's averaged over
                // directions) is brought to `fogKey`, bright as fog looks.
                func luminance(_ c: SIMD3<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }
                let fogLuminance = luminance(ambient + fogDirect / (4 * Double.pi))
                if fogLuminance > 0 {
                    let hidden = 1 - Foundation.exp(-Double(fogColumn))
                    let lift = (log2(Self.fogKey / fogLuminance) - log2(multiplier)) * hidden
                    let factor = pow(2, lift)
                    multiplier *= factor
                    exposure = Float(multiplier)
                    var disc = SIMD3<Double>(sunRadiance) * factor
                    let white = settings.toneMap.white / max(fogSunTransmittance, 1e-30)
                    if disc.max() > white { disc *= white / disc.max() }
                    sunRadiance = SIMD3<Float>(disc)
                    sunGlare = sunGlare * Float(factor)
                }
            }
            // Chromatic adaptation (von Kries, in the display's primaries): as far as the fog fills
            // the view, `fogAdaptation` of the way to seeing its light as neutral.
            let mean = (ambient.x + ambient.y + ambient.z) / 3
            if !linear, ambient.min() > 0 {
                let hidden = 1 - Foundation.exp(-Double(fogColumn))
                let w = Self.fogAdaptation * hidden
                let y = 0.2126 * ambient.x + 0.7152 * ambient.y + 0.0722 * ambient.z
                let neutral = SIMD3<Double>(repeating: mean) / ambient
                var gains = SIMD3<Double>(repeating: 1) + (neutral - SIMD3<Double>(repeating: 1)) * w
                let balanced: Double = 0.2126 * ambient.x * gains.x + 0.7152 * ambient.y * gains.y + 0.0722 * ambient.z * gains.z
                gains *= y / balanced
                fogBalance = SIMD3<Float>(gains)
                sunGlare = sunGlare * fogBalance
            }
            var light = SIMD3<Float>(ambient)
            if scotopic > 0 { light = Self.rodShift(light, scotopic) }
            fogAmbient = light * exposure * fogBalance
            let g = Self.fogPhaseG
            fogSun = SIMD3<Float>(fogDirect * (multiplier * (1 - g * g) / (4 * Double.pi))) * fogBalance
        }
        defer {
            // The glow is drawn once it is 10⁻⁴ of the sky's zenith (Sun's and Moon's light) or more:
            // by day it is some 10⁻⁷ of it, and leaving it out changes no pixel.
            func luminance(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }
            let zenith = luminance(scatteredSkyRadiance(azimuth: sunAzimuth, elevation: 90))
            drawsNightGlow = luminance((nightGlowFull.isEmpty ? nightGlow : nightGlowFull)[0]) >= 1e-4 * zenith
            if drawsNightGlow, settings.milkyWay > 0, let rows = state.night?.galactic, let map = MilkyWayMap.shared {
                let r = air.coefficients.groundRadius + altitude
                let zenithTransmittance = air.transmittanceToSun(r: r, mus: 1)
                let unit = NightGlow.radiance(magnitudesPerSquareArcsecond: MilkyWayMap.poleMagnitude) * map.scale * settings.milkyWay
                milkyWayLight = (0..<NightGlow.samples).map { k in
                    let t = air.transmittanceToSun(r: r, mus: sin(NightGlow.elevation(sample: k) * .pi / 180))
                    var dim = SIMD3<Double>(repeating: 0)
                    for i in 0..<3 where zenithTransmittance[i] > 0 { dim[i] = t[i] / zenithTransmittance[i] }
                    return SIMD3<Float>(dim * unit)
                }
                galactic = rows.map { SIMD3<Float>($0) }
                // Until the band's brightest (a map value of 1 at the zenith) is 1 % of the sky's
                // zenith (the Sun's and Moon's light in the air and the glow) it changes the picture
                // by about 1/255 at most: left out, on both renderers (early twilight, a bright
                // Moon's sky), as the moonlit air is. (A Bortle 8 city's zenith leaves it at 7 %.)
                let sky = zenith + luminance(nightGlow[NightGlow.samples - 1])
                drawsMilkyWay = luminance(milkyWayLight[NightGlow.samples - 1]) >= 0.01 * sky
                if !drawsMilkyWay { galactic = []; milkyWayLight = [] }
            }
            // The zodiacal light, whenever the glow that leaves out its share is drawn.
            if drawsNightGlow, let rows = state.night?.ecliptic {
                let r = air.coefficients.groundRadius + altitude
                let unit = StarColor.rgb(colorIndex: ZodiacalLight.colorIndex) * NightGlow.radiance(magnitudesPerSquareArcsecond: ZodiacalLight.unitMagnitude)
                zodiacalLight = (0..<NightGlow.samples).map { k in
                    SIMD3<Float>(air.transmittanceToSun(r: r, mus: sin(NightGlow.elevation(sample: k) * .pi / 180)) * unit)
                }
                ecliptic = rows.map { SIMD3<Float>($0) }
                let e = state.sunElevation * .pi / 180, a = state.sunAzimuth * .pi / 180
                let sun = SIMD3<Double>(cos(e) * sin(a), cos(e) * cos(a), sin(e))
                sunEclipticLongitude = Float(atan2((rows[1] * sun).sum(), (rows[0] * sun).sum()) * 180 / .pi)
                drawsZodiacalLight = true
                var panorama: [SIMD3<Float>] = []
                panorama.reserveCapacity(Self.zodiacalColumns * NightGlow.samples)
                for k in 0..<NightGlow.samples {
                    let el = Float(NightGlow.elevation(sample: k))
                    for c in 0..<Self.zodiacalColumns { panorama.append(zodiacalAt(azimuth: Float(c) * Self.zodiacalStep, elevation: el, sample: k)) }
                }
                zodiacalPanorama = panorama
            }
        }
        guard let sky = state.night else { return }
        // The night sky under this atmosphere: its transmittance dims and reddens every point, the
        // Moon's light scatters in it (once the Sun's sky no longer drowns it), and the sky's own
        // brightness sets the faintest star that shows.
        let tables = air
        let r = tables.coefficients.groundRadius + altitude
        if let moon = sky.moon, moon.elevation > -6, state.sunElevation < -4 {
            moonTable = tables.skyView(altitude: altitude, sunElevation: moon.elevation)
            moonSkyScale = Float(pow(10, -0.4 * (moon.magnitude - NightSkyDraw.sunMagnitude)))
            moonAzimuth = Float(moon.azimuth)
            moonSine = Float(sin(moon.elevation * .pi / 180))
            moonCosine = Float(cos(moon.elevation * .pi / 180))
            // Until the moonlit air is at least 1 % of the Sun's light in it (overhead and toward
            // the Moon) it changes the picture by about 1/255 at most: left out, on both renderers
            // (the second table lookup costs llvmpipe some 10 ms a 720p frame).
            func luminance(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }
            var moonBright: Float = 0, sunBright: Float = 0
            for (az, el) in [(Float(moon.azimuth), Float(90)), (Float(moon.azimuth), max(Float(moon.elevation), 5))] {
                let elr = el * (Float.pi / 180)
                let nu = min(max(sin(elr) * sunSine + cos(elr) * sunCosine * cos((az - sunAzimuth) * (Float.pi / 180)), -1), 1)
                let nuMoon = min(max(sin(elr) * moonSine + cos(elr) * moonCosine, -1), 1)
                sunBright = max(sunBright, luminance(scattered(azimuth: az, elevation: el, nu: nu)))
                moonBright = max(moonBright, luminance(scatteredFrom(moonTable?.texels ?? table.texels, sourceAzimuth: moonAzimuth, azimuth: az, elevation: el, nu: nuMoon)) * moonSkyScale)
            }
            if !(moonBright >= 1e-2 * sunBright) { moonTable = nil; moonSkyScale = 0 }
        }
        let copy = self
        // Stars on screen look as designed under the exposure "auto" gives a dark site's moonless
        // night, and dim with it under the Moon or a city's glow.
        let noon = tables.multipleScattering(r: r, mus: 1)
        let nightExposure = pow(2, Self.keyStops(glow.naturalMeanLuminance, noon: 0.2126 * noon.x + 0.7152 * noon.y + 0.0722 * noon.z))
        let light = NightSkyDraw.Light.physical(
            exposure: multiplier, nightExposure: nightExposure,
            transmittance: { e in tables.transmittanceToSun(r: r, mus: sin(max(e, -5) * .pi / 180)) },
            skyLuminance: { az, el in
                let y = copy.skyRadiance(azimuth: Float(az), elevation: Float(el))
                return Double(0.2126 * y.x + 0.7152 * y.y + 0.0722 * y.z)
            },
            white: linear ? nil : settings.toneMap.white)
        let draw = NightSkyDraw(sky, state: state, layer: layer, light: light, time: time, pixelSize: pixelSize,
                                pixelAngle: Double(pixelAngle), panorama: panoramaPixelAngle != nil, pointScale: (scale.x + scale.y) / 2)
        self.night = draw.isEmpty ? nil : draw
    }

    /// The sky's radiance looking at azimuth/elevation (degrees) before exposure: the Sun's and
    /// Moon's scattered light and the night's glow (what the limiting magnitude sees).
    public func skyRadiance(azimuth az: Float, elevation el: Float) -> SIMD3<Float> {
        scatteredSkyRadiance(azimuth: az, elevation: el)
            + NightGlow.sample(nightGlowFull.isEmpty ? nightGlow : nightGlowFull, ground: nightGlowGround, elevation: el, horizon: horizonElevation)
    }

    /// The Sun's and Moon's scattered light alone.
    public func scatteredSkyRadiance(azimuth az: Float, elevation el: Float) -> SIMD3<Float> {
        let elr = el * (Float.pi / 180)
        let nu = min(max(sin(elr) * sunSine + cos(elr) * sunCosine * cos((az - sunAzimuth) * (Float.pi / 180)), -1), 1)
        var radiance = scattered(azimuth: az, elevation: el, nu: nu)
        if moonSkyScale > 0, let moonTable {
            let nuMoon = min(max(sin(elr) * moonSine + cos(elr) * moonCosine * cos((az - moonAzimuth) * (Float.pi / 180)), -1), 1)
            radiance = radiance + scatteredFrom(moonTable.texels, sourceAzimuth: moonAzimuth, azimuth: az, elevation: el, nu: nuMoon) * moonSkyScale
        }
        return radiance
    }

    /// The atmosphere under the weather: its own visibility if it names one, otherwise its
    /// aerosols times the weather's factor (clear: 1, so a steady clear sky is the atmosphere as given).
    public static func coefficients(_ a: Atmosphere, aerosols: Double) -> AtmosphereCoefficients {
        var c = AtmosphereCoefficients(a)
        if a.visibility == nil, aerosols != 1 {
            c.mieScattering *= aerosols
            c.mieExtinction *= aerosols
        }
        return c
    }

    /// Stops that bring the sky's key luminance (Ψms at the observer, the average brightness of
    /// its scattered light, with the Moon's and the night's glow) to `autoKey` less the night's
    /// darkening (keyStops), averaged over the last `autoWindow` seconds of the Sun's elevation.
    /// `glow`: NightGlow.meanLuminance; `moon`: the sine of its elevation and its irradiance over
    /// the Sun's. A function of the scene and t alone.
    public static func autoExposure(_ layer: SkyLayer, coefficients: AtmosphereCoefficients, altitude: Double, time: Double,
                                    glow: Double = 0, moon: SIMD2<Double>? = nil) -> Double {
        let tables = AtmosphereTables.shared(for: coefficients)
        let r = coefficients.groundRadius + altitude
        func luminance(_ c: SIMD3<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }
        let noon = luminance(tables.multipleScattering(r: r, mus: 1))
        var night = glow
        if let moon { night += luminance(tables.multipleScattering(r: r, mus: moon.x)) * moon.y }
        var sum = 0.0
        for k in 0..<autoSamples {
            let t = time - autoWindow * Double(k) / Double(autoSamples - 1)
            let elevation = k == 0 ? nil : SkyState.sunElevation(of: layer, time: t)
            let e = elevation ?? SkyState.sunElevation(of: layer, time: time)
            let y = luminance(tables.multipleScattering(r: r, mus: sin(e * .pi / 180)))
            sum += keyStops(y + night, noon: noon)
        }
        return sum / Double(autoSamples)
    }

    /// The stops "auto" gives a sky of key luminance y whose noon sky's is `noon`: log₂(key / y)
    /// less nightCurve · softplus(s − nightKnee)² (at most nightDarkest), s = log₂(noon / y) the
    /// stops below noon.
    public static func keyStops(_ y: Double, noon: Double) -> Double {
        let y = max(y, 1e-30)
        let x = log2(noon / y) - nightKnee
        let soft = x > 40 ? x : log2(1 + exp2(x))
        return log2(autoKey / y) - min(nightCurve * soft * soft, nightDarkest)
    }

    /// The premultiplied display colour (or, with linearOutput, scene-linear radiance) at p.
    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> { physicalColor(p) }

    /// atmosphere.glsl's physicalColor.
    @inlinable public func physicalColor(_ p: SIMD2<Float>) -> SIMD4<Float> {
        var az = viewAzimuth + (p.x - centerX) * degreesPerPixel
        var el = (horizonY - p.y) * degreesPerPixel
        // Past the zenith (or the nadir) a panorama looks down the other side.
        if el > 90 { el = 180 - el; az = az + 180 }
        if el < -90 { el = -180 - el; az = az + 180 }
        el = min(max(el, -90), 90)
        // The elevation looked at; `el` is the one the air's light is read at. Without the model's
        // ground the horizon's light continues below it.
        let seen = el
        let under = horizonElevation - seen
        if groundMode != 0 { el = max(el, horizonElevation) }
        // The cosine of the angle to the sun, from the spherical law of cosines: three sines and
        // cosines a pixel (llvmpipe pays for each).
        let elr = el * (Float.pi / 180)
        let ce = cos(elr)
        let nu = min(max(sin(elr) * sunSine + ce * sunCosine * cos((az - sunAzimuth) * (Float.pi / 180)), -1), 1)
        var radiance = scattered(azimuth: az, elevation: el, nu: nu)
        if moonSkyScale > 0, let moonTable {
            // Moonlight in the air: the same table lookup toward the Moon, scaled by its irradiance.
            let nuMoon = min(max(sin(elr) * moonSine + ce * moonCosine * cos((az - moonAzimuth) * (Float.pi / 180)), -1), 1)
            radiance = radiance + scatteredFrom(moonTable.texels, sourceAzimuth: moonAzimuth, azimuth: az, elevation: el, nu: nuMoon) * moonSkyScale
        }
        let h = horizonElevation
        if drawsNightGlow { radiance = radiance + nightGlow(el, h) }
        if drawsMilkyWay, let map = MilkyWayMap.shared {
            // The band above the horizon (none on the ground, as the stars).
            radiance = radiance + milkyWay(map, azimuth: az, sine: sin(elr), cosine: ce, elevation: el, horizon: h)
                * clamp01((seen - h) / pixelAngle + 0.5)
        }
        if drawsZodiacalLight {
            // The zodiacal light above the horizon, as the band.
            radiance = radiance + zodiacal(azimuth: az, elevation: el, horizon: h)
                * clamp01((seen - h) / pixelAngle + 0.5)
        }
        if scotopic > 0 { radiance = Self.rodShift(radiance, scotopic) }
        // The sun's disc, and its glare.
        let distance = Self.sunDistance(elevation: el, azimuth: az, cosElevation: ce, sunElevation: sunElevation, sunAzimuth: sunAzimuth,
                                        sunCosine: sunCosine, metric: sunMetric)
        var cover = clamp01((sunRadius - distance) / pixelAngle + 0.5) * clamp01((seen - h) / pixelAngle + 0.5)
        var night = SIMD3<Float>.zero
        if let n = self.night {
            // The Moon in front of the sun (an eclipse) and the stars; neither below the horizon.
            let moon = n.nightMoonColor(p)
            let above = clamp01((seen - h) / pixelAngle + 0.5)
            let hidden = 1 - moon.w * above
            cover = cover * hidden
            night = (n.nightStarLight(p) * hidden + SIMD3(moon.x, moon.y, moon.z)) * above
        }
        if cover > 0 {
            let rr = min(distance / sunRadius, 1)
            let limb = 1 - 0.6 * (1 - (1 - rr * rr).squareRoot())
            radiance = radiance * exposure + sunRadiance * (limb * cover)
        } else {
            radiance = radiance * exposure
        }
        // Ground fog in front of it all (the disc, the air, the ground, the Moon and stars); the
        // glare is the eye's, after it (its light already through the fog to the sun).
        var fogT: Float = 1
        var fogColor = SIMD3<Float>.zero
        if fogs {
            fogT = fogTransmittance(seen)
            fogColor = fogLight(nu)
            radiance = radiance * fogBalance * fogT + fogColor * (1 - fogT)
            night = night * fogT
        }
        if sunGlare != .zero { radiance = radiance + sunGlare * Self.glarePSF(max(distance, sunRadius)) }
        radiance = radiance + night
        if linearOutput != 0 {
            var c = radiance + SIMD3(repeating: flash)
            if groundMode == 2 {
                let ground = fogs ? groundColor * fogT + fogColor * (1 - fogT) : groundColor
                c = c + (ground - c) * groundFade(under)
            }
            return SIMD4(c * opacity, opacity)
        }
        // In fog over a colour ground, one tone map a pixel (atmosphere.glsl): the fog's light where
        // only the ground shows, the fogged sky elsewhere (the horizon's band: the fog's own colour).
        let groundShare = groundMode == 2 && fogs ? groundFade(under) : 0
        let mapped = ToneMapping.applyToneMap(toneMap, groundShare >= 1 ? fogColor : radiance)
        var rgb = mapped
        if stars.x > 0 && seen > 0 {
            var starLight = SkyGradientDraw.starField(p, inverseCell: inverseStarCell, density: stars.y, seed: seed,
                                                      pixelsPerPoint: pixelsPerPoint, time: time) * (stars.x * smoothUnit(seen * 0.2))
            if fogs { starLight = starLight * fogT }
            rgb = rgb + starLight
        }
        rgb = rgb + SIMD3(repeating: flash)
        if groundMode == 2 {
            // A colour ground is display colour: seen through the fog, mixed with the fog's display colour.
            if fogs {
                let ground = groundColor * fogT + mapped * (1 - fogT)
                rgb = rgb + (ground - rgb) * groundShare
            } else {
                rgb = rgb + (groundColor - rgb) * groundFade(under)
            }
        }
        let clamped = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        return SIMD4(ColorMath.encodeSRGBUnit(clamped) * opacity, opacity)
    }

    /// atmosphere.glsl's fogTransmittance: the fog's e^(−τ) looking at elevation `seen` (degrees):
    /// up, out of the fog (τ = column / sin e); down, to a flat ground at the eye's height below
    /// (τ = ground / |sin e|); with no ground (`none`), through fog all the way below the horizon.
    @inlinable public func fogTransmittance(_ seen: Float) -> Float {
        let s = sin(seen * (Float.pi / 180))
        let tau: Float
        if groundMode == 1 || s >= 0 {
            tau = fogColumn / max(s, 1e-6)
        } else {
            tau = fogGround / max(-s, 1e-6)
        }
        return exp(-tau)
    }

    /// atmosphere.glsl's groundFade: how much of a colour ground shows `under` degrees below the
    /// horizon: faded in through SkyGround.fadeDegrees of haze, or, in fog (which is the haze), from
    /// the horizon's pixel on.
    @inlinable public func groundFade(_ under: Float) -> Float {
        fogs ? clamp01(under / pixelAngle + 0.5) : smoothUnit(under * (1 / SkyGround.fadeDegrees))
    }

    /// atmosphere.glsl's fogLight: the fog's radiance × exposure whose cosine to the sun is nu.
    @inlinable public func fogLight(_ nu: Float) -> SIMD3<Float> {
        let g = fogG
        let k = 1 + g * g - 2 * g * nu
        return fogAmbient + fogSun * (1 / (k * k.squareRoot()))
    }

    /// atmosphere.glsl's nightGlow: the night's own light at elevation el (NightGlow.sample).
    @inlinable public func nightGlow(_ el: Float, _ horizon: Float) -> SIMD3<Float> {
        NightGlow.sample(nightGlow, ground: nightGlowGround, elevation: el, horizon: horizon)
    }

    /// atmosphere.glsl's milkyWay: the band's radiance looking at azimuth `az` (degrees) and an
    /// elevation of sine `sine` and cosine `cosine` (`el` degrees, for the air's dimming): the
    /// direction in galactic coordinates (l, b), the map's encoded texels (MilkyWayMap.encoded) read
    /// there bilinearly as GL's filter reads a texture repeating in l and clamped at the poles (texel
    /// centres at u = (i + ½)/width), squared into light, times milkyWayLight at el. (llvmpipe
    /// filters 8-bit texels with 8-bit weights, within half a step of the float weights here: the
    /// light differs by well under 1/255 on screen.)
    @inlinable public func milkyWay(_ map: MilkyWayMap, azimuth az: Float, sine: Float, cosine: Float, elevation el: Float,
                                    horizon: Float) -> SIMD3<Float> {
        let azr = az * (Float.pi / 180)
        let d = SIMD3<Float>(cosine * sin(azr), cosine * cos(azr), sine)
        let g0 = galactic[0], g1 = galactic[1], g2 = galactic[2]
        let gx = g0.x * d.x + g0.y * d.y + g0.z * d.z
        let gy = g1.x * d.x + g1.y * d.y + g1.z * d.z
        let gz = g2.x * d.x + g2.y * d.y + g2.z * d.z
        var l = atan2(gy, gx) * (180 / Float.pi)
        if l < 0 { l = l + 360 }
        let b = asin(min(max(gz, -1), 1)) * (180 / Float.pi)
        let w = map.width, h = map.height
        let x = l * (1 / Float(360)) * Float(w) - 0.5
        let y = min(max((90 - b) * (1 / Float(180)) * Float(h) - 0.5, 0), Float(h - 1))
        let xf = x.rounded(.down)
        let fx = x - xf
        // x is in [−½, w − ½): the texel left of it is −1 … w − 1.
        var x0 = Int(xf)
        if x0 < 0 { x0 = x0 + w }
        let x1 = x0 + 1 == w ? 0 : x0 + 1
        let y0 = min(Int(y), h - 2)
        let fy = y - Float(y0)
        func texel(_ i: Int, _ j: Int) -> SIMD3<Float> {
            let o = 4 * (j * w + i)
            return SIMD3<Float>(map.encoded[o], map.encoded[o + 1], map.encoded[o + 2])
        }
        let t00 = texel(x0, y0), t10 = texel(x1, y0), t01 = texel(x0, y0 + 1), t11 = texel(x1, y0 + 1)
        let top = t00 + (t10 - t00) * fx
        let bottom = t01 + (t11 - t01) * fx
        let v = top + (bottom - top) * fy
        return v * v * NightGlow.sample(milkyWayLight, ground: .zero, elevation: el, horizon: horizon)
    }

    /// atmosphere.glsl's zodiacal: the zodiacal light looking at azimuth `az` and elevation `el`
    /// (degrees), none below `horizon`: `zodiacalPanorama` read bilinearly, across azimuth
    /// (wrapped into 0…360° as GLSL's mod does) and across the glow's elevations (NightGlow.sample's),
    /// as GL's filter reads it at the texel centres' coordinates (llvmpipe's filter weights are
    /// within rounding of these: well under 1/255 on screen for a light this faint).
    @inlinable public func zodiacal(azimuth az: Float, elevation el: Float, horizon: Float) -> SIMD3<Float> {
        if el < horizon { return .zero }
        let a = az - 360 * (az * (1 / Float(360))).rounded(.down)
        let u = a * (1 / Self.zodiacalStep)
        let c = min(max(Int(u), 0), Self.zodiacalColumns - 2)
        let fu = u - Float(c)
        let (k, fk) = NightGlow.position(elevation: el)
        let n = Self.zodiacalColumns
        let t00 = zodiacalPanorama[k * n + c], t10 = zodiacalPanorama[k * n + c + 1]
        let t01 = zodiacalPanorama[(k + 1) * n + c], t11 = zodiacalPanorama[(k + 1) * n + c + 1]
        let low = t00 + (t10 - t00) * fu
        let high = t01 + (t11 - t01) * fu
        return low + (high - low) * fk
    }

    /// The zodiacal light toward azimuth `az` and elevation `el` (degrees; the glow's sample `k`):
    /// the direction in ecliptic coordinates, its longitude from the Sun's folded into 0…180° and
    /// its latitude's size, Table 17 there (zodiacalValue), times zodiacalLight[k].
    public func zodiacalAt(azimuth az: Float, elevation el: Float, sample k: Int) -> SIMD3<Float> {
        let azr = az * (Float.pi / 180), elr = el * (Float.pi / 180)
        let d = SIMD3<Float>(cos(elr) * sin(azr), cos(elr) * cos(azr), sin(elr))
        let e0 = ecliptic[0], e1 = ecliptic[1], e2 = ecliptic[2]
        let ex = e0.x * d.x + e0.y * d.y + e0.z * d.z
        let ey = e1.x * d.x + e1.y * d.y + e1.z * d.z
        let ez = e2.x * d.x + e2.y * d.y + e2.z * d.z
        var dl = abs(atan2(ey, ex) * (180 / Float.pi) - sunEclipticLongitude)
        if dl > 180 { dl = 360 - dl }
        let b = abs(asin(min(max(ez, -1), 1)) * (180 / Float.pi))
        return Self.zodiacalValue(dl, b) * zodiacalLight[k]
    }

    /// atmosphere.glsl's zodiacalValue: ZodiacalLight's table at helioecliptic longitude `dl`
    /// (degrees, 0…180 from the Sun) and ecliptic latitude |β| `b` (0…90), bilinear between its
    /// entries (longitudes 0, 5 … 45, 60 … 180°; latitudes 0, 5 … 30, 45 … 90°).
    @inlinable public static func zodiacalValue(_ dl: Float, _ b: Float) -> Float {
        let table = ZodiacalLight.values
        let x = dl < 45 ? dl * 0.2 : 9.0 + (dl - 45.0) * (1.0 / 15.0)
        let y = b < 30 ? b * 0.2 : 6.0 + (b - 30.0) * (1.0 / 15.0)
        let i = min(max(Int(x), 0), 17), j = min(max(Int(y), 0), 9)
        let fx = min(max(x - Float(i), 0), 1), fy = min(max(y - Float(j), 0), 1)
        let t00 = table[i * 11 + j], t01 = table[i * 11 + j + 1]
        let t10 = table[(i + 1) * 11 + j], t11 = table[(i + 1) * 11 + j + 1]
        let near = t00 + (t01 - t00) * fy
        let far = t10 + (t11 - t10) * fy
        return near + (far - near) * fx
    }

    /// The angle (degrees) between the direction at (el, az) and the sun, from the chord by the
    /// haversine form, chord² = 4 (sin²(Δel/2) + cos el cos el☉ sin²(Δaz/2)): exact in float near
    /// the sun, where 2 (1 − ν) would lose its digits (and GPU and CPU cosines differ in the last ones).
    /// Its two terms are the offset's east and up parts, e = 2 sin(Δaz/2) √(cos el cos el☉) and
    /// u = 2 sin(Δel/2), measured in the picture's `metric` (sunMetric; (1, 0, 1): the angle itself).
    @inlinable public static func sunDistance(elevation el: Float, azimuth az: Float, cosElevation ce: Float, sunElevation: Float,
                                              sunAzimuth: Float, sunCosine: Float, metric: SIMD3<Float>) -> Float {
        let up = 2 * sin((el - sunElevation) * (Float.pi / 360))
        let east = 2 * sin((az - sunAzimuth) * (Float.pi / 360)) * max(ce * sunCosine, 0).squareRoot()
        let chord = metric.x * east * east + 2 * metric.y * east * up + metric.z * up * up
        return max(chord, 0).squareRoot() * (180 / Float.pi)
    }

    /// The picture's metric at the sun (sunMetric) for a projection whose output pixel p looks at
    /// `angles(p)` (azimuth, elevation in degrees): the sun's output pixel found by Newton's method
    /// from `start` (the picture's tangent offsets from the sun, their Jacobian by central
    /// differences 4 pixels apart), then (JJᵀ)⁻¹ |det J| there. (1, 0, 1) when it is not found
    /// within 0.01 pixel (behind a camera, past a fisheye's circle).
    public static func sunMetric(sunAzimuth: Double, sunElevation: Double, start: SIMD2<Double>,
                                 angles: (SIMD2<Float>) -> SIMD2<Float>?) -> SIMD3<Float> {
        let identity = SIMD3<Float>(1, 0, 1)
        let cosine = cos(sunElevation * .pi / 180)
        func tangent(_ p: SIMD2<Double>) -> SIMD2<Double>? {
            guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e7, abs(p.y) < 1e7, let a = angles(SIMD2<Float>(p)) else { return nil }
            var daz = Double(a.x) - sunAzimuth
            daz -= 360 * (daz / 360).rounded()
            return SIMD2(daz * cosine, Double(a.y) - sunElevation) * (.pi / 180)
        }
        func jacobian(_ p: SIMD2<Double>) -> (SIMD2<Double>, SIMD2<Double>)? {
            let h = 4.0
            guard let xp = tangent(p + SIMD2(h, 0)), let xm = tangent(p - SIMD2(h, 0)),
                  let yp = tangent(p + SIMD2(0, h)), let ym = tangent(p - SIMD2(0, h)) else { return nil }
            return ((xp - xm) / (2 * h), (yp - ym) / (2 * h))
        }
        var p = start
        var found = false
        for _ in 0..<40 {
            guard let t = tangent(p), let (cx, cy) = jacobian(p) else { return identity }
            let det = cx.x * cy.y - cx.y * cy.x
            guard abs(det) > 1e-18 else { return identity }
            // Solve [cx cy] step = −t.
            let step = SIMD2((-t.x * cy.y + t.y * cy.x) / det, (-cx.x * t.y + cx.y * t.x) / det)
            p += step
            if (step.x * step.x + step.y * step.y).squareRoot() < 0.01 { found = true; break }
        }
        guard found, let (cx, cy) = jacobian(p) else { return identity }
        let det = abs(cx.x * cy.y - cx.y * cy.x)
        guard det > 1e-18 else { return identity }
        // S = JJᵀ (J's columns cx, cy); G = S⁻¹ |det J| = [[s₂₂, −s₁₂], [−s₁₂, s₁₁]] / |det J|.
        let s11 = cx.x * cx.x + cy.x * cy.x, s12 = cx.x * cx.y + cy.x * cy.y, s22 = cx.y * cx.y + cy.y * cy.y
        let g = SIMD3(s22, -s12, s11) / det
        guard g.x.isFinite, g.y.isFinite, g.z.isFinite else { return identity }
        return SIMD3<Float>(g)
    }

    /// The eye's point spread θ degrees from a light, sr⁻¹ (veiling radiance over the light's
    /// irradiance): CIE 146:2002's general disability glare equation for a 25-year-old with
    /// brown eyes (pigmentation p = 0.5): 10/θ³ + (5/θ² + 0.1 p/θ)(1 + (A/62.5)⁴) + 0.0025 p.
    @inlinable public static func glarePSF(_ theta: Float) -> Float {
        let inverse = 1 / theta
        return 10 * inverse * inverse * inverse + (5 * inverse * inverse + 0.05 * inverse) * 1.0256 + 0.00125
    }

    /// Rod vision: the colour mixed by `share` toward the scotopic luminance (Larson et al. 1997,
    /// V = Y (1.33 (1 + (Y + Z)/X) − 1.68), divided by its 2.58 for white so a grey keeps its
    /// brightness) in scotopicTint. atmosphere.glsl's rodShift.
    @inlinable public static func rodShift(_ c: SIMD3<Float>, _ share: Float) -> SIMD3<Float> {
        let x = 0.4124 * c.x + 0.3576 * c.y + 0.1805 * c.z
        let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        let z = 0.0193 * c.x + 0.1192 * c.y + 0.9505 * c.z
        let v = x > 0 ? max(y * (1.33 * (1 + (y + z) / x) - 1.68), 0) * (1 / 2.58) : 0
        return c + (scotopicTint * v - c) * share
    }

    /// The scattered radiance (sr⁻¹ per unit of top-of-atmosphere solar irradiance, before
    /// exposure) looking at azimuth/elevation (degrees; elevation in −90…90) whose cosine to the
    /// sun is nu: the table's A plus its B times the Mie phase at nu.
    @inlinable public func scattered(azimuth az: Float, elevation el: Float, nu: Float) -> SIMD3<Float> {
        scatteredFrom(table.texels, sourceAzimuth: sunAzimuth, azimuth: az, elevation: el, nu: nu)
    }

    /// The same from any table whose light comes from `sourceAzimuth` (the Sun's, or the Moon's).
    @inlinable public func scatteredFrom(_ texels: [SIMD4<Float>], sourceAzimuth: Float, azimuth az: Float, elevation el: Float,
                                         nu: Float) -> SIMD3<Float> {
        var relative = az - sourceAzimuth
        relative = relative - 360 * (relative * (1.0 / 360.0) + 0.5).rounded(.down)
        relative = abs(relative)
        let x = relative * (Float(SkyViewTable.width - 1) / 180)
        let h = horizonElevation
        let v: Float
        if el >= h {
            v = 0.5 - 0.5 * ((el - h) / (90 - h)).squareRoot()
        } else {
            v = 0.5 + 0.5 * ((h - el) / (90 + h)).squareRoot()
        }
        let y = v * Float(SkyViewTable.height - 1)
        let a = skyViewSample(texels, x, y, rowOffset: 0)
        let b = skyViewSample(texels, x, y, rowOffset: SkyViewTable.height)
        let g = mieG
        let k = 1 + g * g - 2 * g * nu
        let miePhase = mieScale * (1 + nu * nu) / (k * k.squareRoot())
        return a + b * miePhase
    }

    /// Bilinear from the table at texel coordinates (x, y) in rows rowOffset…, as texelFetch does it.
    @inlinable func skyViewSample(_ t: [SIMD4<Float>], _ x: Float, _ y: Float, rowOffset: Int) -> SIMD3<Float> {
        let w = SkyViewTable.width
        let x0 = min(max(Int(x.rounded(.down)), 0), w - 2)
        let y0 = min(max(Int(y.rounded(.down)), 0), SkyViewTable.height - 2)
        let fx = x - Float(x0), fy = y - Float(y0)
        let i = (y0 + rowOffset) * w + x0
        let top = t[i] + (t[i + 1] - t[i]) * fx
        let bottom = t[i + w] + (t[i + w + 1] - t[i + w]) * fx
        let c = top + (bottom - top) * fy
        return SIMD3(c.x, c.y, c.z)
    }
}


/// The atmosphere under the weather at one instant, for the values a frame reads from its tables
/// (the sun's transmittance, multiple scattering, a sky-view table). Outside a weather cross-fade,
/// the tables of the weather's aerosols. Within one, the tables of the fade's two ends, built once
/// for the whole fade and kept (AtmosphereTables.shared), rather than a new set (~140 ms on this
/// machine) for every frame's in-between aerosols: transmittance is combined as T_a^(1−w)·T_b^w,
/// exact because every optical depth is linear in the aerosol factor (the frame's aerosols are
/// a + (b − a)·w); multiple scattering and sky-view tables are blended linearly, as the sky's own
/// sky-view table is (PhysicalSkyDraw.init).
public struct FadingAtmosphere: Sendable {
    /// The instant's coefficients (the geometry is the same at both ends).
    public let coefficients: AtmosphereCoefficients
    private let from: AtmosphereTables, to: AtmosphereTables?
    private let ends: (AtmosphereCoefficients, AtmosphereCoefficients)
    private let weight: Double

    /// The atmospheres whose tables a frame under `weather` reads: the fade's two ends while the
    /// weather's aerosols cross-fade, else the instant's.
    public static func ends(_ atmosphere: Atmosphere, weather: WeatherState) -> [AtmosphereCoefficients] {
        let fade = weather.aerosolFade
        guard atmosphere.visibility == nil, fade.weight > 0, fade.weight < 1, fade.from != fade.to else {
            return [PhysicalSkyDraw.coefficients(atmosphere, aerosols: weather.parameters.aerosols)]
        }
        return [PhysicalSkyDraw.coefficients(atmosphere, aerosols: fade.from), PhysicalSkyDraw.coefficients(atmosphere, aerosols: fade.to)]
    }

    public init(_ atmosphere: Atmosphere, weather: WeatherState) {
        let fade = weather.aerosolFade
        coefficients = PhysicalSkyDraw.coefficients(atmosphere, aerosols: weather.parameters.aerosols)
        let pair = Self.ends(atmosphere, weather: weather)
        if pair.count == 2 {
            let a = pair[0], b = pair[1]
            from = AtmosphereTables.shared(for: a)
            to = AtmosphereTables.shared(for: b)
            ends = (a, b)
            weight = fade.weight
        } else {
            from = AtmosphereTables.shared(for: coefficients)
            to = nil
            ends = (coefficients, coefficients)
            weight = 0
        }
    }

    public func transmittanceToSun(r: Double, mus: Double) -> SIMD3<Double> {
        let a = from.transmittanceToSun(r: r, mus: mus)
        guard let to else { return a }
        let b = to.transmittanceToSun(r: r, mus: mus)
        func geometric(_ x: Double, _ y: Double) -> Double {
            x > 0 && y > 0 ? Foundation.exp(Foundation.log(x) * (1 - weight) + Foundation.log(y) * weight) : 0
        }
        return SIMD3(geometric(a.x, b.x), geometric(a.y, b.y), geometric(a.z, b.z))
    }

    public func multipleScattering(r: Double, mus: Double) -> SIMD3<Double> {
        let a = from.multipleScattering(r: r, mus: mus)
        guard let to else { return a }
        return a + (to.multipleScattering(r: r, mus: mus) - a) * weight
    }

    /// The sky-view table for a light source at `sunElevation` (the Moon's, at night).
    public func skyView(altitude: Double, sunElevation: Double) -> SkyViewTable {
        let a = SkyViewTable.blended(for: SkyViewTable.Key(coefficients: ends.0, altitude: altitude, sunElevation: sunElevation))
        guard to != nil else { return a }
        let b = SkyViewTable.blended(for: SkyViewTable.Key(coefficients: ends.1, altitude: altitude, sunElevation: sunElevation))
        return SkyViewTable.mixed(a, b, weight: weight)
    }
}
