#version 330 core
// resolve.frag: the float target → RGBA8, with the same dither and quantisation as the CPU.

#include "pixel.glsl"
#include "dither.glsl"

uniform sampler2D u_source;   // premultiplied, sRGB-encoded, same size as the output
uniform bool u_dither;

out vec4 fragColor;

void main() {
    vec4 p = texelFetch(u_source, ivec2(gl_FragCoord.xy), 0);
    ivec2 xy = pixelCoordinate();
    // Whole numbers / 255 convert back to the same whole numbers in the UNORM8 target.
    fragColor = resolve(p, bias(xy.x, xy.y, u_dither)) / 255.0;
}
