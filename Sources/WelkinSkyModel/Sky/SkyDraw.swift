// Sky layers resolved to pixel space: what both renderers draw, and the per-pixel maths.
//
// Consecutive sky-family layers (sky, cloudCover, cloudSprites; at most one of each) form one
// SkyDraw, which the GPU draws in a single full-screen pass (Shaders/sky.frag) and the CPU
// composites part by part. Every per-pixel function here is mirrored line for line in
// Shaders/sky.glsl: same names, same constants, same order of operations. Per-frame work (sun,
// palette, weather, cloud placement) happens in Double when the Frame is built; per pixel there
// is only float arithmetic whose GPU and CPU results agree: products with reciprocals rather than
// divisions where a value is floored, and the integer hashes of Noise.

import Foundation

/// A run of sky-family layers drawn together.
/// What a sky draws below its horizon: SkyGround.code and a colour ground's linear colour.
public struct SkyGroundDraw: Sendable, Equatable {
    public var mode: Int32
    public var color: SIMD3<Float>
}

public struct SkyDraw: Sendable, Equatable {
    public var parts: [SkyPart]
    /// Under a projection other than the parts' own panorama: how output pixels map to the
    /// panorama's (Frame.SkySetup).
    public var projection: SkyProjection? = nil
    /// Scene-linear output: the physical part writes radiance, the others are decoded from sRGB
    /// before they composite (FrameOptions.linearLight).
    public var linear = false

    public init(parts: [SkyPart], projection: SkyProjection? = nil, linear: Bool = false) {
        self.parts = parts; self.projection = projection; self.linear = linear
    }

    /// The part kinds in order, as the shaders' codes (0 sky, 1 cover, 2 sprites).
    public var kindCodes: [Int32] { parts.map(\.code) }

    /// Below the horizon: its sky parts' (one pass holds one; `append` keeps parts with another
    /// ground in a draw of their own).
    public var ground: SkyGroundDraw { parts.lazy.compactMap(\.ground).first ?? SkyGroundDraw(mode: 0, color: .zero) }

    /// The premultiplied colour of every part at p, composited in order over transparent.
    @inlinable public func color(at pixel: SIMD2<Float>) -> SIMD4<Float> {
        guard let first = parts.first else { return .zero }
        var p = pixel
        if let projection {
            guard let v = projection.projectionViewPixel(pixel) else { return .zero }
            p = v
        }
        // The first part over transparent is itself (s + 0·(1 − s.a) = s), as in sky.frag.
        var c = partColor(first, p)
        for part in parts.dropFirst() {
            let s = partColor(part, p)
            c = s + c * (1 - s.w)
        }
        return c
    }

    /// A part's colour, decoded to linear light when the frame is scene-linear (the physical part
    /// already is).
    @inlinable func partColor(_ part: SkyPart, _ p: SIMD2<Float>) -> SIMD4<Float> {
        let c = part.color(at: p)
        if linear, part.code != SkyPart.physicalCode { return ColorMath.linearizePremultiplied(c) }
        return c
    }
}

public enum SkyPart: Sendable, Equatable {
    case sky(SkyGradientDraw)
    case cover(CloudCoverDraw)
    case sprites(CloudSpritesDraw)
    /// A `sky` layer with `"model": "physical"`.
    case physical(PhysicalSkyDraw)

    /// SKY_PART_* in the shaders' constants prelude.
    public static let skyCode: Int32 = 0, coverCode: Int32 = 1, spritesCode: Int32 = 2, physicalCode: Int32 = 3

    public var code: Int32 {
        switch self {
        case .sky: return Self.skyCode
        case .cover: return Self.coverCode
        case .sprites: return Self.spritesCode
        case .physical: return Self.physicalCode
        }
    }

    /// What a sky or physical part draws below the horizon (nil for the others).
    public var ground: SkyGroundDraw? {
        switch self {
        case .sky(let s): return SkyGroundDraw(mode: s.groundMode, color: s.groundColor)
        case .physical(let s): return SkyGroundDraw(mode: s.groundMode, color: s.groundColor)
        default: return nil
        }
    }

