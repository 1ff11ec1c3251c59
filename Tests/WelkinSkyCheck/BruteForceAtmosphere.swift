// The brute-force sky (test only): the public face of an independent all-orders integrator of sky
// radiance in a spherical-shell Earth atmosphere (Bruneton 2017 / Hillaire 2020 constants), which the
// look-up-table sky is checked against. This file owns the parameters, the API and the parallel driver;
// the medium, segments and paths are in the other BruteForce*.swift files.

import Dispatch
import Foundation

/// The atmosphere: a planet of radius `groundRadius` with a Lambertian ground, under a shell of air up to
/// `topRadius` (vacuum above). Lengths in km, coefficients in km⁻¹, per channel (R, G, B) where they vary.
public struct BruteForceAtmosphere: Sendable {
    public var groundRadius = 6360.0, topRadius = 6460.0
    /// Rayleigh scattering at sea level (no absorption); density `exp(−h / rayleighScaleHeight)`.
    public var rayleighScattering = SIMD3<Double>(5.802e-3, 13.558e-3, 33.1e-3); public var rayleighScaleHeight = 8.0
    /// Mie scattering and extinction at sea level (the difference is absorbed); density `exp(−h / mieScaleHeight)`;
    /// Cornette–Shanks phase with asymmetry `mieG`.
    public var mieScattering = 3.996e-3, mieExtinction = 4.40e-3, mieScaleHeight = 1.2, mieG = 0.8
    /// Ozone absorption at the peak; density: tent, 0 below 10 km, 1 at 25 km, 0 above 40 km.
    public var ozoneAbsorption = SIMD3<Double>(0.650e-3, 1.881e-3, 0.085e-3)
    public var groundAlbedo = 0.3
    /// The observer's height above the ground, km.
    public var observerAltitude = 0.001
    public init() {}
}

/// A radiance with its Monte Carlo standard error.
public struct BruteForceEstimate: Sendable {
    /// Radiance per unit solar irradiance, sr⁻¹ (first order + the Monte Carlo rest).
    public var radiance: SIMD3<Double>
    /// Standard error of `radiance` (the first order is deterministic, so this is the rest's error).
    public var standardError: SIMD3<Double>
    /// The deterministic first order alone (sun → one scattering event → eye).
    public var singleScattering: SIMD3<Double>
}

/// Sky radiance in a spherical-shell atmosphere by brute force.
///
/// Geometry: the planet's centre is the origin, the observer stands on the +z axis ("north pole") at
/// `observerAltitude`, +x is the sun's azimuth. Directions are given by elevation above the observer's
/// horizontal plane and azimuth from the sun's azimuth toward +y.
///
/// Method: radiance = first order + everything else.
/// - The first order (sun → one scattering event → eye) is a deterministic quadrature along the view ray:
///   cut at every shell of the density profiles, at the ray's lowest point and at the edges of the Earth's
///   shadow, each piece split in 16 and integrated by six-point Gauss–Legendre; every transmittance
///   (eye → point, point → sun) is four-point Gauss–Legendre on pieces cut at the shells (optical depths
///   good to 2e-6 absolute; the first order agrees with a plain 4000-step ray march to 1e-4).
/// - Everything else (orders ≥ 2, the ground lit by sun and sky, the air it re-lights) is Monte Carlo path
///   tracing from the eye. Every distance and direction is drawn from a proposal whose density is known
///   exactly, and each sample is weighted by the exact integrand over that density, so the estimator is
///   unbiased whatever the proposals' shapes; the only bias is the optical-depth quadrature. At every
///   vertex the sun's single scattering along the whole next segment is estimated by one line sample drawn
///   only from the sunlit part of the segment (next-event estimation that never samples the Earth's
///   shadow). With the sun below 10°, three more proposals join by one-sample mixture: line samples
///   weighted by a tabulated sun transmittance, a lobe toward the sun (raised above the horizon at
///   twilight) for scattering directions, and uniform distances for vertices. Russian roulette ends paths.
///   Energy is conserved to 0.1 % (tested: a white, absorption-free, nearly plane-parallel atmosphere).
/// - Each sample's random stream is SplitMix64 seeded by (seed, direction index, sample index), and fixed
///   blocks of paths are summed in a fixed order: results are identical for any thread count.
///
/// Cost (2 cores, -O, coarse grid of 30 directions): for a 0.5 % standard error on every channel of every
/// direction the worst direction needs ~12 000 paths with the sun at 60° and 20°, ~50 000 at 5°, ~170 000
/// at −3° (the anti-solar horizon, lit only by multiple scattering) and ~1 000 000 at −6°; a path costs
/// 3–5 µs by day and 4–8 µs at twilight. `radiancesWithError(…, targetRelativeError:…)` spends paths only
/// where they are needed: the four coarse suns {60°, 20°, 5°, −3°} at 0.5 % take ~20 s together.
public enum BruteForceSky {
    /// Radiance (per channel) seen from the observer looking at elevation `viewElevation` (degrees, may be
    /// negative → the ray hits the ground, and the lit Lambertian ground seen through the air is included)
    /// and azimuth `viewAzimuth` (degrees, relative to the sun's azimuth: 0 = toward the sun), with the sun
    /// at `sunElevation` (degrees, −10…90).
    ///
    /// Units: the sun is a directional source whose irradiance at the top of the atmosphere, on a surface
    /// facing it, is 1 in every channel; the result is radiance in sr⁻¹ (L / E_sun). The direct sun is not
    /// included. `samples` is the number of Monte Carlo paths (ignored with `singleScatteringOnly`).
    /// `singleScatteringOnly`: only the first order (sun → one scattering event → eye, with
    /// transmittances; no ground, no multiple scattering), by deterministic quadrature.
    public static func radiance(_ a: BruteForceAtmosphere, sunElevation: Double, viewElevation: Double, viewAzimuth: Double,
                                samples: Int, seed: UInt64, singleScatteringOnly: Bool = false) -> SIMD3<Double> {
        radianceWithError(a, sunElevation: sunElevation, viewElevation: viewElevation, viewAzimuth: viewAzimuth,
                          samples: samples, seed: seed, singleScatteringOnly: singleScatteringOnly).radiance
    }

