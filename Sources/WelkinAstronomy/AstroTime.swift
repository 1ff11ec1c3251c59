// Time scales for the ephemeris: a UTC instant as two-part Julian dates in UT1 and TT.
//
// UTC is taken as UT1 (|UT1 − UTC| < 0.9 s, at most 0.004° of hour angle). TT − UT1 (ΔT) is
// 32.184 s + TAI − UTC from 1972 on (ERFA's leap-second table: 37 s since 2017, held after it), and
// Espenak & Meeus' polynomials (NASA's eclipse canon, 2006) before 1972, when UTC's steps were not
// whole seconds.

import CERFA
import Foundation

public struct AstroTime: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00 UTC.
    public var unixSeconds: Double
    /// UT1 as a two-part Julian date (whole day + fraction, so the sum keeps its digits).
    public var ut1: (Double, Double)
    /// Terrestrial time, two-part Julian date.
    public var tt: (Double, Double)
    /// TT − UT1, seconds.
    public var deltaT: Double

    public static let unixEpochJD = 2440587.5

    public init(unixSeconds: Double) {
        self.unixSeconds = unixSeconds
        let days = (unixSeconds / 86400).rounded(.down)
        let fraction = (unixSeconds - days * 86400) / 86400
        ut1 = (Self.unixEpochJD + days, fraction)
        deltaT = Self.deltaT(julianDay: ut1.0 + ut1.1)
        tt = (ut1.0, ut1.1 + deltaT / 86400)
    }

    public static func == (a: AstroTime, b: AstroTime) -> Bool { a.unixSeconds == b.unixSeconds }

    /// Julian years of TT since J2000.0.
    public var julianYearsSinceJ2000: Double { ((tt.0 - 2451545.0) + tt.1) / 365.25 }

    /// TT − UT1 in seconds at a Julian day (UT).
    public static func deltaT(julianDay jd: Double) -> Double {
        var year: Int32 = 0, month: Int32 = 0, day: Int32 = 0
        var fd = 0.0
        let status = eraJd2cal(jd, 0, &year, &month, &day, &fd)
        let decimalYear = 2000 + (jd - 2451544.5) / 365.2425
        if status == 0, year >= 1972 {
            var dat = 0.0
            // Status 1 ("dubious year", past the table's end) still returns the last offset.
            if eraDat(year, month, day, fd, &dat) >= 0 { return 32.184 + dat }
        }
        let y = decimalYear
        if y >= 1961 {
            let t = y - 1975
            return 45.45 + 1.067 * t - t * t / 260 - t * t * t / 718
        } else if y >= 1941 {
            let t = y - 1950
            return 29.07 + 0.407 * t - t * t / 233 + t * t * t / 2547
        } else if y >= 1920 {
            let t = y - 1920
            return 21.20 + 0.84493 * t - 0.076100 * t * t + 0.0020936 * t * t * t
        } else if y >= 1900 {
            let t = y - 1900
            return -2.79 + 1.494119 * t - 0.0598939 * t * t + 0.0061966 * t * t * t - 0.000197 * t * t * t * t
        }
        let u = (y - 1820) / 100
        return -20 + 32 * u * u
    }
}