    /// The part's night sky (a sky or physical part of a dated sky).
    public var nightSky: NightSkyDraw? {
        get {
            switch self {
            case .sky(let s): return s.night
            case .physical(let s): return s.night
            default: return nil
            }
        }
        set {
            switch self {
            case .sky(var s): s.night = newValue; self = .sky(s)
            case .physical(var s): s.night = newValue; self = .physical(s)
            default: break
            }
        }
    }

    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> {
        switch self {
        case .sky(let s): return s.color(at: p)
        case .cover(let c): return c.color(at: p)
        case .sprites(let s): return s.color(at: p)
        case .physical(let s): return s.color(at: p)
        }
    }
}

@inlinable func clamp01(_ x: Float) -> Float { min(max(x, 0), 1) }
@inlinable func smoothUnit(_ x: Float) -> Float { let t = clamp01(x); return t * t * (3 - 2 * t) }

/// The `sky` layer in pixels: gradient, glow, disc and stars.
public struct SkyGradientDraw: Sendable, Equatable {
    /// OKLab, straight.
    public var zenith: SIMD3<Float>
    public var horizon: SIMD3<Float>
    /// Linear light, × the glow's strength.
    public var glow: SIMD3<Float>
    /// The sun disc's colour, linear light (zero when the sun is too low to show).
    public var sunColor: SIMD3<Float>
    /// The sun's centre, pixels (y down).
    public var sun: SIMD2<Float>
    public var degreesPerPixel: Float
    /// Pixel y of the horizon and its reciprocal.
    public var horizonY: Float
    public var inverseHorizonY: Float
    /// Degrees.
    public var sunRadius: Float
    /// (visibility, density, 0, 0).
    public var stars: SIMD2<Float>
    /// 1 / the star cell size in pixels, per axis; and pixels per point.
    public var inverseStarCell: SIMD2<Float>
    public var pixelsPerPoint: Float
    public var time: Float
    public var seed: UInt32
    /// Lightning: linear light added everywhere.
    public var flash: Float
    public var opacity: Float
    /// A dated sky's stars, planets and Moon (nil when it shows none).
    public var night: NightSkyDraw?
    /// Below the horizon (SkyGround.code) and a colour ground's linear colour.
    public var groundMode: Int32 = 0
    public var groundColor: SIMD3<Float> = .zero

    /// Star cells are this many points square; a star sits in the middle half of its cell.
    public static let starCellPoints = 6.0