    /// Many directions at once, spread over all cores (DispatchQueue.concurrentPerform), deterministic for a
    /// given seed regardless of thread count. Direction `i` uses stream `i`, so `radiances(…)[0]` equals
    /// `radiance(…)` for the same direction and seed.
    public static func radiances(_ a: BruteForceAtmosphere, sunElevation: Double, directions: [(elevation: Double, azimuth: Double)],
                                 samples: Int, seed: UInt64, singleScatteringOnly: Bool = false) -> [SIMD3<Double>] {
        radiancesWithError(a, sunElevation: sunElevation, directions: directions, samples: samples, seed: seed,
                           singleScatteringOnly: singleScatteringOnly).map(\.radiance)
    }

    /// `radiance` with its standard error (from the spread of the paths' values).
    public static func radianceWithError(_ a: BruteForceAtmosphere, sunElevation: Double, viewElevation: Double, viewAzimuth: Double,
                                         samples: Int, seed: UInt64, singleScatteringOnly: Bool = false) -> BruteForceEstimate {
        radiancesWithError(a, sunElevation: sunElevation, directions: [(viewElevation, viewAzimuth)], samples: samples,
                           seed: seed, singleScatteringOnly: singleScatteringOnly)[0]
    }

    /// `radiances` with standard errors.
    public static func radiancesWithError(_ a: BruteForceAtmosphere, sunElevation: Double,
                                          directions: [(elevation: Double, azimuth: Double)],
                                          samples: Int, seed: UInt64, singleScatteringOnly: Bool = false) -> [BruteForceEstimate] {
        let run = Run(a, sunElevation: sunElevation, directions: directions, singleScatteringOnly: singleScatteringOnly)
        if !singleScatteringOnly && samples > 0 {
            run.addPaths((0..<directions.count).map { _ in samples }, seed: seed)
        }
        return run.estimates
    }

    /// Radiances to a target precision: each direction gets `minimumSamples` paths, then more (in rounds, at
    /// most quadrupling) until the standard error of every channel is at most `targetRelativeError` of its
    /// radiance or the direction has `maximumSamples`. Spends the paths where the sky needs them (at twilight
    /// the anti-solar horizon needs ~10× the zenith's). Deterministic for a given seed regardless of thread
    /// count: the rounds depend only on the estimates, which do not. (Stopping on an estimated error
    /// favours samples whose spread happened to be small; with ≥ 10 000 paths that bias is far below the
    /// error itself.)
    public static func radiancesWithError(_ a: BruteForceAtmosphere, sunElevation: Double,
                                          directions: [(elevation: Double, azimuth: Double)],
                                          targetRelativeError: Double, minimumSamples: Int, maximumSamples: Int,
                                          seed: UInt64) -> [BruteForceEstimate] {
        let run = Run(a, sunElevation: sunElevation, directions: directions, singleScatteringOnly: false)
        var want = (0..<directions.count).map { _ in max(minimumSamples, 2) }
        while true {
            run.addPaths(want, seed: seed)
            var more = false
            for (i, e) in run.estimates.enumerated() {
                let have = run.samples[i]
                let rel = (0..<3).map { c in e.radiance[c] > 0 ? e.standardError[c] / e.radiance[c] : 0 }.max() ?? 0
                guard rel > targetRelativeError, have < maximumSamples else { want[i] = have; continue }
                // The error falls as 1/√n: aim 10 % past the estimate, at most 4× per round.
                let needed = Double(have) * (rel / targetRelativeError) * (rel / targetRelativeError) * 1.1
                want[i] = min(maximumSamples, max(have + 1, min(4 * have, Int(needed.rounded(.up)))))
                more = true
            }
            if !more { return run.estimates }
        }
    }

