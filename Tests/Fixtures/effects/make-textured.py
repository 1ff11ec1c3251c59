#!/usr/bin/env python3
# Writes spark.png (a 32x32 soft white dot with a warm rim, RGBA) and textured.plist, a gravity-mode
# Particle Designer property list embedding that PNG as base64 of its gzip compression (the way
# Particle Designer embeds textureImageData). Run from this folder; the outputs are committed.
import base64, gzip, math, struct, zlib

def png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

size = 32
rows = []
for y in range(size):
    row = []
    for x in range(size):
        r = min(1.0, math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) / (size / 2))
        a = max(0.0, 1 - r) ** 1.5
        row += [255, int(255 * (1 - 0.4 * r)), int(255 * (1 - 0.8 * r)), int(round(255 * a))]
    rows.append(row)
data = png(size, size, rows)
open("spark.png", "wb").write(data)
embedded = base64.b64encode(gzip.compress(data, mtime=0)).decode()

values = [
    ("angle", "real", 90), ("angleVariance", "real", 20), ("blendFuncDestination", "integer", 1),
    ("blendFuncSource", "integer", 770), ("duration", "real", -1), ("emitterType", "real", 0),
    ("finishColorAlpha", "real", 0), ("finishColorBlue", "real", 0.1), ("finishColorGreen", "real", 0.3),
    ("finishColorRed", "real", 1), ("finishColorVarianceAlpha", "real", 0), ("finishColorVarianceBlue", "real", 0),
    ("finishColorVarianceGreen", "real", 0), ("finishColorVarianceRed", "real", 0),
    ("finishParticleSize", "real", 8), ("finishParticleSizeVariance", "real", 2),
    ("gravityx", "real", 0), ("gravityy", "real", 40), ("maxParticles", "real", 300),
    ("maxRadius", "real", 0), ("maxRadiusVariance", "real", 0), ("minRadius", "real", 0),
    ("particleLifespan", "real", 1.5), ("particleLifespanVariance", "real", 0.5),
    ("radialAccelVariance", "real", 0), ("radialAcceleration", "real", 0),
    ("rotatePerSecond", "real", 0), ("rotatePerSecondVariance", "real", 0),
    ("rotationEnd", "real", 0), ("rotationEndVariance", "real", 0), ("rotationStart", "real", 0),
    ("rotationStartVariance", "real", 0), ("sourcePositionVariancex", "real", 12),
    ("sourcePositionVariancey", "real", 0), ("sourcePositionx", "real", 256), ("sourcePositiony", "real", 100),
    ("speed", "real", 180), ("speedVariance", "real", 40), ("startColorAlpha", "real", 1),
    ("startColorBlue", "real", 0.6), ("startColorGreen", "real", 0.9), ("startColorRed", "real", 1),
    ("startColorVarianceAlpha", "real", 0), ("startColorVarianceBlue", "real", 0.1),
    ("startColorVarianceGreen", "real", 0.05), ("startColorVarianceRed", "real", 0),
    ("startParticleSize", "real", 40), ("startParticleSizeVariance", "real", 10),
    ("tangentialAccelVariance", "real", 0), ("tangentialAcceleration", "real", 0),
    ("textureFileName", "string", "spark.png"), ("textureImageData", "string", embedded),
]
out = ['<?xml version="1.0" encoding="UTF-8"?>',
       '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
       '<plist version="1.0">', '<dict>']
for key, kind, value in values:
    out.append(f"\t<key>{key}</key>")
    out.append(f"\t<{kind}>{value}</{kind}>")
out += ["</dict>", "</plist>", ""]
open("textured.plist", "w").write("\n".join(out))
