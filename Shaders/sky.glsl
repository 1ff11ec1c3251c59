// sky.glsl: the sky layers' per-pixel maths, mirroring WelkinSkyModel's SkyDraw
// (Sources/WelkinSkyModel/Sky/SkyDraw.swift) line for line: same names, same constants, same order of
// operations. Each part's values arrive as a flat struct (sky, cover, sprite; sky-values.glsl)
// whose fields are the Swift fields.

#include "sky-values.glsl"
#include "colorspace.glsl"
#include "noise.glsl"
#include "unit.glsl"
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 2
// A colour ground's linear colour (SkyGradientDraw / PhysicalSkyDraw.groundColor).
uniform vec3 u_groundColor;
#endif

// SKY_PART_* (SkyPart's codes) and CLOUD_* (CloudSpritesLayer.Kind codes) come from the constants
// prelude (ShaderConstants.swift).


#ifdef WELKIN_NIGHT
#include "night.glsl"
#endif

// ---- the star field (StarField, shared by the palette and physical skies) ----

#if SKY_HAS_GRADIENT || SKY_HAS_PHYSICAL
vec3 starField(vec2 p, vec2 inverseCell, float density, uint seed, float pixelsPerPoint, float time) {
    float fx = floor(p.x * inverseCell.x);
    float fy = floor(p.y * inverseCell.y);
    uint h = hashCell(int(fx), int(fy), seed);
    if (!(unitFloat(h) < density)) return vec3(0.0);
    uint h2 = hashNext(h), h3 = hashNext(h2), h4 = hashNext(h3), h5 = hashNext(h4);
    float sx = (fx + 0.25 + 0.5 * unitFloat(h2)) / inverseCell.x;
    float sy = (fy + 0.25 + 0.5 * unitFloat(h3)) / inverseCell.y;
    float magnitude = unitFloat(h4);
    float radius = (0.7 + 0.8 * magnitude) * pixelsPerPoint;
    float ddx = p.x - sx, ddy = p.y - sy;
    float f = clamp01(1.0 - sqrt(ddx * ddx + ddy * ddy) / radius);
    float hue = unitFloat(h5);
    float rate = 0.25 + 0.9 * hue;
    float phase = unitFloat(h2);
    float x = time * rate + phase;
    float tri = abs(2.0 * (x - floor(x)) - 1.0);
    float twinkle = 0.65 + 0.35 * (tri * tri * (3.0 - 2.0 * tri));
    float brightness = (0.15 + 0.85 * magnitude * magnitude) * twinkle * f * f;
    vec3 tint = vec3(0.85 + 0.15 * hue, 0.9, 1.0 - 0.15 * hue);
    return tint * brightness;
}
#endif

// ---- sky: gradient, glow, disc, stars (SkyGradientDraw) ----

#if SKY_HAS_GRADIENT
flat in SkyValues sky;

vec3 starLight(vec2 p) {
    return starField(p, sky.inverseStarCell, sky.stars.y, sky.seed, sky.pixelsPerPoint, sky.time);
}

