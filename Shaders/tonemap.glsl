// tonemap.glsl: tone curves, scene-linear radiance (after exposure) → display-linear sRGB in 0…1.
// Mirrors WelkinSkyModel's ToneMapping (Sources/WelkinSkyModel/Color/ToneMapping.swift): same names,
// same constants, same order of operations. TONE_MAP_* and AGX_* come from the constants prelude.

vec3 agxClampLog2(vec3 v) {
    vec3 e = vec3(log2(max(v.x, 1e-10)), log2(max(v.y, 1e-10)), log2(max(v.z, 1e-10)));
    return clamp(e, AGX_MINIMUM_EV, AGX_MAXIMUM_EV);
}

float agxContrast(float x) {
    float x2 = x * x, x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
}

// The curve's two powers without pow (ToneMapping.agxLook and agxDisplayPower: two square roots
// and a short polynomial each, the same constants in the same order). s^1.35 (AGX_LOOK_POWER) for s
// in [0, 1], within 8e-7:
float agxLook(float s) {
    float t = sqrt(sqrt(s));
    float v = -0.054275155;
    v = v * t + 0.25555357;
    v = v * t - 0.54843593;
    v = v * t + 0.93296176;
    v = v * t + 0.42846498;
    v = v * t - 0.014269762;
    return s * v;
}

// o^2.2 for o in [0, 1], within 4e-7.
float agxDisplayPower(float o) {
    float t = sqrt(sqrt(o));
    float v = -0.037162203;
    v = v * t + 0.17345412;
    v = v * t - 0.37829316;
    v = v * t + 1.1848383;
    v = v * t + 0.057162751;
    return o * o * v;
}

vec3 agx(vec3 c) {
    float x = max(c.x, 1e-10), y = max(c.y, 1e-10), z = max(c.z, 1e-10);
    vec3 v = vec3(0.842479062253094, 0.0423282422610123, 0.0423756549057051) * x;
    v = v + vec3(0.0784335999999992, 0.878468636469772, 0.0784336) * y;
    v = v + vec3(0.0792237451477643, 0.0791661274605434, 0.879142973793104) * z;
    vec3 e = agxClampLog2(v);
    e = (e - AGX_MINIMUM_EV) * (1.0 / (AGX_MAXIMUM_EV - AGX_MINIMUM_EV));
    vec3 s = vec3(agxContrast(e.x), agxContrast(e.y), agxContrast(e.z));
    s = clamp(s, 0.0, 1.0);
    s = vec3(agxLook(s.x), agxLook(s.y), agxLook(s.z));
    float luma = 0.2126 * s.x + 0.7152 * s.y + 0.0722 * s.z;
    s = vec3(luma) + (s - luma) * AGX_LOOK_SATURATION;
    vec3 o = vec3(1.19687900512017, -0.0528968517574562, -0.0529716355144438) * s.x;
    o = o + vec3(-0.0980208811401368, 1.15190312990417, -0.0980434501171241) * s.y;
    o = o + vec3(-0.0990297440797205, -0.0989611768448433, 1.15107367264116) * s.z;
    o = clamp(o, 0.0, 1.0);
    return vec3(agxDisplayPower(o.x), agxDisplayPower(o.y), agxDisplayPower(o.z));
}

vec3 aces(vec3 c) {
    vec3 x = c * 0.6;
    vec3 n = x * (x * 2.51 + 0.03);
    vec3 d = x * (x * 2.43 + 0.59) + 0.14;
    return clamp(n / d, 0.0, 1.0);
}

vec3 neutral(vec3 c) {
    const float startCompression = NEUTRAL_START_COMPRESSION;
    const float desaturation = 0.15;
    vec3 color = c;
    float x = min(color.x, min(color.y, color.z));
    float offset = x < 0.08 ? x - 6.25 * x * x : NEUTRAL_OFFSET;
    color = color - offset;
    float peak = max(color.x, max(color.y, color.z));
    if (peak < startCompression) return clamp(color, 0.0, 1.0);
    float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color = color * (newPeak / peak);
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    color = color + (vec3(newPeak) - color) * g;
    return clamp(color, 0.0, 1.0);
}

vec3 applyToneMap(int code, vec3 c) {
    if (code == TONE_MAP_AGX) return agx(c);
    if (code == TONE_MAP_ACES) return aces(c);
    if (code == TONE_MAP_NEUTRAL) return neutral(c);
    return clamp(c, 0.0, 1.0);
}
