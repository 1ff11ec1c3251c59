// The integrator proper: the deterministic first order along the view ray, and the Monte Carlo paths
// for everything else (orders ≥ 2 and the ground, lit by the sun and by the sky), with the sun's
// single scattering estimated along every segment of a path (next-event estimation on a line).

import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a counter-based generator, so a sample's stream depends only
/// on (seed, direction, sample index) and results do not depend on how work is spread over threads.
struct SplitMix64 {
    var state: UInt64

    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    init(seed: UInt64, stream: UInt64, index: UInt64) {
        let g: UInt64 = 0x9E37_79B9_7F4A_7C15
        state = SplitMix64.mix(SplitMix64.mix(SplitMix64.mix(seed &+ g) ^ (stream &* g &+ 1)) ^ (index &+ g &* 3))
    }

    @inline(__always) mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// Uniform in [0, 1).
    @inline(__always) mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// The integrator for one sun direction.
///
/// The sampling choices below were tuned on the coarse grid by relative variance × CPU time per path
/// (measured with the sun at 60°, 5°, −3° and −6°); none of them affects the expected value.
struct PathTracer: Sendable {
    let medium: ShellMedium
    /// Unit vector toward the sun.
    let sun: SIMD3<Double>
    /// Approximate optical depths toward the sun, shaping the line samples' second proposal; nil with the
    /// sun high, where the line samples' share of the paths' variance is small (measured: integrating the
    /// lines exactly instead reduced the variance by < 10 % at 60°, by 5× at −3°).
    let sunTable: SunDepthTable?
    /// Share of scattering directions drawn from the sun lobe: 0.4 with the sun low (the sky seen from
    /// shadowed air is bright only toward the twilight arch; halves the variance at −6°), 0 with the sun
    /// high (where it cost 20–40 % more variance).
    let sunLobeProbability: Double
    /// Share of path vertices drawn uniformly along their segment instead of by transmittance: 0.1 with the
    /// sun low, where a vertex high up near the lit air is worth hundreds of low ones (a defensive mixture
    /// that samples them more often at lower weight; 15–40 % less variance × time at −6°), else 0.
    let uniformVertexShare: Double

    /// With the sun below this elevation (sine, 10°) the low-sun sampling is used.
    static let lowSunSine = sin(10 * Double.pi / 180)
    /// Share of line samples drawn from the exponential proposal when the tabulated one is in use.
    static let exponentialShare = 0.25
    /// From the second vertex on, paths whose largest throughput channel is below this are rouletted
    /// (survivors scaled back up to it); the first scattering event is never rouletted.
    static let rouletteThreshold = 0.1
    /// The sun lobe: Henyey–Greenstein about the sun's direction, its axis raised to at least 5° above a
    /// vertex's horizon so that at twilight it points at the glow above the horizon, not into the ground.
    static let sunLobeG = 0.6
    static let sunLobeMinimumSine = sin(5 * Double.pi / 180)

    init(medium: ShellMedium, sun: SIMD3<Double>) {
        self.medium = medium
        self.sun = sun
        let low = sun.z < PathTracer.lowSunSine
        sunTable = low ? SunDepthTable(medium) : nil
        sunLobeProbability = low ? 0.4 : 0
        uniformVertexShare = low ? 0.1 : 0
    }

    /// Axis of the sun lobe at a vertex with local vertical `n`.
    @inline(__always) func sunLobeAxis(normal n: SIMD3<Double>) -> SIMD3<Double> {
        let c = dot3(sun, n)
        guard c < PathTracer.sunLobeMinimumSine else { return sun }
        let horizontal = sun - c * n
        let hl = dot3(horizontal, horizontal).squareRoot()
        guard hl > 1e-9 else { return n }
        let sn = PathTracer.sunLobeMinimumSine
        return (1 - sn * sn).squareRoot() * (horizontal / hl) + sn * n
    }

    /// Henyey–Greenstein density for asymmetry `g`.
    @inline(__always) static func henyeyGreenstein(_ mu: Double, g: Double) -> Double {
        let d = max(1 + g * g - 2 * g * mu, 1e-12)
        return (1 - g * g) / (4 * Double.pi * d * d.squareRoot())
    }

