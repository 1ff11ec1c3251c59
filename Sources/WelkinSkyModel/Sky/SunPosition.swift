// Where the sun is: NOAA's solar calculator (after Meeus, "Astronomical Algorithms"), written here.
//
// Accurate to a few thousandths of a degree against NREL's SPA for 1950–2050 (tests hold it to
// 0.05° where the sun is more than 5° up); refraction is NOAA's standard-atmosphere formula.

import Foundation

/// The sun seen from a place at an instant.
public struct SunPosition: Equatable, Sendable {
    /// Apparent elevation above the horizon in degrees, refraction included.
    public var elevation: Double
    /// Degrees clockwise from north.
    public var azimuth: Double
    /// Elevation without refraction, degrees (the sun's true direction).
    public var geometricElevation: Double
    /// Declination and equation of time (minutes), for the day's events.
    public var declination: Double
    public var equationOfTime: Double

    /// Computes the position for `time` at latitude φ (degrees north) and longitude λ (degrees east).
    public init(time: Timestamp, latitude: Double, longitude: Double) {
        let s = SolarTerms(julianDay: time.julianDay)
        declination = s.declination
        equationOfTime = s.equationOfTime
        let utcMinutes = SunPosition.mod(time.unixSeconds / 60, 1440)
        let trueSolarTime = SunPosition.mod(utcMinutes + s.equationOfTime + 4 * longitude, 1440)
        var hourAngle = trueSolarTime / 4 - 180
        if hourAngle < -180 { hourAngle += 360 }
        let phi = latitude * .pi / 180, delta = s.declination * .pi / 180, h = hourAngle * .pi / 180
        let cosZenith = max(-1, min(1, sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(h)))
        let zenith = acos(cosZenith)
        let geometric = 90 - zenith * 180 / .pi
        geometricElevation = geometric
        elevation = geometric + SunPosition.refraction(elevation: geometric)
        // Azimuth from the spherical triangle; at the poles and the zenith any value is right.
        let denominator = cos(phi) * sin(zenith)
        var azimuth: Double
        if abs(denominator) < 1e-12 {
            azimuth = latitude > 0 ? 180 : 0
        } else {
            let cosAz = max(-1, min(1, (sin(phi) * cos(zenith) - sin(delta)) / denominator))
            let a = acos(cosAz) * 180 / .pi
            azimuth = hourAngle > 0 ? SunPosition.mod(a + 180, 360) : SunPosition.mod(540 - a, 360)
        }
        self.azimuth = azimuth
    }

    /// NOAA's atmospheric refraction (degrees) for a geometric elevation (degrees).
    public static func refraction(elevation e: Double) -> Double {
        if e > 85 { return 0 }
        let t = tan(e * .pi / 180)
        let arcseconds: Double
        if e > 5 {
            arcseconds = 58.1 / t - 0.07 / (t * t * t) + 0.000086 / pow(t, 5)
        } else if e > -0.575 {
            arcseconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
        } else {
            arcseconds = -20.772 / t
        }
        return arcseconds / 3600
    }

    static func mod(_ x: Double, _ m: Double) -> Double {
        let r = x.truncatingRemainder(dividingBy: m)
        return r < 0 ? r + m : r
    }
}

/// The sun's declination and the equation of time for a Julian Day (NOAA's series).
struct SolarTerms {
    var declination: Double      // degrees
    var equationOfTime: Double   // minutes

    init(julianDay: Double) {
        let t = (julianDay - 2451545) / 36525
        let rad = Double.pi / 180
        let l0 = SunPosition.mod(280.46646 + t * (36000.76983 + t * 0.0003032), 360)
        let m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let c = sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * m * rad) * (0.019993 - 0.000101 * t) + sin(3 * m * rad) * 0.000289
        let trueLongitude = l0 + c
        let omega = 125.04 - 1934.136 * t
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega * rad)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(omega * rad)
        declination = asin(sin(obliquity * rad) * sin(apparentLongitude * rad)) / rad
        let y = pow(tan(obliquity * rad / 2), 2)
        let l = l0 * rad, mr = m * rad
        equationOfTime = 4 / rad * (y * sin(2 * l) - 2 * e * sin(mr) + 4 * e * y * sin(mr) * cos(2 * l)
                                    - 0.5 * y * y * sin(4 * l) - 1.25 * e * e * sin(2 * mr))
    }
}

/// A date's sunrise, sunset and civil twilight at a place. nil times mean the sun does not cross
/// that altitude on that date (polar day or night); `polar` says which.
public struct SunEvents: Equatable, Sendable {
    public var sunrise: Timestamp?
    public var sunset: Timestamp?
    public var civilDawn: Timestamp?
    public var civilDusk: Timestamp?
    /// "day" when the sun stays above the horizon all date, "night" when below, nil otherwise.
    public var polar: String?

    /// Events on the local calendar date of `date` (in its offset).
    public init(date: Timestamp, latitude: Double, longitude: Double) {
        let midnight = Timestamp(unixSeconds: Double(date.localDayNumber) * 86400 - Double(date.offsetSeconds),
                                 offsetSeconds: date.offsetSeconds)
        func event(zenith: Double, rising: Bool) -> Timestamp? {
            // Start from local noon, then refine twice with the terms at the event's own time.
            var guess = midnight.adding(seconds: 43200)
            for _ in 0..<3 {
                let s = SolarTerms(julianDay: guess.julianDay)
                guard let ha = SunEvents.hourAngle(zenith: zenith, latitude: latitude, declination: s.declination) else { return nil }
                // Solar noon in UTC minutes of the UTC day that holds `guess`.
                let utcDayStart = (guess.unixSeconds / 86400).rounded(.down) * 86400
                let noon = 720 - 4 * longitude - s.equationOfTime
                let minutes = noon + (rising ? -4 : 4) * ha
                var next = utcDayStart + minutes * 60
                // Keep the event on the requested local date.
                let localStart = midnight.unixSeconds
                while next < localStart { next += 86400 }
                while next >= localStart + 86400 { next -= 86400 }
                guess = Timestamp(unixSeconds: next, offsetSeconds: date.offsetSeconds)
            }
            return guess
        }
        sunrise = event(zenith: 90.833, rising: true)
        sunset = event(zenith: 90.833, rising: false)
        civilDawn = event(zenith: 96, rising: true)
        civilDusk = event(zenith: 96, rising: false)
        if sunrise == nil {
            // No crossing: the sun is on one side of the horizon all date; look at solar noon.
            let noon = SunPosition(time: midnight.adding(seconds: 43200 + Double(date.offsetSeconds) - 240 * longitude),
                                   latitude: latitude, longitude: longitude)
            polar = noon.elevation > -0.833 ? "day" : "night"
        }
    }

    /// Hour angle (degrees) at which the sun's centre reaches `zenith`; nil if it never does.
    static func hourAngle(zenith: Double, latitude: Double, declination: Double) -> Double? {
        let rad = Double.pi / 180
        let phi = latitude * rad, delta = declination * rad
        let denominator = cos(phi) * cos(delta)
        guard abs(denominator) > 1e-12 else { return nil }
        let x = cos(zenith * rad) / denominator - tan(phi) * tan(delta)
        guard x >= -1 && x <= 1 else { return nil }
        return acos(x) / rad
    }
}
