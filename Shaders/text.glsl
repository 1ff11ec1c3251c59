// text.glsl: the colour a glyph texel adds.
//
// Mirrors WelkinCore's TextDraw (Sources/WelkinCore/Text/TextDraw.swift): same name, same order of
// operations. The atlas holds FreeType's coverage as whole numbers 0…255 (an R8UI texture read with
// texelFetch), so both renderers start from the same integers.

uniform vec4 u_color;   // premultiplied sRGB, the layer's opacity applied

// The premultiplied colour a glyph texel of `coverage` (0…255) adds, source-over.
vec4 glyphColor(uint coverage) {
    return u_color * (float(coverage) * (1.0 / 255.0));
}
