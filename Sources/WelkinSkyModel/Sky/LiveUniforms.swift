// The uniforms the GL passes set from a physical sky's and a cloud layer's draw, by GLSL name, as
// numbers (each component a Double holding the Float, Int32 or UInt32 GL is given): what a
// package's copy of this module writes into its Metal buffers each frame. The names and
// conditions mirror SkyPass.setPhysical and CloudsPass.marchGrid; `welkin export-code --package`
// compares each value with what the GL path set (MetalLive.decide), so a name that drifts from
// the GL pass is recorded instead, never wrong.

import Foundation
import WelkinAtmosphere
import WelkinAstronomy

/// A uniform's components as numbers.
public typealias UniformNumbers = [Double]

@inlinable func numbers(_ v: Float) -> UniformNumbers { [Double(v)] }
@inlinable func numbers(_ v: Int32) -> UniformNumbers { [Double(v)] }
@inlinable func numbers(_ v: UInt32) -> UniformNumbers { [Double(v)] }
@inlinable func numbers<V: SIMD>(_ v: V) -> UniformNumbers where V.Scalar == Float { v.indices.map { Double(v[$0]) } }
@inlinable func numbers(_ vs: [SIMD3<Float>]) -> UniformNumbers { vs.flatMap { [Double($0.x), Double($0.y), Double($0.z)] } }

extension PhysicalSkyDraw {
    /// The physical sky part's uniforms (SkyPass.setPhysical), those of every program variant.
    public var uniformNumbers: [String: UniformNumbers] {
        var u: [String: UniformNumbers] = [
            "u_physical.viewAzimuth": numbers(viewAzimuth), "u_physical.centerX": numbers(centerX),
            "u_physical.horizonY": numbers(horizonY), "u_physical.degreesPerPixel": numbers(degreesPerPixel),
            "u_physical.pixelAngle": numbers(pixelAngle), "u_physical.sunAzimuth": numbers(sunAzimuth),
            "u_physical.sunVector": numbers(sunVector), "u_physical.sunElevation": numbers(sunElevation),
            "u_physical.sunSine": numbers(sunSine), "u_physical.sunCosine": numbers(sunCosine),
            "u_physical.sunMetric": numbers(sunMetric), "u_physical.horizonElevation": numbers(horizonElevation),
            "u_physical.mieG": numbers(mieG), "u_physical.mieScale": numbers(mieScale),
            "u_physical.sunRadiance": numbers(sunRadiance), "u_physical.sunRadius": numbers(sunRadius),
            "u_physical.exposure": numbers(exposure), "u_physical.stars": numbers(stars),
            "u_physical.inverseStarCell": numbers(inverseStarCell), "u_physical.pixelsPerPoint": numbers(pixelsPerPoint),
            "u_physical.time": numbers(time), "u_physical.seed": numbers(seed), "u_physical.flash": numbers(flash),
            "u_physical.opacity": numbers(opacity),
            "u_physical.moonSkyScale": numbers(moonTable == nil ? 0 : moonSkyScale),
            "u_physical.moonAzimuth": numbers(moonAzimuth), "u_physical.moonSine": numbers(moonSine),
            "u_physical.moonCosine": numbers(moonCosine), "u_physical.scotopic": numbers(scotopic),
            "u_sunGlare": numbers(sunGlare),
        ]
        // A package's program has the fog compiled in (but over a colour ground, whose edge differs
        // in fog): no fog is a column of 0 (SkyPass.setPhysical sets the same).
        let fog = packageFog
        u["u_fog"] = numbers(fog.column); u["u_fogAmbient"] = numbers(fog.ambient)
        u["u_fogSun"] = numbers(fog.sun); u["u_fogBalance"] = numbers(fog.balance)
        if groundMode == 2 { u["u_groundColor"] = numbers(groundColor) }
        // The glow as this frame draws it: zero where it is too faint to draw (drawsNightGlow).
        u["u_nightGlow"] = numbers(nightGlow.map { drawsNightGlow ? $0 : .zero })
        u["u_nightGlowGround"] = numbers(drawsNightGlow ? nightGlowGround : .zero)
        let band = packageMilkyWay
        u["u_galactic"] = numbers(band.galactic)
        u["u_milkyWayLight"] = numbers(band.light)
        for (name, value) in packageNight.uniformNumbers { u[name] = value }
        return u
    }