    public init(_ layer: SkyLayer, state: SkyState, opacity: Double, time: Double, seed: UInt64,
                pixelSize: SIMD2<Int>, scale: SIMD2<Double>, panoramaPixelAngle: Double? = nil) {
        let c = state.colors
        zenith = SIMD3<Float>(c.zenith.lab)
        horizon = SIMD3<Float>(c.horizon.lab)
        let glowLinear = c.sunGlow.linear.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        glow = SIMD3<Float>(glowLinear * c.sunGlow.alpha)
        // The disc: warm near the horizon, white high up; gone behind heavy weather.
        let e = state.sunElevation
        let warm = min(max((e + 1) / 12, 0), 1)
        let disc = SIMD3<Double>(1.0, 0.55 + 0.4 * warm, 0.25 + 0.65 * warm)
        let hidden = 1 - 0.9 * state.weather.parameters.tint * state.weather.parameters.cover
        sunColor = SIMD3<Float>(disc * max(hidden, 0) * (e > -2 ? 1 : 0))
        let px = state.sunPixel(pixelSize: pixelSize)
        sun = SIMD2<Float>(px)
        degreesPerPixel = Float(state.degreesPerPixel(width: pixelSize.x))
        horizonY = Float(layer.horizon * Double(pixelSize.y))
        inverseHorizonY = 1 / horizonY
        sunRadius = Float(layer.sunSize / 2)
        // Stars fade in as the sun goes below −6° and are fully out below −12°.
        let night = min(max((-6 - e) / 6, 0), 1)
        let fade = night * night * (3 - 2 * night)
        let random = layer.stars && layer.effectiveStarSource == .random
        let visible = random ? fade * state.weather.parameters.starVisibility : 0
        stars = SIMD2(Float(visible), Float(layer.starDensity))
        inverseStarCell = SIMD2<Float>(1 / (Self.starCellPoints * scale))
        pixelsPerPoint = Float(scale.x)
        self.time = Float(time)
        self.seed = UInt32(truncatingIfNeeded: seed)
        flash = Float(state.weather.flash * 0.35)
        self.opacity = Float(opacity)
        groundMode = layer.ground.code
        if case .color(let c) = layer.ground { groundColor = ColorMath.srgbToLinear(SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))) }
        if let sky = state.night {
            let draw = NightSkyDraw(sky, state: state, layer: layer, light: .palette(night: fade), time: time, pixelSize: pixelSize,
                                    pixelAngle: panoramaPixelAngle ?? Double(degreesPerPixel), panorama: panoramaPixelAngle != nil,
                                    pointScale: (scale.x + scale.y) / 2)
            self.night = draw.isEmpty ? nil : draw
        }
    }

    /// The premultiplied sRGB colour at pixel-space point p.
    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> {
        let t = clamp01(p.y * inverseHorizonY)
        let k = t * t
        var lab = zenith + (horizon - zenith) * k
        let below = p.y > horizonY
        if below && groundMode == 0 { lab.x = lab.x * 0.55 }
        var rgb = ColorMath.oklabToLinear(lab)
        // The sun's glow: a tight core and a wide halo, and a band along the horizon under the sun.
        let dx = (p.x - sun.x) * degreesPerPixel
        let dy = (p.y - sun.y) * degreesPerPixel
        let d2 = dx * dx + dy * dy
        let halo = 0.55 / (1 + d2 * (1.0 / 400.0)) + 0.45 / (1 + d2 * (1.0 / 16.0))
        let band = k * k / (1 + dx * dx * (1.0 / 2500.0))
        rgb = rgb + glow * (halo + 0.7 * band)
        if let n = night { rgb = rgb + n.nightMoonGlow(p) }
        if below && groundMode == 2 {
            rgb = rgb + (groundColor - rgb) * smoothUnit((p.y - horizonY) * degreesPerPixel * (1 / SkyGround.fadeDegrees))
        }
        if !below {
            let d = d2.squareRoot()
            let disc = clamp01((sunRadius - d) / degreesPerPixel + 0.5) * clamp01(horizonY - p.y)
            rgb = rgb + sunColor * disc
            if stars.x > 0 {
                rgb = rgb + starLight(p) * (stars.x * (1 - k))
            }
            if let n = night {
                let moon = n.nightMoonColor(p)
                rgb = rgb + n.nightStarLight(p) * (1 - moon.w) + SIMD3(moon.x, moon.y, moon.z)
            }
        }
        rgb = rgb + SIMD3(repeating: flash)
        let clamped = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        return SIMD4(ColorMath.encodeSRGBUnit(clamped) * opacity, opacity)
    }

    /// Linear light of the star (if any) in p's cell (StarField).
    @inlinable public func starLight(_ p: SIMD2<Float>) -> SIMD3<Float> {
        Self.starField(p, inverseCell: inverseStarCell, density: stars.y, seed: seed, pixelsPerPoint: pixelsPerPoint, time: time)
    }
}

