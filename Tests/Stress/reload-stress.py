#!/usr/bin/env python3
"""The viewer's hot-reload stress (issue 12): hundreds of saves of a scene and a shader, alternately
broken and fixed, in every way editors save, while the viewer runs in a real window under Xvfb.

Each round breaks the scene, fixes it, breaks the shader and fixes it, each save in the next of four
save styles:
  in-place   open with O_TRUNC and write (nano, echo >, most IDEs without safe-write)
  rename     write a temporary file beside it and rename it over (vim's default, VS Code, sed -i)
  recreate   delete the file, then create it anew
  backup     vim with 'backupcopy=no': rename the file to FILE~, write a new FILE, delete FILE~
After each save the script waits for the viewer's answer (a `reloaded …` line for a fix, the error
on stderr for a break). After each round, when both files are good again, it samples the viewer's
resident memory (/proc/PID/status VmRSS), its inotify watches (`inotify wd:` lines in
/proc/PID/fdinfo), and asks the console for `resources` (the viewer's own count of live GL objects)
and, every few rounds, a `screenshot` (must not be all black) and `time` (the console answers).
At the end it closes the viewer with the Q key and times the window close to the process's exit.

Passes when: resident memory after the warm-up (the first fifth of the rounds) grows less than 1 %,
the inotify watch count and the GL object counts never change after warm-up, every save got its
answer, every screenshot shows a picture, and the quit takes under 200 ms.

  python3 Tests/Stress/reload-stress.py [--rounds 100] [--welkin .build/release/welkin]
"""

import argparse
import os
import queue
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STYLES = ["in-place", "rename", "recreate", "backup"]


def save(path, text, style):
    data = text.encode()
    if style == "in-place":
        with open(path, "r+b" if os.path.exists(path) else "wb") as f:
            f.truncate(0)
            f.write(data)
    elif style == "rename":
        temp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".swp")
        with open(temp, "wb") as f:
            f.write(data)
        os.rename(temp, path)
    elif style == "recreate":
        os.unlink(path)
        time.sleep(0.005)
        with open(path, "wb") as f:
            f.write(data)
    elif style == "backup":
        backup = path + "~"
        os.rename(path, backup)
        with open(path, "wb") as f:
            f.write(data)
        os.unlink(backup)
    else:
        raise ValueError(style)


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except OSError:
            continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def inotify_watches(pid):
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fdinfo"):
        try:
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                count += sum(1 for line in f if line.startswith("inotify wd:"))
        except OSError:
            pass
    return count