    /// A direction drawn from Henyey–Greenstein with asymmetry `g > 0` about `axis`.
    @inline(__always)
    static func sampleHenyeyGreenstein(about axis: SIMD3<Double>, g: Double, rng: inout SplitMix64) -> SIMD3<Double> {
        let f = (1 - g * g) / (1 - g + 2 * g * rng.uniform())
        let c = min(max((1 + g * g - f * f) / (2 * g), -1), 1)
        let s = max(1 - c * c, 0).squareRoot(), phi = 2 * Double.pi * rng.uniform()
        let (e1, e2) = basis(axis)
        return normalize3(c * axis + s * cos(phi) * e1 + s * sin(phi) * e2)
    }

    /// The parts of `[0, seg.length]` the sun lights (outside the Earth's shadow).
    @inline(__always) func litIntervals(_ seg: Segment) -> Intervals {
        let len = seg.length
        guard len > 0 else { return Intervals(count: 0) }
        guard let (lo, hi) = medium.shadowInterval(origin: seg.origin, direction: seg.direction, sun: sun, tmax: len)
        else { return Intervals(count: 1, u0: 0, v0: len) }
        let eps = 1e-9 * max(1, len)
        let before = lo > eps, after = hi < len - eps
        switch (before, after) {
        case (true, true): return Intervals(count: 2, u0: 0, v0: lo, u1: hi, v1: len)
        case (true, false): return Intervals(count: 1, u0: 0, v0: lo)
        case (false, true): return Intervals(count: 1, u0: hi, v0: len)
        case (false, false): return Intervals(count: 0)
        }
    }

    /// The in-scattering integrand of the first order at distance `x` along the segment: transmittance
    /// from the segment's origin, scattering toward the origin weighted by the phase functions, and the
    /// sun's transmittance to the point.
    @inline(__always) func sunInScatter(_ seg: Segment, at x: Double) -> SIMD3<Double> {
        let y = seg.point(x)
        let r2 = dot3(y, y)
        let ts = medium.sunTransmittance(r0sq: r2, b: dot3(y, sun))
        guard ts.max() > 0 else { return SIMD3(repeating: 0) }
        let (sr, sm) = medium.scattering(altitude: r2.squareRoot() - medium.groundRadius)
        // μ between the sunlight's propagation (−sun) and the scattered light's (−direction).
        let mu = dot3(seg.direction, sun)
        let tr = exp3(-seg.opticalDepth(medium, to: x))
        return tr * (sr * ShellMedium.rayleighPhase(mu) + SIMD3(repeating: sm * medium.miePhase(mu))) * ts
    }

    /// One-sample estimate of the sun's single scattering seen from the segment's origin looking along it
    /// (next-event estimation on the whole line, restricted to where the sun is not eclipsed by the planet).
    ///
    /// With the sun low, the first proposal (transmittance from the origin × extinction) puts most samples
    /// just above the edge of the shadow, where the sun's light has crossed hundreds of km of air and is
    /// gone; so most samples come from a second proposal, piecewise constant over the segment's pieces,
    /// that also weighs the tabulated transmittance toward the sun. One-sample balance heuristic: the
    /// density is the mixture's, so the estimate stays unbiased where the table is wrong.
    @inline(__always)
    func sunScatterEstimate(_ seg: Segment, workspace: Workspace, rng: inout SplitMix64) -> SIMD3<Double> {
        let lit = litIntervals(seg)
        guard let exponential = ExponentialProposal(seg, lit) else { return SIMD3(repeating: 0) }
        var x: Double, pdf: Double
        var cells = CellProposal(workspace)
        if let table = sunTable, cells.build(self, table: table, segment: seg, intervals: lit) {
            let share = PathTracer.exponentialShare
            x = rng.uniform() < share ? exponential.sample(seg, rng: &rng) : cells.sample(rng: &rng)
            pdf = share * exponential.density(seg, at: x) + (1 - share) * cells.density(at: x)
        } else {
            x = exponential.sample(seg, rng: &rng)
            pdf = exponential.density(seg, at: x)
        }
        guard pdf > 0 else { return SIMD3(repeating: 0) }
        return sunInScatter(seg, at: x) / pdf
    }

