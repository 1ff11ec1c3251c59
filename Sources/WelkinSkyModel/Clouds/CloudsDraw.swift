// The `clouds` layer in pixels: a ray march through the cloud volume, on a grid of `resolution`
// times the output's size, then upsampled bilinearly.
//
// Mirrored line for line by Shaders/clouds.glsl (same names, constants and order of operations).
// Per-frame values (light colours, drift, the type's numbers under the weather) are computed here
// in Double when the Frame is built; per grid pixel there is only float arithmetic and the two
// noise textures (CloudNoise), which the GPU filters with the same arithmetic.
//
// The march (after Schneider's Nubis and Hillaire's Frostbite clouds): the view ray from the ground
// enters the layer's base shell and leaves its top shell (a round Earth, h = z + (x² + y²)/2R);
// `steps` samples with an ordered (Bayer) offset. Density: the weather map's heaps and the 3D
// Perlin–Worley shape, shaped by the type's vertical profile and domed tops, thresholded by the
// coverage and eroded by the detail noise. Light: Beer–Lambert toward the sun over three samples,
// a two-lobe Henyey–Greenstein phase, Wrenninge's three octaves of multiple scattering, the powder
// darkening of thin outskirts, and sky light from above (brighter toward the top). Distant cloud
// fades into the horizon's haze; a thin high cirrus sheet lies behind.

import Foundation

public struct CloudsDraw: Sendable, Equatable {
    /// Output pixel → direction (Frame.SkySetup.pixelDirections).
    public var projection: SkyProjection
    /// The output's size, the march grid's size, output pixels per grid pixel and its inverse.
    public var pixelSize: SIMD2<Int>
    public var gridSize: SIMD2<Int>
    public var gridScale: SIMD2<Float>
    public var inverseGridScale: SIMD2<Float>
    /// Base and top altitude (km), and 1 / (top − base).
    public var base: Float
    public var top: Float
    public var inverseThickness: Float
    /// The type's profile: rise and fall slopes, dome rounding, base lumps.
    public var profile: SIMD4<Float>
    /// 1 / the weather map's tile and 1 / the shape noise's tile (km⁻¹).
    public var inverseScales: SIMD2<Float>
    public var shapeWeight: Float
    /// A deck's relief (CloudShape.relief): the light of the cloud a ray meets is scaled by
    /// 1 + relief × (two octaves of the weather map's second channel at the base, − ½), stretched
    /// 3 : 2 into rolls (CloudsDraw.reliefFrequencies) — lighter where the sheet is thinner,
    /// darker in its thicker rolls — and fades with the haze like the cloud, filtered by the
    /// march's level of detail (the fine octave first). 0: none.
    public var relief: Float = 0
    /// An output pixel's angle (radians, at the view's centre) over a shape-noise texel (km): × the
    /// grid's scale × the distance, the footprint of a march pixel in texels.
    public var lodScale: Float = 0
    /// Cloud where the shaped field exceeds this (from the coverage).
    public var threshold: Float
    /// km⁻¹ at density 1.
    public var extinction: Float
    /// Drift: weather-map offset (x, y, in tiles) and shape offset (x, y, in tiles); and the shape's
    /// slow evolution (z, in tiles).
    public var offset: SIMD4<Float>
    public var evolution: Float
    public var steps: Int32
    /// The steps of the final quality (a render's; CloudsLayer.finalSteps or the layer's, if more).
    public var finalSteps: Int32
    /// Beyond this distance (km) the haze hides every cloud; what a deck leaves there is haze of
    /// its colour with this alpha ((coverage / 0.9)⁴, at most 1: a deck reaches the horizon closed, fair-weather
    /// cumulus fade into the sky).
    public var maxDistance: Float
    public var farCover: Float
    /// 1 / the haze's distance (km⁻¹), and the haze's colour (exposed linear): distant cloud takes
    /// the horizon's colour, and fades out entirely toward maxDistance.
    public var hazeInverse: Float
    public var hazeColor: SIMD3<Float>
    /// The sun's glow in the haze: colour (exposed linear) and the sun's azimuth (degrees, w). Haze
    /// looking `da` degrees of azimuth from the sun and `el` up is hazeColor + glow / ((1 + da² /
    /// 2500)(1 + el² / 36)): a band along the horizon under the sun, 50° either side and a few
    /// degrees high (so the far deck toward a low or set sun takes its glow, as an overcast's
    /// western edge does at dusk, lit from beyond it). Zero: none.
    public var hazeGlow: SIMD4<Float> = .zero
    /// Rain shafts (CloudsDraw.shaftsOptics): their extinction (km⁻¹) where the rain is heaviest,
    /// their frequency in weather tiles per tile, and the weather map's heaps value where they
    /// begin. Curtains of rain hang from the base where the deck above is thickest and drift with
    /// it; from `shaftNear` km out to the base (or the haze's reach) they stand in front of the cloud,
    /// lit as its base is, so the far ones show as columns against the horizon. `shafts.x` 0: none.
    public var shafts: SIMD4<Float> = .zero
    /// The light: direction (x east, y north, z up), colour (exposed linear), and how far (km) the
    /// march toward it reaches.
    public var sunDirection: SIMD3<Float>
    public var sunLight: SIMD3<Float>
    /// The Earth's shadow: (s_z, R·s_z, R·s_z²/2, 2 × the light's angular radius in radians) for
    /// the light's direction s, and whether any point the march reaches can be in it (`shadowed`;
    /// otherwise every point is lit and sunVisible is not evaluated, on both renderers).
    public var sunShadow: SIMD4<Float> = SIMD4(1, 0, 0, 0)
    public var shadowed = false
    public var lightReach: Float
    /// The sunlight diffused through thick cloud: its colour greyed by many scatterings.
    public var diffuseLight: SIMD3<Float>
    /// Sky light at the layer's top and base (exposed linear), and how much the cloud above a
    /// point shades it: sky light × 1 / (1 + ambientShade (1 − f)).
    public var ambientTop: SIMD3<Float>
    public var ambientBottom: SIMD3<Float>
    public var ambientShade: Float
    /// Lightning inside the cloud (exposed linear), at a point (km from the observer) whose light
    /// falls off as 1 / (1 + d² / 4 km²).
    public var flash: SIMD3<Float>
    public var flashPoint: SIMD3<Float>
    /// The cirrus sheet: amount, altitude (km), 1 / its tile (km⁻¹); its drift (tiles).
    public var cirrus: SIMD3<Float>
    public var cirrusOffset: SIMD2<Float>
    /// The sky's tone curve (ToneMap.code; the palette sky's is clamp), and 1 for scene-linear output.
    public var toneMap: Int32
    public var linearOutput: Int32
    public var opacity: Float
    /// The deck's shadow on the sky's ground: below the horizon the layer is black with this alpha
    /// (× opacity), taking away the share of light the clouds keep from the ground
    /// (CloudsDraw.groundShade, made an alpha for the encoding layers composite in); 0 over a sky
    /// with no ground.
    public var groundShade: Float = 0
    /// The physical sky's ground fog in front of the clouds (PhysicalSkyDraw's fog values: its
    /// optical depth up and down, g; its ambient and direct-sun light × exposure; the eye's
    /// adaptation to it). `fogs` false: none.
    public var fogs = false
    public var fog: SIMD3<Float> = .zero
    public var fogAmbient: SIMD3<Float> = .zero
    public var fogSun: SIMD3<Float> = .zero
    public var fogBalance: SIMD3<Float> = SIMD3(repeating: 1)
    /// The lightning bolt (`bolts`: the weather can strike; CloudsDraw.boltGlow): its channel's
    /// vertices (km from the observer, x east, y north, z up; `boltMain` of them from the cloud base
    /// to the ground, then a branch of the rest), and its light: colour × brightness (exposed linear,
    /// 0 between flashes) and one output pixel's angle (radians), the core's least width.
    public var bolts = false
    public var bolt: [SIMD3<Float>] = []
    public var boltLight: SIMD4<Float> = .zero

