// group-inputs.glsl: a group's offscreen pictures as the group passes read them.
//
// Every read is a texelFetch at a top-down pixel coordinate (pixel.glsl's `texel`), so the GPU sees
// exactly the values the CPU keeps in its buffers.

#include "group.glsl"

uniform sampler2D u_content;     // the group's layers, premultiplied (float target)
uniform sampler2D u_mask;        // the mask layer (float target); read when u_hasMask
uniform bool u_hasMask;
uniform bool u_invertsMask;

// The group's content at a top-down pixel, masked.
vec4 maskedContent(ivec2 p) {
    vec4 c = texelFetch(u_content, texel(p), 0);
    return u_hasMask ? masked(c, texelFetch(u_mask, texel(p), 0).w, u_invertsMask) : c;
}