    /// The sunlit ground at the end of a segment that hits it, seen through the segment (Lambertian).
    @inline(__always) func groundDirect(_ seg: Segment) -> SIMD3<Double> {
        guard seg.hitsGround, medium.albedo > 0 else { return SIMD3(repeating: 0) }
        let n = normalize3(seg.point(seg.length))
        let cosSun = dot3(n, sun)
        guard cosSun > 0 else { return SIMD3(repeating: 0) }
        let r = medium.groundRadius
        let ts = medium.sunTransmittance(r0sq: r * r, b: r * cosSun)
        return exp3(-seg.totalDepth) * (medium.albedo / Double.pi * cosSun) * ts
    }

    /// The first order along `seg` by deterministic quadrature: the segment is cut at its shells, its tangent
    /// point and the edges of the Earth's shadow; each piece is split into `subdivisions` parts integrated by
    /// six-point Gauss–Legendre, with the transmittance to each node integrated by the optical-depth rule.
    func singleScattering(_ seg: Segment, subdivisions: Int) -> SIMD3<Double> {
        let len = seg.length
        guard len > 0 else { return SIMD3(repeating: 0) }
        var cuts = (0..<seg.count).map { seg.t[$0] }
        let shadow = medium.shadowInterval(origin: seg.origin, direction: seg.direction, sun: sun, tmax: len)
        if let (lo, hi) = shadow { cuts += [lo, hi].filter { $0 > 0 && $0 < len } }
        cuts.sort()
        let nodes = [-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                     0.2386191860831969, 0.6612093864662645, 0.9324695142031521]
        let weights = [0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                       0.4679139345726910, 0.3607615730481386, 0.1713244923791704]
        let (r0sq, b) = (seg.r0sq, seg.b)
        let mu = dot3(seg.direction, sun)
        let pr = ShellMedium.rayleighPhase(mu), pm = medium.miePhase(mu)
        var depth = SIMD3<Double>(repeating: 0)
        var sum = SIMD3<Double>(repeating: 0)
        for p in 0..<(cuts.count - 1) where cuts[p + 1] - cuts[p] > 1e-12 {
            let (a0, a1) = (cuts[p], cuts[p + 1])
            // Shadow membership is constant on a piece (its edges are cuts): test the middle.
            let midPiece = 0.5 * (a0 + a1)
            let dark = shadow.map { midPiece > $0.0 && midPiece < $0.1 } ?? false
            let step = (a1 - a0) / Double(subdivisions)
            for k in 0..<subdivisions {
                let u = a0 + Double(k) * step, v = k == subdivisions - 1 ? a1 : u + step
                if !dark {
                    let mid = 0.5 * (u + v), half = 0.5 * (v - u)
                    for j in 0..<nodes.count {
                        let x = mid + half * nodes[j]
                        let y = seg.point(x)
                        let r2 = dot3(y, y)
                        let ts = medium.sunTransmittance(r0sq: r2, b: dot3(y, sun))
                        guard ts.max() > 0 else { continue }
                        let tr = exp3(-(depth + medium.pieceDepth(r0sq: r0sq, b: b, from: u, to: x)))
                        let (sr, sm) = medium.scattering(altitude: r2.squareRoot() - medium.groundRadius)
                        sum += (weights[j] * half) * tr * (sr * pr + SIMD3(repeating: sm * pm)) * ts
                    }
                }
                depth += medium.pieceDepth(r0sq: r0sq, b: b, from: u, to: v)
            }
        }
        return sum
    }

