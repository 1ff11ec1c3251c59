// sky.glsl: the sky layers' per-pixel maths, mirroring WelkinCore's SkyDraw
// (Sources/WelkinCore/Sky/SkyDraw.swift) line for line: same names, same constants, same order of
// operations. Uniform names are the Swift fields with a part prefix (u_sky…, u_cover…, u_sprite…).

#include "colorspace.glsl"
#include "noise.glsl"

const int SKY_PART_SKY = 0;
const int SKY_PART_COVER = 1;
const int SKY_PART_SPRITES = 2;

float clamp01(float x) { return min(max(x, 0.0), 1.0); }
float smoothUnit(float x) { float t = clamp01(x); return t * t * (3.0 - 2.0 * t); }

// ---- sky: gradient, glow, disc, stars (SkyGradientDraw) ----

uniform vec3 u_skyZenith;           // OKLab
uniform vec3 u_skyHorizon;          // OKLab
uniform vec3 u_skyGlow;             // linear light × strength
uniform vec3 u_skySunColor;         // linear light
uniform vec2 u_skySun;              // pixels, y down
uniform float u_skyDegreesPerPixel;
uniform float u_skyHorizonY;
uniform float u_skyInverseHorizonY;
uniform float u_skySunRadius;
uniform vec2 u_skyStars;            // visibility, density
uniform vec2 u_skyInverseStarCell;
uniform float u_skyPixelsPerPoint;
uniform float u_skyTime;
uniform uint u_skySeed;
uniform float u_skyFlash;
uniform float u_skyOpacity;

vec3 starLight(vec2 p) {
    float fx = floor(p.x * u_skyInverseStarCell.x);
    float fy = floor(p.y * u_skyInverseStarCell.y);
    uint h = hashCell(int(fx), int(fy), u_skySeed);
    if (!(unitFloat(h) < u_skyStars.y)) return vec3(0.0);
    uint h2 = hashNext(h), h3 = hashNext(h2), h4 = hashNext(h3), h5 = hashNext(h4);
    float sx = (fx + 0.25 + 0.5 * unitFloat(h2)) / u_skyInverseStarCell.x;
    float sy = (fy + 0.25 + 0.5 * unitFloat(h3)) / u_skyInverseStarCell.y;
    float magnitude = unitFloat(h4);
    float radius = (0.7 + 0.8 * magnitude) * u_skyPixelsPerPoint;
    float ddx = p.x - sx, ddy = p.y - sy;
    float f = clamp01(1.0 - sqrt(ddx * ddx + ddy * ddy) / radius);
    float hue = unitFloat(h5);
    float rate = 0.25 + 0.9 * hue;
    float phase = unitFloat(h2);
    float x = u_skyTime * rate + phase;
    float tri = abs(2.0 * (x - floor(x)) - 1.0);
    float twinkle = 0.65 + 0.35 * (tri * tri * (3.0 - 2.0 * tri));
    float brightness = (0.15 + 0.85 * magnitude * magnitude) * twinkle * f * f;
    vec3 tint = vec3(0.85 + 0.15 * hue, 0.9, 1.0 - 0.15 * hue);
    return tint * brightness;
}