    /// The bolt's vertices: the main channel's, then its branch's (shaders: BOLT_MAIN, BOLT_VERTICES).
    public static let boltMain = 16
    public static let boltVertices = 22

    /// The bolt's glow looking along unit direction d, and the distance (km) to the segment it comes
    /// from: for each segment, the ray's closest approach to it as an angle, a core ~ a pixel wide
    /// (or 4 m, when nearer) and a soft halo; the branch at 0.55 of the channel. clouds.glsl's boltGlow.
    @inlinable public func boltGlow(_ d: SIMD3<Float>) -> (glow: Float, distance: Float) {
        var best: Float = 0
        var distance: Float = 0
        let pixel = boltLight.w * max(gridScale.x, 1) * 0.75
        for i in 0..<(Self.boltVertices - 1) where i != Self.boltMain - 1 {
            let a = bolt[i], u = bolt[i + 1] - bolt[i]
            let du = d.x * u.x + d.y * u.y + d.z * u.z
            let uu = u.x * u.x + u.y * u.y + u.z * u.z
            let da = d.x * a.x + d.y * a.y + d.z * a.z
            let ua = u.x * a.x + u.y * a.y + u.z * a.z
            // The segment parameter of the closest approach to the ray t·d (clamped to the segment).
            let denominator = uu - du * du
            let s = clamp01(denominator > 1e-9 ? (du * da - ua) / denominator : 0)
            let p = a + u * s
            let t = d.x * p.x + d.y * p.y + d.z * p.z
            if !(t > 0.05) { continue }
            let off = p - d * t
            let angle = (off.x * off.x + off.y * off.y + off.z * off.z).squareRoot() / t
            let width = max(pixel, 0.004 / t)
            let x = angle / width
            let core = exp(-x * x)
            let halo = 0.1 / (1 + x * x * (1.0 / 36.0))
            let g = (core + halo) * (i < Self.boltMain ? 1 : 0.55)
            if g > best { best = g; distance = t }
        }
        return (best, distance)
    }

