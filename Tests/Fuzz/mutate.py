#!/usr/bin/env python3
"""Mutation harness: no crash, no hang and a named error on any scene file.

Takes the example scenes (Scenes/*.json), applies random mutations — numbers swapped for huge,
negative, zero or tiny values, NaN-like strings, wrong types; arrays emptied or lengthened a
thousandfold; keys deleted; files truncated; stray bytes — and runs the built `welkin` on each:

    welkin validate FILE
    welkin reference FILE -o OUT.png --size 64x36 --time T     (T = 0, 1.5, 7, 1000; valid files only)
    welkin render    FILE ...                                    (with --gpu)

Every run has a timeout (5 s). A run is a finding when it
  crash      ends by a signal (a Swift trap is SIGILL or SIGTRAP),
  timeout    takes longer than the timeout (validate timing out is a *decode* hang, counted apart),
  exit       exits with a status other than 0 or 1,
  unnamed    exits 1 without naming the scene file on stderr.

Deterministic: case i of seed S is the same mutation on every machine (`--only i` reruns it).
Findings are written to --keep (default: fuzz-out/mutate/) as FILE.json plus FILE.txt (the
command, status, stderr tail). Standard library only.

    python3 Tests/Fuzz/mutate.py --seed 1 --count 3000
    python3 Tests/Fuzz/mutate.py --seed 1 --only 1234 --verbose
"""

import argparse
import copy
import glob
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HUGE_NUMBERS = [1e308, -1e308, 1e15, -1e15, 1.7976931348623157e308, 3.5e38, 1e38, 2147483648, 4294967296,
                9007199254740993, 1e6, -1e6, 1e9]
SMALL_NUMBERS = [0, -0.0, 1e-300, -1e-300, 5e-324, 1e-7, -1, -0.5, 0.5, 1, 2, 63, 64, 65, 255, 256, 16384, 16385]
STRANGE_VALUES = ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e400", "", "0x10", "#", "#GGGGGG", "null",
                  True, False, None, [], {}, [0], [0, 0], [1e308, 1e308], {"x": 1}, "\u0000", "é" * 3]
STRAY_BYTES = [b"\x00", b"\xff", b"\xc3", b"\xe2\x80", b"{", b"}", b"[", b"]", b",", b":", b"\"", b"\\",
               b"-", b"1e999", b"\xef\xbb\xbf", b" ", b"\n", b"/*", b"NaN", b"0" * 400]


# ---------------------------------------------------------------------------------------------
# Mutations on parsed JSON

