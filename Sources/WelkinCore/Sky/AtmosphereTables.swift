// The physical sky's look-up tables, computed in Swift (Double) for both renderers: the
// transmittance to the top of the atmosphere (Bruneton 2017's parameterisation), the multiple-
// scattering table Ψms (Hillaire 2020, §5.5: second-order light from an isotropic sphere of
// directions, times the geometric series of higher orders, ground bounce included), and per sun
// elevation the sky-view table the renderers sample per pixel (PhysicalSkyDraw, atmosphere.glsl).
//
// The sky-view table holds, per (azimuth from the sun, elevation), two phase-free integrals along
// the view ray: A = Rayleigh single scattering × its phase at the texel's angle + all higher
// orders (+ the lit ground below the horizon), and B = Mie single scattering before its phase.
// The renderers multiply B by the Cornette–Shanks phase at each pixel's own angle to the sun, so
// the aureole is as sharp as the phase function, not as coarse as the table.
//
// Units: lengths km, coefficients km⁻¹, radiance per unit of top-of-atmosphere solar irradiance
// (sr⁻¹): the sun delivers 1 in every channel to a surface facing it above the air.

import Foundation

public final class AtmosphereTables: @unchecked Sendable {
    public let coefficients: AtmosphereCoefficients
    /// Transmittance to the top of the atmosphere over (μ, r), TRANSMITTANCE_SIZE texels.
    public let transmittance: [SIMD3<Double>]
    /// Ψms over (μs, r): the isotropic radiance of all orders ≥ 2 per unit scattering coefficient.
    public let multipleScattering: [SIMD3<Double>]

    public static let transmittanceSize = SIMD2(256, 64)
    public static let multipleScatteringSize = SIMD2(32, 32)
    /// Directions per Ψms texel (a square count: Hillaire's 8 × 8) and steps along each.
    static let multipleScatteringDirections = 8
    static let multipleScatteringSteps = 20
    /// Steps per transmittance ray (midpoint rule on quadratically spaced segments).
    static let transmittanceSteps = 64