extension SkyGradientDraw {
    /// Linear light of the star (if any) in p's cell: a deterministic integer-hash star field with
    /// a gentle twinkle (the palette sky's, which the physical sky shares).
    @inlinable public static func starField(_ p: SIMD2<Float>, inverseCell: SIMD2<Float>, density: Float, seed: UInt32,
                                        pixelsPerPoint: Float, time: Float) -> SIMD3<Float> {
        let fx = (p.x * inverseCell.x).rounded(.down)
        let fy = (p.y * inverseCell.y).rounded(.down)
        let h = Noise.hashCell(Int32(fx), Int32(fy), seed)
        guard Noise.unit(h) < density else { return .zero }
        let h2 = Noise.hashNext(h), h3 = Noise.hashNext(h2), h4 = Noise.hashNext(h3), h5 = Noise.hashNext(h4)
        let sx = (fx + 0.25 + 0.5 * Noise.unit(h2)) / inverseCell.x
        let sy = (fy + 0.25 + 0.5 * Noise.unit(h3)) / inverseCell.y
        let magnitude = Noise.unit(h4)
        let radius = (0.7 + 0.8 * magnitude) * pixelsPerPoint
        let ddx = p.x - sx, ddy = p.y - sy
        let f = clamp01(1 - (ddx * ddx + ddy * ddy).squareRoot() / radius)
        let hue = Noise.unit(h5)
        let rate = 0.25 + 0.9 * hue
        let phase = Noise.unit(h2)
        let x = time * rate + phase
        let tri = abs(2 * (x - x.rounded(.down)) - 1)
        let twinkle = 0.65 + 0.35 * (tri * tri * (3 - 2 * tri))
        let brightness = (0.15 + 0.85 * magnitude * magnitude) * twinkle * f * f
        let tint = SIMD3<Float>(0.85 + 0.15 * hue, 0.9, 1.0 - 0.15 * hue)
        return tint * brightness
    }
}

/// The `cloudCover` layer in pixels: fBm cover seen in perspective toward the horizon.
public struct CloudCoverDraw: Sendable, Equatable {
    /// Noise-space offset (wind drift), kept small so float keeps its precision.
    public var offset: SIMD2<Float>
    /// 1 / the feature size in pixels.
    public var inverseScale: Float
    public var centerX: Float
    public var horizonY: Float
    public var inverseHorizonY: Float
    /// Where alpha starts rising, and how fast.
    public var threshold: Float
    public var sharpness: Float
    public var darkness: Float
    /// Straight sRGB.
    public var lit: SIMD3<Float>
    public var shadow: SIMD3<Float>
    /// Straight sRGB × strength.
    public var glow: SIMD3<Float>
    public var sun: SIMD2<Float>
    public var degreesPerPixel: Float
    /// The layer's seed through Noise.hash32: the key of its fBm (hashed here, once per frame).
    public var key: UInt32
    public var octaves: Int32
    public var opacity: Float

    public init(_ layer: CloudCoverLayer, state: SkyState, opacity: Double, seed: UInt64,
                pixelSize: SIMD2<Int>, scale: SIMD2<Double>) {
        let w = state.weather
        let coverage = layer.coverage ?? w.parameters.cover
        sharpness = Float(layer.sharpness)
        threshold = Float(Self.threshold(coverage: coverage, sharpness: layer.sharpness))
        let featurePixels = layer.scale * scale.x
        inverseScale = Float(1 / featurePixels)
        // Drift: the layer's wind, or the weather's (already integrated over its changes).
        let travel = layer.wind.map { $0 * state.time } ?? w.windTravel
        let period = 4096.0
        let o = travel / layer.scale
        // (A travel past Double's range, wind × a huge time, wraps to no offset: NaN must never reach
        // the noise's Int32 lattice coordinates.)
        func wrapped(_ v: Double) -> Float { v.isFinite ? Float(v.truncatingRemainder(dividingBy: period)) : 0 }
        offset = SIMD2(wrapped(o.x), wrapped(o.y))
        centerX = Float(pixelSize.x) / 2
        horizonY = Float(state.horizon * Double(pixelSize.y))
        inverseHorizonY = 1 / horizonY
        darkness = Float(0.25 + 0.75 * w.parameters.cloudDarkness)
        let colors = state.cloudColors
        lit = SIMD3(Float(colors.lit.r), Float(colors.lit.g), Float(colors.lit.b))
        shadow = SIMD3(Float(colors.shadow.r), Float(colors.shadow.g), Float(colors.shadow.b))
        glow = SIMD3(Float(colors.glow.r), Float(colors.glow.g), Float(colors.glow.b)) * Float(colors.glow.a)
        sun = SIMD2<Float>(state.sunPixel(pixelSize: pixelSize))
        degreesPerPixel = Float(state.degreesPerPixel(width: pixelSize.x))
        key = Noise.hash32(UInt32(truncatingIfNeeded: seed))
        octaves = Int32(layer.octaves)
        self.opacity = Float(opacity)
    }

