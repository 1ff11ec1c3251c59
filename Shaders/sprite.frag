#version 330 core
// sprite.frag: one particle sprite's pixel. Blending composites it: (ONE, ONE_MINUS_SRC_ALPHA)
// for source-over, (ONE, ONE) for additive, into the float target.

#include "pixel.glsl"
#include "sprite.glsl"

#ifdef WELKIN_SPRITE_KIND
const int u_sprite = WELKIN_SPRITE_KIND;
#else
uniform int u_sprite;
#endif
uniform float u_blurFraction;
uniform sampler2D u_image;   // SPRITE_IMAGE: premultiplied RGBA32F texels, row 0 at the top

flat in vec4 v_color;
flat in vec2 v_center;
flat in vec2 v_size;
flat in vec2 v_axis;

out vec4 fragColor;

// Bilinear sample at local point q of a sprite of `size` pixels, edges clamped; 0 outside.
// Mirrors SpriteImage.sample (Sources/WelkinReference/SpriteRaster.swift).
vec4 sampleImage(vec2 q, vec2 size) {
    if (abs(q.x) >= size.x * 0.5 || abs(q.y) >= size.y * 0.5) return vec4(0.0);
    ivec2 dims = textureSize(u_image, 0);
    float u = (q.x / size.x + 0.5) * float(dims.x) - 0.5;
    float v = (q.y / size.y + 0.5) * float(dims.y) - 0.5;
    float x0f = floor(u), y0f = floor(v);
    float fx = u - x0f, fy = v - y0f;
    int x0 = clamp(int(x0f), 0, dims.x - 1), x1 = clamp(int(x0f) + 1, 0, dims.x - 1);
    int y0 = clamp(int(y0f), 0, dims.y - 1), y1 = clamp(int(y0f) + 1, 0, dims.y - 1);
    vec4 top = texelFetch(u_image, ivec2(x0, y0), 0) * (1.0 - fx) + texelFetch(u_image, ivec2(x1, y0), 0) * fx;
    vec4 bottom = texelFetch(u_image, ivec2(x0, y1), 0) * (1.0 - fx) + texelFetch(u_image, ivec2(x1, y1), 0) * fx;
    return top * (1.0 - fy) + bottom * fy;
}

void main() {
    vec2 d = pixelPosition() - v_center;
    vec2 q = vec2(d.x * v_axis.x + d.y * v_axis.y, -d.x * v_axis.y + d.y * v_axis.x);
    if (u_sprite == SPRITE_IMAGE) {
        fragColor = v_color * sampleImage(q, v_size);
    } else {
        fragColor = v_color * spriteCoverage(u_sprite, q, v_size, u_blurFraction * v_size.x);
    }
}