    /// The fog's uniforms as a package's program reads them (it has the fog compiled in): this
    /// frame's, or none (a column of 0: e^0 = 1 of the sky, 0 of the fog's light, exactly).
    public var packageFog: (column: SIMD3<Float>, ambient: SIMD3<Float>, sun: SIMD3<Float>, balance: SIMD3<Float>) {
        fogs ? (SIMD3(fogColumn, fogGround, fogG), fogAmbient, fogSun, fogBalance) : (.zero, .zero, .zero, SIMD3(repeating: 1))
    }

    /// The Milky Way's uniforms as a package's program reads them (compiled in while the map is
    /// there): the band's rows and light this frame, or the identity's rows and no light (the map
    /// read × 0 adds exactly nothing).
    public var packageMilkyWay: (galactic: [SIMD3<Float>], light: [SIMD3<Float>]) {
        if drawsMilkyWay, galactic.count == 3, milkyWayLight.count == NightGlow.samples { return (galactic, milkyWayLight) }
        return ([SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)], Array(repeating: .zero, count: NightGlow.samples))
    }

    /// The night sky a package's program draws (it has the night compiled in): this frame's, or one
    /// that draws nothing (an empty grid, no Moon) in the sky's own view.
    public var packageNight: NightSkyDraw { night ?? NightSkyDraw(nothingIn: self) }

    /// The Moon's sky-view table as a package's program reads it (moonlight compiled in): this
    /// frame's while it lights the air, else one black texel (moonSkyScale is 0 then).
    public var packageMoonView: LiveTexture {
        if let moonTable, moonSkyScale > 0 { return LiveTexture(moonTable) }
        return LiveTexture(width: 1, height: 1, format: .rgba32Float, bytes: [UInt8](repeating: 0, count: 16))
    }
    /// The zodiacal light's panorama as the GL pass uploads it (RGBA32F, zodiacalColumns × NightGlow.samples):
    /// zero where the frame draws none.
    public var zodiacalTexels: [Float] {
        let n = PhysicalSkyDraw.zodiacalColumns * NightGlow.samples
        let panorama = drawsZodiacalLight && zodiacalPanorama.count == n ? zodiacalPanorama : []
        var texels = [Float](repeating: 0, count: 4 * n)
        for i in 0..<n where !panorama.isEmpty {
            texels[4 * i] = panorama[i].x; texels[4 * i + 1] = panorama[i].y; texels[4 * i + 2] = panorama[i].z
        }
        return texels
    }
}

extension SkyGradientDraw {
    /// The palette sky part's uniforms (SkyPass.setSky), with its night's (a package's program has
    /// the night compiled in: packageNight).
    public var uniformNumbers: [String: UniformNumbers] {
        var u: [String: UniformNumbers] = [
            "u_sky.zenith": numbers(zenith), "u_sky.horizon": numbers(horizon), "u_sky.glow": numbers(glow),
            "u_sky.sunColor": numbers(sunColor), "u_sky.sun": numbers(sun), "u_sky.degreesPerPixel": numbers(degreesPerPixel),
            "u_sky.horizonY": numbers(horizonY), "u_sky.inverseHorizonY": numbers(inverseHorizonY), "u_sky.sunRadius": numbers(sunRadius),
            "u_sky.stars": numbers(stars), "u_sky.inverseStarCell": numbers(inverseStarCell), "u_sky.pixelsPerPoint": numbers(pixelsPerPoint),
            "u_sky.time": numbers(time), "u_sky.seed": numbers(seed), "u_sky.flash": numbers(flash), "u_sky.opacity": numbers(opacity),
        ]
        if groundMode == 2 { u["u_groundColor"] = numbers(groundColor) }
        for (name, value) in packageNight.uniformNumbers { u[name] = value }
        return u
    }

    /// The night sky a package's program draws (it has the night compiled in): this frame's, or
    /// one that draws nothing.
    public var packageNight: NightSkyDraw {
        night ?? NightSkyDraw(viewAzimuth: 0, centerX: 0, horizonY: horizonY, degreesPerPixel: degreesPerPixel, pixelAngle: degreesPerPixel)
    }
}

extension NightSkyDraw {
    /// A night sky that draws nothing, in `sky`'s view: one empty cell, no points, no Moon.
    public init(nothingIn sky: PhysicalSkyDraw) {
        self.init(viewAzimuth: sky.viewAzimuth, centerX: sky.centerX, horizonY: sky.horizonY, degreesPerPixel: sky.degreesPerPixel,
                  pixelAngle: sky.pixelAngle)
    }