vec4 skyColor(vec2 p) {
    float t = clamp01(p.y * u_skyInverseHorizonY);
    float k = t * t;
    vec3 lab = u_skyZenith + (u_skyHorizon - u_skyZenith) * k;
    bool below = p.y > u_skyHorizonY;
    if (below) lab.x = lab.x * 0.55;
    vec3 rgb = oklabToLinear(lab);
    float dx = (p.x - u_skySun.x) * u_skyDegreesPerPixel;
    float dy = (p.y - u_skySun.y) * u_skyDegreesPerPixel;
    float d2 = dx * dx + dy * dy;
    float halo = 0.55 / (1.0 + d2 * (1.0 / 400.0)) + 0.45 / (1.0 + d2 * (1.0 / 16.0));
    float band = k * k / (1.0 + dx * dx * (1.0 / 2500.0));
    rgb = rgb + u_skyGlow * (halo + 0.7 * band);
    if (!below) {
#if !defined(WELKIN_SKY_DISC) || WELKIN_SKY_DISC
        // WELKIN_SKY_DISC 0 compiles the disc out of tiles it cannot reach (disc is exactly 0 there,
        // so leaving out the + 0 changes no bit; llvmpipe would pay for the square root and division).
        float d = sqrt(d2);
        float disc = clamp01((u_skySunRadius - d) / u_skyDegreesPerPixel + 0.5) * clamp01(u_skyHorizonY - p.y);
        rgb = rgb + u_skySunColor * disc;
#endif
#if !defined(WELKIN_SKY_STARS) || WELKIN_SKY_STARS
        // WELKIN_SKY_STARS 0 compiles the star field out when none show (llvmpipe would run it).
        if (u_skyStars.x > 0.0) {
            rgb = rgb + starLight(p) * (u_skyStars.x * (1.0 - k));
        }
#endif
    }
    rgb = rgb + vec3(u_skyFlash);
    vec3 clamped = clamp(rgb, 0.0, 1.0);
    return vec4(encodeSRGBUnit(clamped) * u_skyOpacity, u_skyOpacity);
}

// ---- cloudCover: fBm cover in perspective (CloudCoverDraw) ----

uniform vec2 u_coverOffset;
uniform float u_coverInverseScale;
uniform float u_coverCenterX;
uniform float u_coverHorizonY;
uniform float u_coverInverseHorizonY;
uniform float u_coverThreshold;
uniform float u_coverSharpness;
uniform float u_coverDarkness;
uniform vec3 u_coverLit;
uniform vec3 u_coverShadow;
uniform vec3 u_coverGlow;
uniform vec2 u_coverSun;
uniform float u_coverDegreesPerPixel;
uniform uint u_coverSeed;
#ifdef WELKIN_COVER_OCTAVES
const int u_coverOctaves = WELKIN_COVER_OCTAVES;
#else
uniform int u_coverOctaves;
#endif
uniform float u_coverOpacity;

vec4 coverColor(vec2 p) {
    float e = (u_coverHorizonY - p.y) * u_coverInverseHorizonY;
    if (!(e > 0.0)) return vec4(0.0);
    float depth = 1.0 / (e + 0.25);
    float nx = (p.x - u_coverCenterX) * depth * u_coverInverseScale + u_coverOffset.x;
    float ny = u_coverHorizonY * depth * u_coverInverseScale * 1.25 + u_coverOffset.y;
    float n = fbm(nx, ny, u_coverSeed, u_coverOctaves);
    float c = (n - u_coverThreshold) * u_coverSharpness;
    float a = smoothUnit(c);
    float thick = clamp01(c * 0.5 - 0.1);
    float fade = smoothUnit(e * 8.0);
    vec3 col = u_coverLit + (u_coverShadow - u_coverLit) * (thick * u_coverDarkness);
    float dx = (p.x - u_coverSun.x) * u_coverDegreesPerPixel;
    float dy = (p.y - u_coverSun.y) * u_coverDegreesPerPixel;
    float g = 1.0 / (1.0 + (dx * dx + dy * dy) * (1.0 / 225.0));
    col = col + u_coverGlow * (g * (1.0 - thick));
    col = clamp(col, 0.0, 1.0);
    float alpha = a * fade * u_coverOpacity;
    return vec4(col * alpha, alpha);
}

// ---- cloudSprites: seed 000's three cloud kinds (CloudSpritesDraw) ----

const int MAX_CLOUDS = 32;
uniform int u_spriteCount;
uniform vec4 u_spriteBoxes[MAX_CLOUDS];   // centre x, centre y, half width, half height (pixels)
uniform vec4 u_spriteInfo[MAX_CLOUDS];    // kind, alpha, x flip, 0
uniform vec3 u_spriteLit;
uniform vec3 u_spriteShadow;
uniform vec3 u_spriteGlow;
uniform vec2 u_spriteSun;
uniform float u_spriteDegreesPerPixel;
uniform float u_spriteOpacity;

