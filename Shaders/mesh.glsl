// mesh.glsl: a mesh gradient's colour at (u, v) of a patch.
//
// Mirrors WelkinCore's MeshDraw (Sources/WelkinCore/Mesh/MeshDraw.swift): the same power-basis
// coefficients (coefficient a * 4 + b multiplies u^a v^b; mesh.vert fetches them), the same
// Horner order, the same clamping. WELKIN_MESH_SMOOTH (0 or 1) and WELKIN_COLOR_SPACE are always
// defined by the renderer.

#include "colorspace.glsl"

const int u_colorSpace = WELKIN_COLOR_SPACE;

uniform float u_opacity;
uniform vec3 u_channelLow;          // MeshDraw.channelRange: 0…1 widened to the mesh's colours
uniform vec3 u_channelHigh;
uniform vec4 u_meshBackground;      // premultiplied sRGB, where no patch covers

// The patch's coefficients, fetched once per vertex by mesh.vert (flat: one patch per triangle),
// so fragments read them from their inputs instead of 16 texture fetches each.
#if WELKIN_MESH_SMOOTH
flat in vec4 v_coefficients[16];    // a * 4 + b multiplies u^a v^b
#define K(i) v_coefficients[i]
#else
flat in vec4 v_coefficients[4];     // coefficients 0, 1, 4, 5 (the others are zero)
#define K(i) v_coefficients[(i) == 0 ? 0 : (i) == 1 ? 1 : (i) == 4 ? 2 : 3]
#endif

// The colour polynomial at (u, v): premultiplied, still in the interpolation space.
vec4 interpolate(float u, float v) {
#if WELKIN_MESH_SMOOTH
    vec4 row0 = ((K(3) * v + K(2)) * v + K(1)) * v + K(0);
    vec4 row1 = ((K(7) * v + K(6)) * v + K(5)) * v + K(4);
    vec4 row2 = ((K(11) * v + K(10)) * v + K(9)) * v + K(8);
    vec4 row3 = ((K(15) * v + K(14)) * v + K(13)) * v + K(12);
    return ((row3 * u + row2) * u + row1) * u + row0;
#else
    vec4 row0 = K(1) * v + K(0);
    vec4 row1 = K(5) * v + K(4);
    return row1 * u + row0;
#endif
}

// Alpha clamped to 0…1, converted to sRGB, sRGB channels clamped to the channel range × alpha
// (0…alpha for meshes of sRGB colours), opacity applied.
vec4 finish(vec4 p) {
    vec4 q = p;
    q.w = clamp(q.w, 0.0, 1.0);
    vec4 c = fromInterpolationSpace(q, u_colorSpace);
    vec3 low = u_channelLow * c.w, high = u_channelHigh * c.w;
    return vec4(min(max(c.xyz, low), high), c.w) * u_opacity;
}

// The layer's premultiplied sRGB colour; cell -1 is the background.
vec4 meshColor(int cell, vec2 uv) {
    if (cell < 0) return u_meshBackground * u_opacity;
    return finish(interpolate(uv.x, uv.y));
}
