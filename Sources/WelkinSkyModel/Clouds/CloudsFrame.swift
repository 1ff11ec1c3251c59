// The clouds' numbers under the weather for one frame, and the light of the sky below them
// (how a `clouds` layer enters a Frame is WelkinCore's CloudsLayerFrame.swift).

import Foundation
import WelkinAtmosphere


extension CloudsDraw {
    public init(_ layer: CloudsLayer, state: SkyState, physical: (draw: PhysicalSkyDraw, layer: SkyLayer)?, night: NightSkyDraw? = nil, opacity: Double,
                time: Double, seed: UInt64, pixelSize: SIMD2<Int>, projection: SkyProjection, linear: Bool, interactive: Bool = false) {
        self.projection = projection
        self.pixelSize = pixelSize
        finalSteps = Int32(max(layer.steps, CloudsLayer.finalSteps))
        // A render marches every pixel with the final steps; a viewer's frame its `resolution`
        // and `steps`, refined to the final picture while it stands still (atFinalQuality).
        (gridSize, gridScale, inverseGridScale) = Self.grid(pixelSize, resolution: interactive ? layer.resolution : 1)
        steps = interactive ? Int32(layer.steps) : finalSteps

        let weather = state.weather.parameters
        let s = layer.shape(weather: weather)
        base = Float(s.base)
        top = Float(max(s.top, s.base + 0.05))
        inverseThickness = 1 / (top - base)
        profile = SIMD4<Float>(s.profile)
        inverseScales = SIMD2<Float>(1 / s.scales)
        shapeWeight = Float(s.shapeWeight)
        relief = Float(s.relief)
        // An output pixel's angle at the view's centre, measured through the projection.
        let centre = SIMD2<Float>(Float(pixelSize.x) / 2, Float(pixelSize.y) / 2)
        var pixelAngle: Float = 0
        if let a = projection.projectionAngles(centre), let b = projection.projectionAngles(centre + SIMD2(1, 0)) {
            var d = b - a
            d.x = d.x - 360 * (d.x / 360).rounded()
            d *= Float.pi / 180
            let across = d.x * cos(a.y * Float.pi / 180)
            pixelAngle = (across * across + d.y * d.y).squareRoot()
        }
        if !(pixelAngle.isFinite && pixelAngle < 0.1) { pixelAngle = 0 }
        lodScale = pixelAngle / Float(s.scales.y / Double(CloudNoise.shapeSize))
        threshold = Float(Self.threshold(coverage: s.coverage))
        extinction = Float(Self.baseExtinction * s.density)
        // A deck shades the air and its own base from the sky above it (a scattered cumulus hardly).
        let shade = Self.ambientShadeFactor * Double(extinction) * (s.top - s.base) * s.coverage
        ambientShade = Float(shade)

        // Drift: the layer's wind (m/s), or the weather's travel; [right, away] in the view.
        let travel = layer.wind.map { $0 * time } ?? state.weather.windTravel * Self.metresPerWindPoint
        let a = state.viewAzimuth * .pi / 180
        let right = SIMD2(cos(a), -sin(a)), forward = SIMD2(sin(a), cos(a))
        let driftKm = (right * travel.x + forward * travel.y) / 1000
        var h32 = Noise.hash32(UInt32(truncatingIfNeeded: seed) ^ 0xc10d)
        func random() -> Double { h32 = Noise.hashNext(h32); return Double(Noise.unit(h32)) }
        func wrapped(_ v: Double) -> Float { v.isFinite ? Float(v - v.rounded(.down)) : 0 }
        let weatherOffset = -driftKm / s.scales.x, shapeOffset = -driftKm / s.scales.y
        offset = SIMD4(wrapped(weatherOffset.x + random()), wrapped(weatherOffset.y + random()),
                       wrapped(shapeOffset.x + random()), wrapped(shapeOffset.y + random()))
        evolution = wrapped(time * Self.evolutionRate * layer.evolution + random())
        let cirrusScale = 24 * layer.scale
        cirrus = SIMD3(Float(s.cirrus), Float(Self.cirrusAltitude), Float(1 / cirrusScale))
        cirrusOffset = SIMD2(wrapped(-driftKm.x * 1.5 / cirrusScale + random()), wrapped(-driftKm.y * 1.5 / cirrusScale * 0.25 + random()))

        // Haze: the air's visibility under the weather's aerosols.
        let hazeDistance = min(max(Self.clearHaze / max(weather.aerosols, 0.05).squareRoot(), 4), 60)
        hazeInverse = Float(1 / hazeDistance)
        maxDistance = Float(5 * hazeDistance)
        // A sheet of 0.9 or more closes at the horizon; fair-weather cumulus hardly reach it.
        let c = min(max(s.coverage / 0.9, 0), 1)
        farCover = Float(c * c * c * c)
        lightReach = Float(min(s.top - s.base, 1.2))

        let e = state.sunElevation
        sunDirection = SIMD3<Float>(state.sunDirection)
        // Below the horizon the sun still lights what is high enough to see it: everything above
        // R (1/cos e − 1) over the observer (8.7 km at −3°), each point by sunVisible.
        let shadowHeight = e < 0 ? Self.earthRadius * (1 / cos(e * .pi / 180) - 1) : 0
        // The palette's sun fades with its colours as it sets (the Earth's shadow on top).
        var sunUp = Self.smoothstep(-3, 2, e)
        if let physical {
            let p = physical.draw
            // A weather cross-fade reads its two end atmospheres' tables, not a set per frame.
            let tables = FadingAtmosphere(physical.layer.physical.atmosphere, weather: state.weather)
            let c = tables.coefficients
            // The sunlight's colour through the air at the layer's middle, or where the lit part of
            // it starts (the last light, reddest, grazing the Earth's shadow); none once the whole
            // layer, cirrus included, is in the shadow.
            let highest = max(s.top, s.cirrus > 0 ? Self.cirrusAltitude : s.top)
            let lightHeight = max((s.base + s.top) / 2, shadowHeight + 0.25)
            sunUp = shadowHeight < highest + 0.5 ? 1 : 0
            let altitude = physical.layer.physical.atmosphere.altitude / 1000 + lightHeight
            let t = sunUp > 0 ? tables.transmittanceToSun(r: c.groundRadius + altitude, mus: sin(e * .pi / 180)) : .zero
            let exposure = Double(p.exposure)
            sunLight = SIMD3<Float>(t * exposure)
            var sky = SIMD3<Float>.zero
            let looks: [SIMD2<Float>] = [SIMD2(0, 90), SIMD2(0, 25), SIMD2(90, 25), SIMD2(180, 25)]
            for look in looks {
                sky += p.skyRadiance(azimuth: p.sunAzimuth + look.x, elevation: look.y)
            }
            let mean = SIMD3<Double>(sky / 4) * exposure
            // As for the palette: the light a cloud takes from the sky is less saturated than the sky.
            // (A darker weather's deck greyer still: storm light is grey, whatever the hazy sky's tint.)
            let grey = 0.6 + 0.35 * weather.cloudDarkness
            let skyLight = Self.greyed(mean, by: grey)
            let sine: Double = max(sin(e * Double.pi / 180), 0)
            let groundFactor: Double = Self.groundAlbedo * sine / Double.pi * exposure * sunUp
            let ground: SIMD3<Double> = t * groundFactor
            // The physical sky does not know the weather's darkness; its clouds do (a storm's deck is
            // dark in the picture, not just in the exposure).
            let dark = 1 - 0.6 * weather.cloudDarkness * weather.cloudDarkness
            // The horizon's light across from the sun, and what it gains toward the sun (hazeGlow).
            let side = SIMD3<Double>(p.skyRadiance(azimuth: p.sunAzimuth + 90, elevation: 3))
            let toward = SIMD3<Double>(p.skyRadiance(azimuth: p.sunAzimuth, elevation: 3))
            let hazeScale = exposure * dark / (1 + shade)
            hazeColor = SIMD3<Float>(side * hazeScale)
            let gain = SIMD3<Float>((toward - side) * hazeScale)
            hazeGlow = SIMD4(gain.replacing(with: 0, where: gain .< 0), p.sunAzimuth)
            ambientTop = SIMD3<Float>(skyLight * (Self.physicalAmbient * dark))
            ambientBottom = SIMD3<Float>((skyLight * (0.45 * Self.physicalAmbient) + ground) * dark)
            toneMap = p.toneMap
            linearOutput = p.linearOutput
            if p.fogs {
                fogs = true
                fog = SIMD3(p.fogColumn, p.fogGround, p.fogG)
                fogAmbient = p.fogAmbient
                fogSun = p.fogSun
                fogBalance = p.fogBalance
            }
        } else {
            let glow = state.colors.sunGlow.linear
            // The glow's colour, whitening as the sun climbs (midday cumulus are white).
            let glowColor = glow / max(glow.max(), 1e-6)
            let white = Self.smoothstep(6, 30, e)
            let sunColor = glowColor + (SIMD3(repeating: 1) - glowColor) * white
            sunLight = SIMD3<Float>(sunColor * (Self.paletteSun * sunUp))
            hazeColor = SIMD3<Float>(state.colors.horizon.linear / (1 + shade))
            // The sky's glow along the horizon under the sun (SkyGradientDraw's band), in the haze.
            let band = state.colors.sunGlow.linear.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * state.colors.sunGlow.alpha
            hazeGlow = SIMD4(SIMD3<Float>(band * Self.hazeGlowBand), Float(state.sunAzimuth))
            // The palette's colours are the sky's; the light a cloud takes from them is less saturated
            // (white sunlight scattered many times joins it).
            ambientTop = SIMD3<Float>(Self.greyed(state.colors.zenith.linear, by: 0.45) * Self.paletteAmbient)
            ambientBottom = SIMD3<Float>(Self.greyed(state.colors.horizon.linear, by: 0.45) * (0.35 * Self.paletteAmbient))
            // Highlights (sunlit tops) roll off rather than clip to yellow or white: Khronos PBR
            // Neutral, the identity below 0.76.
            toneMap = ToneMap.neutral.code
            linearOutput = linear ? 1 : 0
        }
        // After dusk a dated sky's Moon lights the clouds instead (its phase, its height in the air).
        if sunUp == 0, let n = night, n.moonVisible != 0, n.moonElevation > 0 {
            let el = Double(n.moonElevation) * .pi / 180, az = Double(n.moonAzimuth) * .pi / 180
            sunDirection = SIMD3<Float>(Float(cos(el) * sin(az)), Float(cos(el) * cos(az)), Float(sin(el)))
            let rise = Self.smoothstep(0, 4, Double(n.moonElevation)) * Double(n.moonIlluminated)
            if let physical {
                let tables = FadingAtmosphere(physical.layer.physical.atmosphere, weather: state.weather)
                let c = tables.coefficients
                let t = tables.transmittanceToSun(r: c.groundRadius + (s.base + s.top) / 2, mus: sin(el))
                // The full Moon's irradiance over the Sun's (V −12.73 against −26.74).
                let ratio = pow(10, -0.4 * (-12.73 - NightSkyDraw.sunMagnitude))
                sunLight = SIMD3<Float>(t * (ratio * rise * Double(physical.draw.exposure)))
            } else {
                sunLight = SIMD3<Float>(Self.moonColor * (Self.paletteSun * Self.paletteMoon * rise))
            }
        }
        diffuseLight = SIMD3<Float>(Self.greyed(SIMD3<Double>(sunLight), by: 0.7 + 0.3 * weather.cloudDarkness))
        // The Earth's shadow for the light (the Sun's or the Moon's): whether any point up to the
        // march's reach, or the cirrus, can be in it, and the terms sunVisible reads.
        let light = SIMD3<Double>(sunDirection)
        let reach = Double(maxDistance) + 10
        shadowed = Self.earthRadius * light.z < reach
        sunShadow = SIMD4(Float(light.z), Float(Self.earthRadius * light.z), Float(Self.earthRadius * light.z * light.z / 2),
                          Float(2 * Self.lightAngularRadius))
        flash = SIMD3<Float>(Self.flashColor * (state.weather.flash * 6))
        // Each second's stroke somewhere in the view, a few kilometres off, low in the cloud (the
        // flash's own second: a flash running into the next keeps its place).
        let second = state.weather.strokeSlot ?? (time.isFinite ? min(max(time, -1e9), 1e9).rounded(.down) : 0)
        var strike = Noise.hashCell(Int32(second), 0x11a5, UInt32(truncatingIfNeeded: seed))
        func next() -> Double { strike = Noise.hashNext(strike); return Double(Noise.unit(strike)) }
        let strikeAzimuth = (state.viewAzimuth + (next() - 0.5) * state.fieldOfView * 0.8) * .pi / 180
        let strikeDistance = 1.5 + 3.5 * next()
        let strikeHeight = s.base + (s.top - s.base) * 0.3
        flashPoint = SIMD3<Float>(Float(sin(strikeAzimuth) * strikeDistance), Float(cos(strikeAzimuth) * strikeDistance), Float(strikeHeight))
        // The bolt, while it flashes: a channel from the cloud base to the ground under the flash,
        // wandering as a random walk, and one branch. (Compiled in only then: llvmpipe runs a
        // uniform branch's body anyway, 5.6 ms a 720p storm frame for a bolt that is not there.)
        if weather.lightning > 0 && state.weather.flash > 0 {
            bolts = true
            bolt = Self.bolt(foot: SIMD2(sin(strikeAzimuth) * strikeDistance, cos(strikeAzimuth) * strikeDistance),
                             base: s.base, viewAzimuth: state.viewAzimuth, seed: UInt32(truncatingIfNeeded: seed) ^ UInt32(truncatingIfNeeded: Int64(second)))
            boltLight = SIMD4(SIMD3<Float>(Self.boltColor * (state.weather.flash * Self.boltBrightness)), pixelAngle)
        }
        shafts = Self.shaftsOptics(rain: weather.rain, lightning: weather.lightning)
        // No glow (a night's): none at all, so the sun's azimuth moving under the horizon changes no value.
        if SIMD3(hazeGlow.x, hazeGlow.y, hazeGlow.z).max() < Self.hazeGlowLeast { hazeGlow = .zero }
        self.opacity = Float(opacity)
    }

