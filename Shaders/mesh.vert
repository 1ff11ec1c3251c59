#version 330 core
// mesh.vert: a mesh gradient's triangles (MeshDraw), placed in Welkin's pixel space (y down).
//
// Each vertex carries its patch and its (u, v) in that patch; the fragment shader evaluates the
// patch's colour polynomial at the interpolated (u, v) (mesh.glsl), never a per-vertex colour.

uniform vec2 u_pixelSize;

layout(location = 0) in vec2 a_position;    // pixels, y down, on the 1/256-pixel grid
layout(location = 1) in vec2 a_parameter;   // (u, v) within the patch
layout(location = 2) in int a_patch;        // row-major cell index; -1: the background triangle

uniform sampler2D u_coefficients;          // RGBA32F, 16 × patch count; premultiplied, in the colour space

out vec2 v_parameter;
flat out int v_patch;
// The patch's colour coefficients (mesh.glsl): all 16 for bicubic colour, 0, 1, 4, 5 for bilinear.
#if WELKIN_MESH_SMOOTH
flat out vec4 v_coefficients[16];
#else
flat out vec4 v_coefficients[4];
#endif

void main() {
    v_parameter = a_parameter;
    v_patch = a_patch;
    int cell = max(a_patch, 0);
#if WELKIN_MESH_SMOOTH
    for (int i = 0; i < 16; i++) v_coefficients[i] = texelFetch(u_coefficients, ivec2(i, cell), 0);
#else
    v_coefficients[0] = texelFetch(u_coefficients, ivec2(0, cell), 0);
    v_coefficients[1] = texelFetch(u_coefficients, ivec2(1, cell), 0);
    v_coefficients[2] = texelFetch(u_coefficients, ivec2(4, cell), 0);
    v_coefficients[3] = texelFetch(u_coefficients, ivec2(5, cell), 0);
#endif
    gl_Position = vec4(a_position.x / u_pixelSize.x * 2.0 - 1.0, 1.0 - a_position.y / u_pixelSize.y * 2.0, 0.0, 1.0);
}
