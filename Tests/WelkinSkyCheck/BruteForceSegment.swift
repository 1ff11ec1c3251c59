// One straight ray segment through the shell with its optical depth tabulated at the cuts, and the
// distance sampling the path tracer draws from it: a proposal whose density is known exactly (so
// every estimate is unbiased whatever the proposal's shape), weighted by the exact integrand.

import Foundation

/// Capacity of a segment's cut table: both ends, the tangent point and two crossings per shell
/// (`ShellMedium` keeps at most 10 shells).
let cutCapacity = 24

/// Memory for one segment's cut table. Segments point into it (so rebuilding a segment in the inner loop
/// copies nothing); whoever makes a segment keeps its storage alive for as long as the segment is used.
final class SegmentStorage: @unchecked Sendable {
    let t = UnsafeMutablePointer<Double>.allocate(capacity: cutCapacity)
    let tau = UnsafeMutablePointer<SIMD3<Double>>.allocate(capacity: cutCapacity)

    init() {
        t.initialize(repeating: 0, count: cutCapacity)
        tau.initialize(repeating: SIMD3(repeating: 0), count: cutCapacity)
    }

    deinit {
        t.deallocate()
        tau.deallocate()
    }
}

/// A ray from `origin` along `direction` to the ground or the top of the atmosphere, whichever comes
/// first, with the exact (Gauss–Legendre) optical depth from the origin to every cut.
struct Segment: @unchecked Sendable {
    var origin = SIMD3<Double>(repeating: 0)
    var direction = SIMD3<Double>(0, 0, 1)
    var r0sq = 0.0
    var b = 0.0
    var length = 0.0
    var hitsGround = false
    /// Number of cuts; pieces are `t[i]...t[i+1]` for `i < count − 1`.
    var count = 0
    /// Cut distances and optical depths from the origin to them, in `SegmentStorage`'s memory (shared by
    /// copies of this value; only the path tracer's own working segment is ever rebuilt).
    let t: UnsafeMutablePointer<Double>
    let tau: UnsafeMutablePointer<SIMD3<Double>>

    init(storage: SegmentStorage) {
        t = storage.t
        tau = storage.tau
    }

    init(_ m: ShellMedium, origin: SIMD3<Double>, direction: SIMD3<Double>, storage: SegmentStorage) {
        self.init(storage: storage)
        reset(m, origin: origin, direction: direction)
    }

    /// Re-aims the segment and rebuilds its table in place.
    @inline(__always) mutating func reset(_ m: ShellMedium, origin: SIMD3<Double>, direction: SIMD3<Double>) {
        self.origin = origin
        self.direction = direction
        r0sq = dot3(origin, origin)
        b = dot3(origin, direction)
        if let tg = m.groundDistance(r0sq: r0sq, b: b) {
            length = tg; hitsGround = true
        } else {
            length = m.topDistance(r0sq: r0sq, b: b); hitsGround = false
        }
        count = m.cuts(r0sq: r0sq, b: b, tmax: length, into: t)
        tau[0] = SIMD3(repeating: 0)
        for i in 1..<count {
            tau[i] = tau[i - 1] + m.pieceDepth(r0sq: r0sq, b: b, from: t[i - 1], to: t[i])
        }
    }

    /// Makes this segment (and its storage) a copy of `other`.
    @inline(__always) mutating func copy(from other: Segment) {
        origin = other.origin; direction = other.direction
        r0sq = other.r0sq; b = other.b; length = other.length; hitsGround = other.hitsGround; count = other.count
        t.update(from: other.t, count: other.count)
        tau.update(from: other.tau, count: other.count)
    }

    @inline(__always) func point(_ x: Double) -> SIMD3<Double> { origin + x * direction }

    /// Optical depth of the whole segment.
    @inline(__always) var totalDepth: SIMD3<Double> { tau[count - 1] }

    /// The piece holding distance `x` (the last piece for `x` at or past the end).
    @inline(__always) func piece(containing x: Double, from start: Int = 0) -> Int {
        var i = start
        while i < count - 2 && t[i + 1] <= x { i += 1 }
        return i
    }

    /// Exact optical depth from the origin to `x` (the tabulated cuts plus one rule over the partial piece).
    @inline(__always) func opticalDepth(_ m: ShellMedium, to x: Double) -> SIMD3<Double> {
        let i = piece(containing: x)
        return tau[i] + m.pieceDepth(r0sq: r0sq, b: b, from: t[i], to: x)
    }

    /// The proposal's extinction in piece `i`: constant, so that its optical depth is the linear
    /// interpolation of the exact values at the cuts.
    @inline(__always) func slope(_ i: Int) -> SIMD3<Double> {
        (tau[i + 1] - tau[i]) / (t[i + 1] - t[i])
    }

