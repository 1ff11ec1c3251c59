#!/usr/bin/env python3
"""Writes Sources/CERFA from Debian's ERFA 2.0.0 source: the C files Welkin calls, and those they call.

Usage: python3 Scripts/vendor-erfa.py ERFA_SOURCE_DIR

ERFA_SOURCE_DIR is the unpacked `apt-get source erfa` (bookworm: erfa-2.0.0, needs a deb-src line).
The script starts from every `eraXxx(` Welkin's Swift calls (Sources and Tests), follows the C call
graph, and copies each file reached with its comments taken out (ERFA's files carry the licence's
full text at their foot: 60 lines each; it is written once, as LICENSE, and each file's first line
names it). The code itself is not changed, so Welkin and the packages `export-code --package`
writes, which carry this folder as their CERFA target, compute with ERFA's own code. Deterministic:
it prints the file count, the bytes and a SHA-256 over the files, which Sources/CERFA/README.md
records.
"""

import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "CERFA")
HEADERS = ["erfa.h", "erfam.h", "erfaextra.h", "erfadatextra.h"]
NOTICE = ("/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA),"
          " comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */\n")


def strip_comments(text):
    """C source without its comments: a lexer that knows string and character literals."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            if j < 0:
                raise SystemExit("unterminated comment")
            # A comment is a space; keep its line breaks out (they only separate blank lines).
            out.append(' ')
            i = j + 2
        elif c == '/' and i + 1 < n and text[i + 1] == '/':
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = [line.rstrip() for line in ''.join(out).split('\n')]
    kept = []
    for line in lines:
        if line == '' and (not kept or kept[-1] == ''):
            continue
        kept.append(line)
    while kept and kept[-1] == '':
        kept.pop()
    return '\n'.join(kept) + '\n'


def swift_calls():
    names = set()
    for top in ("Sources", "Tests"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".swift"):
                    names |= set(re.findall(r'\bera([A-Z]\w*)\s*\(', open(os.path.join(folder, f)).read()))
    # eraASTROM(): a struct's initialiser, not a function.
    return sorted(n for n in names if not n.isupper())


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    src = os.path.join(sys.argv[1], "src")
    if not os.path.exists(os.path.join(src, "erfa.h")):
        raise SystemExit(f"{sys.argv[1]}: no src/erfa.h (want the unpacked `apt-get source erfa`)")
    calls = {}
    for f in os.listdir(src):
        if f.endswith(".c") and not f.startswith("t_"):
            calls[f[:-2]] = set(m.lower() for m in re.findall(r'\bera([A-Z]\w*)\s*\(', open(os.path.join(src, f)).read()))
    # eraDatini, eraGetLeapSeconds: the leap-second table's functions live in erfadatextra.c.
    defined = {"datini": "erfadatextra", "getleapseconds": "erfadatextra", "setleapseconds": "erfadatextra"}
    need, todo = set(), [n.lower() for n in swift_calls()]
    while todo:
        name = todo.pop()
        file = defined.get(name, name)
        if file in need:
            continue
        if file not in calls:
            raise SystemExit(f"no {file}.c in {src}")
        need.add(file)
        todo += sorted(calls[file])
    for f in os.listdir(OUT):
        if f.endswith(".c") or f.endswith(".h") and f != "shim.h":
            os.remove(os.path.join(OUT, f))
    os.makedirs(os.path.join(OUT, "include"), exist_ok=True)
    digest, total, files = hashlib.sha256(), 0, []
    for name in HEADERS:
        files.append((os.path.join("include", name), name))
    for name in sorted(need):
        files.append((name + ".c", name + ".c"))
    for target, name in files:
        text = NOTICE + strip_comments(open(os.path.join(src, name)).read())
        data = text.encode()
        with open(os.path.join(OUT, target), "wb") as out:
            out.write(data)
        digest.update(target.encode() + b"\0" + data)
        total += len(data)
    licence = open(os.path.join(sys.argv[1], "LICENSE")).read()
    with open(os.path.join(OUT, "LICENSE"), "w") as out:
        out.write(licence)
    print(f"{len(files)} files ({len(need)} C files), {total} bytes, SHA-256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
