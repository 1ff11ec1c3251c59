#version 330 core
// fullscreen.vert: one triangle that covers the viewport; no vertex buffer needed.
//
// Fragment shaders work in pixels from gl_FragCoord, so nothing is passed on.

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
