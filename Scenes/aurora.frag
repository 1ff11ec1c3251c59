#version 330 core
// aurora.frag: northern lights for Scenes/shader-aurora.json, a Welkin user shader.
//
// Curtains of light that sway and shimmer over the night-sky gradient below them. Noise is
// value noise over an integer hash (no sin-based hashes), so every GPU draws the same sky.
// Writes a straight-alpha sRGB colour, like a glslViewer or Shadertoy shader.

#include "colorspace.glsl"   // from Welkin's shader library: linearToSRGB

uniform float u_time;        // seconds (built-in)
uniform vec2 u_resolution;   // pixels (built-in)
uniform vec3 u_glow;         // the curtains' lower-edge colour (scene uniform)
uniform vec4 u_crown;        // the colour their tops fade to (scene uniform, a colour)
uniform float u_speed;       // how fast the curtains drift (scene uniform)

out vec4 fragColor;

// A 32-bit integer mix (a lowbias32-style hash).
uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

float hash2(ivec2 p) {
    return float(hash(uint(p.x) * 0x9e3779b9u ^ hash(uint(p.y)))) * (1.0 / 4294967296.0);
}

float valueNoise(vec2 p) {
    ivec2 i = ivec2(floor(p));
    vec2 f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = hash2(i), b = hash2(i + ivec2(1, 0)), c = hash2(i + ivec2(0, 1)), d = hash2(i + ivec2(1, 1));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

float fbm(vec2 p) {
    float sum = 0.0, amplitude = 0.5;
    for (int octave = 0; octave < 4; octave += 1) {
        sum += amplitude * valueNoise(p);
        p = p * 2.03 + vec2(17.0, 31.0);
        amplitude *= 0.5;
    }
    return sum;
}

// One curtain: its lower edge wanders across the sky; light rises above it in vertical rays.
vec3 curtain(vec2 uv, float seed, float height, float t) {
    float x = uv.x * 1.6 + seed * 3.1;
    float edge = height + 0.10 * (fbm(vec2(x * 1.3 + t * 0.07, seed)) - 0.5) + 0.05 * sin(x * 2.0 + t * 0.25 + seed);
    float above = uv.y - edge;
    if (above < -0.03) return vec3(0.0);
    float rays = fbm(vec2(x * 26.0 + t * 0.35, seed * 7.0 + t * 0.05));
    float lower = smoothstep(-0.03, 0.0, above);                 // a soft, bright lower edge
    float fade = exp(-max(above, 0.0) * 6.5);                    // light thinning upwards
    float strength = lower * fade * (0.35 + 1.1 * rays * rays);
    vec3 colour = mix(u_glow, u_crown.rgb * u_crown.a, smoothstep(0.0, 0.35, above));
    return colour * strength;
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;   // (0, 0) bottom-left
    uv.x *= u_resolution.x / u_resolution.y;
    float t = u_time * u_speed;
    // Work in linear light so overlapping curtains add like light does.
    vec3 light = vec3(0.0);
    light += curtain(uv, 1.0, 0.42, t) * 0.9;
    light += curtain(uv, 2.7, 0.52, t * 1.3) * 0.6;
    light += curtain(uv, 4.2, 0.35, t * 0.8) * 0.5;
    light = srgbToLinear(clamp(light, 0.0, 1.0)) * 1.6;
    // A few stars, twinkling, where the aurora is faint.
    ivec2 cell = ivec2(gl_FragCoord.xy / 3.0);
    float star = hash2(cell + ivec2(7, 11));
    float twinkle = 0.6 + 0.4 * valueNoise(vec2(star * 50.0, u_time * 2.0));
    float stars = step(0.9975, star) * twinkle * smoothstep(0.25, 0.6, uv.y);
    float glow = max(max(light.r, light.g), light.b);
    float alpha = clamp(max(glow * 1.4, stars), 0.0, 1.0);
    vec3 rgb = linearToSRGB(clamp(light + vec3(stars), 0.0, 1.0));
    // Straight alpha: the colour the light would have if it covered the pixel fully.
    fragColor = vec4(alpha > 0.0 ? min(rgb / alpha, 1.0) : vec3(0.0), alpha);
}