    /// Earth's radius, km, and the curvature term 1 / 2R of heights along a ray.
    public static let earthRadius = 6360.0
    public static let curvature = Float(0.5 / earthRadius)
    /// Metres of drift per point of the weather's wind travel (the weather's wind is in points a
    /// second; × 3 is a gentle time-lapse for clouds kilometres away).
    public static let metresPerWindPoint = 3.0
    /// The shape noise's evolution, tiles per second at `evolution` 1.
    public static let evolutionRate = 0.0025
    /// Exposed-linear sunlight and sky light for the palette sky (its colours are display values).
    public static let paletteSun = 7.0
    public static let paletteAmbient = 0.8
    /// The palette sky's glow in the haze toward the sun, × the sky's glow colour: what its
    /// gradient adds on the horizon under a sun a few degrees down (its halo, ~0.75, and its band,
    /// 0.7), unshaded by the deck overhead (the light comes from beyond its edge).
    public static let hazeGlowBand = 1.45
    /// A glow below this (exposed linear, less than a tenth of a level in 255) is none.
    public static let hazeGlowLeast: Float = 1e-4
    /// Rain shafts: samples along each ray, where they start (km: nearer rain is the streaks'), and
    /// their optics for the weather's rain r (0…1) and lightning l: extinction r (0.2 + 0.2 l) km⁻¹
    /// in a shaft (heavy rain's: some 10–20 km of visibility through one), 4 a weather tile, where
    /// the heaps exceed 0.7.
    public static let shaftSamples = 8
    public static let shaftNear: Float = 3
    /// The shafts' offsets along the ray, a 2 × 2 ordered pattern (shaders: CLOUD_SHAFT_JITTER).
    public static let shaftJitter: [Float] = [0.125, 0.625, 0.875, 0.375]
    public static func shaftsOptics(rain: Double, lightning: Double) -> SIMD4<Float> {
        rain > 0 ? SIMD4(Float(rain * (0.2 + 0.2 * lightning)), 4, 0.7, 0) : .zero
    }

    // ---- per pixel (Float) ----

    /// Henyey–Greenstein phase, sr⁻¹.
    @inline(__always) @inlinable public static func henyeyGreenstein(_ mu: Float, _ g: Float) -> Float {
        let k = 1 + g * g - 2 * g * mu
        return (1 - g * g) / (4 * Float.pi * k * k.squareRoot())
    }

    /// Two lobes: forward (silver lining) and a little back-scatter; `scale` narrows both (octaves).
    @inline(__always) @inlinable public static func cloudPhase(_ mu: Float, _ scale: Float) -> Float {
        0.7 * henyeyGreenstein(mu, 0.8 * scale) + 0.3 * henyeyGreenstein(mu, -0.25 * scale)
    }

    /// Height above the ground (km) of a point at p from the observer: z + (x² + y²) / 2R.
    @inline(__always) @inlinable public static func heightOf(_ p: SIMD3<Float>) -> Float {
        p.z + (p.x * p.x + p.y * p.y) * curvature
    }

    /// Distance along a ray of vertical sine dz to height h (km): t dz + t²(1 − dz²)/2R = h.
    @inline(__always) @inlinable public static func shellDistance(_ h: Float, _ dz: Float) -> Float {
        let a = (1 - dz * dz) * curvature
        return 2 * h / (dz + (dz * dz + 4 * a * h).squareRoot())
    }

    /// The share of the light's disc seen from p (km from the observer): 1 where it is above p's
    /// horizon, 0 in the Earth's shadow. The ray from p toward the light passes the Earth's centre
    /// at height a ≈ (|q|² − (q·s)² − R²) / 2R, q = p + (0, 0, R), written in terms the size of a
    /// cloud's coordinates (Float keeps its digits); soft over the disc, whose radius at the
    /// grazing point −q·s away is −q·s × the angular radius.
    @inline(__always) @inlinable public func sunVisible(_ p: SIMD3<Float>) -> Float {
        let ps = p.x * sunDirection.x + p.y * sunDirection.y + p.z * sunDirection.z
        let along = ps + sunShadow.y
        if !(along < 0) { return 1 }
        let a = Self.heightOf(p) + (p.z * p.z - ps * ps) * Self.curvature - sunShadow.x * ps - sunShadow.z
        return clamp01(a / (-along * sunShadow.w) + 0.5)
    }