def walk(value, path=()):
    """Every (path, value) in a JSON tree, the root included."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, path + (i,))


def get(root, path):
    for p in path:
        root = root[p]
    return root


def put(root, path, value):
    if not path:
        return value
    get(root, path[:-1])[path[-1]] = value
    return root


def mutate_number(rng, x):
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(HUGE_NUMBERS)
    if kind < 0.55:
        return rng.choice(SMALL_NUMBERS)
    if kind < 0.7:
        return -x if isinstance(x, (int, float)) and not isinstance(x, bool) else -1
    if kind < 0.85:
        return x * rng.choice([10, 100, 1000, 1e6, 1e-6, -1]) if isinstance(x, (int, float)) and not isinstance(x, bool) else 0
    return rng.choice(STRANGE_VALUES)


def mutate_tree(rng, root):
    """One structural mutation; returns (new root, a description)."""
    nodes = list(walk(root))
    path, value = rng.choice(nodes)
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    numbers = [(p, v) for p, v in nodes if isinstance(v, (int, float)) and not isinstance(v, bool)]
    r = rng.random()
    if r < 0.45 and numbers:
        path, value = rng.choice(numbers)
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        new = mutate_number(rng, value)
        return put(root, path, new), f"number {where}: {value!r} -> {new!r}"
    if isinstance(value, list) and r < 0.7:
        if value and rng.random() < 0.6:
            factor = rng.choice([2, 10, 100, 1000])
            new = [copy.deepcopy(x) for x in value for _ in range(factor)] if rng.random() < 0.5 else value * factor
            # Deep copies only for small arrays: a long layers array of references is the same JSON.
            return put(root, path, new), f"array {where}: x{factor} ({len(value)} -> {len(new)})"
        return put(root, path, []), f"array {where}: emptied"
    if isinstance(value, dict) and value and r < 0.8:
        key = rng.choice(sorted(value))
        if rng.random() < 0.7:
            del value[key]
            return root, f"key {where}.{key}: deleted"
        value[key + rng.choice(["", "s", "X"])] = rng.choice(STRANGE_VALUES + HUGE_NUMBERS)
        return root, f"key {where}.{key}: added a sibling"
    new = rng.choice(STRANGE_VALUES + HUGE_NUMBERS + SMALL_NUMBERS)
    return put(root, path, new), f"value {where}: {type(value).__name__} -> {new!r}"


def mutate_bytes(rng, data):
    """One byte-level mutation."""
    r = rng.random()
    if r < 0.4 and data:
        cut = rng.randrange(len(data))
        return data[:cut], f"truncated at byte {cut} of {len(data)}"
    if r < 0.8:
        at = rng.randrange(len(data) + 1)
        stray = rng.choice(STRAY_BYTES)
        return data[:at] + stray + data[at:], f"inserted {stray[:12]!r} at byte {at}"
    if data:
        at = rng.randrange(len(data))
        b = rng.randrange(256)
        return data[:at] + bytes([b]) + data[at + 1:], f"byte {at} -> {b:#04x}"
    return data, "no-op"


def dumps(value):
    """JSON bytes; a float that overflowed to ±inf is written as ±1e999 (what a user could type)."""
    def finite(v):
        if isinstance(v, float) and math.isinf(v):
            return "\u0001INF" if v > 0 else "\u0001NINF"
        if isinstance(v, dict):
            return {k: finite(x) for k, x in v.items()}
        if isinstance(v, list):
            return [finite(x) for x in v]
        return v
    text = json.dumps(finite(value), ensure_ascii=False)
    return text.replace('"\\u0001INF"', "1e999").replace('"\\u0001NINF"', "-1e999").encode("utf-8")


def make_case(seed, index, scenes):
    """The mutated bytes of case `index`, its source scene and the mutations applied."""
    rng = random.Random(f"{seed}-{index}")
    name = rng.choice(sorted(scenes))
    root = copy.deepcopy(scenes[name])
    steps = []
    for _ in range(rng.choice([1, 1, 1, 1, 1, 1, 2, 2, 2, 3])):
        root, what = mutate_tree(rng, root)
        steps.append(what)
    data = dumps(root)
    if rng.random() < 0.1:
        data, what = mutate_bytes(rng, data)
        steps.append(what)
    return name, data, steps


# ---------------------------------------------------------------------------------------------
# Running welkin

class Result:
    def __init__(self, argv, status, elapsed, stderr, timed_out):
        self.argv, self.status, self.elapsed, self.stderr, self.timed_out = argv, status, elapsed, stderr, timed_out


def run(argv, timeout):
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    start = time.monotonic()
    # A new session, so a timeout kills the whole process group.
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
        return Result(argv, p.returncode, time.monotonic() - start, err.decode("utf-8", "replace"), False)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return Result(argv, None, time.monotonic() - start, err.decode("utf-8", "replace"), True)


def classify(result, path, decode_only):
    """None when the run behaved, else a finding's kind."""
    if result.timed_out:
        return "decode-timeout" if decode_only else "timeout"
    if result.status < 0:
        return "crash"
    if result.status not in (0, 1):
        return "exit"
    if result.status == 1 and path not in result.stderr:
        return "unnamed"
    return None


