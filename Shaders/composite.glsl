// composite.glsl: how a layer's premultiplied colour reaches the picture.
//
// A layer pass writes its colour; fixed-function blending (ONE, ONE_MINUS_SRC_ALPHA) composites it
// into the float target. The frame's last pass is built with WELKIN_RESOLVE defined instead: it
// composites in the shader, over the float target (or over the background when it is the only
// layer), then quantises with the CPU's dither straight into the RGBA8 target, which saves a
// float write and a separate resolve pass. Both ways compute src + dst × (1 − src.a) in float.
//
// A resolving program is built with the constants of its draw as defines (the renderer's one
// variant policy, ResolveVariant in Sources/WelkinGL/Render/Composite.swift): WELKIN_READS_DESTINATION
// (0: nothing drawn yet, composite over u_background), WELKIN_DITHER (0 or 1) and WELKIN_OUTPUT_SPACE
// (OUTPUT_SPACE_*). Uniforms would cost llvmpipe both sides of every branch on every fragment
// (the Display P3 transform's six pows in every sRGB frame); a program built without them is an
// error, not a slower fallback.
//
// Before quantising, the straight-alpha colour goes through the output transform (output.glsl):
// nothing before it clamps, so extended-sRGB colours reach it whole. The resolve pass built with
// WELKIN_QUANTIZE_16 writes whole numbers of 65535ths into an RGBA16 target instead (--depth 16).

#include "pixel.glsl"

out vec4 fragColor;

#ifdef WELKIN_RESOLVE
#include "dither.glsl"
#include "output.glsl"

#if !defined(WELKIN_READS_DESTINATION) || !defined(WELKIN_DITHER) || !defined(WELKIN_OUTPUT_SPACE)
#error a resolving program needs WELKIN_READS_DESTINATION, WELKIN_DITHER and WELKIN_OUTPUT_SPACE (ResolveVariant.defines)
#endif
uniform sampler2D u_destination;   // the float target: layers so far over the background
uniform vec4 u_background;         // premultiplied
const bool u_readsDestination = WELKIN_READS_DESTINATION != 0;
const bool u_dither = WELKIN_DITHER != 0;
const int u_outputSpace = WELKIN_OUTPUT_SPACE;   // OUTPUT_SPACE_*: the picture's colour space

void writeLayer(vec4 source) {
    ivec2 xy = pixelCoordinate();
#if defined(WELKIN_OPAQUE) && WELKIN_OPAQUE
    // The renderer knows this layer is opaque everywhere (alpha exactly 1): it hides what is
    // below, and the result needs no un-premultiplying; the same numbers, fewer operations.
    // Alpha 1 quantises to 255 whatever the bias: written as 1 directly.
    vec3 rgb = outputTransform(source.xyz, u_outputSpace);
    fragColor = vec4(quantize(vec4(rgb, 1.0), bias(xy.x, xy.y, u_dither)).xyz * (1.0 / 255.0), 1.0);
    return;
#endif
    vec4 destination = u_readsDestination ? texelFetch(u_destination, ivec2(gl_FragCoord.xy), 0) : u_background;
    vec4 s = straight(source + destination * (1.0 - source.w));
    s.xyz = outputTransform(s.xyz, u_outputSpace);
#if defined(WELKIN_QUANTIZE_16) && WELKIN_QUANTIZE_16
    // Whole numbers / 65535 convert back to the same whole numbers in the UNORM16 target.
    fragColor = quantize16(s) / 65535.0;
#else
    // Whole numbers × (1/255) convert back to the same whole numbers in the UNORM8 target (the
    // product is within 1e-5 of q/255, and the conversion rounds to nearest).
    fragColor = quantize(s, bias(xy.x, xy.y, u_dither)) * (1.0 / 255.0);
#endif
}
#else
void writeLayer(vec4 source) {
    fragColor = source;
}
#endif