    /// Cloud density (0…1) at p, height fraction f; with `detail` the 3D shape noise shapes it and the
    /// fine noise erodes its edges, without it (the light march) the weather map alone.
    /// `edge` and `erosion` are the ray's (its distance's level of detail: cloudsColor).
    @inline(__always) @inlinable public func cloudDensity(_ p: SIMD3<Float>, _ f: Float, _ detail: Bool, _ edge: Float, _ erosion: Float,
                                       _ weather: UnsafePointer<Float>, _ shape: UnsafePointer<Float>) -> Float {
        if !(f > 0 && f < 1) { return 0 }
        let w = CloudNoise.sample2D(weather, size: CloudNoise.weatherSize, p.x * inverseScales.x + offset.x, p.y * inverseScales.x + offset.y).x
        // Lumpy bases: where the weather map is thin the cloud starts higher.
        let profileValue = smoothUnit((f - (1 - w) * profile.w) * profile.x) * smoothUnit((1 - f) * profile.y)
        // Domed tops: the higher in the layer, the more of the weather map it takes.
        let dome = clamp01((w - f * profile.z * 0.8) * 5)
        let shaped = profileValue * dome
        // Without the 3D noise's contribution at its largest the field cannot reach the threshold.
        if !((w * (1 - shapeWeight) + shapeWeight) * shaped > threshold) { return 0 }
        // The light march's coarse density takes the shape noise's mean (half the texture reads).
        var s = SIMD2<Float>(0.5, 0)
        var q = SIMD3<Float>.zero
        if detail {
            q = SIMD3<Float>(p.x * inverseScales.y + offset.z, p.y * inverseScales.y + offset.w, p.z * inverseScales.y * 1.5 + evolution)
            s = CloudNoise.sample3D(shape, size: CloudNoise.shapeSize, q)
        }
        let field = (w * (1 - shapeWeight) + s.x * shapeWeight) * shaped
        // A steep edge: the cloud's body is dense and its boundary thin (not a soft blur).
        var d = clamp01((field - threshold) / (1 - threshold) * edge)
        if detail {
            // Erosion by the fine noise at `detailScale` times the shape's frequency (tens of metres):
            // it eats the thin edge, where d is small, and hardly the core (Nubis' remap), so the
            // boundary breaks into billows and wisps.
            let r = q * Self.detailScale + Self.detailOffset
            let eroded = clamp01((CloudNoise.sample3D(shape, size: CloudNoise.shapeSize, r).y - Self.erosionRange.x) * Self.erosionRange.y) * erosion
            d = clamp01((d - eroded) / (1 - eroded))
        }
        return d
    }