    /// The bolt's colour (a lightning channel's spectrum is dominated by ionised nitrogen and
    /// oxygen lines: white tinged violet-blue) and its core's brightness at a full flash (exposed
    /// linear: far past the tone curve's white, so the core shows white and the halo blue-white).
    public static let boltColor = SIMD3<Double>(0.82, 0.86, 1)
    public static let boltBrightness = 60.0

    /// A bolt's vertices (km): CloudsDraw.boltMain from the cloud base (`base` km up) down to the
    /// ground at `foot`, each step down a random step across of up to 0.7 and along of up to 0.4 of
    /// its height (a channel's kinks turn some 30° from the vertical), then a branch of the rest
    /// from the sixth vertex, slanting away to one side as it falls.
    static func bolt(foot: SIMD2<Double>, base: Double, viewAzimuth: Double, seed: UInt32) -> [SIMD3<Float>] {
        var h = Noise.hash32(seed ^ 0xb017)
        func next() -> Double { h = Noise.hashNext(h); return Double(Noise.unit(h)) - 0.5 }
        let a = viewAzimuth * .pi / 180
        let right = SIMD2(cos(a), -sin(a)), away = SIMD2(sin(a), cos(a))
        let distance = (foot.x * foot.x + foot.y * foot.y).squareRoot()
        let ground = -distance * distance / (2 * earthRadius)
        let n = CloudsDraw.boltMain
        let dz = (base - ground) / Double(n - 1)
        var points: [SIMD3<Float>] = []
        var across = 0.0, along = 0.0
        for i in 0..<n {
            var z = base - dz * Double(i)
            if i > 0 && i < n - 1 { z += next() * 0.5 * dz }
            if i > 0 { across += next() * 1.4 * dz; along += next() * 0.8 * dz }
            let p = foot + right * across + away * along
            points.append(SIMD3(Float(p.x), Float(p.y), Float(z)))
        }
        let side: Double = next() < 0 ? -1 : 1
        var q = SIMD3<Double>(points[5])
        for _ in 0..<(CloudsDraw.boltVertices - n) {
            points.append(SIMD3<Float>(q))
            let step = right * (side * 0.8 + next() * 1.2) * dz + away * (next() * 0.6 * dz)
            q += SIMD3(step.x, step.y, -dz * (0.6 + 0.5 * (next() + 0.5)))
        }
        return points
    }