    /// The night's uniforms (SkyPass.setNight), by GLSL name.
    public var uniformNumbers: [String: UniformNumbers] {
        [
            "u_night.viewAzimuth": numbers(viewAzimuth), "u_night.centerX": numbers(centerX), "u_night.horizonY": numbers(horizonY),
            "u_night.degreesPerPixel": numbers(degreesPerPixel), "u_night.pixelAngle": numbers(pixelAngle),
            "u_night.gridOrigin": numbers(gridOrigin), "u_night.inverseCell": numbers(inverseCell),
            "u_night.gridSize": [Double(gridSize.x), Double(gridSize.y)], "u_night.moonVisible": numbers(moonVisible),
            "u_night.moonAzimuth": numbers(moonAzimuth), "u_night.moonElevation": numbers(moonElevation),
            "u_night.moonCosElevation": numbers(moonCosElevation), "u_night.moonInverseRadius": numbers(moonInverseRadius),
            "u_night.moonSun": numbers(moonSun), "u_night.moonFaceX": numbers(moonFaceX), "u_night.moonFaceY": numbers(moonFaceY),
            "u_night.moonFaceZ": numbers(moonFaceZ), "u_night.moonRadiance": numbers(moonRadiance),
            "u_night.earthshine": numbers(earthshine), "u_night.moonGlow": numbers(moonGlow), "u_night.haloRatio": numbers(haloRatio),
        ]
    }

    /// The star grid's cells as the GL pass uploads them (RG32UI, gridSize).
    public var cellsTexture: LiveTexture {
        LiveTexture(width: Int(gridSize.x), height: Int(gridSize.y), format: .rg32Uint, bytes: cells.withUnsafeBytes { Array($0) })
    }

    /// The entries as the GL pass uploads them (RGBA32F, entriesWidth wide, at least one row, zeros after the last).
    public var entriesTexture: LiveTexture {
        let rows = max((entries.count + Self.entriesWidth - 1) / Self.entriesWidth, 1)
        var bytes = entries.withUnsafeBytes { Array($0) }
        bytes.append(contentsOf: repeatElement(0, count: rows * Self.entriesWidth * 16 - bytes.count))
        return LiveTexture(width: Self.entriesWidth, height: rows, format: .rgba32Float, bytes: bytes)
    }
}

/// A texture's texels as the GL passes upload them: what a package makes per frame for a sampler.
public struct LiveTexture: Sendable, Equatable {
    public enum Format: String, Sendable { case rgba32Float, rg32Float, rg32Uint, rgba8Unorm }
    public var width: Int
    public var height: Int
    /// 1 for a 2D texture.
    public var depth: Int
    public var format: Format
    public var bytes: [UInt8]

    public init(width: Int, height: Int, depth: Int = 1, format: Format, bytes: [UInt8]) {
        self.width = width; self.height = height; self.depth = depth; self.format = format; self.bytes = bytes
    }

    /// A sky-view table (RGBA32F, SkyViewTable.width × 2·height).
    public init(_ table: SkyViewTable) {
        self.init(width: SkyViewTable.width, height: 2 * SkyViewTable.height, format: .rgba32Float,
                  bytes: table.texels.withUnsafeBytes { Array($0) })
    }

    /// 32-bit float texels.
    public init(width: Int, height: Int, depth: Int = 1, format: Format, floats: [Float]) {
        self.init(width: width, height: height, depth: depth, format: format, bytes: floats.withUnsafeBytes { Array($0) })
    }
}