    /// The premultiplied output colour of grid pixel (gx, gy).
    @inline(__always) @inlinable public func cloudsColor(_ gx: Int, _ gy: Int, _ weather: UnsafePointer<Float>, _ shape: UnsafePointer<Float>) -> SIMD4<Float> {
        let px = (Float(gx) + 0.5) * gridScale.x
        let py = (Float(gy) + 0.5) * gridScale.y
        guard let a = projection.projectionAngles(SIMD2(px, py)) else { return .zero }
        let az = a.x, el = a.y
        if !(el > 0) {
            // The deck's shadow on the ground, as far as the fog lets the ground be seen.
            let shade = groundShade * opacity
            return SIMD4(0, 0, 0, fogs ? shade * exp(-fog.y / max(-sin(el * (Float.pi / 180)), 1e-6)) : shade)
        }
        let elr = el * (Float.pi / 180)
        let azr = az * (Float.pi / 180)
        let ce = cos(elr)
        let d = SIMD3<Float>(ce * sin(azr), ce * cos(azr), sin(elr))
        // (A panorama's elevations past 90° look down again: nothing there.)
        if !(d.z > 0) { return .zero }
        let mu = d.x * sunDirection.x + d.y * sunDirection.y + d.z * sunDirection.z
        // The haze's colour looking this way (hazeGlow).
        var da = az - hazeGlow.w
        da = da - 360 * ((da + 180) * (1 / 360)).rounded(.down)
        let hazeHere = hazeColor + SIMD3(hazeGlow.x, hazeGlow.y, hazeGlow.z) * (1 / ((1 + da * da * (1 / 2500)) * (1 + el * el * (1 / 36))))
        let t0 = Self.shellDistance(base, d.z)
        var light = SIMD3<Float>.zero
        var transmittance: Float = 1
        if t0 < maxDistance {
            let t1 = min(Self.shellDistance(top, d.z), t0 + 2.5 * (top - base) + 1)
            // `steps` samples over the path, whatever its length: a count that depended on the length
            // would jump between neighbouring pixels (and between the renderers' last digits), moving
            // every sample of a sharp cloud.
            let n = Int(steps)
            let dt = (t1 - t0) / Float(n)
            // An ordered 4×4 offset along the ray (Bayer): slices become a fine, even grain.
            let bayer = Self.bayer4[(gy & 3) * 4 + (gx & 3)]
            var t = t0 + dt * bayer
            let phase0 = Self.cloudPhase(mu, 1), phase1 = Self.cloudPhase(mu, 0.5), phase2 = Self.cloudPhase(mu, 0.25)
            // Level of detail: a grid pixel's footprint where the ray meets the layer, in shape-noise
            // texels, stretched along the ground as the ray grazes it. Where the noise is finer than
            // that, the edge softens and the erosion fades (filtered, not aliased into sparkle and
            // hard fragments near the horizon).
            let lod = t0 * lodScale * gridScale.x / max(d.z, 0.05)
            let detailLOD = Self.detailScale * lod
            let edge = 1 + (Self.edgeSharpness - 1) / (1 + lod * lod)
            let erosion = Self.erosion / (1 + detailLOD * detailLOD)
            for _ in 0..<n {
                let p = d * t
                let f = (Self.heightOf(p) - base) * inverseThickness
                let density = cloudDensity(p, f, true, edge, erosion, weather, shape)
                if density > 0 {
                    // Optical depth toward the light over three growing segments.
                    var tau: Float = 0
                    if sunLight.x + sunLight.y + sunLight.z > 0 {
                        for k in 0..<3 {
                            let s = Self.lightSamples[k]
                            let q = p + sunDirection * (s.x * lightReach)
                            tau += cloudDensity(q, (Self.heightOf(q) - base) * inverseThickness, false, edge, erosion, weather, shape) * (s.y * lightReach)
                        }
                        tau *= extinction
                    }
                    // Wrenninge's octaves: each scatters half as much, through less extinction, more evenly.
                    // Beyond the march's reach, a deck's remaining depth toward the sun (its forward lobe
                    // must not show the sun through a storm).
                    tau = tau + ambientShade * 8 * (1 - f) * (1 - f)
                    let sun = phase0 * exp(-tau) + 0.5 * phase1 * exp(-0.4 * tau) + 0.25 * phase2 * exp(-0.16 * tau)
                    let powder = 1 - 0.75 * exp(-density * extinction * 0.08)
                    // The deck above a point shades it from the sky, more where the cloud here is dense (a
                    // storm's base shows its lumps as darker and lighter patches).
                    let deck = ambientShade * (1 - f) * (0.5 + density)
                    let ambient = (ambientBottom + (ambientTop - ambientBottom) * f) * (1 / (1 + deck))
                    // Light diffused through the cloud above falls as 1 / optical depth (two-stream), not
                    // exponentially (the deck above a point counts as ambientShade): what keeps a thick deck's
                    // base grey rather than black, and a storm's darker than a stratus sheet's.
                    let diffuse = 0.08 / (1 + 0.12 * tau + 2 * deck)
                    let toFlash = p - flashPoint
                    let flashDistance = toFlash.x * toFlash.x + toFlash.y * toFlash.y + toFlash.z * toFlash.z
                    let lit: Float = shadowed ? sunVisible(p) : 1
                    let source = (sunLight * (sun * 4 * Float.pi * powder) + diffuseLight * diffuse) * lit + ambient * (0.6 + 0.4 * powder)
                        + flash * (1 / (1 + flashDistance * 0.25))
                    let e = exp(-density * extinction * dt)
                    light = light + source * (transmittance * (1 - e))
                    transmittance = transmittance * e
                    if transmittance < 0.01 {
                        // Opaque from here: the rest of the ray is taken to add light as this far
                        // did (÷ (1 − T)), and nothing behind shows through — exactly opaque, so the
                        // GPU leaves the layers below undrawn there (FramePlan.cover).
                        light = light * (1 / (1 - transmittance))
                        transmittance = 0
                        break
                    }
                }
                t = t + dt
            }
            if relief > 0 {
                // The deck's relief where the ray meets its base: in the weather map's own tiles
                // (whole multiples of them, so the pattern drifts with the wind and wraps with it).
                // (The GPU evaluates it everywhere, × 1 exactly at relief 0: one program for heaps
                // and decks, which a weather fade goes between.)
                let pb = d * t0
                let wu = pb.x * inverseScales.x + offset.x, wv = pb.y * inverseScales.x + offset.y
                let r = Self.reliefFrequencies
                let n1 = CloudNoise.sample2D(weather, size: CloudNoise.weatherSize, wu * r.x, wv * r.y).y
                let n2 = CloudNoise.sample2D(weather, size: CloudNoise.weatherSize, wu * r.z + 0.5, wv * r.w + 0.25).y
                // Filtered as the noise is (lod): the fine mottle fades first where a pixel spans it.
                let fine = 0.6 / (1 + 4 * lod * lod)
                light = light * max(1 + relief / (1 + 0.25 * lod * lod) * ((n1 - 0.5) + fine * (n2 - 0.5)), 0.2)
            }
            let haze = exp(-t0 * hazeInverse)
            let cover = 1 - transmittance
            light = light * haze + hazeHere * (cover * (1 - haze))
            let fade = smoothUnit((maxDistance - t0) / (0.6 * maxDistance))
            light = light * fade + hazeHere * (farCover * (1 - fade))
            transmittance = 1 - cover * fade - farCover * (1 - fade)
            // A deck's gaps close with distance (a grazing sight line runs into the clouds' sides):
            // its far cover fills in from nearby, behind the cloud marched, by half the haze's reach
            // for scattered heaps and a tenth of it for a closed deck (whose far gaps, left open, were
            // holes onto the sky's bright horizon: a storm's pale fragments).
            let closed = farCover * smoothUnit(t0 / (0.5 * maxDistance * (1 - 0.8 * farCover)))
            // What fills them is a closed deck's base as the march lights it (deckBaseLight), seen
            // through the haze like the cloud around it (the haze's colour alone made the far gaps
            // of an overcast sky pale lumps on the horizon).
            let filled = max(closed - (1 - transmittance), 0)
            let deckLight = Self.deckBaseLight(ambientTop: ambientTop, ambientBottom: ambientBottom, ambientShade: ambientShade,
                                               diffuseLight: diffuseLight, extinction: extinction)
            light = light + (deckLight * haze + hazeHere * (1 - haze)) * filled
            transmittance = transmittance - filled
        } else {
            light = hazeHere * farCover
            transmittance = 1 - farCover
        }
        // The cirrus sheet behind: thin, lit mostly by the sun's forward lobe.
        if cirrus.x > 0 {
            let tc = Self.shellDistance(cirrus.y, d.z)
            let q = d * tc
            let g = CloudNoise.sample2D(weather, size: CloudNoise.weatherSize, q.x * cirrus.z + cirrusOffset.x, q.y * cirrus.z * 0.25 + cirrusOffset.y).y
            let a = clamp01((g - (1 - cirrus.x)) * 1.2) * 0.45 * exp(-tc * hazeInverse * 0.5)
            let lit: Float = shadowed ? sunVisible(q) : 1
            let c = sunLight * ((0.45 + 4 * Float.pi * 0.25 * Self.henyeyGreenstein(mu, 0.6)) * 0.35 * lit) + ambientTop * 0.9
            light = light + c * (a * transmittance)
            transmittance = transmittance * (1 - a)
        }
        if shafts.x > 0 {
            // Rain shafts between `shaftNear` km and the base (or the haze's reach), in front of the
            // cloud: their optical depth over `shaftSamples` points (offset by a 2 × 2 pattern, which
            // the upsample's 2 × 2 box means average away: four times the samples, no grain),
            // and the base's light (the nearer rain is the precipitation layer's streaks).
            let reach = min(t0, maxDistance)
            let span = max(reach - Self.shaftNear, 0)
            let jitter = Self.shaftJitter[(gy & 1) * 2 + (gx & 1)]
            var depth: Float = 0
            for i in 0..<Self.shaftSamples {
                let p = d * (Self.shaftNear + span * ((Float(i) + jitter) * (1 / Float(Self.shaftSamples))))
                let wu = p.x * inverseScales.x + offset.x, wv = p.y * inverseScales.x + offset.y
                let w = CloudNoise.sample2D(weather, size: CloudNoise.weatherSize, wu * shafts.y, wv * shafts.y).x
                depth = depth + smoothUnit((w - shafts.z) * 8)
            }
            let e = exp(-depth * (shafts.x * span * (1 / Float(Self.shaftSamples))))
            let shaftLight = Self.deckBaseLight(ambientTop: ambientTop, ambientBottom: ambientBottom, ambientShade: ambientShade,
                                                diffuseLight: diffuseLight, extinction: extinction)
            light = light * e + shaftLight * (1 - e)
            transmittance = transmittance * e
        }
        if bolts && boltLight.x > 0 {
            // The bolt below the cloud base, in front of the cloud beyond it: emitted light over
            // the layer, as opaque as its glow is bright, seen through the haze to it.
            let (glow, t) = boltGlow(d)
            let haze = exp(-t * hazeInverse)
            let a = clamp01(glow) * haze
            light = SIMD3(boltLight.x, boltLight.y, boltLight.z) * (glow * haze) + light * (1 - a)
            transmittance = transmittance * (1 - a)
        }
        if fogs {
            // Ground fog in front (PhysicalSkyDraw.fogTransmittance and fogLight, looking up):
            // the cloud seen through it, and the fog's own light over the cloud's cover.
            let fogT = exp(-fog.x / max(d.z, 1e-6))
            let g = fog.z
            let k = 1 + g * g - 2 * g * mu
            let fogColor = fogAmbient + fogSun * (1 / (k * k.squareRoot()))
            light = light * fogBalance * fogT + fogColor * ((1 - transmittance) * (1 - fogT))
        }
        let alpha = (1 - transmittance) * opacity
        if !(alpha > 0) { return .zero }
        if linearOutput != 0 { return SIMD4(light * opacity, alpha) }
        let straight = light * (1 / (1 - transmittance))
        let mapped = ToneMapping.applyToneMap(toneMap, straight).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        return SIMD4(ColorMath.encodeSRGBUnit(mapped) * alpha, alpha)
    }

