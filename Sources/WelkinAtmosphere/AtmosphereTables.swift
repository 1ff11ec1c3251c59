// The physical sky's look-up tables, computed in Swift (Double) for both renderers: the
// transmittance to the top of the atmosphere (Bruneton 2017's parameterisation), the scattered-
// light table (after Hillaire 2020, §5.5: the first and second orders of the light arriving at each
// point with their moments, so that Rayleigh and Mie scatter it on with its direction; the ground
// lit by the light from above; the geometric series of higher orders, ground bounce included), and
// per sun elevation the sky-view table the renderers sample per pixel (PhysicalSkyDraw, atmosphere.glsl).
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
    /// The scattered light over (μs, r): `Scattered.count` values a texel (Scattered's, in order).
    public let multipleScattering: [SIMD3<Double>]

    /// The Mie phase's Legendre coefficients k₁, k₂ (`mieLegendre(g:)`): Mie in-scattering of the
    /// scattered light with its direction (Scattered.inScattered).
    public let mieLegendre: SIMD2<Double>

    public static let transmittanceSize = SIMD2(256, 64)
    public static let multipleScatteringSize = SIMD2(96, 24)
    /// Directions per Ψms texel (a square count: Hillaire's 8 × 8) and steps along each.
    static let multipleScatteringDirections = 6   // even: the azimuths pair up
    static let multipleScatteringSteps = 12
    /// Orders of scattering computed with their moments; the geometric series follows the last.
    static let scatteringPasses = 2
    /// (cos θ, weight) of the zenith angles each scattering texel integrates over: six-point
    /// Gauss–Legendre on each side of the horizon.
    static let polarNodes: [SIMD2<Double>] = {
        let x: [Double] = [0.2386191860831969, 0.6612093864662645, 0.9324695142031521]
        let w: [Double] = [0.4679139345726910, 0.3607615730481386, 0.1713244923791704]
        var nodes: [SIMD2<Double>] = []
        for (xi, wi) in zip(x, w) {
            for s in [-1.0, 1.0] {
                let u = (1 + s * xi) / 2   // a node on 0…1
                nodes.append(SIMD2(u, wi / 2))
                nodes.append(SIMD2(-u, wi / 2))
            }
        }
        return nodes
    }()
    /// Steps per transmittance ray (midpoint rule on quadratically spaced segments).
    static let transmittanceSteps = 64

    /// `parallel`: rows on every core (the default); false: on the caller's thread alone (a
    /// background build that leaves the other core to the viewer's frame). The same bits either way.
    public init(_ c: AtmosphereCoefficients, parallel: Bool = true) {
        coefficients = c
        mieLegendre = Self.mieLegendre(g: c.mieG)
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
        // Two passes over the table: the light scattered once (from the sun), then the light
        // scattered twice (from the first pass's in-scattering); both with their moments, and the
        // orders after them as the second's geometric series.
        let airs = (0..<Self.multipleScatteringSize.y).map { Self.rowAir(c, r: Self.multipleScatteringParameters(SIMD2(0, $0), c).r) }
        var pass = AtmosphereTables(coefficients: c, transmittance: t, multipleScattering: Self.scatteringPass(c, t, airs: airs, from: nil, parallel: parallel))
        var m = pass.multipleScattering
        for _ in 1..<Self.scatteringPasses {
            let next = Self.scatteringPass(c, t, airs: airs, from: pass, parallel: parallel)
            let n = Scattered.count
            for i in stride(from: 0, to: m.count, by: n) {
                for k in 0..<(n - 1) { m[i + k] += next[i + k] }
                m[i + n - 1] = next[i + n - 1]
            }
            pass = AtmosphereTables(coefficients: c, transmittance: t, multipleScattering: next)
        }
        multipleScattering = m
    }

    private init(coefficients: AtmosphereCoefficients, transmittance: [SIMD3<Double>], multipleScattering: [SIMD3<Double>]) {
        self.coefficients = coefficients
        mieLegendre = Self.mieLegendre(g: coefficients.mieG)
        self.transmittance = transmittance
        self.multipleScattering = multipleScattering
    }

    /// One pass over the scattering table: every texel's arriving light (`computeArriving`).
    static func scatteringPass(_ c: AtmosphereCoefficients, _ t: [SIMD3<Double>], airs: [RowAir], from previous: AtmosphereTables?,
                               parallel: Bool = true) -> [SIMD3<Double>] {
        let partial = AtmosphereTables(coefficients: c, transmittance: t, multipleScattering: previous?.multipleScattering ?? [])
        let ms = multipleScatteringSize
        let n = Scattered.count
        var m = [SIMD3<Double>](repeating: .zero, count: n * ms.x * ms.y)
        m.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let base = out.baseAddress!
            forEachRow(ms.y, parallel: parallel) { row in
                let air = airs[row]
                for column in 0..<ms.x {
                    let (r, mus) = multipleScatteringParameters(SIMD2(column, row), c)
                    let texel = partial.computeArriving(r: r, mus: mus, fromPrevious: previous != nil, air: air)
                    let i = n * (row * ms.x + column)
                    base[i] = texel.average; base[i + 1] = texel.xx; base[i + 2] = texel.yy
                    base[i + 3] = texel.zz; base[i + 4] = texel.xz; base[i + 5] = texel.x
                    base[i + 6] = texel.z; base[i + 7] = texel.flux; base[i + 8] = texel.higher
                }
            }
        }
        return m
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
    @inline(__always) static func transmittanceCoordinates(_ c: AtmosphereCoefficients, r: Double, mu: Double) -> SIMD2<Double> {
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
    @inline(__always) public func transmittanceToTop(r: Double, mu: Double) -> SIMD3<Double> {
        let uv = Self.transmittanceCoordinates(coefficients, r: r, mu: mu)
        return Self.bilinear(transmittance, size: Self.transmittanceSize, uv)
    }

    /// Transmittance from (r, μs) toward the sun: 0 where the planet is in the way (a point sun).
    @inline(__always) public func transmittanceToSun(r: Double, mus: Double) -> SIMD3<Double> {
        if Self.distanceToGround(coefficients, r: r, mu: mus) != nil { return .zero }
        return transmittanceToTop(r: r, mu: mus)
    }

    @inline(__always) static func bilinear(_ table: [SIMD3<Double>], size: SIMD2<Int>, _ uv: SIMD2<Double>) -> SIMD3<Double> {
        let x = uv.x * Double(size.x - 1), y = uv.y * Double(size.y - 1)
        let x0 = min(max(Int(x), 0), size.x - 2), y0 = min(max(Int(y), 0), size.y - 2)
        let fx = x - Double(x0), fy = y - Double(y0)
        let i = y0 * size.x + x0
        return table.withUnsafeBufferPointer { t in
            let p = t.baseAddress! + i, q = p + size.x
            let top = p[0] + (p[1] - p[0]) * fx
            let bottom = q[0] + (q[1] - q[0]) * fx
            return top + (bottom - top) * fy
        }
    }

    // MARK: Multiple scattering (after Hillaire 2020, §5.5)

    /// What a point at (r, μs) receives beyond the sun: the light scattered once on its way there
    /// (or reflected by the sunlit ground), as its average over the sphere `average`, its first
    /// moments `x`, `z` (the average of ω L over directions ω toward where the light comes from, in
    /// the point's frame: z up, x toward the sun's azimuth; y vanishes by symmetry), its second
    /// moments (the average of ωωᵀ L; xy and yz vanish by symmetry) and `flux`, the average of
    /// ω_z L over the directions above the horizontal alone (4π · flux is the irradiance the light
    /// from above gives a horizontal surface: the ground's light). They give Rayleigh
    /// in-scattering of it exactly, σR · ¾ (average + vᵀ M v) toward direction v, and Mie's through
    /// the phase function's first three Legendre terms (`inScattered`). `higher` is every later
    /// order, isotropic: Hillaire's L₂ f / (1 − f).
    public struct Scattered: Sendable, Equatable {
        public var average, xx, yy, zz, xz, x, z, flux, higher: SIMD3<Double>

        /// Values a texel of the table holds: average, xx, yy, zz, xz, x, z, flux, higher.
        public static let count = 9

        /// The irradiance all the scattered light from above gives a horizontal surface (per unit
        /// of solar irradiance): 4π · flux, and π · higher for the later orders (isotropic).
        public var irradiance: SIMD3<Double> { flux * (4 * Double.pi) + higher * Double.pi }

        /// The average radiance of all the scattered light: the sky's mean brightness at the point.
        public var mean: SIMD3<Double> { average + higher }

        /// The light of orders ≥ 2 scattered toward v (unit, in the point's frame) per unit length,
        /// for Rayleigh and Mie scattering coefficients: Rayleigh with its phase over the moments,
        /// Mie with its phase's Legendre coefficients `mieLegendre` (k₁, k₂: AtmosphereTables.mieLegendre)
        /// over the same moments, the later orders as isotropic.
        @inlinable public func inScattered(_ v: SIMD3<Double>, rayleigh: SIMD3<Double>, mie: Double, mieLegendre: SIMD2<Double>) -> SIMD3<Double> {
            inScattered(local: SIMD3(v.x, v.y * v.y, v.z), rayleigh: rayleigh, mie: mie, mieLegendre: mieLegendre)
        }

        /// The same from v's components as `localComponents` gives them: x, y², z.
        ///
        /// Mie: the phase p(ω·v) = Σ (2l + 1)/(4π) k_l P_l(ω·v), so the light arriving with the
        /// moments above is scattered toward v as average + 3 k₁ (m·v) + (5/2) k₂ (3 vᵀMv − average):
        /// the terms l ≤ 2 exactly, the light's finer structure left out. The sum clamped at 0 (a
        /// truncated series may dip below where the light is very uneven). The isotropic form this replaces
        /// (average alone) sent the twilight arch's red light back toward the far side of the sky
        /// as brightly as forward.
        @inlinable public func inScattered(local v: SIMD3<Double>, rayleigh: SIMD3<Double>, mie: Double, mieLegendre: SIMD2<Double>) -> SIMD3<Double> {
            let quadratic = xx * (v.x * v.x) + yy * v.y + zz * (v.z * v.z) + xz * (2 * v.x * v.z)
            let linear = x * v.x + z * v.z
            let mieLight = average + linear * (3 * mieLegendre.x) + (quadratic * 3 - average) * (2.5 * mieLegendre.y)
            let total = rayleigh * ((average + quadratic) * 0.75) + mieLight * mie + higher * (rayleigh + SIMD3(repeating: mie))
            return SIMD3(Swift.max(total.x, 0), Swift.max(total.y, 0), Swift.max(total.z, 0))
        }
    }

    /// The Cornette–Shanks phase's Legendre coefficients k₁ and k₂ for asymmetry g: k_l = 2π ∫ p(μ)
    /// P_l(μ) dμ over the phase's own integral (k₀ = 1). The midpoint rule in t, μ = 1 − 2t², which
    /// gathers the nodes under the forward peak: within 10⁻⁶ of the exact k₁ (3g(4 + g²) / (5(2 + g²)))
    /// for g ≤ 0.9.
    public static func mieLegendre(g: Double) -> SIMD2<Double> {
        var k0 = 0.0, k1 = 0.0, k2 = 0.0
        let n = 2048
        for i in 0..<n {
            let t = (Double(i) + 0.5) / Double(n)
            let mu = 1 - 2 * t * t
            let weight = SkyViewTable.miePhase(mu, g: g) * 4 * t
            k0 += weight
            k1 += weight * mu
            k2 += weight * (1.5 * mu * mu - 0.5)
        }
        return SIMD2(k1 / k0, k2 / k0)
    }

    static func multipleScatteringParameters(_ texel: SIMD2<Int>, _ c: AtmosphereCoefficients) -> (r: Double, mus: Double) {
        let s = multipleScatteringSize
        // Columns gather at the horizon (μs = ±(2u − 1)²), where twilight changes fastest.
        let a = 2 * Double(texel.x) / Double(s.x - 1) - 1
        let mus = a < 0 ? -a * a : a * a
        // Rows gather near the ground (h ∝ v²), where the aerosols and the air change fastest.
        let v = Double(texel.y) / Double(s.y - 1)
        let h = (c.topRadius - c.groundRadius) * v * v
        return (c.groundRadius + max(h, 1e-4), mus)
    }

    /// Direction `dir` in the frame of point p (radius pr, cos sun zenith mus): z up, x toward the
    /// sun's azimuth there, y completing a right-handed frame.
    @inlinable public static func localDirection(_ dir: SIMD3<Double>, at p: SIMD3<Double>, radius pr: Double,
                                                 sun: SIMD3<Double>, mus: Double) -> SIMD3<Double> {
        let up = p / pr
        var toward = sun - up * mus
        let length = (toward * toward).sum().squareRoot()
        toward = length > 1e-9 ? toward / length : SIMD3(1, 0, 0) - up * up.x
        let side = SIMD3(up.y * toward.z - up.z * toward.y, up.z * toward.x - up.x * toward.z, up.x * toward.y - up.y * toward.x)
        return SIMD3((dir * toward).sum(), (dir * side).sum(), (dir * up).sum())
    }

    /// What `Scattered.inScattered(local:)` needs of `localDirection(dir, …)`: its x, y² and z,
    /// from dot products alone (the frame is orthonormal, so y² = 1 − x² − z²; x = (ν − z μs) / √(1 − μs²)).
    @inlinable public static func localComponents(_ dir: SIMD3<Double>, at p: SIMD3<Double>, radius pr: Double,
                                                  sun: SIMD3<Double>, mus: Double) -> SIMD3<Double> {
        let s2 = 1 - mus * mus
        guard s2 > 1e-18 else {
            let v = localDirection(dir, at: p, radius: pr, sun: sun, mus: mus)
            return SIMD3(v.x, v.y * v.y, v.z)
        }
        let z = (dir.x * p.x + dir.y * p.y + dir.z * p.z) / pr
        let x = (dir.x * sun.x + dir.y * sun.y + dir.z * sun.z - z * mus) / s2.squareRoot()
        return SIMD3(x, max(0, 1 - x * x - z * z), z)
    }

    /// The scattered light at (r, μs), bilinear in the table. `previousOrder`: while the second
    /// pass is built, the first pass's light alone (its `higher` left out).
    /// (Inlined into the tables' loops: returned as a value it was a third of their time, and the
    /// nine values a texel would have cost 6 ms more a set of tables.)
    @inline(__always) public func scattered(r: Double, mus: Double, previousOrder: Bool = false) -> Scattered {
        let c = coefficients, s = Self.multipleScatteringSize
        let m = min(max(mus, -1), 1)
        let u = (1 + (m < 0 ? -(-m).squareRoot() : m.squareRoot())) / 2
        let v = min(max((r - c.groundRadius) / (c.topRadius - c.groundRadius), 0), 1).squareRoot()
        let x = u * Double(s.x - 1), y = v * Double(s.y - 1)
        let x0 = min(max(Int(x), 0), s.x - 2), y0 = min(max(Int(y), 0), s.y - 2)
        let fx = x - Double(x0), fy = y - Double(y0)
        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
        let i = y0 * s.x + x0
        // The four texels' nine values each, unchecked (the indices are clamped above): the
        // tables' inner loops call this tens of millions of times.
        return multipleScattering.withUnsafeBufferPointer { t in
            let n = Scattered.count
            let p00 = t.baseAddress! + n * i, p10 = p00 + n, p01 = p00 + n * s.x, p11 = p01 + n
            func at(_ k: Int) -> SIMD3<Double> { p00[k] * w00 + p10[k] * w10 + p01[k] * w01 + p11[k] * w11 }
            return Scattered(average: at(0), xx: at(1), yy: at(2), zz: at(3), xz: at(4), x: at(5), z: at(6), flux: at(7),
                             higher: previousOrder ? .zero : at(8))
        }
    }

    /// The mean radiance of the scattered light at (r, μs) (auto exposure, the ground's sky light).
    public func multipleScattering(r: Double, mus: Double) -> SIMD3<Double> { scattered(r: r, mus: mus).mean }

    /// The air along every direction a texel integrates over, from radius r: what all the texels
    /// of a row share, since it depends on r and each direction's zenith angle, not on the sun or
    /// the azimuth. One RayAir per polar node, and the transfer of isotropic unit light averaged
    /// over the sphere (Hillaire's f_ms, the ground's return included).
    struct RowAir {
        var rays: [RayAir]
        var fms: SIMD3<Double>
    }

    static func rowAir(_ c: AtmosphereCoefficients, r: Double) -> RowAir {
        let rays = polarNodes.map { RayAir(c, r0: r, mu: $0.x, steps: multipleScatteringSteps) }
        // f's integrand along each ray: the light scattered on the way, and the ground's return
        // (lit by isotropic unit radiance from above, irradiance π, a Lambertian ground sends back albedo).
        let fmsNode = rays.map { ray -> SIMD3<Double> in
            var f = SIMD3<Double>.zero
            for (weight, d) in zip(ray.weight, ray.densities) {
                f += weight * (c.rayleighScattering * d.x + SIMD3(repeating: c.mieScattering * d.y))
            }
            if ray.hitsGround { f += ray.end * c.groundAlbedo }
            return f
        }
        // Every azimuth of a node sees the same air: the average over the sphere, in the order
        // the texels sum their light (azimuths outside, nodes inside).
        var fmsSum = SIMD3<Double>.zero, weightSum = 0.0
        for _ in 0..<multipleScatteringDirections / 2 {
            for (node, f) in zip(polarNodes, fmsNode) { fmsSum += f * node.y; weightSum += node.y }
        }
        return RowAir(rays: rays, fms: fmsSum / weightSum)
    }

    /// One texel: the light arriving from a sphere of directions, its average and second moments,
    /// and the transfer f of isotropic unit light (ground included), whose geometric series gives
    /// the later orders. First pass: light scattered once on the way (the sun's, with the phase
    /// functions at each direction's angle to it) and the sunlit ground. Second pass
    /// (`fromPrevious`, the tables holding the first): the first pass's light scattered again on
    /// the way (Scattered.inScattered of its moments) and the ground it lights. `air`: the row's
    /// (rowAir at this r).
    func computeArriving(r: Double, mus: Double, fromPrevious: Bool, air: RowAir) -> Scattered {
        let c = coefficients
        let n = Self.multipleScatteringDirections
        let sun = SIMD3<Double>((1 - mus * mus).squareRoot(), 0, mus)
        let origin = SIMD3<Double>(0, 0, r)
        var sum = Scattered(average: .zero, xx: .zero, yy: .zero, zz: .zero, xz: .zero, x: .zero, z: .zero, flux: .zero, higher: .zero)
        // The sun lies in the xz plane, so azimuths φ and 2π − φ see the same light: the evenly
        // spaced azimuths pair up exactly, and half of them give the same averages (every sum here
        // is even in y). Zenith angles: Gauss–Legendre in cos θ on each side of the horizon, whose
        // nodes gather near it, where the arriving light changes fastest.
        var weightSum = 0.0
        for i in 0..<n / 2 {
            let phi = 2 * Double.pi * (Double(i) + 0.5) / Double(n)
            let cosPhi = cos(phi), sinPhi = sin(phi)
            for (j, node) in Self.polarNodes.enumerated() {
                let cosTheta = node.x
                let weight = node.y
                let sinTheta = (1 - cosTheta * cosTheta).squareRoot()
                let dir = SIMD3<Double>(sinTheta * cosPhi, sinTheta * sinPhi, cosTheta)
                // Sunlight scattered at p toward x: its phase angle is the one between the view along
                // dir and the sun, as for the sky seen from x.
                let nu = (dir * sun).sum()
                let rayleighPhase = 3 / (16 * Double.pi) * (1 + nu * nu)
                let g = c.mieG
                let miePhase = 3 / (8 * Double.pi) * (1 - g * g) / (2 + g * g) * (1 + nu * nu) / pow(1 + g * g - 2 * g * nu, 1.5)
                var arriving = SIMD3<Double>.zero
                let ray = air.rays[j]
                for k in 0..<ray.t.count {
                    let p = origin + dir * ray.t[k]
                    let pr = ray.radius[k]
                    let d = ray.densities[k]
                    let pmus = (p * sun).sum() / pr
                    if fromPrevious {
                        let local = Self.localComponents(dir, at: p, radius: pr, sun: sun, mus: pmus)
                        let again = scattered(r: pr, mus: pmus, previousOrder: true)
                            .inScattered(local: local, rayleigh: c.rayleighScattering * d.x, mie: c.mieScattering * d.y, mieLegendre: mieLegendre)
                        arriving += ray.weight[k] * again
                    } else {
                        let phased = c.rayleighScattering * (d.x * rayleighPhase) + SIMD3(repeating: c.mieScattering * d.y * miePhase)
                        arriving += ray.weight[k] * phased * transmittanceToSun(r: pr, mus: pmus)
                    }
                }
                if ray.hitsGround {
                    let p = origin + dir * ray.tMax
                    let pr = (p * p).sum().squareRoot()
                    let cosSun = (p * sun).sum() / pr
                    let throughput = ray.end
                    if fromPrevious {
                        // The ground lit by the first pass's light from above: albedo × its irradiance / π.
                        arriving += throughput * scattered(r: pr, mus: cosSun, previousOrder: true).flux * (4 * c.groundAlbedo)
                    } else {
                        arriving += throughput * transmittanceToSun(r: pr, mus: cosSun) * max(cosSun, 0) * c.groundAlbedo / Double.pi
                    }
                }
                let weighted = arriving * weight
                sum.average += weighted
                sum.xx += weighted * (dir.x * dir.x)
                sum.yy += weighted * (dir.y * dir.y)
                sum.zz += weighted * (dir.z * dir.z)
                sum.xz += weighted * (dir.x * dir.z)
                sum.x += weighted * dir.x
                sum.z += weighted * dir.z
                if dir.z > 0 { sum.flux += weighted * dir.z }
                weightSum += weight
            }
        }
        let count = weightSum
        // Averages over the sphere of directions.
        var out = Scattered(average: sum.average / count, xx: sum.xx / count, yy: sum.yy / count, zz: sum.zz / count,
                            xz: sum.xz / count, x: sum.x / count, z: sum.z / count, flux: sum.flux / count, higher: .zero)
        out.higher = out.average * air.fms / (SIMD3(repeating: 1) - air.fms)
        return out
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

    /// Whether the tables for `c` are built and kept (`shared(for:)` returns at once).
    public static func isCached(_ c: AtmosphereCoefficients) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return cache.contains { $0.key == c }
    }

    /// The tables for `c`, built once and kept while they are among the last few used.
    public static func shared(for c: AtmosphereCoefficients, parallel: Bool = true) -> AtmosphereTables {
        lock.lock()
        if let i = cache.firstIndex(where: { $0.key == c }) {
            let entry = cache.remove(at: i)
            cache.append(entry)
            lock.unlock()
            return entry.tables
        }
        lock.unlock()
        let tables = AtmosphereTables(c, parallel: parallel)
        lock.lock()
        cache.append((c, tables))
        if cache.count > cacheLimit { cache.removeFirst() }
        lock.unlock()
        return tables
    }
}

