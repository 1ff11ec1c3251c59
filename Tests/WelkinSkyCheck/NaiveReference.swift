// The plainest possible first-order sky: uniform midpoint ray marching in explicit 3-D positions, with its
// own densities, sphere intersections and shadow test. Shares no code with the integrator (only the
// parameter struct), so the tests can hold the integrator's quadratures against it.

import Foundation

/// Independent, slow, obviously-correct references for the brute-force sky's deterministic parts.
public enum NaiveReference {
    /// Extinction and scattering at a point, written out again from the atmosphere's parameters.
    private static func coefficients(_ a: BruteForceAtmosphere, _ x: SIMD3<Double>)
        -> (extinction: SIMD3<Double>, rayleigh: SIMD3<Double>, mie: Double) {
        let h = max(((x * x).sum()).squareRoot() - a.groundRadius, 0)
        let rayleighDensity = exp(-h / a.rayleighScaleHeight)
        let mieDensity = exp(-h / a.mieScaleHeight)
        let ozoneDensity: Double
        if h < 10 || h > 40 {
            ozoneDensity = 0
        } else if h < 25 {
            ozoneDensity = (h - 10) / 15
        } else {
            ozoneDensity = (40 - h) / 15
        }
        let rayleigh = a.rayleighScattering * rayleighDensity
        let extinction = rayleigh + SIMD3(repeating: a.mieExtinction * mieDensity) + a.ozoneAbsorption * ozoneDensity
        return (extinction, rayleigh, a.mieScattering * mieDensity)
    }

    /// Nearest positive distance along `origin + t·direction` to the sphere of `radius` about the centre.
    private static func sphereHit(_ origin: SIMD3<Double>, _ direction: SIMD3<Double>, radius: Double) -> Double? {
        let b = (origin * direction).sum()
        let c = (origin * origin).sum() - radius * radius
        let disc = b * b - c
        guard disc >= 0 else { return nil }
        let s = disc.squareRoot()
        if -b - s > 1e-9 { return -b - s }
        if -b + s > 1e-9 { return -b + s }
        return nil
    }

    /// Where a ray from inside the atmosphere ends: the ground if it hits it, else the top.
    private static func rayLength(_ a: BruteForceAtmosphere, _ origin: SIMD3<Double>, _ direction: SIMD3<Double>) -> Double {
        if (origin * direction).sum() < 0, let t = sphereHit(origin, direction, radius: a.groundRadius) { return t }
        return sphereHit(origin, direction, radius: a.topRadius) ?? 0
    }

    /// Optical depth from a point at `altitude` above the north pole along a direction at `elevation`
    /// (degrees) to the ground or the top, by `steps` uniform midpoint steps.
    public static func opticalDepth(_ a: BruteForceAtmosphere, altitude: Double, elevation: Double, steps: Int) -> SIMD3<Double> {
        let origin = SIMD3<Double>(0, 0, a.groundRadius + altitude)
        let e = elevation * Double.pi / 180
        let direction = SIMD3<Double>(cos(e), 0, sin(e))
        let length = rayLength(a, origin, direction)
        let dt = length / Double(steps)
        var tau = SIMD3<Double>(repeating: 0)
        for i in 0..<steps {
            tau += coefficients(a, origin + (Double(i) + 0.5) * dt * direction).extinction * dt
        }
        return tau
    }

    /// The first order seen by the observer (same geometry and units as `BruteForceSky.radiance`), by `steps`
    /// uniform midpoint steps along the view ray and `sunSteps` along each ray toward the sun.
    public static func singleScattering(_ a: BruteForceAtmosphere, sunElevation: Double, viewElevation: Double,
                                        viewAzimuth: Double, steps: Int, sunSteps: Int) -> SIMD3<Double> {
        let degree = Double.pi / 180
        let sun = SIMD3<Double>(cos(sunElevation * degree), 0, sin(sunElevation * degree))
        let view = SIMD3<Double>(cos(viewElevation * degree) * cos(viewAzimuth * degree),
                                 cos(viewElevation * degree) * sin(viewAzimuth * degree), sin(viewElevation * degree))
        let eye = SIMD3<Double>(0, 0, a.groundRadius + a.observerAltitude)
        let length = rayLength(a, eye, view)
        let dt = length / Double(steps)
        // Scattering angle: between the sunlight's propagation (−sun) and the scattered light's (−view).
        let mu = (sun * view).sum()
        let rayleighPhase = 3 / (16 * Double.pi) * (1 + mu * mu)
        let g = a.mieG
        let miePhase = 3 / (8 * Double.pi) * (1 - g * g) * (1 + mu * mu) / ((2 + g * g) * pow(1 + g * g - 2 * g * mu, 1.5))
        var tauView = SIMD3<Double>(repeating: 0)
        var sum = SIMD3<Double>(repeating: 0)
        for i in 0..<steps {
            let x = eye + (Double(i) + 0.5) * dt * view
            let c = coefficients(a, x)
            // Transmittance from the eye to the middle of this step.
            let toMiddle = tauView + c.extinction * (0.5 * dt)
            tauView += c.extinction * dt
            // The planet eclipses the sun for points whose sun ray hits the ground.
            if (x * sun).sum() < 0, sphereHit(x, sun, radius: a.groundRadius) != nil { continue }
            let sunLength = sphereHit(x, sun, radius: a.topRadius) ?? 0
            let ds = sunLength / Double(sunSteps)
            var tauSun = SIMD3<Double>(repeating: 0)
            for j in 0..<sunSteps {
                tauSun += coefficients(a, x + (Double(j) + 0.5) * ds * sun).extinction * ds
            }
            let total = toMiddle + tauSun
            let transmittance = SIMD3(exp(-total.x), exp(-total.y), exp(-total.z))
            sum += transmittance * (c.rayleigh * rayleighPhase + SIMD3(repeating: c.mie * miePhase)) * dt
        }
        return sum
    }
}
