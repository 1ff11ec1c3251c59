#version 330 core
// group.frag: a group composited onto what is below (composite.glsl's blending): its content,
// masked, over its shadow (the blurred alpha read at p − offset), opacity applied (group.glsl).

#include "pixel.glsl"
#include "group-inputs.glsl"
#include "group-packing.glsl"
#include "composite.glsl"

uniform sampler2D u_shadow;   // the blurred alpha, four rows a texel (packedTexel); read when the group has a shadow
#ifndef WELKIN_GROUP_SHADOW
#error group.frag needs WELKIN_GROUP_SHADOW (GroupPass.Variant)
#endif
const bool u_hasShadow = WELKIN_GROUP_SHADOW != 0;
uniform ivec2 u_shadowOffset; // whole pixels, y down
uniform vec4 u_shadowColor;   // premultiplied, the shadow's opacity applied
uniform float u_opacity;

void main() {
    ivec2 p = pixelCoordinate();
    ivec2 s = p - u_shadowOffset;
    float shadowAlpha = 0.0;
    if (u_hasShadow && s.x >= 0 && s.y >= 0 && s.x < int(u_pixelSize.x) && s.y < int(u_pixelSize.y)) {
        shadowAlpha = texelFetch(u_shadow, packedTexel(s.x, s.y >> 2), 0)[s.y & 3];
    }
    writeLayer(withShadow(maskedContent(p), shadowAlpha, u_hasShadow ? u_shadowColor : vec4(0.0), u_opacity));
}
