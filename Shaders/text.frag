#version 330 core
// text.frag: a glyph's coverage copied texel for texel (no filtering), tinted (see text.glsl), and
// composited source-over by blending like every layer pass (composite.glsl).

#include "pixel.glsl"
#include "text.glsl"
#include "composite.glsl"

uniform usampler2D u_atlas;

flat in ivec2 v_origin;
flat in ivec2 v_atlasOrigin;

void main() {
    ivec2 texel = v_atlasOrigin + (pixelCoordinate() - v_origin);
    writeLayer(glyphColor(texelFetch(u_atlas, texel, 0).r));
}