/// The air along a ray from radius r0 at cos-zenith μ to the top of the atmosphere or the ground,
/// in `steps` quadratically spaced steps (most of a ray's air is near its start): what the
/// scattered-light table's directions and the sky-view table's rows integrate over, the same for
/// every azimuth. Per step: its middle t, radius, densities and weight (the transmittance to its
/// start times ∫ e^(−σ s) ds over it); where the ray ends, whether at the ground, and the
/// transmittance there.
struct RayAir {
    var t: [Double] = [], radius: [Double] = [], densities: [SIMD3<Double>] = [], weight: [SIMD3<Double>] = []
    var tMax = 0.0, hitsGround = false, end = SIMD3<Double>(repeating: 1)

    init(_ c: AtmosphereCoefficients, r0: Double, mu: Double, steps n: Int) {
        let ground = AtmosphereTables.distanceToGround(c, r: r0, mu: mu)
        tMax = ground ?? AtmosphereTables.distanceToTop(c, r: r0, mu: mu)
        hitsGround = ground != nil
        let across = (1 - mu * mu).squareRoot()
        var previous = 0.0
        for k in 0..<n {
            let f = Double(k + 1) / Double(n)
            let t1 = tMax * f * f
            let dt = t1 - previous
            let t = (previous + t1) / 2
            previous = t1
            let x = across * t, z = r0 + mu * t
            let pr = (x * x + z * z).squareRoot()
            let d = c.densities(altitude: pr - c.groundRadius)
            let extinction = c.extinction(d)
            let stepT = exp(-extinction * dt)
            let integral = AtmosphereTables.stepIntegral(extinction, stepT, dt)
            self.t.append(t); radius.append(pr); densities.append(d); weight.append(end * integral)
            end *= stepT
        }
    }
}

/// body(0) … body(n − 1): on every core, or in order on this thread.
func forEachRow(_ n: Int, parallel: Bool, _ body: @Sendable (Int) -> Void) {
    if parallel { DispatchQueue.concurrentPerform(iterations: n, execute: body) } else { for i in 0..<n { body(i) } }
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