    /// One sun elevation and a set of directions: the deterministic parts, and the paths' sums so far, to
    /// which rounds of paths are added.
    final class Run {
        let tracer: PathTracer
        let rays: [EyeRay]
        let fixed: [(single: SIMD3<Double>, ground: SIMD3<Double>)]
        /// Paths per direction so far, and each fixed block's sums (in block order).
        private(set) var samples: [Int]
        private var blocks: [[(SIMD3<Double>, SIMD3<Double>)]]

        /// Paths are summed in fixed blocks, so the summation order (and the result) is independent of
        /// scheduling; small enough to balance two cores over a few directions.
        static let blockSize = 64

        init(_ a: BruteForceAtmosphere, sunElevation: Double, directions: [(elevation: Double, azimuth: Double)],
             singleScatteringOnly: Bool) {
            let tracer = PathTracer(medium: ShellMedium(a), sun: sunVector(sunElevation))
            let eye = SIMD3<Double>(0, 0, a.groundRadius + a.observerAltitude)
            let count = directions.count
            // Per direction: the eye segment (shared by all its paths), the first order, and the directly
            // sunlit ground at the end of the view ray.
            let rays = Slots<EyeRay>(count: count)
            let fixed = Slots<(single: SIMD3<Double>, ground: SIMD3<Double>)>(count: count)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                let ray = EyeRay(tracer, origin: eye, direction: viewVector(directions[i].elevation, directions[i].azimuth))
                rays[i] = ray
                fixed[i] = (tracer.singleScattering(ray.segment, subdivisions: 16),
                            singleScatteringOnly ? SIMD3(repeating: 0) : tracer.groundDirect(ray.segment))
            }
            self.tracer = tracer
            self.rays = (0..<count).map { rays[$0] }
            self.fixed = (0..<count).map { fixed[$0] }
            samples = Array(repeating: 0, count: count)
            blocks = Array(repeating: [], count: count)
        }

        /// Brings direction `i` to `target[i]` paths (never fewer than it has), all directions' new blocks
        /// spread over the cores.
        func addPaths(_ target: [Int], seed: UInt64) {
            let size = Run.blockSize
            // A partial last block is redone whole, so that block k always holds paths k·size ..< (k+1)·size.
            var work: [(direction: Int, block: Int, end: Int)] = []
            for i in 0..<rays.count where target[i] > samples[i] {
                var first = samples[i] / size
                if samples[i] % size != 0 { blocks[i].removeLast() } else { first = blocks[i].count }
                for k in first..<((target[i] + size - 1) / size) {
                    work.append((i, k, min(target[i], (k + 1) * size)))
                }
                samples[i] = target[i]
            }
            guard !work.isEmpty else { return }
            let sums = Slots<(SIMD3<Double>, SIMD3<Double>)>(count: work.count)
            let (tracer, rays, items) = (self.tracer, self.rays, work)
            DispatchQueue.concurrentPerform(iterations: items.count) { k in
                let (i, block, end) = items[k]
                // `rays` holds every ray (and so the memory its segment points into) until this returns.
                let ray = rays[i]
                let workspace = Workspace()
                var sum = SIMD3<Double>(repeating: 0), sumSquares = SIMD3<Double>(repeating: 0)
                for s in (block * size)..<end {
                    var rng = SplitMix64(seed: seed, stream: UInt64(i), index: UInt64(s))
                    let v = tracer.scatteredLight(eye: ray.segment, workspace: workspace, rng: &rng)
                    sum += v
                    sumSquares += v * v
                }
                sums[k] = (sum, sumSquares)
            }
            withExtendedLifetime(rays) {}
            for (k, w) in work.enumerated() {
                precondition(blocks[w.direction].count == w.block)
                blocks[w.direction].append(sums[k])
            }
        }

