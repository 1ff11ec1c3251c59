// clouds.glsl: the `clouds` layer's ray march, mirroring WelkinSkyModel's CloudsDraw
// (Sources/WelkinSkyModel/Clouds/CloudsDraw.swift, sampling as Sources/WelkinSkyModel/Clouds/CloudNoise.swift)
// line for line: same names, same constants, same order of operations. The noise textures are
// CloudNoise's floats with GL_LINEAR + GL_REPEAT, which sample2D / sample3D spell out on the CPU.

#include "colorspace.glsl"
#include "tonemap.glsl"

// The tone map (ToneMap.code) and scene-linear output: constants of a draw, compiled in (CloudsPass.MarchVariant).
#if !defined(WELKIN_TONE_MAP) || !defined(WELKIN_CLOUDS_LINEAR)
#error clouds.frag is built with WELKIN_TONE_MAP and WELKIN_CLOUDS_LINEAR (CloudsPass.MarchVariant)
#endif
#ifndef WELKIN_CLOUDS_SHAFTS
#error clouds.frag is built with WELKIN_CLOUDS_SHAFTS (CloudsPass.MarchVariant)
#endif
#include "unit.glsl"
#include "camera.glsl"
#include "clouds-shell.glsl"

struct CloudsValues {
    ivec2 gridSize;
    vec2 gridScale;
    vec2 inverseGridScale;
    float base;
    float top;
    float inverseThickness;
    vec4 profile;
    vec2 inverseScales;
    float shapeWeight;
    float relief;
    float lodScale;
    float threshold;
    float extinction;
    vec4 offset;
    float evolution;
    int steps;
    float maxDistance;
    float farCover;
    float hazeInverse;
    vec3 hazeColor;
    vec4 hazeGlow;
    vec4 shafts;
    vec3 sunDirection;
    vec3 sunLight;
    vec4 sunShadow;
    float lightReach;
    vec3 diffuseLight;
    vec3 ambientTop;
    vec3 ambientBottom;
    float ambientShade;
    vec3 flash;
    vec3 flashPoint;
    vec3 cirrus;
    vec2 cirrusOffset;
    float opacity;
    float groundShade;
    // Ground fog in front (WELKIN_CLOUDS_FOG; CloudsDraw.fog…): optical depth up and down, g; light.
    vec3 fog;
    vec3 fogAmbient;
    vec3 fogSun;
    vec3 fogBalance;
};

uniform CloudsValues u_clouds;
#if WELKIN_CLOUDS_BOLT
// The lightning bolt (CloudsDraw.bolt, boltLight): BOLT_MAIN vertices of its channel, then its
// branch's, km from the observer; colour × brightness and one output pixel's angle.
uniform vec3 u_bolt[BOLT_VERTICES];
uniform vec4 u_boltLight;

// CloudsDraw.boltGlow: the glow looking along d and the distance to the segment it comes from.
vec2 boltGlow(vec3 d) {
    float best = 0.0;
    float distance = 0.0;
    float pixel = u_boltLight.w * max(u_clouds.gridScale.x, 1.0) * 0.75;
    for (int i = 0; i < BOLT_VERTICES - 1; i++) {
        if (i == BOLT_MAIN - 1) continue;
        vec3 a = u_bolt[i], u = u_bolt[i + 1] - u_bolt[i];
        float du = d.x * u.x + d.y * u.y + d.z * u.z;
        float uu = u.x * u.x + u.y * u.y + u.z * u.z;
        float da = d.x * a.x + d.y * a.y + d.z * a.z;
        float ua = u.x * a.x + u.y * a.y + u.z * a.z;
        float denominator = uu - du * du;
        float s = clamp01(denominator > 1e-9 ? (du * da - ua) / denominator : 0.0);
        vec3 p = a + u * s;
        float t = d.x * p.x + d.y * p.y + d.z * p.z;
        if (!(t > 0.05)) continue;
        vec3 off = p - d * t;
        float angle = sqrt(off.x * off.x + off.y * off.y + off.z * off.z) / t;
        float width = max(pixel, 0.004 / t);
        float x = angle / width;
        float core = exp(-x * x);
        float halo = 0.1 / (1.0 + x * x * (1.0 / 36.0));
        float g = (core + halo) * (i < BOLT_MAIN ? 1.0 : 0.55);
        if (g > best) { best = g; distance = t; }
    }
    return vec2(best, distance);
}
#endif
uniform sampler2D u_weather;
uniform sampler3D u_shape;