    /// The upsampled colour at output pixel (x, y): the mean of four bilinear taps half a grid
    /// pixel around it (a tent three grid pixels wide, which also evens out the march's ordered
    /// offsets); `grid` returns a grid pixel's colour.
    @inline(__always) @inlinable public func upsampled(_ x: Int, _ y: Int, _ grid: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        let u = (Float(x) + 0.5) * inverseGridScale.x - 0.5
        let v = (Float(y) + 0.5) * inverseGridScale.y - 0.5
        let a = bilinear(u - 0.5, v - 0.5, grid) + bilinear(u + 0.5, v - 0.5, grid)
        let b = bilinear(u - 0.5, v + 0.5, grid) + bilinear(u + 0.5, v + 0.5, grid)
        return (a + b) * 0.25
    }

    /// Bilinear between the four grid pixels around grid coordinate (u, v), clamped to the grid.
    @inline(__always) @inlinable public func bilinear(_ gu: Float, _ gv: Float, _ grid: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        let u = min(max(gu, 0), Float(gridSize.x - 1))
        let v = min(max(gv, 0), Float(gridSize.y - 1))
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let x1 = min(x0 + 1, gridSize.x - 1), y1 = min(y0 + 1, gridSize.y - 1)
        let tu = u - fu, tv = v - fv
        let a = grid(x0, y0), b = grid(x1, y0), c = grid(x0, y1), d = grid(x1, y1)
        let top = a + (b - a) * tu
        let bottom = c + (d - c) * tu
        return top + (bottom - top) * tv
    }