vec4 skyColor(vec2 p) {
    float t = clamp01(p.y * sky.inverseHorizonY);
    float k = t * t;
    vec3 lab = sky.zenith + (sky.horizon - sky.zenith) * k;
#if defined(WELKIN_SKY_BELOW) && !WELKIN_SKY_BELOW
    // The renderer knows the horizon is at or below the frame's bottom edge: no pixel is below it.
    const bool below = false;
#else
    bool below = p.y > sky.horizonY;
#if !defined(WELKIN_SKY_GROUND) || WELKIN_SKY_GROUND == 0
    if (below) lab.x = lab.x * 0.55;
#endif
#endif
    vec3 rgb = oklabToLinear(lab);
    float dx = (p.x - sky.sun.x) * sky.degreesPerPixel;
    float dy = (p.y - sky.sun.y) * sky.degreesPerPixel;
    float d2 = dx * dx + dy * dy;
    float halo = 0.55 / (1.0 + d2 * (1.0 / 400.0)) + 0.45 / (1.0 + d2 * (1.0 / 16.0));
    float band = k * k / (1.0 + dx * dx * (1.0 / 2500.0));
    rgb = rgb + sky.glow * (halo + 0.7 * band);
#if defined(WELKIN_NIGHT) && WELKIN_NIGHT == SKY_PART_SKY
    rgb = rgb + nightMoonGlow(p);
#endif
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 2
    if (below) {
        rgb = rgb + (u_groundColor - rgb) * smoothUnit((p.y - sky.horizonY) * sky.degreesPerPixel * (1.0 / SKY_GROUND_FADE));
    }
#endif
    if (!below) {
#if !defined(WELKIN_SKY_DISC) || WELKIN_SKY_DISC
        // WELKIN_SKY_DISC 0 compiles the disc out of cells it cannot reach (disc is exactly 0 there,
        // so leaving out the + 0 changes no bit; llvmpipe would pay for the square root and division).
        float d = sqrt(d2);
        float disc = clamp01((sky.sunRadius - d) / sky.degreesPerPixel + 0.5) * clamp01(sky.horizonY - p.y);
        rgb = rgb + sky.sunColor * disc;
#endif
#if !defined(WELKIN_SKY_STARS) || WELKIN_SKY_STARS
        // WELKIN_SKY_STARS 0 compiles the star field out when none show (llvmpipe would run it).
        if (sky.stars.x > 0.0) {
            rgb = rgb + starLight(p) * (sky.stars.x * (1.0 - k));
        }
#endif
#if defined(WELKIN_NIGHT) && WELKIN_NIGHT == SKY_PART_SKY
        vec4 moon = nightMoonColor(p);
        rgb = rgb + nightStarLight(p) * (1.0 - moon.w) + moon.xyz;
#endif
    }
    // WELKIN_SKY_FLASH 0 (no lightning this frame) and WELKIN_SKY_OPAQUE (opacity exactly 1) leave
    // out an addition of 0 and multiplications by 1: the same numbers, fewer operations.
#if !defined(WELKIN_SKY_FLASH) || WELKIN_SKY_FLASH
    rgb = rgb + vec3(sky.flash);
#endif
    vec3 clamped = clamp(rgb, 0.0, 1.0);
#ifdef WELKIN_SKY_OPAQUE
    return vec4(encodeSRGBUnit(clamped), 1.0);
#else
    return vec4(encodeSRGBUnit(clamped) * sky.opacity, sky.opacity);
#endif
}

#endif

// ---- cloudCover: fBm cover in perspective (CloudCoverDraw) ----

#if SKY_HAS_COVER
flat in CoverValues cover;
#ifdef WELKIN_COVER_OCTAVES
const int u_coverOctaves = WELKIN_COVER_OCTAVES;
#else
uniform int u_coverOctaves;
#endif

vec4 coverColor(vec2 p) {
    float e = (cover.horizonY - p.y) * cover.inverseHorizonY;
    if (!(e > 0.0)) return vec4(0.0);
    float depth = 1.0 / (e + 0.25);
    float nx = (p.x - cover.centerX) * depth * cover.inverseScale + cover.offset.x;
    float ny = cover.horizonY * depth * cover.inverseScale * 1.25 + cover.offset.y;
    float n = fbmKeyed(nx, ny, cover.key, u_coverOctaves);
    float c = (n - cover.threshold) * cover.sharpness;
    float a = smoothUnit(c);
    float thick = clamp01(c * 0.5 - 0.1);
    float fade = smoothUnit(e * 8.0);
    vec3 col = cover.lit + (cover.shadow - cover.lit) * (thick * cover.darkness);
    float dx = (p.x - cover.sun.x) * cover.degreesPerPixel;
    float dy = (p.y - cover.sun.y) * cover.degreesPerPixel;
    float g = 1.0 / (1.0 + (dx * dx + dy * dy) * (1.0 / 225.0));
    col = col + cover.glow * (g * (1.0 - thick));
    col = clamp(col, 0.0, 1.0);
#ifdef WELKIN_COVER_OPAQUE
    float alpha = a * fade;   // opacity exactly 1
#else
    float alpha = a * fade * cover.opacity;
#endif
    return vec4(col * alpha, alpha);
}

#endif

// ---- cloudSprites: seed 000's three cloud kinds (CloudSpritesDraw) ----

#if SKY_HAS_SPRITES

#ifdef WELKIN_SPRITE_COUNT
// A cell's few sprites, handed on by sky.vert as flat varyings, their count a constant.
flat in vec4 spriteBoxes[WELKIN_SPRITE_COUNT];
flat in vec4 spriteInfo[WELKIN_SPRITE_COUNT];
const int spriteCount = WELKIN_SPRITE_COUNT;
#else
uniform int u_spriteCount;
uniform vec4 u_spriteBoxes[MAX_CLOUDS];   // centre x, centre y, half width, half height (pixels)
uniform vec4 u_spriteInfo[MAX_CLOUDS];    // kind, alpha, x flip, 0
#define spriteCount u_spriteCount
#define spriteBoxes u_spriteBoxes
#define spriteInfo u_spriteInfo
#endif
flat in SpriteValues sprite;

