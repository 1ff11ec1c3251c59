// The sky-view table for one sun elevation (Hillaire 2020's sky-view LUT, with the Mie phase kept
// out): what PhysicalSkyDraw and atmosphere.glsl sample per pixel. Built in Swift when a Frame is
// resolved; the GPU gets it as a float texture and reads it with the same bilinear arithmetic.
//
// Layout: SKY_VIEW_WIDTH columns of azimuth from the sun (0 toward it … 180° away, evenly) by
// SKY_VIEW_HEIGHT rows of elevation, concentrated at the horizon: row v ∈ [0, ½] covers the sky
// above the geometric horizon h, el = h + (90° − h)(1 − 2v)², and v ∈ [½, 1] the ground below,
// el = h − (90° + h)(2v − 1)². Rows 0…H−1 hold A (RGB: Rayleigh × its phase + higher orders +
// the ground), rows H…2H−1 hold B (RGB: Mie before its phase); texel (i, j) sits at
// (i / (W − 1), j / (H − 1)), so the horizon falls between two rows and the edges are exact.

import Foundation

public final class SkyViewTable: @unchecked Sendable, Equatable {
    public static let width = 64
    public static let height = 96
    /// Steps along each view ray (quadratically spaced: the air is densest near the observer).
    static let steps = 40

    /// What the table was built for.
    public struct Key: Hashable, Sendable, Codable {
        public var coefficients: AtmosphereCoefficients
        /// km above the ground.
        public var altitude: Double
        /// The sun's elevation, degrees.
        public var sunElevation: Double

        public init(coefficients: AtmosphereCoefficients, altitude: Double, sunElevation: Double) {
            self.coefficients = coefficients; self.altitude = altitude; self.sunElevation = sunElevation
        }
    }

    /// How a table is made from built ones: `blended(for:)` a key (the tables at the sun's two
    /// elevation steps around it, blended), or two of those `mixed` across a weather fade. A few
    /// numbers that give the same texels wherever these sources run: a `--package` export records
    /// recipes and its copy of this module makes the tables on the device (`make`).
    public indirect enum Recipe: Hashable, Sendable, Codable {
        case blended(Key)
        case mixed(Recipe, Recipe, weight: Double)
    }

    public let key: Key
    /// What `make` makes this table from (nil for a table built for a key between elevation steps,
    /// which `blended(for:)` never returns).
    public let recipe: Recipe?
    /// width × 2·height texels, RGBA (alpha unused, 0), rows as the banner says.
    public let texels: [SIMD4<Float>]
    /// The geometric horizon's elevation, degrees (≤ 0).
    public let horizonElevation: Double

    /// Tables are built at whole multiples of this sun elevation (degrees) and blended between:
    /// a sun that moves every frame (a day in a minute) builds a new one only when it crosses a
    /// step, and the sky changes little within one.
    public static let elevationStep = 0.25

    public static func == (a: SkyViewTable, b: SkyViewTable) -> Bool { a === b || a.key == b.key }

