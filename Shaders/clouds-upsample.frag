#version 330 core
// clouds-upsample.frag: the `clouds` layer's grid, upsampled (four bilinear taps) to the output and
// composited (composite.glsl), as WelkinSkyModel's CloudsDraw.upsampled and .bilinear do it.

#include "pixel.glsl"
#include "composite.glsl"

uniform sampler2D u_grid;          // the march's premultiplied colours, GL's rows bottom-up (with
                                   // WELKIN_CLOUDS_GRID_FILTERED: their 2×2 box means, clouds-box.frag)
uniform ivec2 u_gridSize;
uniform vec2 u_inverseGridScale;

vec4 grid(int x, int y) {
    return texelFetch(u_grid, ivec2(x, u_gridSize.y - 1 - y), 0);
}

vec4 bilinear(float gu, float gv) {
    float u = min(max(gu, 0.0), float(u_gridSize.x - 1));
    float v = min(max(gv, 0.0), float(u_gridSize.y - 1));
    float fu = floor(u), fv = floor(v);
    int x0 = int(fu), y0 = int(fv);
    int x1 = min(x0 + 1, u_gridSize.x - 1), y1 = min(y0 + 1, u_gridSize.y - 1);
    float tu = u - fu, tv = v - fv;
    vec4 a = grid(x0, y0), b = grid(x1, y0), c = grid(x0, y1), d = grid(x1, y1);
    vec4 top = a + (b - a) * tu;
    vec4 bottom = c + (d - c) * tu;
    return top + (bottom - top) * tv;
}

// At pixel position p (pixel.glsl's pixelPosition: x + 0.5, y + 0.5 at a pixel's centre, exactly
// the float(x) + 0.5 of CloudsDraw.upsampled): in float, so a drawable larger than the scene (an
// exported package's, drawn at the screen's resolution) interpolates between the centres.
vec4 upsampled(vec2 p) {
    float u = p.x * u_inverseGridScale.x - 0.5;
    float v = p.y * u_inverseGridScale.y - 0.5;
#if defined(WELKIN_CLOUDS_GRID_FILTERED) && WELKIN_CLOUDS_GRID_FILTERED
    // The four taps' mean is one bilinear read of the grid's 2×2 box means (clouds-box.frag,
    // (W + 1) × (H + 1): box texel a is the mean of grid texels a − 1 and a, clamped, on each
    // axis). Both are piecewise linear with their corners where u ± ½ is whole, and they agree
    // there: the same value to rounding. Through the texture unit's filter (CloudsPass.upsampleFiltered).
    return texture(u_grid, vec2((u + 1.0) / float(u_gridSize.x + 1), (float(u_gridSize.y) - v) / float(u_gridSize.y + 1)));
#else
    vec4 a = bilinear(u - 0.5, v - 0.5) + bilinear(u + 0.5, v - 0.5);
    vec4 b = bilinear(u - 0.5, v + 0.5) + bilinear(u + 0.5, v + 0.5);
    return (a + b) * 0.25;
#endif
}

void main() {
    writeLayer(upsampled(pixelPosition()));
}
