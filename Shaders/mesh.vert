#version 330 core
// mesh.vert: a mesh gradient's triangles (MeshDraw), placed in Welkin's pixel space (y down).
//
// Each vertex carries its (u, v) in its patch; the fragment shader evaluates the patch's colour
// polynomial at the interpolated (u, v) (mesh.glsl), never a per-vertex colour. The renderer draws
// one patch at a time with that patch's coefficients as uniforms, so triangles carry no flat data.

uniform vec2 u_pixelSize;

layout(location = 0) in vec2 a_position;    // pixels, y down, on the 1/256-pixel grid
layout(location = 1) in vec2 a_parameter;   // (u, v) within the patch

out vec2 v_parameter;

void main() {
    v_parameter = a_parameter;
    gl_Position = vec4(a_position.x / u_pixelSize.x * 2.0 - 1.0, 1.0 - a_position.y / u_pixelSize.y * 2.0, 0.0, 1.0);
}