    /// The density's slope at the edge (the shaped field's excess over the threshold, scaled).
    public static let edgeSharpness: Float = 3
    /// The erosion noise's frequency over the shape noise's (cumulus: a 0.64 km tile, 20 m texels),
    /// its offset (so it does not line up with the shape's texels), the range of the noise that
    /// erodes (x: where it starts, y: 1 / the range's width), and the most it takes away.
    public static let detailScale: Float = 5
    public static let detailOffset = SIMD3<Float>(0.37, 0.61, 0.13)
    public static let erosionRange = SIMD2<Float>(0.3, 1 / 0.6)
    public static let erosion: Float = 0.72

    /// The 4×4 Bayer matrix, (index + 0.5) / 16.
    public static let bayer4: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { (Float($0) + 0.5) / 16 }
    /// A closed deck's base light (exposed linear): the march's source term (without the sun's
    /// lobes, which a deck's base far off hardly shows) at a tenth of the way up a deck of density 1.
    /// clouds.glsl's deckBaseLight, from the same uniforms (none of its own: the package's tracks
    /// record every uniform of every sample).
    @inlinable public static func deckBaseLight(ambientTop: SIMD3<Float>, ambientBottom: SIMD3<Float>, ambientShade: Float, diffuseLight: SIMD3<Float>,
                                     extinction: Float) -> SIMD3<Float> {
        let f: Float = 0.1, density: Float = 1
        let tau = ambientShade * 8 * (1 - f) * (1 - f)
        let powder = 1 - 0.75 * exp(-density * extinction * 0.08)
        let deck = ambientShade * (1 - f) * (0.5 + density)
        let ambient = (ambientBottom + (ambientTop - ambientBottom) * f) * (1 / (1 + deck))
        let diffuse = 0.08 / (1 + 0.12 * tau + 2 * deck)
        return diffuseLight * diffuse + ambient * (0.6 + 0.4 * powder)
    }