const vec3 cumulusPuffs[5] = CUMULUS_PUFFS;
const vec4 cirrusStreaks[3] = CIRRUS_STREAKS;

// WELKIN_SPRITE_KINDS (bit 1 cumulus, 2 cirrus, 4 stratus) compiles in only the kinds a cell's
// sprites use: llvmpipe runs every branch, so a cell of one kind pays for one shape.
#ifndef WELKIN_SPRITE_KINDS
#define WELKIN_SPRITE_KINDS 7
#endif

float cloudShape(int kind, float x, float y) {
#if (WELKIN_SPRITE_KINDS & 1) != 0
#if WELKIN_SPRITE_KINDS != 1
    if (kind == CLOUD_CUMULUS)
#endif
    {
        float m = -1.0;
        for (int i = 0; i < 5; i++) {
            vec3 puff = cumulusPuffs[i];
            float dx = x - puff.x, dy = y - puff.y;
            m = max(m, 1.0 - sqrt(dx * dx + dy * dy) / puff.z);
        }
        float base = clamp01((0.62 - y) * 2.5);
        return smoothUnit(m * 1.6) * base;
    }
#endif
#if (WELKIN_SPRITE_KINDS & 2) != 0
#if (WELKIN_SPRITE_KINDS & 4) != 0
    if (kind == CLOUD_CIRRUS)
#endif
    {
        float m = -1.0;
        float sheared = y + x * 0.18;
        for (int i = 0; i < 3; i++) {
            vec4 s = cirrusStreaks[i];
            float dx = (x - s.x) / s.z, dy = (sheared - s.y) / s.w;
            m = max(m, 1.0 - dx * dx - dy * dy);
        }
        return smoothUnit(m * 0.7);
    }
#endif
#if (WELKIN_SPRITE_KINDS & 4) != 0
    {
        float dy = y * (1.0 / 0.42);
        float m1 = 1.0 - x * x - dy * dy;
        float ex = (x - 0.3) * (1.0 / 0.6), ey = (y + 0.2) * (1.0 / 0.3);
        float m2 = 1.0 - ex * ex - ey * ey;
        return smoothUnit(max(m1, m2) * 1.2);
    }
#endif
    return 0.0;
}

vec4 spritesColor(vec2 p) {
    vec4 c = vec4(0.0);
    float dx = (p.x - sprite.sun.x) * sprite.degreesPerPixel;
    float dy = (p.y - sprite.sun.y) * sprite.degreesPerPixel;
    float g = 1.0 / (1.0 + (dx * dx + dy * dy) * (1.0 / 225.0));
    for (int i = 0; i < spriteCount; i++) {
        vec4 b = spriteBoxes[i];
        vec4 info = spriteInfo[i];
        float x = (p.x - b.x) / b.z * info.z;
        float y = (p.y - b.y) / b.w;
        if (abs(x) > 1.05 || abs(y) > 1.05) continue;
        float a = cloudShape(int(info.x), x, y) * info.y * sprite.opacity;
        if (!(a > 0.0)) continue;
        float shade = clamp01((y + 0.35) * 0.9);
        vec3 col = sprite.lit + (sprite.shadow - sprite.lit) * (shade * 0.75);
        col = col + sprite.glow * (g * (1.0 - 0.6 * shade));
        col = clamp(col, 0.0, 1.0);
        c = vec4(col * a, a) + c * (1.0 - a);
    }
    return c;
}

#endif

// ---- the physical sky (PhysicalSkyDraw) ----

#if SKY_HAS_PHYSICAL
#include "atmosphere.glsl"
#endif

vec4 skyPart(int kind, vec2 p) {
#if SKY_HAS_PHYSICAL
    if (kind == SKY_PART_PHYSICAL) return physicalColor(p);
#endif
#if SKY_HAS_GRADIENT
    if (kind == SKY_PART_SKY) return skyColor(p);
#endif
#if SKY_HAS_COVER
    if (kind == SKY_PART_COVER) return coverColor(p);
#endif
#if SKY_HAS_SPRITES
    if (kind == SKY_PART_SPRITES) return spritesColor(p);
#endif
    return vec4(0.0);
}
