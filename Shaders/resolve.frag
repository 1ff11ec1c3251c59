#version 330 core
// resolve.frag: the float target → RGBA8 with the CPU's dither, for frames whose last layer
// cannot resolve itself (or that have no layers): a transparent layer composited over it.
// Built with ResolveVariant's defines (WELKIN_RESOLVE among them), as every resolving pass is.

#include "pixel.glsl"
#include "composite.glsl"

void main() {
    writeLayer(vec4(0.0));
}