def png_lit_fraction(path):
    """Fraction of pixels that are not (near) black, decoding the PNG with zlib only."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8, depth
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    lit = 0
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if filt == 1: line[i] = (line[i] + a) & 255
            elif filt == 2: line[i] = (line[i] + b) & 255
            elif filt == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, channels):
            if line[x] + line[x + 1] + line[x + 2] > 24:
                lit += 1
        previous = line
    return lit / (width * height)


class Viewer:
    def __init__(self, welkin, scene, directory):
        self.lines = queue.Queue()
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(directory, "config"), XDG_STATE_HOME=os.path.join(directory, "state"))
        self.process = subprocess.Popen(
            ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", welkin, "view", scene],
            cwd=directory, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, start_new_session=True)
        for stream, name in [(self.process.stdout, "out"), (self.process.stderr, "err")]:
            threading.Thread(target=self._read, args=(stream, name), daemon=True).start()
        self.wait_for(lambda s, l: s == "out" and l.startswith("viewing "), 60, "the viewer's first line")
        self.pid = next(p for p in descendants(self.process.pid) if os.path.realpath(f"/proc/{p}/exe") == os.path.realpath(welkin))

    def _read(self, stream, name):
        for line in stream:
            self.lines.put((name, line.rstrip("\n"), time.monotonic()))
        self.lines.put((name, None, time.monotonic()))

    def wait_for(self, predicate, seconds, what):
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {what} after {seconds} s; the viewer said: {seen[-5:]}")
            try:
                stream, line, _ = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"the viewer closed its {stream} while waiting for {what}; it said: {seen[-5:]}")
            seen.append(f"{stream}: {line}")
            if predicate(stream, line):
                return line

    def ask(self, command, predicate, seconds=20):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.wait_for(predicate, seconds, f"answer to '{command}'")

    def window(self):
        env = dict(os.environ)
        # xvfb-run's display: the viewer's environment says which.
        with open(f"/proc/{self.pid}/environ", "rb") as f:
            for item in f.read().split(b"\0"):
                if item.startswith(b"DISPLAY="):
                    env["DISPLAY"] = item.split(b"=", 1)[1].decode()
                if item.startswith(b"XAUTHORITY="):
                    env["XAUTHORITY"] = item.split(b"=", 1)[1].decode()
        out = subprocess.run(["xdotool", "search", "--classname", "^welkin$"], env=env, capture_output=True, text=True)
        return env, out.stdout.split()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=100, help="rounds of four saves (default 100: 400 saves)")
    parser.add_argument("--welkin", default=os.path.join(REPO, ".build/release/welkin"))
    parser.add_argument("--screenshot-every", type=int, default=10)
    args = parser.parse_args()
    welkin = os.path.abspath(args.welkin)

    directory = tempfile.mkdtemp(prefix="welkin-reload-stress-")
    scene_path = os.path.join(directory, "aurora.json")
    shader_path = os.path.join(directory, "aurora.frag")
    with open(os.path.join(REPO, "Scenes/shader-aurora.json")) as f:
        scene_text = f.read()
    with open(os.path.join(REPO, "Scenes/aurora.frag")) as f:
        shader_text = f.read()
    match = re.search(r'"opacity":\s*[0-9.]+', scene_text)
    # The good scene varies a value each time (each fix is a real change); the broken one is cut short.
    def good_scene(i):
        if match:
            return scene_text[:match.start()] + f'"opacity": {0.9 + 0.1 * (i % 2)}' + scene_text[match.end():]
        return scene_text.replace('"layers"', f'"seed": {i}, "layers"', 1)
    def broken_scene(i):
        return scene_text[:len(scene_text) // 2]
    def good_shader(i):
        return shader_text + f"\n// save {i}\n"
    def broken_shader(i):
        return shader_text + f"\nthis is not GLSL {i}\n"
    with open(scene_path, "w") as f:
        f.write(good_scene(0))
    with open(shader_path, "w") as f:
        f.write(good_shader(0))

    viewer = Viewer(welkin, scene_path, directory)
    print(f"viewer pid {viewer.pid}; {args.rounds} rounds of 4 saves in {directory}")
    samples = []   # (round, rss KiB, watches, resources line)
    failures = []
    reaction = []
    started = time.monotonic()
    save_index = 0
    try:
        for r in range(args.rounds):
            for target, text, good in [(scene_path, broken_scene(r), False), (scene_path, good_scene(r), True),
                                       (shader_path, broken_shader(r), False), (shader_path, good_shader(r), True)]:
                style = STYLES[save_index % len(STYLES)]
                save_index += 1
                t0 = time.monotonic()
                save(target, text, style)
                name = os.path.basename(target)
                try:
                    if good:
                        viewer.wait_for(lambda s, l: s == "out" and l.startswith("reloaded ") and name in l, 20, f"reload of {name} ({style})")
                    else:
                        viewer.wait_for(lambda s, l: s == "err" and name in l, 20, f"error for broken {name} ({style})")
                    reaction.append(time.monotonic() - t0)
                except (TimeoutError, RuntimeError) as e:
                    failures.append(f"round {r}, {style} save of {'good' if good else 'broken'} {name}: {e}")
                    if isinstance(e, RuntimeError):
                        raise
            resources = viewer.ask("resources", lambda s, l: s == "out" and l.startswith("resources: "))
            samples.append((r, rss_kib(viewer.pid), inotify_watches(viewer.pid), resources.split(" GL: ", 1)[1]))
            viewer.ask("time", lambda s, l: s == "out" and l.startswith("time "))
            if r % args.screenshot_every == 0 or r == args.rounds - 1:
                shot = os.path.join(directory, f"shot-{r}.png")
                viewer.ask(f"screenshot {shot}", lambda s, l: (s == "out" and l.startswith("saved ")) or (s == "err" and l.startswith("screenshot")))
                lit = png_lit_fraction(shot)
                if lit < 0.05:
                    failures.append(f"round {r}: the screenshot is black ({lit:.1%} of pixels lit)")
                if r == args.rounds - 1:
                    # Kept for a look (fuzz-out/ is ignored by git).
                    os.makedirs(os.path.join(REPO, "fuzz-out"), exist_ok=True)
                    shutil.copy(shot, os.path.join(REPO, "fuzz-out", "reload-stress-last.png"))
        # Quit: the Q key in the window, timed to the process's exit.
        env, wid = viewer.window()
        # Timed from just before xdotool starts (its own start-up, a few ms, counts against the viewer).
        t0 = time.monotonic()
        subprocess.run(["xdotool", "key", "--window", wid, "q"], env=env, check=True)
        while os.path.exists(f"/proc/{viewer.pid}") and open(f"/proc/{viewer.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
            if time.monotonic() - t0 > 10:
                break
            time.sleep(0.002)
        quit_ms = (time.monotonic() - t0) * 1000
    finally:
        if viewer.process.poll() is None:
            viewer.process.stdin.close()
            try:
                viewer.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(viewer.process.pid, 9)
    elapsed = time.monotonic() - started

    warm = max(1, args.rounds // 5)
    after = [s for s in samples if s[0] >= warm]
    rss_warm, rss_end = after[0][1], samples[-1][1]
    growth = (rss_end - rss_warm) / rss_warm * 100
    watches = sorted({s[2] for s in samples})
    gl_after = sorted({s[3] for s in after})
    reaction.sort()
    print(f"{save_index} saves ({args.rounds} rounds) in {elapsed:.0f} s; answer to a save: median {reaction[len(reaction) // 2] * 1000:.0f} ms, "
          f"slowest {reaction[-1] * 1000:.0f} ms")
    print(f"resident memory: {samples[0][1] / 1024:.1f} MiB after round 0, {rss_warm / 1024:.1f} MiB after warm-up (round {warm}), "
          f"{rss_end / 1024:.1f} MiB at the end ({growth:+.2f} %); peak {max(s[1] for s in samples) / 1024:.1f} MiB")
    print(f"inotify watches: {watches}")
    print(f"GL objects after warm-up: {gl_after}")
    print(f"quit (Q key to process exit): {quit_ms:.0f} ms")
    if growth >= 1:
        failures.append(f"resident memory grew {growth:.2f} % after warm-up")
    if len(watches) != 1:
        failures.append(f"the inotify watch count changed: {watches}")
    if len(gl_after) != 1:
        failures.append(f"GL object counts changed after warm-up: {gl_after}")
    if quit_ms >= 200:
        failures.append(f"quitting took {quit_ms:.0f} ms")
    for f in failures:
        print("FAIL:", f)
    shutil.rmtree(directory, ignore_errors=True)
    print("reload stress:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