    /// The proposal's optical depth at `x`, which lies in piece `i`.
    @inline(__always) func modelDepth(_ x: Double, piece i: Int) -> SIMD3<Double> {
        tau[i] + (x - t[i]) * slope(i)
    }
}

/// At most two disjoint sorted intervals of a segment's `[0, length]` (the parts the sun lights).
struct Intervals: Sendable {
    var count: Int
    var u0 = 0.0, v0 = 0.0, u1 = 0.0, v1 = 0.0
}

/// The distance proposal along a segment: per channel c, density `σ̃_c(t) exp(−τ̃_c(t))` normalised over
/// the intervals, where τ̃ is the exact optical depth at the cuts linearly interpolated between them (a
/// medium of piecewise-constant extinction, so the inversion is exact). The channels are mixed with equal
/// weight (one-sample balance heuristic): each channel's attenuation is covered, so the red channel's
/// weight stays bounded on long blue-opaque paths.
struct ExponentialProposal {
    let intervals: Intervals
    /// Mass of each interval per channel: exp(−τ̃(u)) − exp(−τ̃(v)).
    let mass0: SIMD3<Double>, mass1: SIMD3<Double>
    let total: SIMD3<Double>
    /// τ̃ and the piece index at each interval's start.
    let depth0: SIMD3<Double>, depth1: SIMD3<Double>
    let piece0: Int, piece1: Int
    /// Channels whose proposal carries mass (all three but for absurd optical depths).
    let live: Int

    /// Nil when the intervals carry no mass.
    init?(_ seg: Segment, _ intervals: Intervals) {
        guard intervals.count > 0 else { return nil }
        self.intervals = intervals
        @inline(__always) func mass(_ u: Double, _ v: Double) -> (SIMD3<Double>, SIMD3<Double>, Int) {
            let iu = seg.piece(containing: u)
            let iv = seg.piece(containing: v, from: iu)
            let tu = seg.modelDepth(u, piece: iu), tv = seg.modelDepth(v, piece: iv)
            let dm = tu - tv
            return (SIMD3(-expm1(dm.x), -expm1(dm.y), -expm1(dm.z)) * exp3(-tu), tu, iu)
        }
        (mass0, depth0, piece0) = mass(intervals.u0, intervals.v0)
        if intervals.count > 1 {
            (mass1, depth1, piece1) = mass(intervals.u1, intervals.v1)
        } else {
            (mass1, depth1, piece1) = (SIMD3(repeating: 0), SIMD3(repeating: 0), 0)
        }
        total = mass0 + mass1
        var n = 0
        for c in 0..<3 where total[c] > 0 && total[c].isFinite { n += 1 }
        guard n > 0 else { return nil }
        live = n
    }

    @inline(__always) func isLive(_ c: Int) -> Bool { total[c] > 0 && total[c].isFinite }

    /// A distance drawn from the mixture.
    func sample(_ seg: Segment, rng: inout SplitMix64) -> Double {
        var pick = min(Int(rng.uniform() * Double(live)), live - 1)
        var c = 0
        for k in 0..<3 where isLive(k) {
            if pick == 0 { c = k; break }
            pick -= 1
        }
        // Interval, then the depth at which the channel's CDF reaches the drawn mass.
        var x = rng.uniform() * total[c]
        var u = intervals.u0, v = intervals.v0, tu = depth0[c], i = piece0, mk = mass0[c]
        if intervals.count > 1 && x >= mass0[c] {
            x -= mass0[c]; u = intervals.u1; v = intervals.v1; tu = depth1[c]; i = piece1; mk = mass1[c]
        }
        x = min(x, mk)
        // exp(−τ̃(u)) − exp(−τ̃*) = x  ⇒  τ̃* = τ̃(u) − log(1 − x·exp(τ̃(u))).
        let target = tu - log1p(-min(x * exp(tu), 1 - 1e-16))
        while i < seg.count - 2 && seg.tau[i + 1][c] < target && seg.t[i + 1] < v { i += 1 }
        let s = seg.slope(i)[c]
        let t = s > 0 ? seg.t[i] + (target - seg.tau[i][c]) / s : seg.t[i]
        return min(max(t, max(u, seg.t[i])), min(v, seg.t[i + 1]))
    }

    /// The mixture's density at `t` (zero outside the intervals).
    func density(_ seg: Segment, at t: Double) -> Double {
        let inside = (t >= intervals.u0 && t <= intervals.v0) || (intervals.count > 1 && t >= intervals.u1 && t <= intervals.v1)
        guard inside else { return 0 }
        let i = seg.piece(containing: t)
        let sl = seg.slope(i)
        let e = exp3(-seg.modelDepth(t, piece: i))
        var pdf = 0.0
        for k in 0..<3 where isLive(k) { pdf += sl[k] * e[k] / total[k] }
        return pdf / Double(live)
    }
}
