// The clouds' noise: two tiling textures made once, deterministically, from Noise's integer hashes,
// and sampled the way OpenGL's GL_LINEAR + GL_REPEAT filtering samples them.
//
// - `weather` (2D, 128², two channels): where clouds are. R is fBm of value noise mixed with
//   inverted Worley cells (separate heaps of cloud rather than a uniform mottle); G is a streaky,
//   stretched fBm for the high cirrus.
// - `shape` (3D, 32³, two channels): R is Perlin–Worley (value fBm × billowy inverted Worley, the
//   heaped shape of Schneider's Nubis clouds), G is a finer inverted-Worley fBm that erodes edges.
//
// The GPU gets the same floats (CloudsPass uploads them as RG32F with linear filtering), so both
// renderers sample one field; `sample2D` / `sample3D` are the filter's arithmetic.

import Foundation

public enum CloudNoise {
    public static let weatherSize = 128
    public static let shapeSize = 32

    /// RG interleaved, row by row (x fastest).
    public static let weather: [Float] = makeWeather()
    /// RG interleaved, x fastest, then y, then z.
    public static let shape: [Float] = makeShape()

    // ---- generation (Double, once) ----

    static func lattice(_ x: Int, _ y: Int, _ z: Int, _ salt: UInt32) -> Double {
        let h = Noise.hash32(Noise.hashCell(Int32(x), Int32(y), salt) ^ Noise.hash32(UInt32(truncatingIfNeeded: z) &+ 0x9e37))
        return Double(Noise.unit(h))
    }

    static func quintic(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }

    static func wrap(_ i: Int, _ period: Int) -> Int { ((i % period) + period) % period }

    /// Tiling value noise with `period` cells across the unit cube (coordinates in cells).
    static func value(_ p: SIMD3<Double>, period: SIMD3<Int>, salt: UInt32) -> Double {
        let f = p.rounded(.down)
        let t = p - f
        let i = SIMD3<Int>(Int(f.x), Int(f.y), Int(f.z))
        let u = SIMD3(quintic(t.x), quintic(t.y), quintic(t.z))
        func v(_ dx: Int, _ dy: Int, _ dz: Int) -> Double {
            lattice(wrap(i.x + dx, period.x), wrap(i.y + dy, period.y), wrap(i.z + dz, period.z), salt)
        }
        func mix(_ a: Double, _ b: Double, _ w: Double) -> Double { a + (b - a) * w }
        let x00 = mix(v(0, 0, 0), v(1, 0, 0), u.x), x10 = mix(v(0, 1, 0), v(1, 1, 0), u.x)
        let x01 = mix(v(0, 0, 1), v(1, 0, 1), u.x), x11 = mix(v(0, 1, 1), v(1, 1, 1), u.x)
        return mix(mix(x00, x10, u.y), mix(x01, x11, u.y), u.z)
    }

    /// Tiling Worley noise: distance to the nearest of one feature point per cell, in cells (0…~1).
    static func worley(_ p: SIMD3<Double>, period: SIMD3<Int>, salt: UInt32, flat: Bool = false) -> Double {
        let f = p.rounded(.down)
        let i = SIMD3<Int>(Int(f.x), Int(f.y), Int(f.z))
        var best = 9.0
        for dz in (flat ? 0...0 : -1...1) {
            for dy in -1...1 {
                for dx in -1...1 {
                    let c = SIMD3(i.x + dx, i.y + dy, i.z + dz)
                    let w = SIMD3(wrap(c.x, period.x), wrap(c.y, period.y), wrap(c.z, period.z))
                    let point = SIMD3(Double(c.x) + lattice(w.x, w.y, w.z, salt),
                                      Double(c.y) + lattice(w.x, w.y, w.z, salt &+ 1),
                                      flat ? p.z : Double(c.z) + lattice(w.x, w.y, w.z, salt &+ 2))
                    let d = point - p
                    best = min(best, (d * d).sum())
                }
            }
        }
        return min(best.squareRoot(), 1)
    }

    static func remap(_ x: Double, _ a: Double, _ b: Double) -> Double { min(max((x - a) / (b - a), 0), 1) }

    static func makeWeather() -> [Float] {
        let n = weatherSize
        var out = [Float](repeating: 0, count: n * n * 2)
        for y in 0..<n {
            for x in 0..<n {
                let u = SIMD3(Double(x) + 0.5, Double(y) + 0.5, 0) / Double(n)
                var fbm = 0.0, amplitude = 0.5, total = 0.0
                for (k, cells) in [4, 8, 16, 32].enumerated() {
                    fbm += amplitude * value(u * Double(cells), period: [cells, cells, 1], salt: 0x3c10 &+ UInt32(k))
                    total += amplitude
                    amplitude *= 0.5
                }
                fbm /= total
                let cells = 1 - worley(u * 6, period: [6, 6, 1], salt: 0x3c20, flat: true)
                let heaps = remap(0.55 * fbm + 0.45 * cells, 0.18, 0.86)
                // Cirrus: fBm stretched 8:1 along x (streaks), sharpened.
                var streak = 0.0
                amplitude = 0.5; total = 0
                for (k, cells) in [2, 4, 8].enumerated() {
                    streak += amplitude * value(SIMD3(u.x * Double(cells), u.y * Double(cells * 8), 0), period: [cells, cells * 8, 1],
                                                salt: 0x3c30 &+ UInt32(k))
                    total += amplitude
                    amplitude *= 0.5
                }
                let i = (y * n + x) * 2
                out[i] = Float(heaps)
                out[i + 1] = Float(remap(streak / total, 0.25, 0.8))
            }
        }
        return out
    }