        /// First order + ground + the mean of the paths, with the standard error of that mean.
        var estimates: [BruteForceEstimate] {
            (0..<rays.count).map { i in
                let f = fixed[i]
                var sum = SIMD3<Double>(repeating: 0), sumSquares = SIMD3<Double>(repeating: 0)
                for b in blocks[i] { sum += b.0; sumSquares += b.1 }
                let n = Double(samples[i])
                guard n > 0 else {
                    return BruteForceEstimate(radiance: f.single + f.ground, standardError: SIMD3(repeating: 0),
                                              singleScattering: f.single)
                }
                let mean = sum / n
                let variance = n > 1 ? (sumSquares - n * mean * mean) / (n - 1) : SIMD3(repeating: 0)
                let error = (SIMD3<Double>(repeating: 0).replacing(with: variance, where: variance .> 0) / n).squareRoot()
                return BruteForceEstimate(radiance: f.single + f.ground + mean, standardError: error,
                                          singleScattering: f.single)
            }
        }
    }

    /// Monte Carlo estimate of the first order with the same line sampler the paths use at every vertex
    /// (validation: it must agree with the deterministic quadrature). Returns the mean and its standard error.
    public static func singleScatteringMonteCarlo(_ a: BruteForceAtmosphere, sunElevation: Double, viewElevation: Double,
                                                  viewAzimuth: Double, samples: Int, seed: UInt64)
        -> (radiance: SIMD3<Double>, standardError: SIMD3<Double>) {
        let tracer = PathTracer(medium: ShellMedium(a), sun: sunVector(sunElevation))
        let ray = EyeRay(tracer, origin: SIMD3(0, 0, a.groundRadius + a.observerAltitude),
                         direction: viewVector(viewElevation, viewAzimuth))
        let workspace = Workspace()
        var sum = SIMD3<Double>(repeating: 0), sumSquares = SIMD3<Double>(repeating: 0)
        // The segment points into the ray's memory: keep the ray alive while it is read.
        withExtendedLifetime(ray) {
            for s in 0..<samples {
                var rng = SplitMix64(seed: seed, stream: 0, index: UInt64(s))
                let v = tracer.sunScatterEstimate(ray.segment, workspace: workspace, rng: &rng)
                sum += v; sumSquares += v * v
            }
        }
        let n = Double(samples)
        let mean = sum / n
        let variance = (sumSquares - n * mean * mean) / max(n - 1, 1)
        return (mean, (SIMD3<Double>(repeating: 0).replacing(with: variance, where: variance .> 0) / n).squareRoot())
    }

    /// The deterministic first order with a chosen number of subdivisions per piece (the default path uses
    /// 16); for checking the quadrature's convergence.
    public static func singleScattering(_ a: BruteForceAtmosphere, sunElevation: Double, viewElevation: Double,
                                        viewAzimuth: Double, subdivisions: Int) -> SIMD3<Double> {
        let tracer = PathTracer(medium: ShellMedium(a), sun: sunVector(sunElevation))
        let ray = EyeRay(tracer, origin: SIMD3(0, 0, a.groundRadius + a.observerAltitude),
                         direction: viewVector(viewElevation, viewAzimuth))
        return withExtendedLifetime(ray) { tracer.singleScattering(ray.segment, subdivisions: subdivisions) }
    }

    /// Optical depth from the observer along a view direction to the ground or the top of the atmosphere, by
    /// the integrator's Gauss–Legendre scheme (validation against a fine Simpson rule).
    public static func opticalDepth(_ a: BruteForceAtmosphere, altitude: Double, elevation: Double) -> SIMD3<Double> {
        let m = ShellMedium(a)
        let r = a.groundRadius + altitude
        let b = r * sin(elevation * Double.pi / 180)
        let tmax = m.groundDistance(r0sq: r * r, b: b) ?? m.topDistance(r0sq: r * r, b: b)
        return m.opticalDepth(r0sq: r * r, b: b, tmax: tmax)
    }

    static func sunVector(_ elevation: Double) -> SIMD3<Double> {
        let e = elevation * Double.pi / 180
        return SIMD3(cos(e), 0, sin(e))
    }

    static func viewVector(_ elevation: Double, _ azimuth: Double) -> SIMD3<Double> {
        let e = elevation * Double.pi / 180, az = azimuth * Double.pi / 180
        return normalize3(SIMD3(cos(e) * cos(az), cos(e) * sin(az), sin(e)))
    }
}

/// An eye ray's segment in its own memory, shared read only by all the paths of its direction.
final class EyeRay: @unchecked Sendable {
    let storage = SegmentStorage()
    let segment: Segment

    init(_ tracer: PathTracer, origin: SIMD3<Double>, direction: SIMD3<Double>) {
        segment = Segment(tracer.medium, origin: origin, direction: direction, storage: storage)
    }
}

/// A fixed array written at disjoint indices from `concurrentPerform`'s iterations and read after it
/// returns (the join orders the writes before the reads).
final class Slots<T>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<T?>
    let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutablePointer<T?>.allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(i: Int) -> T {
        get { base[i]! }
        set { base[i] = newValue }
    }
}