    public init(_ c: AtmosphereCoefficients) {
        coefficients = c
        let optical = OpticalLengths.shared(for: OpticalLengths.Geometry(c))
        let ts = Self.transmittanceSize
        var t = [SIMD3<Double>](repeating: .zero, count: ts.x * ts.y)
        for i in 0..<t.count {
            let l = optical.lengths[i]
            let rayleigh = c.rayleighScattering * l.x
            let depth: SIMD3<Double> = rayleigh + SIMD3(repeating: c.mieExtinction * l.y) + c.ozoneAbsorption * l.z
            t[i] = exp(-depth)
        }
        transmittance = t
        let ms = Self.multipleScatteringSize
        var m = [SIMD3<Double>](repeating: .zero, count: ms.x * ms.y)
        let partial = AtmosphereTables(coefficients: c, transmittance: t)
        m.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let base = out.baseAddress!
            DispatchQueue.concurrentPerform(iterations: ms.y) { row in
                for column in 0..<ms.x {
                    let (r, mus) = Self.multipleScatteringParameters(SIMD2(column, row), c)
                    base[row * ms.x + column] = partial.computeMultipleScattering(r: r, mus: mus)
                }
            }
        }
        multipleScattering = m
    }

    /// Tables with transmittance only (building Ψms).
    private init(coefficients: AtmosphereCoefficients, transmittance: [SIMD3<Double>]) {
        self.coefficients = coefficients
        self.transmittance = transmittance
        multipleScattering = []
    }

    // MARK: Geometry

    /// Distance from radius r along cos-zenith μ to the top of the atmosphere.
    @inlinable static func distanceToTop(_ c: AtmosphereCoefficients, r: Double, mu: Double) -> Double {
        let d = r * r * (mu * mu - 1) + c.topRadius * c.topRadius
        return max(0, -r * mu + max(d, 0).squareRoot())
    }

    /// Distance to the ground, or nil when the ray misses it.
    @inlinable static func distanceToGround(_ c: AtmosphereCoefficients, r: Double, mu: Double) -> Double? {
        guard mu < 0 else { return nil }
        let d = r * r * (mu * mu - 1) + c.groundRadius * c.groundRadius
        guard d >= 0 else { return nil }
        let t = -r * mu - d.squareRoot()
        return t >= 0 ? t : nil
    }

    // MARK: Transmittance (Bruneton 2017, §"Transmittance" parameterisation)

    /// Texture coordinates in 0…1 for (r, μ).
    static func transmittanceCoordinates(_ c: AtmosphereCoefficients, r: Double, mu: Double) -> SIMD2<Double> {
        let h = (c.topRadius * c.topRadius - c.groundRadius * c.groundRadius).squareRoot()
        let rho = max(r * r - c.groundRadius * c.groundRadius, 0).squareRoot()
        let d = distanceToTop(c, r: r, mu: mu)
        let dMin = c.topRadius - r, dMax = rho + h
        let xMu = dMax > dMin ? (d - dMin) / (dMax - dMin) : 0
        return SIMD2(min(max(xMu, 0), 1), min(max(rho / h, 0), 1))
    }

    /// (r, μ) of a transmittance texel.
    static func transmittanceParameters(_ texel: SIMD2<Int>, _ c: AtmosphereCoefficients) -> (r: Double, mu: Double) {
        let s = transmittanceSize
        let xMu = Double(texel.x) / Double(s.x - 1), xR = Double(texel.y) / Double(s.y - 1)
        let h = (c.topRadius * c.topRadius - c.groundRadius * c.groundRadius).squareRoot()
        let rho = h * xR
        let r = (rho * rho + c.groundRadius * c.groundRadius).squareRoot()
        let dMin = c.topRadius - r, dMax = rho + h
        let d = dMin + xMu * (dMax - dMin)
        let mu = d == 0 ? 1 : (h * h - rho * rho - d * d) / (2 * r * d)
        return (r, min(max(mu, -1), 1))
    }

    /// Transmittance from (r, μ) to the top of the atmosphere (the ray must not meet the ground).
    public func transmittanceToTop(r: Double, mu: Double) -> SIMD3<Double> {
        let uv = Self.transmittanceCoordinates(coefficients, r: r, mu: mu)
        return Self.bilinear(transmittance, size: Self.transmittanceSize, uv)
    }

    /// Transmittance from (r, μs) toward the sun: 0 where the planet is in the way (a point sun).
    public func transmittanceToSun(r: Double, mus: Double) -> SIMD3<Double> {
        if Self.distanceToGround(coefficients, r: r, mu: mus) != nil { return .zero }
        return transmittanceToTop(r: r, mu: mus)
    }

    static func bilinear(_ table: [SIMD3<Double>], size: SIMD2<Int>, _ uv: SIMD2<Double>) -> SIMD3<Double> {
        let x = uv.x * Double(size.x - 1), y = uv.y * Double(size.y - 1)
        let x0 = min(max(Int(x), 0), size.x - 2), y0 = min(max(Int(y), 0), size.y - 2)
        let fx = x - Double(x0), fy = y - Double(y0)
        let i = y0 * size.x + x0
        let top = table[i] + (table[i + 1] - table[i]) * fx
        let bottom = table[i + size.x] + (table[i + size.x + 1] - table[i + size.x]) * fx
        return top + (bottom - top) * fy
    }

    // MARK: Multiple scattering (Hillaire 2020, §5.5)

    static func multipleScatteringParameters(_ texel: SIMD2<Int>, _ c: AtmosphereCoefficients) -> (r: Double, mus: Double) {
        let s = multipleScatteringSize
        let mus = -1 + 2 * Double(texel.x) / Double(s.x - 1)
        let h = (c.topRadius - c.groundRadius) * Double(texel.y) / Double(s.y - 1)
        return (c.groundRadius + max(h, 1e-4), mus)
    }

    /// Ψms at (r, μs): all orders ≥ 2 of isotropically scattered light, per unit scattering coefficient.
    public func multipleScattering(r: Double, mus: Double) -> SIMD3<Double> {
        let c = coefficients
        let u = (mus + 1) / 2
        let v = (r - c.groundRadius) / (c.topRadius - c.groundRadius)
        return Self.bilinear(multipleScattering, size: Self.multipleScatteringSize, SIMD2(min(max(u, 0), 1), min(max(v, 0), 1)))
    }

    /// One Ψms texel: second-order radiance L2 and transfer fms averaged over the sphere of
    /// directions (isotropic phase), then L2 / (1 − fms), the sum of every higher order.
    func computeMultipleScattering(r: Double, mus: Double) -> SIMD3<Double> {
        let c = coefficients
        let n = Self.multipleScatteringDirections
        let sun = SIMD3<Double>((1 - mus * mus).squareRoot(), 0, mus)
        let origin = SIMD3<Double>(0, 0, r)
        var l2 = SIMD3<Double>.zero, fms = SIMD3<Double>.zero
        let isotropic = 1 / (4 * Double.pi)
        for i in 0..<n {
            for j in 0..<n {
                // Stratified uniform directions over the sphere.
                let cosTheta = 1 - 2 * (Double(j) + 0.5) / Double(n)
                let phi = 2 * Double.pi * (Double(i) + 0.5) / Double(n)
                let sinTheta = (1 - cosTheta * cosTheta).squareRoot()
                let dir = SIMD3<Double>(sinTheta * cos(phi), sinTheta * sin(phi), cosTheta)
                let ground = Self.distanceToGround(c, r: r, mu: cosTheta)
                let tMax = ground ?? Self.distanceToTop(c, r: r, mu: cosTheta)
                let steps = Self.multipleScatteringSteps
                var throughput = SIMD3<Double>(repeating: 1)
                var previous = 0.0
                for k in 0..<steps {
                    let t1 = tMax * Double(k + 1) / Double(steps)
                    let dt = t1 - previous
                    let t = (previous + t1) / 2
                    previous = t1
                    let p = origin + dir * t
                    let pr = (p * p).sum().squareRoot()
                    let d = c.densities(altitude: pr - c.groundRadius)
                    let scattering = c.rayleighScattering * d.x + SIMD3(repeating: c.mieScattering * d.y)
                    let extinction = c.extinction(d)
                    let stepT = exp(-extinction * dt)
                    let integral = Self.stepIntegral(extinction, stepT, dt)
                    let pmus = (p * sun).sum() / pr
                    let toSun = transmittanceToSun(r: pr, mus: pmus)
                    l2 += throughput * integral * scattering * toSun * isotropic
                    fms += throughput * integral * scattering
                    throughput *= stepT
                }
                if ground != nil {
                    let p = origin + dir * tMax
                    let pr = (p * p).sum().squareRoot()
                    let cosSun = (p * sun).sum() / pr
                    l2 += throughput * transmittanceToSun(r: pr, mus: cosSun) * max(cosSun, 0) * c.groundAlbedo / Double.pi
                }
            }
        }
        let count = Double(n * n)
        // The averages over the sphere (solid angle 4π, isotropic phase 1/4π: they cancel for L2).
        l2 /= count
        fms = fms / count
        return l2 / (SIMD3(repeating: 1) - fms)
    }

    /// ∫₀^dt e^(−σ s) ds per channel, from the step's transmittance (dt where σ is 0).
    @inlinable static func stepIntegral(_ extinction: SIMD3<Double>, _ stepT: SIMD3<Double>, _ dt: Double) -> SIMD3<Double> {
        var out = SIMD3<Double>.zero
        for i in 0..<3 { out[i] = extinction[i] > 1e-12 ? (1 - stepT[i]) / extinction[i] : dt }
        return out
    }

    // MARK: Cache

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [(key: AtmosphereCoefficients, tables: AtmosphereTables)] = []
    /// Tables kept (a weather cross-fade builds a new set every frame; the last few are reused).
    static let cacheLimit = 4

    /// The tables for `c`, built once and kept while they are among the last few used.
    public static func shared(for c: AtmosphereCoefficients) -> AtmosphereTables {
        lock.lock()
        if let i = cache.firstIndex(where: { $0.key == c }) {
            let entry = cache.remove(at: i)
            cache.append(entry)
            lock.unlock()
            return entry.tables
        }
        lock.unlock()
        let tables = AtmosphereTables(c)
        lock.lock()
        cache.append((c, tables))
        if cache.count > cacheLimit { cache.removeFirst() }
        lock.unlock()
        return tables
    }
}

