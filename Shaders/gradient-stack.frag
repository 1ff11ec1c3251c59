#version 330 core
// gradient-stack.frag: consecutive gradient layers evaluated and composited in registers, one pass
// instead of one float-blended full-screen pass each (GradientStack in GradientPass.swift).
//
// The renderer defines WELKIN_GRADIENT_STACK (the number of layers), WELKIN_STACK_STOPS (their
// stops together) and WELKIN_STACK_LAYERS: one stackLayer(...) call per layer, bottom first, with
// each layer's kind, colour space, stop count and first stop as literals, so every branch on them
// folds away as in the single-layer specialised programs. Each layer is GradientDraw's maths
// (gradient.glsl), composited over the ones below it: src + dst × (1 − src.a).

#include "pixel.glsl"
#include "gradient.glsl"
#include "composite.glsl"

uniform vec2 u_origins[WELKIN_GRADIENT_STACK];   // GradientDraw.origin per layer, pixels
uniform vec2 u_vectors[WELKIN_GRADIENT_STACK];   // GradientDraw.vector
uniform vec2 u_ranges[WELKIN_GRADIENT_STACK];    // GradientDraw.range
uniform float u_opacities[WELKIN_GRADIENT_STACK];
uniform float u_stackLocations[WELKIN_STACK_STOPS];   // every layer's stop locations, in order
uniform vec4 u_stackColors[WELKIN_STACK_STOPS];       // premultiplied, in the layer's colour space

// Layer `slot` (kind, space, stop count, first stop and whether its stops are evenly spaced are
// literals) over `below`.
vec4 stackLayer(vec2 p, vec4 below, int slot, int kind, int space, int count, int first, int even) {
    // GradientDraw.parameter
    float t;
    if (kind == GRADIENT_LINEAR) {
        vec2 d = (p - u_origins[slot]) * u_vectors[slot];
        t = d.x + d.y;
    } else if (kind == GRADIENT_RADIAL) {
        vec2 d = (p - u_origins[slot]) * u_vectors[slot];
        t = (sqrt(d.x * d.x + d.y * d.y) - u_ranges[slot].x) * u_ranges[slot].y;
    } else {
        vec2 d = p - u_origins[slot];
        t = angularParameter(atan2(d.y, d.x), u_ranges[slot].x, u_ranges[slot].y);
    }
    t = min(max(t, 0.0), 1.0);
    // ResolvedStops.interpolate over this layer's stops
    vec4 c;
    int last = first + count - 1;
    if (!(t > u_stackLocations[first])) {
        c = u_stackColors[first];
    } else if (t >= u_stackLocations[last]) {
        c = u_stackColors[last];
    } else {
        int i = first;
        if (even != 0) {
            // Evenly spaced (ResolvedStops.evenlySpaced): the guess is off by at most one stop.
            i = first + min(int(t * float(count - 1)), count - 2);
            if (t < u_stackLocations[i]) i -= 1;
            else if (!(t < u_stackLocations[i + 1])) i += 1;
        } else {
            for (int k = first + 1; k < last; k += 1) {
                if (!(t < u_stackLocations[k])) i = k;
            }
        }
        float f = (t - u_stackLocations[i]) / (u_stackLocations[i + 1] - u_stackLocations[i]);
        c = u_stackColors[i] + (u_stackColors[i + 1] - u_stackColors[i]) * f;
    }
    vec4 source = fromInterpolationSpace(c, space) * u_opacities[slot];
    return source + below * (1.0 - source.w);
}

void main() {
    vec2 p = pixelPosition();
    vec4 stack = vec4(0.0);
    WELKIN_STACK_LAYERS
    writeLayer(stack);
}
