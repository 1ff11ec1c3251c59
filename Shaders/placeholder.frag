#version 330 core
// placeholder.frag: hatching where a layer that cannot be drawn would be (its shader does not
// compile, its uniforms do not fit the scene, its sprite image cannot be read), so the picture
// shows that a layer is missing while every other layer still draws. Swift twin: LayerPlaceholder
// (Sources/WelkinGL/Render/LayerPlaceholder.swift), which owns the pattern's numbers.

#include "pixel.glsl"
#include "composite.glsl"

uniform int u_period;      // pixels from one stripe to the next, along a row
uniform int u_lineWidth;   // pixels of each stripe, along a row
uniform vec4 u_color;      // premultiplied

// Diagonal stripes: pixel (x, y), y down, is on one when (x + y) mod period < line width.
bool covers(ivec2 xy) {
    return (xy.x + xy.y) % u_period < u_lineWidth;
}

void main() {
    writeLayer(covers(pixelCoordinate()) ? u_color : vec4(0.0));
}