extension CloudsDraw {
    /// The march's uniforms (CloudsPass.marchGrid), by name.
    public var uniformNumbers: [String: UniformNumbers] {
        var u: [String: UniformNumbers] = [
            "u_clouds.gridSize": [Double(gridSize.x), Double(gridSize.y)],
            "u_clouds.gridScale": numbers(gridScale), "u_clouds.inverseGridScale": numbers(inverseGridScale),
            "u_clouds.base": numbers(base), "u_clouds.top": numbers(top), "u_clouds.inverseThickness": numbers(inverseThickness),
            "u_clouds.profile": numbers(profile), "u_clouds.inverseScales": numbers(inverseScales),
            "u_clouds.shapeWeight": numbers(shapeWeight), "u_clouds.relief": numbers(relief), "u_clouds.lodScale": numbers(lodScale),
            "u_clouds.threshold": numbers(threshold), "u_clouds.extinction": numbers(extinction),
            "u_clouds.offset": numbers(offset), "u_clouds.evolution": numbers(evolution), "u_clouds.steps": numbers(steps),
            "u_clouds.maxDistance": numbers(maxDistance), "u_clouds.farCover": numbers(farCover),
            "u_clouds.hazeInverse": numbers(hazeInverse), "u_clouds.hazeColor": numbers(hazeColor), "u_clouds.hazeGlow": numbers(hazeGlow),
            "u_clouds.sunDirection": numbers(sunDirection), "u_clouds.sunLight": numbers(sunLight), "u_clouds.sunShadow": numbers(sunShadow),
            "u_clouds.lightReach": numbers(lightReach), "u_clouds.diffuseLight": numbers(diffuseLight),
            "u_clouds.ambientTop": numbers(ambientTop), "u_clouds.ambientBottom": numbers(ambientBottom),
            "u_clouds.ambientShade": numbers(ambientShade), "u_clouds.flash": numbers(flash), "u_clouds.flashPoint": numbers(flashPoint),
            "u_clouds.cirrus": numbers(cirrus), "u_clouds.cirrusOffset": numbers(cirrusOffset),
            "u_clouds.opacity": numbers(opacity), "u_clouds.groundShade": numbers(groundShade),
        ]
        // A package's march has the shafts, fog and bolts compiled in: none is shafts of 0, a fog
        // column of 0, a bolt of no light (CloudsPass.marchGrid sets the same).
        u["u_clouds.shafts"] = numbers(shafts)
        let fog = packageFog
        u["u_clouds.fog"] = numbers(fog.column); u["u_clouds.fogAmbient"] = numbers(fog.ambient)
        u["u_clouds.fogSun"] = numbers(fog.sun); u["u_clouds.fogBalance"] = numbers(fog.balance)
        let bolt = packageBolt
        u["u_bolt"] = numbers(bolt.vertices)
        u["u_boltLight"] = numbers(bolt.light)
        return u
    }

    /// The fog's uniforms as a package's march reads them: this frame's, or none (a column of 0).
    public var packageFog: (column: SIMD3<Float>, ambient: SIMD3<Float>, sun: SIMD3<Float>, balance: SIMD3<Float>) {
        fogs ? (fog, fogAmbient, fogSun, fogBalance) : (.zero, .zero, .zero, SIMD3(repeating: 1))
    }

    /// The bolt as a package's march reads it: this frame's, or one of no light (its vertices at the origin).
    public var packageBolt: (vertices: [SIMD3<Float>], light: SIMD4<Float>) {
        bolts && bolt.count == Self.boltVertices ? (bolt, boltLight) : (Array(repeating: .zero, count: Self.boltVertices), .zero)
    }
}

extension LiveSky.Draws {
    /// Every uniform of the sky's and the clouds' passes, by GLSL name.
    public var uniformNumbers: [String: UniformNumbers] {
        var u = physical?.uniformNumbers ?? palette?.uniformNumbers ?? [:]
        if let clouds { u.merge(clouds.uniformNumbers) { sky, _ in sky } }
        return u
    }

    /// The night the sky's program draws (packageNight: this frame's, or one that draws nothing).
    public var night: NightSkyDraw? { physical?.packageNight ?? palette?.packageNight }

    /// The texture GLSL sampler `name` reads, as the GL passes upload it for a package's programs:
    /// the sky-view tables (the Sun's, the Moon's), the zodiacal light's panorama, the night's star
    /// grid and entries, the Milky Way's map (MilkyWayMap), the clouds' noise (CloudNoise, the same
    /// at every time); nil for another sampler, or the map when its file is missing.
    public func texture(_ name: String) -> LiveTexture? {
        switch name {
        case "u_skyView": return physical.map { LiveTexture($0.table) }
        case "u_moonView": return physical?.packageMoonView
        case "u_zodiacal":
            return physical.map { LiveTexture(width: PhysicalSkyDraw.zodiacalColumns, height: NightGlow.samples, format: .rgba32Float, floats: $0.zodiacalTexels) }
        case "u_nightCells": return night?.cellsTexture
        case "u_nightEntries": return night?.entriesTexture
        case "u_milkyWay": return MilkyWayMap.shared.map { LiveTexture(width: $0.width, height: $0.height, format: .rgba8Unorm, bytes: $0.rgba) }
        case "u_weather": return LiveTexture(width: CloudNoise.weatherSize, height: CloudNoise.weatherSize, format: .rg32Float, floats: CloudNoise.weather)
        case "u_shape":
            let n = CloudNoise.shapeSize
            return LiveTexture(width: n, height: n, depth: n, format: .rg32Float, floats: CloudNoise.shape)
        default: return nil
        }
    }
}
