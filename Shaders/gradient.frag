#version 330 core
// gradient.frag: one gradient layer, premultiplied, composited by fixed-function blending
// (ONE, ONE_MINUS_SRC_ALPHA) into the float target.

#include "pixel.glsl"
#include "gradient.glsl"

out vec4 fragColor;

void main() {
    fragColor = color(pixelPosition());
}