    /// One path's estimate of everything but the first order (and the directly sunlit ground) along the
    /// eye segment: the light that reached the eye after ≥ 2 scattering events or ≥ 1 ground reflection.
    ///
    /// From each segment the path continues either at the ground the segment ends on (cosine-weighted
    /// direction mixed with the sun lobe) or at a medium point drawn from the exponential proposal over
    /// the whole segment (a forced collision: the weight carries the segment's scattering probability;
    /// with the sun low, mixed with a uniform draw), with
    /// a direction from a one-sample mixture of the sun lobe, an isotropic lobe (Rayleigh within 1.5×) and
    /// Henyey–Greenstein about the segment (Cornette–Shanks within 1.14×), weighted by the exact Rayleigh +
    /// Cornette–Shanks phase over the mixture's density. Every new segment adds the sun's single scattering
    /// along it (one line sample) and its sunlit ground, both times the throughput: next-event estimation
    /// that never spends a sample inside the Earth's shadow.
    func scatteredLight(eye: Segment, workspace: Workspace, rng: inout SplitMix64) -> SIMD3<Double> {
        let m = medium
        let lobe = sunLobeProbability, lobeG = PathTracer.sunLobeG
        var seg = Segment(storage: workspace.segment)
        seg.copy(from: eye)
        var beta = SIMD3<Double>(repeating: 1)
        var total = SIMD3<Double>(repeating: 0)
        // The cap only guards against a runaway loop; roulette ends paths long before it.
        for depth in 0..<100_000 {
            // Continue at the ground or in the medium, in proportion to what each is likely to send on.
            var pGround = 0.0
            var tGround = SIMD3<Double>(repeating: 0)
            if seg.hitsGround && m.albedo > 0 {
                tGround = exp3(-seg.totalDepth)
                let tg = (tGround.x + tGround.y + tGround.z) / 3
                pGround = min(max(tg * m.albedo / (tg * m.albedo + (1 - tg)), 0.05), 0.95)
            }
            let origin: SIMD3<Double>
            let direction: SIMD3<Double>
            if rng.uniform() < pGround {
                let n = normalize3(seg.point(seg.length))
                beta *= tGround * (m.albedo / pGround)
                origin = n * m.groundRadius
                // Lambertian BRDF × cos over the mixture's density (albedo alone for the cosine part).
                let axis = sunLobeAxis(normal: n)
                var w: SIMD3<Double>
                if rng.uniform() < lobe {
                    w = PathTracer.sampleHenyeyGreenstein(about: axis, g: lobeG, rng: &rng)
                } else {
                    let (e1, e2) = basis(n)
                    let u1 = rng.uniform(), phi = 2 * Double.pi * rng.uniform()
                    let s = u1.squareRoot()
                    w = normalize3(s * cos(phi) * e1 + s * sin(phi) * e2 + (1 - u1).squareRoot() * n)
                }
                let cosine = dot3(w, n)
                guard cosine > 0 else { break }
                let pdf = lobe * PathTracer.henyeyGreenstein(dot3(w, axis), g: lobeG) + (1 - lobe) * cosine / Double.pi
                beta *= cosine / (Double.pi * pdf)
                direction = w
            } else {
                guard let proposal = ExponentialProposal(seg, Intervals(count: 1, u0: 0, v0: seg.length)) else { break }
                let x = rng.uniform() < uniformVertexShare ? rng.uniform() * seg.length : proposal.sample(seg, rng: &rng)
                let q = (1 - uniformVertexShare) * proposal.density(seg, at: x) + uniformVertexShare / seg.length
                guard q > 0 else { break }
                let y = seg.point(x)
                let r = dot3(y, y).squareRoot()
                let tr = exp3(-seg.opticalDepth(m, to: x))
                let (sr, sm) = m.scattering(altitude: r - m.groundRadius)
                let meanR = (sr.x + sr.y + sr.z) / 3
                let pIsotropic = meanR / (meanR + sm)
                let d = seg.direction
                let axis = sunLobeAxis(normal: y / r)
                let u = rng.uniform()
                var w: SIMD3<Double>
                if u < lobe {
                    w = PathTracer.sampleHenyeyGreenstein(about: axis, g: lobeG, rng: &rng)
                } else if u < lobe + (1 - lobe) * pIsotropic {
                    let z = 1 - 2 * rng.uniform(), phi = 2 * Double.pi * rng.uniform()
                    let s = max(1 - z * z, 0).squareRoot()
                    w = SIMD3(s * cos(phi), s * sin(phi), z)
                } else {
                    w = PathTracer.sampleHenyeyGreenstein(about: d, g: m.mieG, rng: &rng)
                }
                // μ between the propagation of the light arriving at y (−w) and of the light leaving toward
                // the segment's origin (−d).
                let mu = dot3(w, d)
                let pdfDirection = (lobe > 0 ? lobe * PathTracer.henyeyGreenstein(dot3(w, axis), g: lobeG) : 0)
                    + (1 - lobe) * (pIsotropic / (4 * Double.pi) + (1 - pIsotropic) * m.henyeyGreenstein(mu))
                let phase = sr * ShellMedium.rayleighPhase(mu) + SIMD3(repeating: sm * m.miePhase(mu))
                beta *= tr * phase / (q * pdfDirection * (1 - pGround))
                origin = y
                direction = w
            }
            let peak = beta.max()
            guard peak > 0, peak.isFinite else { break }
            if depth >= 1 && peak < PathTracer.rouletteThreshold {
                let survive = peak / PathTracer.rouletteThreshold
                if rng.uniform() >= survive { break }
                beta /= survive
            }
            seg.reset(m, origin: origin, direction: direction)
            total += beta * (sunScatterEstimate(seg, workspace: workspace, rng: &rng) + groundDirect(seg))
        }
        return total
    }
}

/// One thread's scratch memory for paths: the working segment's table and the line sampler's cells.
final class Workspace {
    let segment = SegmentStorage()
    let cellLo = UnsafeMutablePointer<Double>.allocate(capacity: CellProposal.capacity)
    let cellHi = UnsafeMutablePointer<Double>.allocate(capacity: CellProposal.capacity)
    let cellValue = UnsafeMutablePointer<SIMD3<Double>>.allocate(capacity: CellProposal.capacity)

