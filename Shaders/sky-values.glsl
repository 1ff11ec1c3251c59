// sky-values.glsl: the per-draw values of each sky part, as structs whose fields are the Swift
// fields of SkyGradientDraw, CloudCoverDraw and CloudSpritesDraw (Sources/WelkinSkyModel/Sky/SkyDraw.swift)
// under the same names.
//
// The renderer sets them as uniforms (u_sky.zenith, u_cover.offset, u_sprite.lit, …), which only
// sky.vert reads: it hands them on as flat varyings (sky, cover, sprite), which is all the
// fragment shader sees. On llvmpipe a uniform costs a load per use per fragment; a flat varying
// is set up once per triangle, and made the sky pass about twice as fast.
//
// SKY_HAS_GRADIENT, SKY_HAS_COVER and SKY_HAS_SPRITES are 1 when the program draws that part
// (WELKIN_SKY_PART0…2; none when none is defined), so each stage declares only what it uses.

#if !defined(WELKIN_SKY_PART0) && !defined(WELKIN_SKY_PART1) && !defined(WELKIN_SKY_PART2)
// No part: a cell where nothing of the sky shows (SkyPass's cells); it writes transparent.
#define SKY_HAS_GRADIENT 0
#define SKY_HAS_COVER 0
#define SKY_HAS_SPRITES 0
#define SKY_HAS_PHYSICAL 0
#else
#ifndef WELKIN_SKY_PART0
#define SKY_PART0_CODE (-1)
#else
#define SKY_PART0_CODE WELKIN_SKY_PART0
#endif
#ifndef WELKIN_SKY_PART1
#define SKY_PART1_CODE (-1)
#else
#define SKY_PART1_CODE WELKIN_SKY_PART1
#endif
#ifndef WELKIN_SKY_PART2
#define SKY_PART2_CODE (-1)
#else
#define SKY_PART2_CODE WELKIN_SKY_PART2
#endif
#define SKY_HAS_GRADIENT (SKY_PART0_CODE == 0 || SKY_PART1_CODE == 0 || SKY_PART2_CODE == 0)
#define SKY_HAS_COVER (SKY_PART0_CODE == 1 || SKY_PART1_CODE == 1 || SKY_PART2_CODE == 1)
#define SKY_HAS_SPRITES (SKY_PART0_CODE == 2 || SKY_PART1_CODE == 2 || SKY_PART2_CODE == 2)
#define SKY_HAS_PHYSICAL (SKY_PART0_CODE == 3 || SKY_PART1_CODE == 3 || SKY_PART2_CODE == 3)
#endif

// SkyGradientDraw.
struct SkyValues {
    vec3 zenith;            // OKLab
    vec3 horizon;           // OKLab
    vec3 glow;              // linear light × strength
    vec3 sunColor;          // linear light
    vec2 sun;               // pixels, y down
    float degreesPerPixel;
    float horizonY;
    float inverseHorizonY;
    float sunRadius;
    vec2 stars;             // visibility, density
    vec2 inverseStarCell;
    float pixelsPerPoint;
    float time;
    uint seed;
    float flash;
    float opacity;
};

// CloudCoverDraw (octaves is a constant or its own uniform, u_coverOctaves).
struct CoverValues {
    vec2 offset;
    float inverseScale;
    float centerX;
    float horizonY;
    float inverseHorizonY;
    float threshold;
    float sharpness;
    float darkness;
    vec3 lit;
    vec3 shadow;
    vec3 glow;
    vec2 sun;
    float degreesPerPixel;
    uint key;               // the seed through hash32
    float opacity;
};

// CloudSpritesDraw's shared values. The boxes are uniform arrays, u_spriteBoxes and u_spriteInfo
// (MAX_CLOUDS long), which the fragments read directly, or, where the renderer defines
// WELKIN_SPRITE_COUNT (a cell's few sprites), get from sky.vert as flat arrays of that length.
// MAX_CLOUDS (CloudSpritesLayer.maximumCount) comes from the constants prelude.

struct SpriteValues {
    vec3 lit;
    vec3 shadow;
    vec3 glow;
    vec2 sun;
    float degreesPerPixel;
    float opacity;
};

// PhysicalSkyDraw (the table itself is a texture, u_skyView).
struct PhysicalValues {
    float viewAzimuth;      // degrees
    float centerX;
    float horizonY;
    float degreesPerPixel;
    float pixelAngle;
    float sunAzimuth;       // degrees
    vec3 sunVector;         // x east, y north, z up
    float sunElevation;     // degrees
    float sunSine;          // sin, cos of the sun's elevation
    float sunCosine;
    float horizonElevation; // degrees
    float mieG;
    float mieScale;
    vec3 sunRadiance;       // × exposure
    float sunRadius;        // degrees
    float exposure;         // 2^EV
    // (The tone map and scene-linear output are constant over a draw: WELKIN_TONE_MAP and
    // WELKIN_PHYSICAL_LINEAR, compiled in; see atmosphere.glsl.)
    vec2 stars;             // visibility, density
    vec2 inverseStarCell;
    float pixelsPerPoint;
    float time;
    uint seed;
    float flash;
    float opacity;
    float moonSkyScale;     // the Moon's irradiance over the Sun's (0: no moonlight; its table is u_moonView)
    float moonAzimuth;      // degrees
    float moonSine;         // sin, cos of the Moon's elevation
    float moonCosine;
    float scotopic;         // rod vision's share (WELKIN_SCOTOPIC; PhysicalSkyDraw.rodShift)
    vec3 sunMetric;         // the picture's metric at the sun (PhysicalSkyDraw.sunMetric): the disc round on screen
};
