#!/usr/bin/env python3
"""docs/images/weather-grid.png: the seven weather presets of Scenes/weather/ side by side, each
preset's portrait phone scene (390×844) above its 1280×720 one, rendered by `welkin render` at
1.5 s (the storm at a moment it flashes). Needs Pillow.

    python3 Scripts/make-weather-grid.py ./.build/release/welkin
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

WELKIN = sys.argv[1] if len(sys.argv) > 1 else "welkin"
PRESETS = ["clear", "cloudy", "overcast", "rain", "snow", "storm", "fog"]
TIMES = {"storm": 1.5}
CELL = 150
PHONE = (CELL, round(CELL * 844 / 390))
WIDE = (CELL, round(CELL * 720 / 1280))
GAP, LABEL = 6, 22
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def render(scene, size, time, out):
    subprocess.run([WELKIN, "render", scene, "--time", str(time), "--size", f"{size[0] * 2}x{size[1] * 2}", "-o", out],
                   check=True, stdout=subprocess.DEVNULL)
    return Image.open(out).convert("RGB").resize(size, Image.LANCZOS)


def main():
    width = len(PRESETS) * (CELL + GAP) + GAP
    height = LABEL + PHONE[1] + GAP + WIDE[1] + GAP
    grid = Image.new("RGB", (width, height), (250, 250, 250))
    draw = ImageDraw.Draw(grid)
    with tempfile.TemporaryDirectory() as tmp:
        for i, preset in enumerate(PRESETS):
            x = GAP + i * (CELL + GAP)
            t = TIMES.get(preset, 1.5)
            phone = render(os.path.join(ROOT, "Scenes", "weather", f"{preset}-phone.json"), PHONE, t, os.path.join(tmp, "p.png"))
            wide = render(os.path.join(ROOT, "Scenes", "weather", f"{preset}-wide.json"), WIDE, t, os.path.join(tmp, "w.png"))
            grid.paste(phone, (x, LABEL))
            grid.paste(wide, (x, LABEL + PHONE[1] + GAP))
            w = draw.textlength(preset)
            draw.text((x + (CELL - w) / 2, 5), preset, fill=(40, 40, 40))
            print(f"{preset}: {t} s", flush=True)
    out = os.path.join(ROOT, "docs", "images", "weather-grid.png")
    grid.save(out, optimize=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
