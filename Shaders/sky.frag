#version 330 core
// sky.frag: a run of sky layers (sky, cloudCover, cloudSprites; at most one of each) in one pass.
//
// The renderer defines WELKIN_SKY_PART0…2 to the part kinds in drawing order (SKY_PART_* in
// sky.glsl), so each program holds only the maths its parts need. The parts composite over
// transparent, as SkyDraw.color does on the CPU, and the result is one layer (composite.glsl).

// sky.vert hands the frame size on as a flat varying (cheaper than a uniform on llvmpipe).
#define WELKIN_FLAT_PIXEL_SIZE
#include "pixel.glsl"
#include "sky.glsl"
#include "composite.glsl"

vec4 over(vec4 source, vec4 destination) {
    return source + destination * (1.0 - source.w);
}

#ifdef WELKIN_SKY_PROJECTION
// SkyDraw.projection: output pixels → the panorama's pixels (camera.glsl).
#include "camera.glsl"
#endif

// SkyDraw.partColor: with WELKIN_SKY_LINEAR (scene-linear output) the parts other than the
// physical sky are decoded from sRGB before they composite.
vec4 partColor(int kind, vec2 p) {
    vec4 c = skyPart(kind, p);
#ifdef WELKIN_SKY_LINEAR
    if (kind != SKY_PART_PHYSICAL) return linearizePremultiplied(c);
#endif
    return c;
}

void main() {
    vec2 p = pixelPosition();
#ifdef WELKIN_SKY_PROJECTION
    if (!projectionViewPixel(p, p)) { writeLayer(vec4(0.0)); return; }
#endif
    vec4 c = vec4(0.0);
#ifdef WELKIN_SKY_PART0
    // The first part over transparent is itself (s + 0·(1 − s.a) = s).
    c = partColor(WELKIN_SKY_PART0, p);
#endif
#ifdef WELKIN_SKY_PART1
    c = over(partColor(WELKIN_SKY_PART1, p), c);
#endif
#ifdef WELKIN_SKY_PART2
    c = over(partColor(WELKIN_SKY_PART2, p), c);
#endif
    writeLayer(c);
}
