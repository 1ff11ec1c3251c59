#!/usr/bin/env python3
"""Scripts/make-gallery.py [WELKIN]

Writes docs/gallery.md and its pictures (docs/images/gallery/NAME.jpg): every example scene (the
JSON files in Scenes/ and Scenes/weather/, the ones `make test` compares), rendered by `welkin render`
at the scene's own framing, fitted into 320×260 pixels, at the time in TIMES (7 s unless listed),
then written as JPEG (Pillow) so the page stays small. WELKIN: the binary (default
.build/release/welkin). `make gallery` runs it; GalleryTests checks that the page lists every
example and that each picture exists.
"""
import json, os, subprocess, sys, tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WELKIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/welkin")
BOX = (320, 260)
# Moments that show a scene better than 7 s (scene seconds).
TIMES = {"day-cycle.json": 24, "physical-day-cycle.json": 20, "stars-emerge.json": 12, "weather-tour.json": 20,
         "mesh-text.json": 0.33, "text-clock.json": 2}


def examples():
    top = sorted(f for f in os.listdir(os.path.join(ROOT, "Scenes")) if f.endswith(".json"))
    weather = sorted("weather/" + f for f in os.listdir(os.path.join(ROOT, "Scenes/weather")) if f.endswith(".json"))
    return top + weather


def main():
    out_dir = os.path.join(ROOT, "docs/images/gallery")
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in examples():
            path = os.path.join(ROOT, "Scenes", name)
            scene = json.load(open(path))
            w, h = scene.get("size", [1280, 720])
            s = min(BOX[0] / w, BOX[1] / h)
            size = (max(1, round(w * s)), max(1, round(h * s)))
            t = TIMES.get(name, 7)
            png = os.path.join(tmp, "shot.png")
            subprocess.run([WELKIN, "render", path, "--time", str(t), "--size", f"{size[0]}x{size[1]}", "-o", png],
                           check=True, stdout=subprocess.DEVNULL)
            stem = name.replace("/", "-")[:-5]
            Image.open(png).convert("RGB").save(os.path.join(out_dir, stem + ".jpg"), quality=85, optimize=True)
            rows.append((name, scene.get("name", stem), stem, t))
            print(f"{name}: {size[0]}×{size[1]} at {t} s", flush=True)
    lines = ["# Gallery", "",
             "Every example scene in `Scenes/` as `welkin render` draws it, in the scene's own framing "
             "(fitted into 320×260 pixels), at 7 s unless the caption says otherwise. "
             "`make gallery` makes this page and its pictures again (Scripts/make-gallery.py).", ""]
    per_row = 4
    for start in range(0, len(rows), per_row):
        chunk = rows[start:start + per_row]
        lines.append("| " + " | ".join(f"![{title}](images/gallery/{stem}.jpg)" for _, title, stem, _ in chunk) + " |")
        if start == 0:
            lines.append("|" + "---|" * len(chunk))
        lines.append("| " + " | ".join(f"[`{name}`](../Scenes/{name}){'' if t == 7 else f', {t:g} s'}<br>{title}"
                                       for name, title, _, t in chunk) + " |")
    open(os.path.join(ROOT, "docs/gallery.md"), "w").write("\n".join(lines) + "\n")
    print(f"wrote docs/gallery.md ({len(rows)} scenes)")


if __name__ == "__main__":
    main()
