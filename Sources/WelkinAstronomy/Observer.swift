// Where the sky is seen from, directions in the local horizon frame, and refraction.

import Foundation

/// A place on the WGS84 ellipsoid.
public struct Observer: Sendable, Equatable, Hashable {
    /// Degrees north, degrees east, metres above the ellipsoid.
    public var latitude: Double
    public var longitude: Double
    public var height: Double

    public init(latitude: Double, longitude: Double, height: Double = 0) {
        self.latitude = latitude; self.longitude = longitude; self.height = height
    }
}

/// A direction in the sky: degrees, azimuth clockwise from north. `elevation` is airless
/// (geometric, topocentric); `apparentElevation` adds refraction.
public struct Horizontal: Sendable, Equatable {
    public var elevation: Double
    public var azimuth: Double

    public init(elevation: Double, azimuth: Double) { self.elevation = elevation; self.azimuth = azimuth }

    /// Unit vector: x east, y north, z up (SkyState.sunDirection's axes).
    public var vector: SIMD3<Double> {
        let e = elevation * .pi / 180, a = azimuth * .pi / 180
        return SIMD3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
    }

    public init(vector v: SIMD3<Double>) {
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        elevation = atan2(v.z, horizontal) * 180 / .pi
        var a = atan2(v.x, v.y) * 180 / .pi
        if a < 0 { a += 360 }
        azimuth = a
    }

    public var apparentElevation: Double { elevation + Refraction.degrees(trueElevation: elevation) }
}

public enum Refraction {
    /// Sæmundsson's formula (Sky & Telescope, 1986): the refraction in degrees that lifts an object
    /// at true (airless) elevation h, at 101.0 kPa and 10 °C. Below −1.9° it holds the value there
    /// (the formula's pole is near −5°; everything that low is below the horizon anyway).
    public static func degrees(trueElevation h: Double) -> Double {
        let e = max(h, -1.9)
        let arcminutes = 1.02 / tan((e + 10.3 / (e + 5.11)) * .pi / 180)
        return max(arcminutes / 60, 0)
    }
}
