// gradient.glsl: a gradient in pixel space, evaluated per pixel.
//
// Mirrors WelkinCore's GradientDraw and ResolvedStops (Sources/WelkinCore/Gradient/GradientDraw.swift)
// line for line: same names, same constants, same order of operations. The uniforms carry
// GradientDraw's fields under the same names.

#include "colorspace.glsl"

// GRADIENT_* (GradientDraw.Kind codes) and MAXIMUM_STOPS (Gradient.maximumStops) come from the
// constants prelude (ShaderConstants.swift).

// A stack program (gradient-stack.frag, WELKIN_GRADIENT_STACK) declares its own uniforms and
// uses only the functions here that take every input as an argument.
#ifndef WELKIN_GRADIENT_STACK
// The renderer may specialise a program to one kind and one colour space by defining
// WELKIN_GRADIENT_KIND and WELKIN_COLOR_SPACE: those uniforms become constants and the other
// branches fold away (software rasterisers such as llvmpipe otherwise run every branch).
#ifdef WELKIN_GRADIENT_KIND
const int u_kind = WELKIN_GRADIENT_KIND;
#else
uniform int u_kind;
#endif
#ifdef WELKIN_COLOR_SPACE
const int u_colorSpace = WELKIN_COLOR_SPACE;
#else
uniform int u_colorSpace;
#endif
uniform vec2 u_origin;       // pixels
uniform vec2 u_vector;
uniform vec2 u_range;
// WELKIN_STOP_COUNT likewise fixes the number of stops, so the search below unrolls into a few
// compares instead of a loop over uniforms.
#ifdef WELKIN_STOP_COUNT
const int u_stopCount = WELKIN_STOP_COUNT;
uniform float u_locations[WELKIN_STOP_COUNT];
uniform vec4 u_colors[WELKIN_STOP_COUNT];   // premultiplied, in u_colorSpace
#else
uniform int u_stopCount;
uniform float u_locations[MAXIMUM_STOPS];
uniform vec4 u_colors[MAXIMUM_STOPS];   // premultiplied, in u_colorSpace
#endif
uniform float u_opacity;
#endif

// GLSL's mod is already x − y·floor(x/y); spelled out so the Swift twin reads the same.
float glslMod(float x, float y) {
    return x - y * floor(x / y);
}

// C's atan2f: GLSL's atan(y, x) is undefined at the origin, where atan2f gives 0.
float atan2(float y, float x) {
    if (x == 0.0 && y == 0.0) return 0.0;
    return atan(y, x);
}

// SwiftUI's AngularGradient: a span of a full turn or more shows only the last complete turn;
// a shorter span fills the missing wedge with the end colours, switching halfway across it.
float angularParameter(float angle, float start, float span) {
    const float turn = 6.28318530717958647692;
    float s = abs(span);
    float a = span >= 0.0 ? glslMod(angle - start, turn) : glslMod(start - angle, turn);
    if (s >= turn) {
        return (s - turn + glslMod(a - s, turn)) / s;
    }
    if (a <= s && s > 0.0) return a / s;
    return (a - s) < (turn - s) * 0.5 ? 1.0 : 0.0;
}

#ifndef WELKIN_GRADIENT_STACK
// t at pixel-space point p (a pixel centre is (x + 0.5, y + 0.5), y down). Not clamped.
float parameter(vec2 p) {
    if (u_kind == GRADIENT_LINEAR) {
        vec2 d = (p - u_origin) * u_vector;
        return d.x + d.y;
    }
    if (u_kind == GRADIENT_RADIAL) {
        vec2 d = (p - u_origin) * u_vector;
        return (sqrt(d.x * d.x + d.y * d.y) - u_range.x) * u_range.y;
    }
    vec2 d = p - u_origin;
    return angularParameter(atan2(d.y, d.x), u_range.x, u_range.y);
}

// The interpolated colour at t, premultiplied, still in the interpolation space.
// Pads beyond the ends; at a hard edge (equal locations) t takes the later colour.
vec4 interpolate(float t) {
    int n = u_stopCount;
    if (!(t > u_locations[0])) return u_colors[0];   // also catches NaN
    if (t >= u_locations[n - 1]) return u_colors[n - 1];
    int i = 0;
#if defined(WELKIN_STOP_COUNT) && defined(WELKIN_STOPS_EVEN)
    // Evenly spaced stops (ResolvedStops.evenlySpaced): the guess ⌊t (n − 1)⌋ is off by at most
    // one; a comparison either side makes it the loop's i exactly.
    i = min(int(t * float(WELKIN_STOP_COUNT - 1)), WELKIN_STOP_COUNT - 2);
    if (t < u_locations[i]) i -= 1;
    else if (!(t < u_locations[i + 1])) i += 1;
#elif defined(WELKIN_STOP_COUNT)
    // The same i as the loop: the last k with t ≥ location k (locations are sorted).
    for (int k = 1; k < WELKIN_STOP_COUNT - 1; k += 1) {
        if (!(t < u_locations[k])) i = k;
    }
#else
    while (!(t < u_locations[i + 1])) i += 1;
#endif
    float f = (t - u_locations[i]) / (u_locations[i + 1] - u_locations[i]);
    return u_colors[i] + (u_colors[i + 1] - u_colors[i]) * f;
}

// The colour at t as premultiplied sRGB-encoded components, ready to composite.
vec4 evaluate(float t) {
    return fromInterpolationSpace(interpolate(t), u_colorSpace);
}

// The premultiplied sRGB colour at p, opacity applied.
vec4 color(vec2 p) {
    return evaluate(min(max(parameter(p), 0.0), 1.0)) * u_opacity;
}
#endif
