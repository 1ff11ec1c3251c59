// night.glsl: a dated sky's stars, planets and Moon per pixel, mirroring WelkinSkyModel's
// NightSkyDraw (Sources/WelkinSkyModel/Sky/NightSkyDraw.swift) line for line: the point spreads of
// the stars in the pixel's grid cell, and the Moon as a lit sphere. Included by sky.glsl when the
// renderer defines WELKIN_NIGHT (the sky or physical part that owns the night sky).
//
// The grid's cells (first entry, count) are an RG32UI texture on unit 2, the entries (two RGBA32F
// texels each, NIGHT_ENTRIES_WIDTH a row) a texture on unit 3; the rest are u_night's fields,
// NightSkyDraw's under the same names.

struct NightValues {
    float viewAzimuth;
    float centerX;
    float horizonY;
    float degreesPerPixel;
    float pixelAngle;
    vec2 gridOrigin;
    float inverseCell;
    ivec2 gridSize;
    int moonVisible;
    float moonAzimuth;
    float moonElevation;
    float moonCosElevation;
    float moonInverseRadius;
    vec3 moonSun;
    vec3 moonFaceX;
    vec3 moonFaceY;
    vec3 moonFaceZ;
    vec3 moonRadiance;
    float earthshine;
    vec3 moonGlow;
    float haloRatio;
};

uniform NightValues u_night;
uniform usampler2D u_nightCells;
uniform sampler2D u_nightEntries;

const vec4 moonMariaCenters[MOON_MARIA_COUNT] = MOON_MARIA_CENTERS;
const vec2 moonMariaShapes[MOON_MARIA_COUNT] = MOON_MARIA_SHAPES;

// NightSkyDraw.nightStarLight: linear light of the stars and planets at view pixel p.
vec3 nightStarLight(vec2 p) {
#if defined(WELKIN_NIGHT_STARS) && !WELKIN_NIGHT_STARS
    // No entries this frame: every cell's count is 0, so the loop would add nothing.
    return vec3(0.0);
#endif
    float gx = (p.x - u_night.gridOrigin.x) * u_night.inverseCell;
    float gy = (p.y - u_night.gridOrigin.y) * u_night.inverseCell;
    if (!(gx >= 0.0 && gy >= 0.0 && gx < float(u_night.gridSize.x) && gy < float(u_night.gridSize.y))) return vec3(0.0);
    int cx = int(floor(gx)), cy = int(floor(gy));
    uvec2 cell = texelFetch(u_nightCells, ivec2(cx, cy), 0).xy;
    vec3 light = vec3(0.0);
    uint n = 0u;
    while (n < cell.y) {
        int e = int(cell.x + n) * 2;
        ivec2 at = ivec2(e % NIGHT_ENTRIES_WIDTH, e / NIGHT_ENTRIES_WIDTH);
        vec4 a = texelFetch(u_nightEntries, at, 0);
        vec4 b = texelFetch(u_nightEntries, at + ivec2(1, 0), 0);
        float dx = p.x - a.x, dy = p.y - a.y;
        float q = a.z * dx * dx + a.w * dy * dy;
        if (q < b.w) {
            float core = exp(-q);
            float halo = exp(-q * (1.0 / 16.0));
            light = light + b.xyz * (core + u_night.haloRatio * halo);
        }
        n += 1u;
    }
    return light;
}

// NightSkyDraw.nightMoonGlow: the palette's glow around the Moon.
vec3 nightMoonGlow(vec2 p) {
    float az = u_night.viewAzimuth + (p.x - u_night.centerX) * u_night.degreesPerPixel;
    float el = (u_night.horizonY - p.y) * u_night.degreesPerPixel;
    float da = az - u_night.moonAzimuth;
    da = da - 360.0 * floor(da * (1.0 / 360.0) + 0.5);
    float dx = da * u_night.moonCosElevation, dy = el - u_night.moonElevation;
    float d2 = dx * dx + dy * dy;
    return u_night.moonGlow * (0.6 / (1.0 + d2 * (1.0 / 64.0)) + 0.4 / (1.0 + d2 * (1.0 / 4.0)));
}

// NightSkyDraw.nightMoonColor: the Moon's premultiplied light and its cover at view pixel p.
vec4 nightMoonColor(vec2 p) {
#if defined(WELKIN_NIGHT_MOON) && !WELKIN_NIGHT_MOON
    // The renderer knows the Moon is not drawn this frame (moonVisible 0): the same zero, no work.
    return vec4(0.0);
#endif
    if (u_night.moonVisible == 0) return vec4(0.0);
    float az = u_night.viewAzimuth + (p.x - u_night.centerX) * u_night.degreesPerPixel;
    float el = (u_night.horizonY - p.y) * u_night.degreesPerPixel;
    float da = az - u_night.moonAzimuth;
    da = da - 360.0 * floor(da * (1.0 / 360.0) + 0.5);
    float u = da * u_night.moonCosElevation * u_night.moonInverseRadius;
    float v = (el - u_night.moonElevation) * u_night.moonInverseRadius;
    float r2 = u * u + v * v;
    float cover = clamp01((1.0 - sqrt(r2)) / (u_night.pixelAngle * u_night.moonInverseRadius) + 0.5);
    if (!(cover > 0.0)) return vec4(0.0);
    float w = sqrt(max(1.0 - r2, 0.0));
    float mu0 = u * u_night.moonSun.x + v * u_night.moonSun.y + w * u_night.moonSun.z;
    float lit = max(mu0, 0.0);
    float reflectance = 0.75 * (2.0 * lit / (lit + w + 0.001)) + 0.25 * lit;
    float fx = u * u_night.moonFaceX.x + v * u_night.moonFaceX.y + w * u_night.moonFaceX.z;
    float fy = u * u_night.moonFaceY.x + v * u_night.moonFaceY.y + w * u_night.moonFaceY.z;
    float fz = u * u_night.moonFaceZ.x + v * u_night.moonFaceZ.y + w * u_night.moonFaceZ.z;
    float dark = 0.0;
    for (int m = 0; m < MOON_MARIA_COUNT; m++) {
        vec4 c = moonMariaCenters[m];
        float d = fx * c.x + fy * c.y + fz * c.z;
        vec2 shape = moonMariaShapes[m];
        dark = dark + shape.y * smoothUnit((d - c.w) * shape.x);
    }
    float albedo = 1.0 - min(max(dark, -0.35), 0.6);
    vec3 light = u_night.moonRadiance * (albedo * (reflectance + u_night.earthshine * w));
    return vec4(light * cover, cover);
}
