// group-inputs.glsl: a group's offscreen pictures as the group passes read them.
//
// Every read is a texelFetch at a top-down pixel coordinate (pixel.glsl's `texel`), so the GPU sees
// exactly the values the CPU keeps in its buffers. A transformed group (a layer's `transform`) reads
// its masked picture through the inverse transform, blending the four nearest texels: LayerAffine's
// `source` and `bilinear` (Sources/WelkinCore/Group/LayerTransform.swift), same names, same order.

#include "group.glsl"

uniform sampler2D u_content;     // the group's layers, premultiplied (float target)
uniform sampler2D u_mask;        // the mask layer (float target); read when u_hasMask
// Whether there is a mask, whether it is inverted and whether the group is transformed are
// constant over a draw: GroupPass builds a program per combination (WELKIN_GROUP_MASK,
// WELKIN_GROUP_INVERT, WELKIN_GROUP_TRANSFORMED), so the shadow blur's tap loop does not pay for
// the transformed read's four fetches and the mask's fetch where the group has neither.
#if !defined(WELKIN_GROUP_MASK) || !defined(WELKIN_GROUP_INVERT) || !defined(WELKIN_GROUP_TRANSFORMED)
#error a group program needs WELKIN_GROUP_MASK, WELKIN_GROUP_INVERT and WELKIN_GROUP_TRANSFORMED (GroupPass.Variant)
#endif
const bool u_hasMask = WELKIN_GROUP_MASK != 0;
const bool u_invertsMask = WELKIN_GROUP_INVERT != 0;
const bool u_transformed = WELKIN_GROUP_TRANSFORMED != 0;   // read through u_inverse / u_inverseOffset
uniform vec4 u_inverse;          // m00, m01, m10, m11: picture = m · pixel centre + offset
uniform vec2 u_inverseOffset;

// The group's content at a top-down texel, masked; transparent outside the picture.
vec4 maskedTexel(ivec2 p) {
    if (p.x < 0 || p.y < 0 || p.x >= int(u_pixelSize.x) || p.y >= int(u_pixelSize.y)) return vec4(0.0);
    vec4 c = texelFetch(u_content, texel(p), 0);
    return u_hasMask ? masked(c, texelFetch(u_mask, texel(p), 0).w, u_invertsMask) : c;
}

// Where pixel p reads the picture, less ½ (a whole number is a texel's centre).
vec2 source(ivec2 p) {
    float cx = float(p.x) + 0.5, cy = float(p.y) + 0.5;
    return vec2(u_inverse.x * cx + u_inverse.y * cy + u_inverseOffset.x - 0.5,
                u_inverse.z * cx + u_inverse.w * cy + u_inverseOffset.y - 0.5);
}

// The masked picture at u: its four nearest texels blended.
vec4 bilinear(vec2 u) {
    if (!(u.x > -1.0 && u.x < u_pixelSize.x && u.y > -1.0 && u.y < u_pixelSize.y)) return vec4(0.0);
    vec2 fl = floor(u);
    ivec2 i = ivec2(fl);
    vec2 f = u - fl;
    vec4 top = maskedTexel(i) * (1.0 - f.x) + maskedTexel(i + ivec2(1, 0)) * f.x;
    vec4 bottom = maskedTexel(i + ivec2(0, 1)) * (1.0 - f.x) + maskedTexel(i + ivec2(1, 1)) * f.x;
    return top * (1.0 - f.y) + bottom * f.y;
}

// The group's content at a top-down pixel: masked, and moved by its transform.
vec4 maskedContent(ivec2 p) {
    return u_transformed ? bilinear(source(p)) : maskedTexel(p);
}