vec2 sample2D(float u, float v) { return texture(u_weather, vec2(u, v)).xy; }
vec2 sample3D(vec3 p) { return texture(u_shape, p).xy; }

float henyeyGreenstein(float mu, float g) {
    float k = 1.0 + g * g - 2.0 * g * mu;
    return (1.0 - g * g) / (4.0 * PI * k * sqrt(k));
}

float cloudPhase(float mu, float scale) {
    return 0.7 * henyeyGreenstein(mu, 0.8 * scale) + 0.3 * henyeyGreenstein(mu, -0.25 * scale);
}

#if WELKIN_CLOUDS_SHADOW
// CloudsDraw.sunVisible: the share of the light's disc seen from p, 0 in the Earth's shadow.
float sunVisible(vec3 p) {
    vec3 s = u_clouds.sunDirection;
    float ps = p.x * s.x + p.y * s.y + p.z * s.z;
    float along = ps + u_clouds.sunShadow.y;
    if (!(along < 0.0)) return 1.0;
    float a = heightOf(p) + (p.z * p.z - ps * ps) * CLOUD_CURVATURE - u_clouds.sunShadow.x * ps - u_clouds.sunShadow.z;
    return clamp01(a / (-along * u_clouds.sunShadow.w) + 0.5);
}
#endif

float cloudDensity(vec3 p, float f, bool detail, float edge, float erosion) {
    if (!(f > 0.0 && f < 1.0)) return 0.0;
    float w = sample2D(p.x * u_clouds.inverseScales.x + u_clouds.offset.x, p.y * u_clouds.inverseScales.x + u_clouds.offset.y).x;
    float profileValue = smoothUnit((f - (1.0 - w) * u_clouds.profile.w) * u_clouds.profile.x) * smoothUnit((1.0 - f) * u_clouds.profile.y);
    float dome = clamp01((w - f * u_clouds.profile.z * 0.8) * 5.0);
    float shaped = profileValue * dome;
    if (!((w * (1.0 - u_clouds.shapeWeight) + u_clouds.shapeWeight) * shaped > u_clouds.threshold)) return 0.0;
    vec2 s = vec2(0.5, 0.0);
    vec3 q = vec3(0.0);
    if (detail) {
        q = vec3(p.x * u_clouds.inverseScales.y + u_clouds.offset.z, p.y * u_clouds.inverseScales.y + u_clouds.offset.w,
                      p.z * u_clouds.inverseScales.y * 1.5 + u_clouds.evolution);
        s = sample3D(q);
    }
    float field = (w * (1.0 - u_clouds.shapeWeight) + s.x * u_clouds.shapeWeight) * shaped;
    float d = clamp01((field - u_clouds.threshold) / (1.0 - u_clouds.threshold) * edge);
    if (detail) {
        vec3 r = q * CLOUD_DETAIL_SCALE + CLOUD_DETAIL_OFFSET;
        float eroded = clamp01((sample3D(r).y - CLOUD_EROSION_RANGE.x) * CLOUD_EROSION_RANGE.y) * erosion;
        d = clamp01((d - eroded) / (1.0 - eroded));
    }
    return d;
}

