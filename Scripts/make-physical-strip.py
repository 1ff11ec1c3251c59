#!/usr/bin/env python3
"""Redraws docs/images/physical-strip.png: the physical sky with the sun from 8 degrees below the
horizon to 60 degrees above, looking toward the sun (top row) and away from it (bottom row), each
panel a 320x180 `welkin render` of a one-layer scene with auto exposure.

    python3 Scripts/make-physical-strip.py ./.build/release/welkin

Needs Pillow. Deterministic: the same welkin build draws the same strip.
"""

import json
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw, ImageFont

WELKIN = sys.argv[1] if len(sys.argv) > 1 else "welkin"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "images", "physical-strip.png")
SUNS = [-8, -6, -3, 0, 3, 10, 30, 60]
SIZE = (320, 180)
GAP, LABEL = 6, 26


def render(directory, sun, toward):
    scene = {
        "name": f"Physical sky, sun {sun} degrees",
        "size": list(SIZE),
        "layers": [{"type": "sky", "model": "physical", "sunElevation": sun, "sunAzimuth": 180,
                    "viewAzimuth": 180 if toward else 0, "fieldOfView": 90, "horizon": 0.85}],
    }
    path = os.path.join(directory, f"sun{sun}-{'toward' if toward else 'away'}.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    png = path.replace(".json", ".png")
    subprocess.run([WELKIN, "render", path, "-o", png], check=True, stdout=subprocess.DEVNULL)
    return Image.open(png).convert("RGB")


def main():
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 15)
    width = len(SUNS) * SIZE[0] + (len(SUNS) - 1) * GAP
    height = LABEL + 2 * SIZE[1] + GAP
    strip = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(strip)
    with tempfile.TemporaryDirectory() as directory:
        for i, sun in enumerate(SUNS):
            x = i * (SIZE[0] + GAP)
            text = f"sun {sun}°"
            w = draw.textlength(text, font=font)
            draw.text((x + (SIZE[0] - w) / 2, 4), text, fill="black", font=font)
            strip.paste(render(directory, sun, True), (x, LABEL))
            strip.paste(render(directory, sun, False), (x, LABEL + SIZE[1] + GAP))
    strip.save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