    /// Builds the table (no cache; `shared(for:)` keeps the last few).
    public init(_ key: Key, tables: AtmosphereTables, parallel: Bool = true) {
        self.key = key
        recipe = Self.blendedKeys(for: key) == [key] ? .blended(key) : nil
        let c = key.coefficients
        let r0 = c.groundRadius + key.altitude
        let h = -acos(min(c.groundRadius / r0, 1)) * 180 / .pi
        horizonElevation = h
        let es = key.sunElevation * .pi / 180
        let sun = SIMD3<Double>(cos(es), 0, sin(es))
        let w = Self.width, ht = Self.height
        var out = [SIMD4<Float>](repeating: .zero, count: w * ht * 2)
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let base = buffer.baseAddress!
            forEachRow(ht, parallel: parallel) { j in
                let el = Self.elevation(row: j, horizon: h) * .pi / 180
                let air = RayAir(c, r0: r0, mu: sin(el), steps: Self.steps)
                for i in 0..<w {
                    let az = Double.pi * Double(i) / Double(w - 1)
                    let dir = SIMD3<Double>(cos(el) * cos(az), cos(el) * sin(az), sin(el))
                    let (a, b) = Self.integrate(tables, r0: r0, dir: dir, sun: sun, air: air)
                    base[j * w + i] = SIMD4(Float(a.x), Float(a.y), Float(a.z), 0)
                    base[(j + ht) * w + i] = SIMD4(Float(b.x), Float(b.y), Float(b.z), 0)
                }
            }
        }
        texels = out
    }

    private init(key: Key, texels: [SIMD4<Float>], horizonElevation: Double, recipe: Recipe?) {
        self.key = key; self.texels = texels; self.horizonElevation = horizonElevation; self.recipe = recipe
    }

    /// The table `recipe` describes: the same texels, bit for bit, as the table it was taken from.
    public static func make(_ recipe: Recipe) -> SkyViewTable {
        switch recipe {
        case .blended(let key): return blended(for: key)
        case .mixed(let a, let b, let weight): return mixed(make(a), make(b), weight: weight)
        }
    }

    /// The table for a sun at any elevation: the tables at the two whole steps around it, blended
    /// linearly (exactly the step's table on a step).
    public static func blended(for key: Key) -> SkyViewTable {
        let keys = blendedKeys(for: key)
        let t0 = shared(for: keys[0])
        guard keys.count == 2 else { return t0 }
        let f = Float((key.sunElevation - keys[0].sunElevation) / elevationStep)
        let t1 = shared(for: keys[1])
        var texels = t0.texels
        for i in texels.indices { texels[i] = texels[i] + (t1.texels[i] - texels[i]) * f }
        return SkyViewTable(key: key, texels: texels, horizonElevation: t0.horizonElevation, recipe: .blended(key))
    }

    /// `a` and `b` blended, `weight` of the way to b (a weather cross-fade between two atmospheres).
    public static func mixed(_ a: SkyViewTable, _ b: SkyViewTable, weight: Double) -> SkyViewTable {
        let f = Float(weight)
        var texels = a.texels
        for i in texels.indices { texels[i] = texels[i] + (b.texels[i] - texels[i]) * f }
        // A key of its own: the aerosols in between, so tables of different weights differ.
        var key = a.key
        key.coefficients.mieScattering += (b.key.coefficients.mieScattering - a.key.coefficients.mieScattering) * weight
        key.coefficients.mieExtinction += (b.key.coefficients.mieExtinction - a.key.coefficients.mieExtinction) * weight
        let recipe = a.recipe.flatMap { ra in b.recipe.map { Recipe.mixed(ra, $0, weight: weight) } }
        return SkyViewTable(key: key, texels: texels, horizonElevation: a.horizonElevation, recipe: recipe)
    }

    /// The elevation (degrees) of row j.
    static func elevation(row j: Int, horizon h: Double) -> Double {
        let v = Double(j) / Double(height - 1)
        if v < 0.5 {
            let s = 1 - 2 * v
            return h + (90 - h) * s * s
        }
        let s = 2 * v - 1
        return h - (90 + h) * s * s
    }

    /// Rayleigh phase, 3/(16π)(1 + ν²).
    @inlinable public static func rayleighPhase(_ nu: Double) -> Double { 3 / (16 * Double.pi) * (1 + nu * nu) }

    /// Cornette–Shanks phase, 3/(8π) (1 − g²)(1 + ν²) / ((2 + g²)(1 + g² − 2gν)^1.5).
    @inlinable public static func miePhase(_ nu: Double, g: Double) -> Double {
        let k = 3 / (8 * Double.pi) * (1 - g * g) / (2 + g * g)
        return k * (1 + nu * nu) / pow(1 + g * g - 2 * g * nu, 1.5)
    }

    /// A and B (see the banner) along one view ray from radius r0 (on the z axis); `air` is the
    /// ray's (RayAir at its elevation).
    static func integrate(_ tables: AtmosphereTables, r0: Double, dir: SIMD3<Double>, sun: SIMD3<Double>, air: RayAir) -> (SIMD3<Double>, SIMD3<Double>) {
        let c = tables.coefficients
        let origin = SIMD3<Double>(0, 0, r0)
        let nu = (dir * sun).sum()
        let rayleighPhase = Self.rayleighPhase(nu)
        var a = SIMD3<Double>.zero, b = SIMD3<Double>.zero
        for k in 0..<air.t.count {
            let p = origin + dir * air.t[k]
            let pr = air.radius[k]
            let d = air.densities[k]
            let mus = (p.x * sun.x + p.y * sun.y + p.z * sun.z) / pr
            let toSun = tables.transmittanceToSun(r: pr, mus: mus)
            let rayleigh = c.rayleighScattering * d.x
            let mie = c.mieScattering * d.y
            let weight = air.weight[k]
            // The view direction in p's frame (z up, x toward the sun's azimuth there).
            let local = AtmosphereTables.localComponents(dir, at: p, radius: pr, sun: sun, mus: mus)
            let multiple = tables.scattered(r: pr, mus: mus).inScattered(local: local, rayleigh: rayleigh, mie: mie, mieLegendre: tables.mieLegendre)
            a += weight * (rayleigh * toSun * rayleighPhase + multiple)
            b += weight * toSun * mie
        }
        if air.hitsGround {
            // The Lambertian ground, lit by the sun and by the sky's scattered light from above (its
            // irradiance from the table's flux: the zenith's light counts fully, the horizon's, where
            // a twilight's red arch lies, hardly at all).
            let p = origin + dir * air.tMax
            let pr = (p * p).sum().squareRoot()
            let mus = (p * sun).sum() / pr
            let irradiance = tables.transmittanceToSun(r: pr, mus: mus) * max(mus, 0) + tables.scattered(r: pr, mus: mus).irradiance
            a += air.end * irradiance * (c.groundAlbedo / Double.pi)
        }
        return (a, b)
    }

    // MARK: Cache

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [SkyViewTable] = []
    /// Tables kept: a still sun reuses its table; a moving sun needs a new one every frame.
    static let cacheLimit = 8

    /// Whether the table for `key` is built and kept (`shared(for:)` returns at once).
    public static func isCached(_ key: Key) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return cache.contains { $0.key == key }
    }

    /// The keys `blended(for:)` reads: the whole steps around the sun's elevation (one on a step).
    public static func blendedKeys(for key: Key) -> [Key] {
        let step = elevationStep
        let low = (key.sunElevation / step).rounded(.down) * step
        var k0 = key
        k0.sunElevation = low
        guard Float((key.sunElevation - low) / step) > 0 else { return [k0] }
        var k1 = key
        k1.sunElevation = low + step
        return [k0, k1]
    }

    /// The table for `key`, reused while it is among the last few built.
    public static func shared(for key: Key, parallel: Bool = true) -> SkyViewTable {
        lock.lock()
        if let i = cache.firstIndex(where: { $0.key == key }) {
            let hit = cache.remove(at: i)
            cache.append(hit)
            lock.unlock()
            return hit
        }
        lock.unlock()
        let table = SkyViewTable(key, tables: AtmosphereTables.shared(for: key.coefficients, parallel: parallel), parallel: parallel)
        lock.lock()
        cache.append(table)
        if cache.count > cacheLimit { cache.removeFirst() }
        lock.unlock()
        return table
    }
}
