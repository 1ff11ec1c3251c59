// output.glsl: the output transform, the one step between the working space and quantisation.
//
// Mirrors WelkinCore's ColorMath.outputTransform (Sources/WelkinCore/Color/OutputColorSpace.swift):
// the same steps in the same order. The working space is extended sRGB (encoded values that may
// lie outside 0…1); sRGB output needs no step here (the quantiser's clamp to 0…1 is the clip in
// linear light); Display P3 output decodes to linear light, applies the linear sRGB → linear
// Display P3 matrix (OUTPUT_SRGB_TO_DISPLAY_P3, from the prelude), clips to 0…1 and encodes with
// the sRGB transfer. OUTPUT_SPACE_* (OutputColorSpace.code) come from the prelude.

#include "colorspace.glsl"

// One linear channel clipped to 0…1 (snapped to 1 within OUTPUT_SNAP: float rounding must not
// put a colour on the gamut's face just below it) and sRGB-encoded with the exact transfer.
float encodeOutput(float v) {
    if (v >= 1.0 - OUTPUT_SNAP) return 1.0;
    return linearToSRGB(min(max(v, 0.0), 1.0));
}

// Extended sRGB (encoded) → Display P3 (encoded), clipped to 0…1 in linear light.
vec3 displayP3Output(vec3 c) {
    vec3 l = vec3(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z));
    vec3 p = OUTPUT_SRGB_TO_DISPLAY_P3 * l;
    return vec3(encodeOutput(p.x), encodeOutput(p.y), encodeOutput(p.z));
}

// A straight-alpha colour in the working space → the output space's encoded values. `space` is a
// compile-time constant (composite.glsl's WELKIN_OUTPUT_SPACE): llvmpipe executes both sides of a
// branch on a uniform, so an sRGB frame would pay the Display P3 maths on every pixel.
vec3 outputTransform(vec3 c, int space) {
    if (space == OUTPUT_SPACE_DISPLAY_P3) return displayP3Output(c);
    return c;
}