    /// The noise value where alpha reaches one half, for a coverage: fBm values gather around 0.5,
    /// so this follows their spread, and reaches below every value at full coverage.
    public static func threshold(coverage c: Double, sharpness: Double) -> Double {
        let middle = 0.5 - 0.34 * (c - 0.5) - 2.5 * max(c - 0.9, 0) + 2.5 * max(0.1 - c, 0)
        return middle - 0.5 / sharpness
    }

    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> {
        let e = (horizonY - p.y) * inverseHorizonY
        if !(e > 0) { return .zero }
        let depth = 1 / (e + 0.25)
        let nx = (p.x - centerX) * depth * inverseScale + offset.x
        let ny = horizonY * depth * inverseScale * 1.25 + offset.y
        let n = Noise.fbmKeyed(nx, ny, key: key, octaves: octaves)
        let c = (n - threshold) * sharpness
        let a = smoothUnit(c)
        let thick = clamp01(c * 0.5 - 0.1)
        let fade = smoothUnit(e * 8)
        var col = lit + (shadow - lit) * (thick * darkness)
        let dx = (p.x - sun.x) * degreesPerPixel
        let dy = (p.y - sun.y) * degreesPerPixel
        let g = 1 / (1 + (dx * dx + dy * dy) * (1.0 / 225.0))
        col = col + glow * (g * (1 - thick))
        col = col.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        let alpha = a * fade * opacity
        return SIMD4(col * alpha, alpha)
    }
}

/// The `cloudSprites` layer in pixels: each cloud's box and kind.
public struct CloudSpritesDraw: Sendable, Equatable {
    /// Per cloud: centre x, centre y, half width, half height (pixels).
    public var boxes: [SIMD4<Float>]
    /// Per cloud: kind code, alpha, x flip (±1), 0.
    public var info: [SIMD4<Float>]
    public var lit: SIMD3<Float>
    public var shadow: SIMD3<Float>
    public var glow: SIMD3<Float>
    public var sun: SIMD2<Float>
    public var degreesPerPixel: Float
    public var opacity: Float

    public init(_ layer: CloudSpritesLayer, state: SkyState, opacity: Double, seed: UInt64,
                pixelSize: SIMD2<Int>, scale: SIMD2<Double>) {
        let width = Double(pixelSize.x), height = Double(pixelSize.y)
        let speed = layer.speed ?? state.weather.parameters.cloudSpeed / WeatherPreset.clearSpeedFactor
        // Distance travelled in seconds of base drift: the weather's integral, or steady with `speed`.
        let steady = layer.speed != nil ? speed * state.time : state.weather.drift
        // A drift past Double's range (a huge speed × time) has no position: hold the clouds at their phase.
        let drift = steady.isFinite ? steady : 0
        var boxes: [SIMD4<Float>] = [], info: [SIMD4<Float>] = []
        let s = UInt32(truncatingIfNeeded: seed)
        for i in 0..<layer.count {
            var h = Noise.hashCell(Int32(i), 0x0c10d, s)
            func next() -> Double { h = Noise.hashNext(h); return Double(Noise.unit(h)) }
            let kind = layer.kinds[Int(next() * Double(layer.kinds.count)) % layer.kinds.count]
            let w = layer.sizeRange.lowerBound + (layer.sizeRange.upperBound - layer.sizeRange.lowerBound) * next()
            let cloudHeight = 0.6 * w
            let y = layer.band.lowerBound + (layer.band.upperBound - layer.band.lowerBound) * next()
            let crossing = layer.crossingTime.lowerBound + (layer.crossingTime.upperBound - layer.crossingTime.lowerBound) * next()
            let phase = next()
            let flip: Float = next() < 0.5 ? 1 : -1
            // Left to right, wrapping once fully off the right edge.
            let halfW = w / 2 * scale.x, halfH = cloudHeight / 2 * scale.y
            let span = width + 2 * halfW * 1.3
            var u = (phase + drift / crossing).truncatingRemainder(dividingBy: 1)
            if u < 0 { u += 1 }
            let x = -halfW * 1.3 + u * span
            boxes.append(SIMD4(Float(x), Float(y * height), Float(halfW), Float(halfH)))
            info.append(SIMD4(Float(kind.code), Float(kind.alpha), flip, 0))
        }
        self.boxes = boxes; self.info = info
        let colors = state.cloudColors
        lit = SIMD3(Float(colors.lit.r), Float(colors.lit.g), Float(colors.lit.b))
        shadow = SIMD3(Float(colors.shadow.r), Float(colors.shadow.g), Float(colors.shadow.b))
        glow = SIMD3(Float(colors.glow.r), Float(colors.glow.g), Float(colors.glow.b)) * Float(colors.glow.a)
        sun = SIMD2<Float>(state.sunPixel(pixelSize: pixelSize))
        degreesPerPixel = Float(state.degreesPerPixel(width: pixelSize.x))
        self.opacity = Float(opacity)
    }

