// mesh.glsl: a mesh gradient's colour at (u, v) of a patch.
//
// Mirrors WelkinCore's MeshDraw (Sources/WelkinCore/Mesh/MeshDraw.swift): the same power-basis
// coefficients (16 texels per patch row, coefficient a * 4 + b multiplies u^a v^b), the same
// Horner order, the same clamping. WELKIN_MESH_SMOOTH (0 or 1) and WELKIN_COLOR_SPACE are always
// defined by the renderer.

#include "colorspace.glsl"

const int u_colorSpace = WELKIN_COLOR_SPACE;

uniform sampler2D u_coefficients;   // RGBA32F, 16 × patch count; premultiplied, in u_colorSpace
uniform float u_opacity;
uniform vec4 u_meshBackground;      // premultiplied sRGB, where no patch covers

vec4 coefficient(int cell, int i) {
    return texelFetch(u_coefficients, ivec2(i, cell), 0);
}

// The colour polynomial of `cell` at (u, v): premultiplied, still in the interpolation space.
vec4 interpolate(int cell, float u, float v) {
#if WELKIN_MESH_SMOOTH
    vec4 row0 = ((coefficient(cell, 3) * v + coefficient(cell, 2)) * v + coefficient(cell, 1)) * v + coefficient(cell, 0);
    vec4 row1 = ((coefficient(cell, 7) * v + coefficient(cell, 6)) * v + coefficient(cell, 5)) * v + coefficient(cell, 4);
    vec4 row2 = ((coefficient(cell, 11) * v + coefficient(cell, 10)) * v + coefficient(cell, 9)) * v + coefficient(cell, 8);
    vec4 row3 = ((coefficient(cell, 15) * v + coefficient(cell, 14)) * v + coefficient(cell, 13)) * v + coefficient(cell, 12);
    return ((row3 * u + row2) * u + row1) * u + row0;
#else
    vec4 row0 = coefficient(cell, 1) * v + coefficient(cell, 0);
    vec4 row1 = coefficient(cell, 5) * v + coefficient(cell, 4);
    return row1 * u + row0;
#endif
}

// Alpha clamped to 0…1, converted to sRGB, sRGB channels clamped to 0…alpha, opacity applied.
vec4 finish(vec4 p) {
    vec4 q = p;
    q.w = clamp(q.w, 0.0, 1.0);
    vec4 c = fromInterpolationSpace(q, u_colorSpace);
    if (u_colorSpace == COLOR_SPACE_SRGB) c = vec4(clamp(c.xyz, vec3(0.0), vec3(c.w)), c.w);
    return c * u_opacity;
}

// The layer's premultiplied sRGB colour; cell -1 is the background.
vec4 meshColor(int cell, vec2 uv) {
    if (cell < 0) return u_meshBackground * u_opacity;
    return finish(interpolate(cell, uv.x, uv.y));
}