/// e^x per channel.
@inlinable func exp(_ x: SIMD3<Double>) -> SIMD3<Double> { SIMD3(Foundation.exp(x.x), Foundation.exp(x.y), Foundation.exp(x.z)) }

/// The optical lengths (∫ density ds for Rayleigh, Mie, ozone) behind every transmittance texel:
/// they depend only on the shell's geometry and profiles, so a changed coefficient (a panel
/// slider, a weather's haze) recombines them with exp instead of integrating again.
final class OpticalLengths: @unchecked Sendable {
    struct Geometry: Hashable {
        var groundRadius, topRadius, rayleighScaleHeight, mieScaleHeight, ozonePeak, ozoneHalfWidth: Double
        init(_ c: AtmosphereCoefficients) {
            groundRadius = c.groundRadius; topRadius = c.topRadius
            rayleighScaleHeight = c.rayleighScaleHeight; mieScaleHeight = c.mieScaleHeight
            ozonePeak = c.ozonePeak; ozoneHalfWidth = c.ozoneHalfWidth
        }
    }

    let lengths: [SIMD3<Double>]

    init(_ g: Geometry) {
        var c = AtmosphereCoefficients(Atmosphere())
        c.groundRadius = g.groundRadius; c.topRadius = g.topRadius
        c.rayleighScaleHeight = g.rayleighScaleHeight; c.mieScaleHeight = g.mieScaleHeight
        c.ozonePeak = g.ozonePeak; c.ozoneHalfWidth = g.ozoneHalfWidth
        let s = AtmosphereTables.transmittanceSize
        var out = [SIMD3<Double>](repeating: .zero, count: s.x * s.y)
        let geometry = c
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: s.y) { row in
                for column in 0..<s.x {
                    let (r, mu) = AtmosphereTables.transmittanceParameters(SIMD2(column, row), geometry)
                    base[row * s.x + column] = Self.integrate(geometry, r: r, mu: mu)
                }
            }
        }
        lengths = out
    }

    /// ∫ densities along (r, μ) to the top: segments growing quadratically (most of a grazing
    /// ray's air is near its start), each by the midpoint rule.
    static func integrate(_ c: AtmosphereCoefficients, r: Double, mu: Double) -> SIMD3<Double> {
        let tMax = AtmosphereTables.distanceToTop(c, r: r, mu: mu)
        let n = AtmosphereTables.transmittanceSteps
        var sum = SIMD3<Double>.zero
        var previous = 0.0
        for k in 0..<n {
            let f = Double(k + 1) / Double(n)
            let t1 = tMax * f * f
            let t = (previous + t1) / 2
            let dt = t1 - previous
            previous = t1
            let pr = (r * r + t * t + 2 * r * mu * t).squareRoot()
            sum += c.densities(altitude: pr - c.groundRadius) * dt
        }
        return sum
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [(key: Geometry, lengths: OpticalLengths)] = []

    static func shared(for g: Geometry) -> OpticalLengths {
        lock.lock()
        if let hit = cache.first(where: { $0.key == g }) { lock.unlock(); return hit.lengths }
        lock.unlock()
        let lengths = OpticalLengths(g)
        lock.lock()
        cache.append((g, lengths))
        if cache.count > 2 { cache.removeFirst() }
        lock.unlock()
        return lengths
    }
}
