// group.glsl: a group's mask and its composite over its shadow.
//
// Mirrors WelkinCore's GroupDraw (Sources/WelkinCore/Group/GroupLayer.swift): same names, same order
// of operations. (The blur's sum is GroupDraw.blurred ↔ group-blur.frag; reading the group's
// textures is group-inputs.glsl.)

// How much of the group shows where the mask has alpha `maskAlpha`.
float maskFactor(float maskAlpha, bool invert) {
    return invert ? 1.0 - maskAlpha : maskAlpha;
}

// The group's content clipped by its mask.
vec4 masked(vec4 content, float maskAlpha, bool invert) {
    return content * maskFactor(maskAlpha, invert);
}

// The group's premultiplied colour over its own shadow, opacity applied.
vec4 withShadow(vec4 content, float shadowAlpha, vec4 shadowColor, float opacity) {
    return (content + shadowColor * (shadowAlpha * (1.0 - content.w))) * opacity;
}