    /// The relief's two octaves, in weather-map tiles per tile: rolls 3 : 2 (x east, y north), and a
    /// finer mottle (shaders: CLOUD_RELIEF).
    public static let reliefFrequencies = SIMD4<Float>(3, 2, 9, 7)
    /// The light march's samples: distance and length, as fractions of `lightReach`.
    public static let lightSamples: [SIMD2<Float>] = [SIMD2(0.08, 0.16), SIMD2(0.3, 0.28), SIMD2(0.72, 0.56)]
}

extension CloudsDraw {
    /// The draw with what moves with the clock while a scene plays set to zero: the wind's
    /// offsets, the clouds' evolution and the light (sun, sky, haze, fog). Two draws with the same
    /// key differ only by those, which a few frames change by little; the viewer keeps a playing
    /// frame's grid marched a quarter at a time while the key holds (CloudsPass's phases).
    public var steadyKey: CloudsDraw {
        var k = self
        k.offset = .zero; k.evolution = 0; k.cirrusOffset = .zero
        k.sunDirection = .zero; k.sunLight = .zero; k.sunShadow = .zero; k.lightReach = 0
        k.diffuseLight = .zero; k.ambientTop = .zero; k.ambientBottom = .zero; k.ambientShade = 0
        k.hazeColor = .zero; k.hazeGlow = .zero; k.groundShade = 0
        k.fog = .zero; k.fogAmbient = .zero; k.fogSun = .zero; k.fogBalance = .zero
        // Where the camera looks (a pan, a tilt) and the texture detail that follows from it (the
        // pixel's footprint at the view's centre): its kind, size and field stay in the key.
        k.projection.center = .zero; k.projection.azimuth = 0
        k.projection.right = .zero; k.projection.up = .zero; k.projection.forward = .zero
        k.lodScale = 0
        return k
    }

    /// How far the camera turned between `other` and this draw, in grid pixels, at most: over nine
    /// points of the frame, the angle between the directions a point looks at in the two draws
    /// over the angle a grid pixel spans there (a rectilinear camera's corners span less than its
    /// centre). Infinite when no point is seen by both (a fisheye's circle missed). What the
    /// viewer's phases may lag by, with `motion(since:)` (CloudsPass).
    public func cameraMotion(since other: CloudsDraw) -> Float {
        if projection == other.projection { return 0 }
        func direction(_ a: SIMD2<Float>) -> SIMD3<Float> {
            let az = a.x * .pi / 180, el = a.y * .pi / 180
            return SIMD3(cosf(el) * sinf(az), cosf(el) * cosf(az), sinf(el))
        }
        func angle(_ u: SIMD3<Float>, _ v: SIMD3<Float>) -> Float {
            let c = SIMD3<Float>(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
            return atan2f((c * c).sum().squareRoot(), (u * v).sum())
        }
        let size = SIMD2<Float>(Float(pixelSize.x), Float(pixelSize.y))
        var worst: Float = -1
        for fy: Float in [0.02, 0.5, 0.98] {
            for fx: Float in [0.02, 0.5, 0.98] {
                let p = SIMD2(fx, fy) * size
                guard let a = projection.projectionAngles(p), let b = other.projection.projectionAngles(p),
                      let n = projection.projectionAngles(p + SIMD2(gridScale.x, 0)) else { continue }
                let d = direction(a)
                worst = max(worst, angle(d, direction(b)) / max(angle(d, direction(n)), 1e-9))
            }
        }
        return worst < 0 ? .infinity : worst
    }

    /// How far the clouds moved between `other` and this draw, in grid pixels, at most: the drift
    /// of the weather map and of the shape and the shape's evolution (km), seen from below at the
    /// base (the nearest cloud, where a kilometre spans the most), over the degrees a grid pixel
    /// spans at the view's centre. What the viewer's phases may lag by (CloudsPass).
    public func motion(since other: CloudsDraw) -> Float {
        func length(_ v: SIMD2<Float>) -> Float { (v * v).sum().squareRoot() }
        let weather = length(SIMD2(offset.x - other.offset.x, offset.y - other.offset.y)) / max(inverseScales.x, 1e-6)
        let shape = length(SIMD2(offset.z - other.offset.z, offset.w - other.offset.w)) / max(inverseScales.y, 1e-6)
        let evolving = abs(evolution - other.evolution) / max(inverseScales.y * 1.5, 1e-6)
        let cirrus = length(cirrusOffset - other.cirrusOffset) / max(inverseScales.x, 1e-6)
        let km = max(weather, shape, evolving, cirrus)
        let degrees = km / max(base, 0.05) * (180 / .pi)
        let gridPixelDegrees = projection.pixelAngle / max(inverseGridScale.x, 1e-6)
        return degrees / max(gridPixelDegrees, 1e-6)
    }
}
