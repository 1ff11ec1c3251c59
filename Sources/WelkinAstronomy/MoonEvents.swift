// Moonrise and moonset: when the Moon's upper limb crosses the apparent horizon.
//
// The condition is the almanacs' one with Welkin's own refraction: the centre's apparent elevation
// (airless topocentric elevation + Sæmundsson's refraction, Refraction.degrees) plus the angular
// radius at the observer's distance is zero. At the horizon Sæmundsson gives about 37′ where the
// almanacs' fixed standard is 34′, so rises come 15–35 s earlier and sets as much later than
// theirs at mid latitudes (a minute or more where the Moon crosses slowly, at high latitudes;
// MoonEventsTests holds them to skyfield's). The function is sampled every
// 10 minutes and each sign change bisected to 1 s; a rise and set closer than one step (the Moon
// grazing the horizon at high latitudes) can be missed.

import Foundation

extension Ephemeris {
    /// Scan step and search window, seconds.
    static let moonEventStep = 600.0
    static let moonEventWindow = 26 * 3600.0

    /// Degrees of the Moon's upper limb above the apparent horizon at `unixSeconds`.
    static func moonLimbHeight(_ unixSeconds: Double, observer: Observer) -> Double {
        let moon = Ephemeris(unixSeconds: unixSeconds, observer: observer).moon
        let h = moon.position.elevation
        return h + Refraction.degrees(trueElevation: h) + moon.angularDiameter / 2
    }

    /// The first moonrise and the first moonset strictly after `unixSeconds` and within the next
    /// 26 hours (Unix seconds, to about a second), nil where there is none (the Moon up, or down,
    /// all that time, as at high latitudes).
    public static func moonEvents(after unixSeconds: Double, observer: Observer) -> (rise: Double?, set: Double?) {
        var rise: Double?, set: Double?
        let end = unixSeconds + moonEventWindow
        var t0 = unixSeconds
        var h0 = moonLimbHeight(t0, observer: observer)
        while t0 < end, rise == nil || set == nil {
            let t1 = min(t0 + moonEventStep, end)
            let h1 = moonLimbHeight(t1, observer: observer)
            if h0 <= 0, h1 > 0, rise == nil {
                rise = crossing(from: t0, to: t1, rising: true, observer: observer)
            } else if h0 > 0, h1 <= 0, set == nil {
                set = crossing(from: t0, to: t1, rising: false, observer: observer)
            }
            t0 = t1; h0 = h1
        }
        return (rise, set)
    }

    /// Bisects a bracketed crossing (below at `a` and above at `b` when rising, the reverse when
    /// setting) to 1 s; returns the middle of the last interval.
    static func crossing(from a: Double, to b: Double, rising: Bool, observer: Observer) -> Double {
        var lo = a, hi = b
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            let above = moonLimbHeight(mid, observer: observer) > 0
            if above == rising { hi = mid } else { lo = mid }
        }
        return (lo + hi) / 2
    }
}
