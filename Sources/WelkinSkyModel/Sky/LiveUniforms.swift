// The uniforms the GL passes set from a physical sky's and a cloud layer's draw, by GLSL name, as
// numbers (each component a Double holding the Float, Int32 or UInt32 GL is given): what a
// package's copy of this module writes into its Metal buffers each frame. The names and
// conditions mirror SkyPass.setPhysical and CloudsPass.marchGrid; `welkin export-code --package`
// compares each value with what the GL path set (MetalLive.decide), so a name that drifts from
// the GL pass is recorded instead, never wrong.

import Foundation

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
        if fogs {
            u["u_fog"] = [Double(fogColumn), Double(fogGround), Double(fogG)]
            u["u_fogAmbient"] = numbers(fogAmbient); u["u_fogSun"] = numbers(fogSun); u["u_fogBalance"] = numbers(fogBalance)
        }
        if groundMode == 2 { u["u_groundColor"] = numbers(groundColor) }
        // The glow as this frame draws it: zero where it is too faint to draw (drawsNightGlow).
        u["u_nightGlow"] = numbers(nightGlow.map { drawsNightGlow ? $0 : .zero })
        u["u_nightGlowGround"] = numbers(drawsNightGlow ? nightGlowGround : .zero)
        if drawsMilkyWay {
            u["u_galactic"] = numbers(galactic)
            u["u_milkyWayLight"] = numbers(milkyWayLight)
        }
        return u
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
        if shafts.x > 0 { u["u_clouds.shafts"] = numbers(shafts) }
        if fogs {
            u["u_clouds.fog"] = numbers(fog); u["u_clouds.fogAmbient"] = numbers(fogAmbient)
            u["u_clouds.fogSun"] = numbers(fogSun); u["u_clouds.fogBalance"] = numbers(fogBalance)
        }
        if bolts {
            u["u_bolt"] = numbers(bolt)
            u["u_boltLight"] = numbers(boltLight)
        }
        return u
    }
}

extension LiveSky.Draws {
    /// Every uniform of the sky's and the clouds' passes, by GLSL name.
    public var uniformNumbers: [String: UniformNumbers] {
        var u = physical.uniformNumbers
        if let clouds { u.merge(clouds.uniformNumbers) { sky, _ in sky } }
        return u
    }

    /// The texels (32-bit floats) of the texture GLSL sampler `name` reads, as the GL passes upload
    /// them: the sky-view table (RGBA), the zodiacal light's panorama (RGBA), the clouds' noise
    /// (RG; CloudNoise, the same at every time); nil for another sampler.
    public func texels(_ name: String) -> [Float]? {
        switch name {
        case "u_skyView": return physical.table.texels.withUnsafeBufferPointer { $0.withMemoryRebound(to: Float.self) { Array($0) } }
        case "u_zodiacal": return physical.zodiacalTexels
        case "u_weather": return CloudNoise.weather
        case "u_shape": return CloudNoise.shape
        default: return nil
        }
    }
}