// CloudsDraw.deckBaseLight: a closed deck's base as the march lights it (no sun lobes), a tenth of
// the way up a deck of density 1.
vec3 deckBaseLight() {
    float f = 0.1, density = 1.0;
    float tau = u_clouds.ambientShade * 8.0 * (1.0 - f) * (1.0 - f);
    float powder = 1.0 - 0.75 * exp(-density * u_clouds.extinction * 0.08);
    float deck = u_clouds.ambientShade * (1.0 - f) * (0.5 + density);
    vec3 ambient = (u_clouds.ambientBottom + (u_clouds.ambientTop - u_clouds.ambientBottom) * f) * (1.0 / (1.0 + deck));
    float diffuse = 0.08 / (1.0 + 0.12 * tau + 2.0 * deck);
    return u_clouds.diffuseLight * diffuse + ambient * (0.6 + 0.4 * powder);
}

vec4 cloudsColor(int gx, int gy) {
    float px = (float(gx) + 0.5) * u_clouds.gridScale.x;
    float py = (float(gy) + 0.5) * u_clouds.gridScale.y;
    vec2 a;
    if (!projectionAngles(vec2(px, py), a)) return vec4(0.0);
    float az = a.x, el = a.y;
    if (!(el > 0.0)) {
#if WELKIN_CLOUDS_FOG
        // The deck's shadow on the ground, as far as the fog lets the ground be seen.
        return vec4(0.0, 0.0, 0.0, u_clouds.groundShade * u_clouds.opacity * exp(-u_clouds.fog.y / max(-sin(el * (PI / 180.0)), 1e-6)));
#else
        return vec4(0.0, 0.0, 0.0, u_clouds.groundShade * u_clouds.opacity);
#endif
    }
    float elr = el * (PI / 180.0);
    float azr = az * (PI / 180.0);
    float ce = cos(elr);
    vec3 d = vec3(ce * sin(azr), ce * cos(azr), sin(elr));
    if (!(d.z > 0.0)) return vec4(0.0);
    vec3 sunDirection = u_clouds.sunDirection;
    float mu = d.x * sunDirection.x + d.y * sunDirection.y + d.z * sunDirection.z;
    // The haze's colour looking this way (CloudsDraw.hazeGlow).
    float da = az - u_clouds.hazeGlow.w;
    da = da - 360.0 * floor((da + 180.0) * (1.0 / 360.0));
    vec3 hazeHere = u_clouds.hazeColor + u_clouds.hazeGlow.xyz * (1.0 / ((1.0 + da * da * (1.0 / 2500.0)) * (1.0 + el * el * (1.0 / 36.0))));
    float base = u_clouds.base, top = u_clouds.top;
    float t0 = shellDistance(base, d.z);
    vec3 light = vec3(0.0);
    float transmittance = 1.0;
    vec3 sunLight = u_clouds.sunLight;
    float extinction = u_clouds.extinction;
    float lightReach = u_clouds.lightReach;
    if (t0 < u_clouds.maxDistance) {
        float t1 = min(shellDistance(top, d.z), t0 + 2.5 * (top - base) + 1.0);
        int n = u_clouds.steps;
        float dt = (t1 - t0) / float(n);
        float bayer = CLOUD_BAYER[(gy & 3) * 4 + (gx & 3)];
        float t = t0 + dt * bayer;
        float phase0 = cloudPhase(mu, 1.0), phase1 = cloudPhase(mu, 0.5), phase2 = cloudPhase(mu, 0.25);
        float lod = t0 * u_clouds.lodScale * u_clouds.gridScale.x / max(d.z, 0.05);
        float detailLOD = CLOUD_DETAIL_SCALE * lod;
        float edge = 1.0 + (CLOUD_EDGE - 1.0) / (1.0 + lod * lod);
        float erosion = CLOUD_EROSION / (1.0 + detailLOD * detailLOD);
        for (int i = 0; i < n; i++) {
            vec3 p = d * t;
            float f = (heightOf(p) - base) * u_clouds.inverseThickness;
            float density = cloudDensity(p, f, true, edge, erosion);
            if (density > 0.0) {
                float tau = 0.0;
                if (sunLight.x + sunLight.y + sunLight.z > 0.0) {
                    for (int k = 0; k < 3; k++) {
                        vec2 s = CLOUD_LIGHT_SAMPLES[k];
                        vec3 q = p + sunDirection * (s.x * lightReach);
                        tau += cloudDensity(q, (heightOf(q) - base) * u_clouds.inverseThickness, false, edge, erosion) * (s.y * lightReach);
                    }
                    tau *= extinction;
                }
                tau = tau + u_clouds.ambientShade * 8.0 * (1.0 - f) * (1.0 - f);
                float sun = phase0 * exp(-tau) + 0.5 * phase1 * exp(-0.4 * tau) + 0.25 * phase2 * exp(-0.16 * tau);
                float powder = 1.0 - 0.75 * exp(-density * extinction * 0.08);
                float deck = u_clouds.ambientShade * (1.0 - f) * (0.5 + density);
                vec3 ambient = (u_clouds.ambientBottom + (u_clouds.ambientTop - u_clouds.ambientBottom) * f) * (1.0 / (1.0 + deck));
                float diffuse = 0.08 / (1.0 + 0.12 * tau + 2.0 * deck);
                vec3 toFlash = p - u_clouds.flashPoint;
                float flashDistance = toFlash.x * toFlash.x + toFlash.y * toFlash.y + toFlash.z * toFlash.z;
#if WELKIN_CLOUDS_SHADOW
                float lit = sunVisible(p);
#else
                float lit = 1.0;
#endif
                vec3 source = (sunLight * (sun * 4.0 * PI * powder) + u_clouds.diffuseLight * diffuse) * lit + ambient * (0.6 + 0.4 * powder)
                    + u_clouds.flash * (1.0 / (1.0 + flashDistance * 0.25));
                float e = exp(-density * extinction * dt);
                light = light + source * (transmittance * (1.0 - e));
                transmittance = transmittance * e;
                if (transmittance < 0.01) {
                    // Opaque from here (CloudsDraw.cloudsColor).
                    light = light * (1.0 / (1.0 - transmittance));
                    transmittance = 0.0;
                    break;
                }
            }
            t = t + dt;
        }
        {
            // The deck's relief where the ray meets its base (relief 0: × 1 exactly, one program for
            // heaps and decks, which a weather fade goes between): in the weather map's own tiles
            // (whole multiples of them, so the pattern drifts with the wind and wraps with it).
            vec3 pb = d * t0;
            float wu = pb.x * u_clouds.inverseScales.x + u_clouds.offset.x, wv = pb.y * u_clouds.inverseScales.x + u_clouds.offset.y;
            vec4 r = CLOUD_RELIEF;
            float n1 = sample2D(wu * r.x, wv * r.y).y;
            float n2 = sample2D(wu * r.z + 0.5, wv * r.w + 0.25).y;
            // Filtered as the noise is (lod): the fine mottle fades first where a pixel spans it.
            float fine = 0.6 / (1.0 + 4.0 * lod * lod);
            light = light * max(1.0 + u_clouds.relief / (1.0 + 0.25 * lod * lod) * ((n1 - 0.5) + fine * (n2 - 0.5)), 0.2);
        }
        float haze = exp(-t0 * u_clouds.hazeInverse);
        float cover = 1.0 - transmittance;
        light = light * haze + hazeHere * (cover * (1.0 - haze));
        float fade = smoothUnit((u_clouds.maxDistance - t0) / (0.6 * u_clouds.maxDistance));
        light = light * fade + hazeHere * (u_clouds.farCover * (1.0 - fade));
        transmittance = 1.0 - cover * fade - u_clouds.farCover * (1.0 - fade);
        float closed = u_clouds.farCover * smoothUnit(t0 / (0.5 * u_clouds.maxDistance * (1.0 - 0.8 * u_clouds.farCover)));
        float filled = max(closed - (1.0 - transmittance), 0.0);
        vec3 deckLight = deckBaseLight();
        light = light + (deckLight * haze + hazeHere * (1.0 - haze)) * filled;
        transmittance = transmittance - filled;
    } else {
        light = hazeHere * u_clouds.farCover;
        transmittance = 1.0 - u_clouds.farCover;
    }
    vec3 cirrus = u_clouds.cirrus;
    if (cirrus.x > 0.0) {
        float tc = shellDistance(cirrus.y, d.z);
        vec3 q = d * tc;
        float g = sample2D(q.x * cirrus.z + u_clouds.cirrusOffset.x, q.y * cirrus.z * 0.25 + u_clouds.cirrusOffset.y).y;
        float a = clamp01((g - (1.0 - cirrus.x)) * 1.2) * 0.45 * exp(-tc * u_clouds.hazeInverse * 0.5);
#if WELKIN_CLOUDS_SHADOW
        float lit = sunVisible(q);
#else
        float lit = 1.0;
#endif
        vec3 c = sunLight * ((0.45 + 4.0 * PI * 0.25 * henyeyGreenstein(mu, 0.6)) * 0.35 * lit) + u_clouds.ambientTop * 0.9;
        light = light + c * (a * transmittance);
        transmittance = transmittance * (1.0 - a);
    }
#if WELKIN_CLOUDS_SHAFTS
    {
        // Rain shafts in front of the cloud (CloudsDraw.cloudsColor, shafts).
        float reach = min(t0, u_clouds.maxDistance);
        float span = max(reach - CLOUD_SHAFT_NEAR, 0.0);
        float jitter = CLOUD_SHAFT_JITTER[(gy & 1) * 2 + (gx & 1)];
        float depth = 0.0;
        for (int i = 0; i < CLOUD_SHAFT_SAMPLES; i++) {
            vec3 p = d * (CLOUD_SHAFT_NEAR + span * ((float(i) + jitter) * (1.0 / float(CLOUD_SHAFT_SAMPLES))));
            float wu = p.x * u_clouds.inverseScales.x + u_clouds.offset.x, wv = p.y * u_clouds.inverseScales.x + u_clouds.offset.y;
            float w = sample2D(wu * u_clouds.shafts.y, wv * u_clouds.shafts.y).x;
            depth = depth + smoothUnit((w - u_clouds.shafts.z) * 8.0);
        }
        float e = exp(-depth * (u_clouds.shafts.x * span * (1.0 / float(CLOUD_SHAFT_SAMPLES))));
        vec3 shaftLight = deckBaseLight();
        light = light * e + shaftLight * (1.0 - e);
        transmittance = transmittance * e;
    }
#endif
#if WELKIN_CLOUDS_BOLT
    if (u_boltLight.x > 0.0) {
        // The bolt below the cloud base, in front of the cloud beyond it (CloudsDraw.color).
        vec2 g = boltGlow(d);
        float haze = exp(-g.y * u_clouds.hazeInverse);
        float a = clamp01(g.x) * haze;
        light = u_boltLight.xyz * (g.x * haze) + light * (1.0 - a);
        transmittance = transmittance * (1.0 - a);
    }
#endif
#if WELKIN_CLOUDS_FOG
    {
        // Ground fog in front (CloudsDraw.color): the cloud through it, the fog's light over its cover.
        float fogT = exp(-u_clouds.fog.x / max(d.z, 1e-6));
        float g = u_clouds.fog.z;
        float k = 1.0 + g * g - 2.0 * g * mu;
        vec3 fogColor = u_clouds.fogAmbient + u_clouds.fogSun * (1.0 / (k * sqrt(k)));
        light = light * u_clouds.fogBalance * fogT + fogColor * ((1.0 - transmittance) * (1.0 - fogT));
    }
#endif
    float alpha = (1.0 - transmittance) * u_clouds.opacity;
    if (!(alpha > 0.0)) return vec4(0.0);
#if WELKIN_CLOUDS_LINEAR
    return vec4(light * u_clouds.opacity, alpha);
#else
    vec3 straight = light * (1.0 / (1.0 - transmittance));
    vec3 mapped = clamp(applyToneMap(WELKIN_TONE_MAP, straight), 0.0, 1.0);
    return vec4(encodeSRGBUnit(mapped) * alpha, alpha);
#endif
}
