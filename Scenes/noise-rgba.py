#!/usr/bin/env python3
"""Writes Scenes/noise-rgba.png: 64×64 texels of independent noise bytes in R, G, B and A.

The iChannel0 input of Scenes/shadertoy-clouds.json. Every byte comes from a 32-bit integer hash
of its texel and channel (the lowbias32 mix Scenes/aurora.frag uses too), so the file is the same on
every run and needs nothing beyond Python's standard library. Sampled with "wrap": "repeat" it
tiles seamlessly: neighbouring texels are unrelated whichever side they are on.

    python3 Scenes/noise-rgba.py
"""
import os
import struct
import zlib

SIZE = 64


def hash32(x):
    x &= 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    x ^= x >> 16
    return x


def texel_bytes(x, y):
    return bytes(hash32((y * SIZE + x) * 4 + channel + 0x9E3779B9) >> 24 for channel in range(4))


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def main():
    rows = b"".join(b"\x00" + b"".join(texel_bytes(x, y) for x in range(SIZE)) for y in range(SIZE))
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)   # 8-bit RGBA, no interlace
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "noise-rgba.png")
    with open(path, "wb") as f:
        f.write(png)
    print(f"wrote {path} ({len(png)} bytes)")


if __name__ == "__main__":
    main()