    static func makeShape() -> [Float] {
        let n = shapeSize
        var out = [Float](repeating: 0, count: n * n * n * 2)
        for z in 0..<n {
            for y in 0..<n {
                for x in 0..<n {
                    let u = SIMD3(Double(x) + 0.5, Double(y) + 0.5, Double(z) + 0.5) / Double(n)
                    let fbm = 0.625 * value(u * 4, period: [4, 4, 4], salt: 0x5a10) + 0.375 * value(u * 8, period: [8, 8, 8], salt: 0x5a11)
                    let billow = 1 - worley(u * 4, period: [4, 4, 4], salt: 0x5a20)
                    // Perlin–Worley: the fBm remapped by the cells, so heaps are round and separate.
                    let perlinWorley = remap(fbm, billow - 1, 1) * 0.5 + billow * 0.5
                    let detail = 0.625 * (1 - worley(u * 8, period: [8, 8, 8], salt: 0x5a30))
                        + 0.25 * (1 - worley(u * 16, period: [16, 16, 16], salt: 0x5a31))
                        + 0.125 * (1 - worley(u * 32, period: [32, 32, 32], salt: 0x5a32))
                    let i = ((z * n + y) * n + x) * 2
                    out[i] = Float(remap(perlinWorley, 0.25, 0.95))
                    out[i + 1] = Float(detail)
                }
            }
        }
        return out
    }

    // ---- sampling (Float, per pixel; as GL_LINEAR with GL_REPEAT) ----

    /// Bilinear from `texture` (RG, size²) at texture coordinates (u, v), repeating.
    @inline(__always) @inlinable public static func sample2D(_ texture: UnsafePointer<Float>, size: Int, _ u: Float, _ v: Float) -> SIMD2<Float> {
        let x = u * Float(size) - 0.5, y = v * Float(size) - 0.5
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let tx = x - fx, ty = y - fy
        let mask = size - 1
        let x0 = Int(fx) & mask, y0 = Int(fy) & mask
        let x1 = (x0 + 1) & mask, y1 = (y0 + 1) & mask
        let i00 = (y0 * size + x0) * 2, i10 = (y0 * size + x1) * 2, i01 = (y1 * size + x0) * 2, i11 = (y1 * size + x1) * 2
        let a = SIMD2(texture[i00], texture[i00 + 1]), b = SIMD2(texture[i10], texture[i10 + 1])
        let c = SIMD2(texture[i01], texture[i01 + 1]), d = SIMD2(texture[i11], texture[i11 + 1])
        let top = a + (b - a) * tx
        let bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
    }

    /// Trilinear from `texture` (RG, size³) at texture coordinates p, repeating.
    @inline(__always) @inlinable public static func sample3D(_ texture: UnsafePointer<Float>, size: Int, _ p: SIMD3<Float>) -> SIMD2<Float> {
        let qx = p.x * Float(size) - 0.5, qy = p.y * Float(size) - 0.5, qz = p.z * Float(size) - 0.5
        let fx = qx.rounded(.down), fy = qy.rounded(.down), fz = qz.rounded(.down)
        let tx = qx - fx, ty = qy - fy, tz = qz - fz
        let mask = size - 1
        let x0 = Int(fx) & mask, y0 = Int(fy) & mask, z0 = Int(fz) & mask
        let x1 = (x0 + 1) & mask, y1 = (y0 + 1) & mask, z1 = (z0 + 1) & mask
        let r0 = (z0 * size + y0) * size, r1 = (z0 * size + y1) * size, r2 = (z1 * size + y0) * size, r3 = (z1 * size + y1) * size
        let a0 = SIMD2(texture[(r0 + x0) * 2], texture[(r0 + x0) * 2 + 1]), b0 = SIMD2(texture[(r0 + x1) * 2], texture[(r0 + x1) * 2 + 1])
        let c0 = SIMD2(texture[(r1 + x0) * 2], texture[(r1 + x0) * 2 + 1]), d0 = SIMD2(texture[(r1 + x1) * 2], texture[(r1 + x1) * 2 + 1])
        let a1 = SIMD2(texture[(r2 + x0) * 2], texture[(r2 + x0) * 2 + 1]), b1 = SIMD2(texture[(r2 + x1) * 2], texture[(r2 + x1) * 2 + 1])
        let c1 = SIMD2(texture[(r3 + x0) * 2], texture[(r3 + x0) * 2 + 1]), d1 = SIMD2(texture[(r3 + x1) * 2], texture[(r3 + x1) * 2 + 1])
        let top0 = a0 + (b0 - a0) * tx, bottom0 = c0 + (d0 - c0) * tx
        let top1 = a1 + (b1 - a1) * tx, bottom1 = c1 + (d1 - c1) * tx
        let near = top0 + (bottom0 - top0) * ty
        let far = top1 + (bottom1 - top1) * ty
        return near + (far - near) * tz
    }
}