    deinit {
        cellLo.deallocate()
        cellHi.deallocate()
        cellValue.deallocate()
    }
}

/// Approximate optical depth from a point toward the sun, tabulated once per sun direction by altitude
/// (1 km rows) and direction: with the sun below the local horizontal, by the tangent altitude of its ray
/// as a fraction of the point's altitude; above it, by √μ. It only shapes a proposal, so its interpolation
/// error costs variance, never accuracy.
struct SunDepthTable: Sendable {
    let groundRadius: Double
    let rows: Int, descending: Int, ascending: Int
    let step: Double
    let values: [SIMD3<Double>]

    init(_ m: ShellMedium) {
        groundRadius = m.groundRadius
        rows = 101; descending = 48; ascending = 24
        step = (m.topRadius - m.groundRadius) / Double(rows - 1)
        var v: [SIMD3<Double>] = []
        v.reserveCapacity(rows * (descending + ascending))
        for i in 0..<rows {
            let r = m.groundRadius + Double(i) * step
            for j in 0..<(descending + ascending) {
                let mu: Double
                if j < descending {
                    let rt = m.groundRadius + Double(j) / Double(descending - 1) * (r - m.groundRadius)
                    mu = -max(1 - (rt / r) * (rt / r), 0).squareRoot()
                } else {
                    let q = Double(j - descending) / Double(ascending - 1)
                    mu = q * q
                }
                let b = r * mu
                v.append(m.opticalDepth(r0sq: r * r, b: b, tmax: m.topDistance(r0sq: r * r, b: b)))
            }
        }
        values = v
    }