    /// How much of the ground's light a deck takes away: the sky's ground is lit as under a clear
    /// sky, and under cloud it gets the light that comes through — about a third of a clear day's
    /// under a closed grey deck, a tenth under a storm. coverage² (scattered heaps shade little of
    /// the ground on average) × 0.6 … 0.9 with the weather's darkness: clear 0.07, cloudy 0.24,
    /// overcast 0.65, rain 0.76, snow 0.57, storm 0.87.
    public static func groundShade(coverage: Double, darkness: Double) -> Double {
        let c = min(max(coverage, 0), 1)
        return min(c * c * (0.6 + 0.3 * min(max(darkness, 0), 1)), 0.95)
    }

    /// The march's grid at `resolution` of `pixelSize`: its size, output pixels per grid pixel and the inverse.
    static func grid(_ pixelSize: SIMD2<Int>, resolution: Double) -> (SIMD2<Int>, SIMD2<Float>, SIMD2<Float>) {
        let w = Double(pixelSize.x), h = Double(pixelSize.y)
        let size = SIMD2(max(1, Int((w * resolution).rounded(.up))), max(1, Int((h * resolution).rounded(.up))))
        return (size, SIMD2(Float(w / Double(size.x)), Float(h / Double(size.y))), SIMD2(Float(Double(size.x) / w), Float(Double(size.y) / h)))
    }

