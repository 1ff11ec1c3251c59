#version 330 core
// layer.frag: composites a user shader's output as a layer (see composite.glsl).
//
// A user shader writes a straight-alpha sRGB colour, as glslViewer and Shadertoy shaders do; it
// is drawn into a float target first, then this pass clamps it to 0…1 (as a window's 8-bit
// framebuffer would), premultiplies, applies the layer's opacity and composites it.

#include "pixel.glsl"
#include "composite.glsl"

uniform sampler2D u_layer;   // the user shader's output
uniform float u_opacity;

void main() {
    vec4 c = clamp(texelFetch(u_layer, ivec2(gl_FragCoord.xy), 0), 0.0, 1.0);
    writeLayer(vec4(c.xyz * c.w, c.w) * u_opacity);
}
