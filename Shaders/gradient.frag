#version 330 core
// gradient.frag: one gradient layer (see composite.glsl for how it is composited).

#include "pixel.glsl"
#include "gradient.glsl"
#include "composite.glsl"

void main() {
    writeLayer(color(pixelPosition()));
}