const vec3 cumulusPuffs[5] = vec3[5](
    vec3(-0.52, 0.18, 0.40), vec3(-0.12, -0.12, 0.55), vec3(0.34, -0.02, 0.46),
    vec3(0.66, 0.22, 0.30), vec3(0.05, 0.28, 0.42));
const vec4 cirrusStreaks[3] = vec4[3](
    vec4(0.0, -0.15, 1.0, 0.13), vec4(-0.22, 0.18, 0.78, 0.10), vec4(0.28, 0.42, 0.62, 0.08));

// WELKIN_SPRITE_KINDS (bit 1 cumulus, 2 cirrus, 4 stratus) compiles in only the kinds a tile's
// sprites use: llvmpipe runs every branch, so a tile of one kind pays for one shape.
#ifndef WELKIN_SPRITE_KINDS
#define WELKIN_SPRITE_KINDS 7
#endif

float cloudShape(int kind, float x, float y) {
#if (WELKIN_SPRITE_KINDS & 1) != 0
#if WELKIN_SPRITE_KINDS != 1
    if (kind == 0)
#endif
    {
        float m = -1.0;
        for (int i = 0; i < 5; i++) {
            vec3 puff = cumulusPuffs[i];
            float dx = x - puff.x, dy = y - puff.y;
            m = max(m, 1.0 - sqrt(dx * dx + dy * dy) / puff.z);
        }
        float base = clamp01((0.62 - y) * 6.0);
        return smoothUnit(m * 3.5) * base;
    }
#endif
#if (WELKIN_SPRITE_KINDS & 2) != 0
#if (WELKIN_SPRITE_KINDS & 4) != 0
    if (kind == 1)
#endif
    {
        float m = -1.0;
        float sheared = y + x * 0.18;
        for (int i = 0; i < 3; i++) {
            vec4 s = cirrusStreaks[i];
            float dx = (x - s.x) / s.z, dy = (sheared - s.y) / s.w;
            m = max(m, 1.0 - dx * dx - dy * dy);
        }
        return smoothUnit(m * 1.6);
    }
#endif
#if (WELKIN_SPRITE_KINDS & 4) != 0
    {
        float dy = y * (1.0 / 0.42);
        float m1 = 1.0 - x * x - dy * dy;
        float ex = (x - 0.3) * (1.0 / 0.6), ey = (y + 0.2) * (1.0 / 0.3);
        float m2 = 1.0 - ex * ex - ey * ey;
        return smoothUnit(max(m1, m2) * 2.2);
    }
#endif
    return 0.0;
}

vec4 spritesColor(vec2 p) {
    vec4 c = vec4(0.0);
    float dx = (p.x - u_spriteSun.x) * u_spriteDegreesPerPixel;
    float dy = (p.y - u_spriteSun.y) * u_spriteDegreesPerPixel;
    float g = 1.0 / (1.0 + (dx * dx + dy * dy) * (1.0 / 225.0));
    for (int i = 0; i < u_spriteCount; i++) {
        vec4 b = u_spriteBoxes[i];
        vec4 info = u_spriteInfo[i];
        float x = (p.x - b.x) / b.z * info.z;
        float y = (p.y - b.y) / b.w;
        if (abs(x) > 1.05 || abs(y) > 1.05) continue;
        float a = cloudShape(int(info.x), x, y) * info.y * u_spriteOpacity;
        if (!(a > 0.0)) continue;
        float shade = clamp01((y + 0.35) * 0.9);
        vec3 col = u_spriteLit + (u_spriteShadow - u_spriteLit) * (shade * 0.75);
        col = col + u_spriteGlow * (g * (1.0 - 0.6 * shade));
        col = clamp(col, 0.0, 1.0);
        c = vec4(col * a, a) + c * (1.0 - a);
    }
    return c;
}

vec4 skyPart(int kind, vec2 p) {
    if (kind == SKY_PART_SKY) return skyColor(p);
    if (kind == SKY_PART_COVER) return coverColor(p);
    return spritesColor(p);
}