    /// This draw as a render draws it: every pixel marched, with the final steps (what the viewer
    /// refines a still picture to; equal to the draw a non-interactive frame makes).
    public func atFinalQuality() -> CloudsDraw {
        var d = self
        (d.gridSize, d.gridScale, d.inverseGridScale) = Self.grid(pixelSize, resolution: 1)
        d.steps = finalSteps
        return d
    }

    /// Whether this is already the final quality.
    public var isFinalQuality: Bool { gridSize == pixelSize && steps == finalSteps }

    /// The field's threshold for a coverage: fair weather at 0.3 shows separate heaps, 0.9 a deck
    /// with breaks, 1 a closed deck; below 0.05 it rises to 1 at 0, where no field reaches it (no
    /// cloud), continuously, so a deck thinning to nothing (a fade to fog) does not pop.
    public static func threshold(coverage c: Double) -> Double {
        let c = min(max(c, 0), 1)
        return c < 0.05 ? 1 - (1 - 0.783) * (c / 0.05) : 0.82 - 0.74 * c
    }

    /// km⁻¹ at density 1 (a cumulus' extinction is some 20–100 km⁻¹).
    public static let baseExtinction = 40.0
    /// The haze's distance in clear air, km.
    public static let clearHaze = 32.0
    public static let cirrusAltitude = 8.5
    /// The Sun's (and near enough the Moon's) angular radius, radians: the Earth's shadow's soft edge.
    public static let lightAngularRadius = 0.2665 * Double.pi / 180
    public static let groundAlbedo = 0.3
    /// The sky's mean radiance → the light it gives a cloud's top.
    public static let physicalAmbient = 1.0
    public static let ambientShadeFactor = 0.024
    /// The palette's moonlight: a cool white at this fraction of its sunlight.
    public static let moonColor = SIMD3<Double>(0.62, 0.7, 0.9)
    public static let paletteMoon = 0.14
    public static let flashColor = SIMD3<Double>(0.75, 0.8, 1)

    /// `c` moved toward the grey of its luminance (Rec. 709 weights) by `f`.
    static func greyed(_ c: SIMD3<Double>, by f: Double) -> SIMD3<Double> {
        let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        return c + (SIMD3(repeating: y) - c) * f
    }

    static func smoothstep(_ a: Double, _ b: Double, _ x: Double) -> Double {
        let t = min(max((x - a) / (b - a), 0), 1)
        return t * t * (3 - 2 * t)
    }
}

extension CloudsLayer {
    /// The layer's numbers: the weather's, with what the layer sets.
    public func shape(weather: WeatherParameters) -> CloudShape {
        var s = weather.clouds
        if let type = cloudType {
            s = CloudShape(type, coverage: s.coverage, density: s.density, cirrus: s.cirrus)
        }
        if let v = coverage { s.coverage = v }
        if let v = density { s.density = v }
        if let v = cirrus { s.cirrus = v }
        if let v = relief { s.relief = v }
        if let a = altitude { s.base = a.lowerBound; s.top = a.upperBound }
        s.scales *= scale
        return s
    }
}