def check_case(args, index, scenes, workdir):
    name, data, steps = make_case(args.seed, index, scenes)
    path = os.path.join(workdir, f"case-{index}.json")
    with open(path, "wb") as f:
        f.write(data)
    findings = []
    validate = run([args.welkin, "validate", path], args.timeout)
    kind = classify(validate, path, decode_only=True)
    if kind:
        findings.append((kind, validate))
    valid = validate.status == 0 and not validate.timed_out
    if valid:
        png = os.path.join(workdir, f"case-{index}.png")
        for t in args.times:
            for command in (["reference"] + (["render"] if args.gpu else [])):
                r = run([args.welkin, command, path, "-o", png, "--size", args.size, "--time", t], args.timeout)
                kind = classify(r, path, decode_only=False)
                if kind:
                    findings.append((kind, r))
        if os.path.exists(png):
            os.remove(png)
    if findings and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        stem = os.path.join(args.keep, f"seed{args.seed}-case{index}")
        shutil.copyfile(path, stem + ".json")
        with open(stem + ".txt", "w") as f:
            f.write(f"source: Scenes/{name}\nmutations:\n" + "".join(f"  {s}\n" for s in steps))
            for kind, r in findings:
                tail = r.stderr[-1500:].replace(path, stem + ".json")
                f.write(f"\n{kind}: {' '.join(r.argv).replace(path, stem + '.json')}\n"
                        f"  status {r.status}, {r.elapsed:.2f} s\n{tail}\n")
    os.remove(path)
    return index, name, steps, valid, findings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--welkin", default=os.path.join(REPOSITORY, ".build/release/welkin"))
    parser.add_argument("--scenes", default=os.path.join(REPOSITORY, "Scenes/*.json"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--start", type=int, default=0, help="first case index")
    parser.add_argument("--only", type=int, action="append", help="run just this case (repeatable)")
    parser.add_argument("--timeout", type=float, default=5)
    parser.add_argument("--times", default="0,1.5,7,1000", help="comma-separated scene times for reference")
    parser.add_argument("--size", default="64x36")
    parser.add_argument("--gpu", action="store_true", help="also run 'welkin render' (headless GL)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", default=os.path.join(REPOSITORY, "fuzz-out/mutate"),
                        help="where findings are written ('' keeps none)")
    parser.add_argument("--json", help="write a summary JSON here")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    args.times = args.times.split(",")
    if not os.access(args.welkin, os.X_OK):
        sys.exit(f"mutate.py: no welkin binary at {args.welkin} (swift build -c release)")

    scenes = {}
    assets = []
    for path in sorted(glob.glob(args.scenes)):
        with open(path, "rb") as f:
            scenes[os.path.basename(path)] = json.loads(f.read())
    scene_dir = os.path.dirname(args.scenes)
    assets = [p for p in glob.glob(os.path.join(scene_dir, "*")) if not p.endswith(".json") and os.path.isfile(p)]
    if not scenes:
        sys.exit(f"mutate.py: no scenes match {args.scenes}")

    workdir = tempfile.mkdtemp(prefix="welkin-mutate-")
    # Shader files and images the scenes name relatively, next to the mutated copies.
    for a in assets:
        shutil.copy(a, workdir)
    indices = args.only or list(range(args.start, args.start + args.count))
    counts = {"cases": 0, "valid": 0, "crash": 0, "timeout": 0, "decode-timeout": 0, "exit": 0, "unnamed": 0}
    cases_with = {k: set() for k in counts}
    start = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(check_case, args, i, scenes, workdir) for i in indices]
            for n, future in enumerate(futures):
                index, name, steps, valid, findings = future.result()
                counts["cases"] += 1
                counts["valid"] += valid
                for kind, r in findings:
                    counts[kind] += 1
                    cases_with[kind].add(index)
                if findings or args.verbose:
                    kinds = ", ".join(sorted({k for k, _ in findings})) or "ok"
                    print(f"case {index} ({name}; {'; '.join(steps)}): {kinds}", flush=True)
                    if args.verbose:
                        for kind, r in findings:
                            print(f"  {kind}: {' '.join(r.argv)} -> {r.status} in {r.elapsed:.2f} s\n  {r.stderr[-400:]}")
                if (n + 1) % 250 == 0:
                    print(f"... {n + 1}/{len(indices)} cases, {time.monotonic() - start:.0f} s", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.monotonic() - start
    summary = {"seed": args.seed, "elapsed_s": round(elapsed, 1),
               **{k: v for k, v in counts.items()},
               "cases_with": {k: sorted(v) for k, v in cases_with.items() if k not in ("cases", "valid") and v}}
    print(f"seed {args.seed}: {counts['cases']} cases ({counts['valid']} valid) in {elapsed:.0f} s — "
          f"crash {counts['crash']}, timeout {counts['timeout']}, decode-timeout {counts['decode-timeout']}, "
          f"exit {counts['exit']}, unnamed {counts['unnamed']} (runs; cases: "
          + ", ".join(f"{k} {len(v)}" for k, v in cases_with.items() if k not in ("cases", "valid")) + ")")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    bad = sum(len(v) for k, v in cases_with.items() if k not in ("cases", "valid", "decode-timeout"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