    // Cumulus: five puffs (x, y, radius) in the cloud's unit box, y down.
    public static let cumulusPuffs: [SIMD3<Float>] = [
        SIMD3(-0.52, 0.18, 0.40), SIMD3(-0.12, -0.12, 0.55), SIMD3(0.34, -0.02, 0.46),
        SIMD3(0.66, 0.22, 0.30), SIMD3(0.05, 0.28, 0.42),
    ]
    // Cirrus: three thin streaks (x, y, half length, half thickness).
    public static let cirrusStreaks: [SIMD4<Float>] = [
        SIMD4(0.0, -0.15, 1.0, 0.22), SIMD4(-0.22, 0.2, 0.78, 0.18), SIMD4(0.28, 0.45, 0.62, 0.16),
    ]

    /// A cloud's coverage (0…1) at local point (x, y) in its unit box (−1…1), before its alpha.
    @inlinable public static func shape(kind: Int32, _ x: Float, _ y: Float) -> Float {
        if kind == CloudSpritesLayer.Kind.cumulus.code {
            var m: Float = -1
            for puff in cumulusPuffs {
                let dx = x - puff.x, dy = y - puff.y
                m = max(m, 1 - (dx * dx + dy * dy).squareRoot() / puff.z)
            }
            let base = clamp01((0.62 - y) * 2.5)
            return smoothUnit(m * 1.6) * base
        } else if kind == CloudSpritesLayer.Kind.cirrus.code {
            var m: Float = -1
            let sheared = y + x * 0.18
            for s in cirrusStreaks {
                let dx = (x - s.x) / s.z, dy = (sheared - s.y) / s.w
                m = max(m, 1 - dx * dx - dy * dy)
            }
            return smoothUnit(m * 0.7)
        } else {
            let dy = y * (1 / 0.42)
            let m1 = 1 - x * x - dy * dy
            let ex = (x - 0.3) * (1 / 0.6), ey = (y + 0.2) * (1 / 0.3)
            let m2 = 1 - ex * ex - ey * ey
            return smoothUnit(max(m1, m2) * 1.2)
        }
    }

    @inlinable public func color(at p: SIMD2<Float>) -> SIMD4<Float> {
        var c = SIMD4<Float>.zero
        let dx = (p.x - sun.x) * degreesPerPixel
        let dy = (p.y - sun.y) * degreesPerPixel
        let g = 1 / (1 + (dx * dx + dy * dy) * (1.0 / 225.0))
        for i in 0..<boxes.count {
            let b = boxes[i]
            let x = (p.x - b.x) / b.z * info[i].z
            let y = (p.y - b.y) / b.w
            if abs(x) > 1.05 || abs(y) > 1.05 { continue }
            let a = Self.shape(kind: Int32(info[i].x), x, y) * info[i].y * opacity
            if !(a > 0) { continue }
            let shade = clamp01((y + 0.35) * 0.9)
            var col = lit + (shadow - lit) * (shade * 0.75)
            col = col + glow * (g * (1 - 0.6 * shade))
            col = col.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            c = SIMD4(col * a, a) + c * (1 - a)
        }
        return c
    }
}