    /// Optical depth toward the sun from radius `r` with `mu` = cos(sun zenith); nil where the planet blocks it.
    @inline(__always) func depth(r: Double, mu: Double) -> SIMD3<Double>? {
        let h = r - groundRadius
        let fh = min(max(h / step, 0), Double(rows - 1) - 1e-9)
        let i = Int(fh), wh = fh - Double(i)
        var col: Double, first: Int, last: Int
        if mu >= 0 {
            col = Double(descending) + mu.squareRoot() * Double(ascending - 1)
            first = descending; last = descending + ascending - 1
        } else {
            let ht = r * max(1 - mu * mu, 0).squareRoot() - groundRadius
            guard ht >= 0 else { return nil }
            col = (h > 1e-9 ? min(ht / h, 1) : 0) * Double(descending - 1)
            first = 0; last = descending - 1
        }
        let j = min(max(Int(col), first), last - 1)
        let wj = min(max(col - Double(j), 0), 1)
        let w = descending + ascending
        let a = values[i * w + j], b = values[i * w + j + 1]
        let c = values[(i + 1) * w + j], d = values[(i + 1) * w + j + 1]
        return (1 - wh) * ((1 - wj) * a + wj * b) + wh * ((1 - wj) * c + wj * d)
    }
}

/// The second line-sample proposal: piecewise constant over cells (each piece of the segment within the
/// sunlit intervals), each cell's density the first order's integrand at its middle with the tabulated sun
/// transmittance; the three channels mixed equally. Its cells live in a `Workspace`.
struct CellProposal {
    /// Pieces of a segment plus the two shadow edges.
    static let capacity = cutCapacity + 2
    var count = 0
    let lo: UnsafeMutablePointer<Double>
    let hi: UnsafeMutablePointer<Double>
    /// Integrand estimate per unit length in each cell.
    let value: UnsafeMutablePointer<SIMD3<Double>>
    var total = SIMD3<Double>(repeating: 0)
    var live = 0

    init(_ w: Workspace) {
        lo = w.cellLo; hi = w.cellHi; value = w.cellValue
    }

    /// Fills the cells; false when every cell's estimate is zero (the exponential proposal then works alone).
    mutating func build(_ tracer: PathTracer, table: SunDepthTable, segment seg: Segment, intervals: Intervals) -> Bool {
        count = 0; total = SIMD3(repeating: 0); live = 0
        let m = tracer.medium
        let mu = dot3(seg.direction, tracer.sun)
        let pr = ShellMedium.rayleighPhase(mu), pm = m.miePhase(mu)
        for k in 0..<intervals.count {
            let (u, v) = k == 0 ? (intervals.u0, intervals.v0) : (intervals.u1, intervals.v1)
            var i = seg.piece(containing: u)
            while count < CellProposal.capacity {
                let a = max(u, seg.t[i]), b = min(v, seg.t[i + 1])
                if b > a {
                    let x = 0.5 * (a + b)
                    let y = seg.point(x)
                    let r = dot3(y, y).squareRoot()
                    var f = SIMD3<Double>(repeating: 0)
                    if let tau = table.depth(r: r, mu: dot3(y, tracer.sun) / r) {
                        let (sr, sm) = m.scattering(altitude: r - m.groundRadius)
                        f = exp3(-(seg.modelDepth(x, piece: i) + tau)) * (sr * pr + SIMD3(repeating: sm * pm))
                    }
                    lo[count] = a; hi[count] = b; value[count] = f
                    total += f * (b - a)
                    count += 1
                }
                if i >= seg.count - 2 || seg.t[i + 1] >= v { break }
                i += 1
            }
        }
        for c in 0..<3 where isLive(c) { live += 1 }
        return live > 0
    }

    @inline(__always) func isLive(_ c: Int) -> Bool { total[c] > 0 && total[c].isFinite }

    func sample(rng: inout SplitMix64) -> Double {
        var pick = min(Int(rng.uniform() * Double(live)), live - 1)
        var c = 0
        for k in 0..<3 where isLive(k) {
            if pick == 0 { c = k; break }
            pick -= 1
        }
        var x = rng.uniform() * total[c]
        var k = 0
        while k < count - 1 {
            let mass = value[k][c] * (hi[k] - lo[k])
            if x < mass { break }
            x -= mass
            k += 1
        }
        // Rounding may run past the last cell with mass: step back to it.
        while k > 0 && value[k][c] <= 0 { k -= 1 }
        return lo[k] + rng.uniform() * (hi[k] - lo[k])
    }

    func density(at x: Double) -> Double {
        for k in 0..<count where x >= lo[k] && x <= hi[k] {
            var pdf = 0.0
            for c in 0..<3 where isLive(c) { pdf += value[k][c] / total[c] }
            return pdf / Double(live)
        }
        return 0
    }
}
