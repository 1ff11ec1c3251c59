// dither.glsl: the final quantisation to 8 bits (or 16, without dither).
//
// Mirrors WelkinCore's Dither (Sources/WelkinCore/Frame/Dither.swift) bit for bit: integer-only
// Bayer thresholds, floor(v·255 + bias), un-premultiply when alpha < 1; floor(v·65535 + 0.5).

// The 8×8 Bayer threshold (0…63) at an integer pixel coordinate (0…7 each), by bit interleaving
// (Dither.bayer8): ×73 copies a 3-bit number to bits 0, 3 and 6; a shift and a mask pick the
// interleaved bits of x ^ y (5, 3, 1) and of y (4, 2, 0).
int bayer8(int x, int y) {
    return ((((x ^ y) * 73) >> 1) & 42) | (((y * 73) >> 2) & 21);
}

// The 8-bit offset added before rounding down (exactly 0.5, plain rounding, when dithering is off).
// x and y are top-down pixel coordinates, as on the CPU.
float bias(int x, int y, bool enabled) {
    return enabled ? float(bayer8(x & 7, y & 7)) * (1.0 / 64.0) : 0.5;
}

// Channel values in 0…1 → whole numbers of 255ths: floor(v·255 + bias), not clamped here. The
// result goes to the RGBA8 target as q/255, and GL clamps a colour written to a fixed-point
// buffer to 0…1, which is Dither.quantize's clamp to 0…255 on the CPU: the same bytes, four
// min/max fewer per pixel.
vec4 quantize(vec4 v, float bias) {
    return floor(v * 255.0 + bias);
}

// Channel values in 0…1 → whole numbers of 65535ths, rounded to nearest (no dither: a 16-bit step
// is far below what a dither would hide); the UNORM16 target clamps, as Dither.quantize16's clamp.
vec4 quantize16(vec4 v) {
    return floor(v * 65535.0 + 0.5);
}

// A premultiplied colour → straight alpha, alpha clamped to 0…1 (Dither.straight).
// Selects instead of a branch (cheaper on SIMD rasterisers): opaque colours pass untouched.
vec4 straight(vec4 p) {
    float a = min(max(p.w, 0.0), 1.0);
    vec3 rgb = a < 1.0 ? (a > 0.0 ? p.xyz / a : vec3(0.0)) : p.xyz;
    return vec4(rgb, a);
}

// A premultiplied colour → straight-alpha RGBA in 0…255.
vec4 resolve(vec4 p, float bias) {
    return quantize(straight(p), bias);
}
