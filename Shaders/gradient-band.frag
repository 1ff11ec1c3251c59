#version 330 core
// gradient-band.frag: a linear gradient band (see gradient-band.vert); composited by composite.glsl.
//
// Bands overlap by a couple of pixels so that rasterisation rules never decide a pixel: each
// fragment computes its own t the way gradient.glsl does and keeps only the t its band owns
// (hard stops land exactly where the per-pixel maths puts them). A band that is alone on the
// frame skips the test (WELKIN_BAND_TEST 0).

#include "pixel.glsl"
#include "gradient.glsl"
#include "composite.glsl"

noperspective in vec4 v_color;
flat in vec2 v_band;

void main() {
#if WELKIN_BAND_TEST
    float t = min(max(parameter(pixelPosition()), 0.0), 1.0);
    if (!(t >= v_band.x && t < v_band.y)) discard;
#endif
#if WELKIN_COLOR_SPACE == 0
    writeLayer(v_color);   // opacity is in the vertex colours
#else
    writeLayer(fromInterpolationSpace(v_color, u_colorSpace) * u_opacity);
#endif
}
