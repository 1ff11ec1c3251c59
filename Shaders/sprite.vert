#version 330 core
// sprite.vert: one particle sprite per instance, a quad of four vertices (triangle strip).
//
// The per-instance attributes are WelkinCore's SpriteInstance fields under the same names. The
// quad is the sprite's support (sprite.glsl) grown by one pixel, turned to the instance's axis.

#include "sprite.glsl"

layout(location = 0) in vec4 color;    // premultiplied, layer opacity applied
layout(location = 1) in vec2 center;   // pixels, y down
layout(location = 2) in vec2 size;     // pixels: along the axis, across it
layout(location = 3) in vec2 axis;     // (cos, sin) of the rotation

uniform vec2 u_pixelSize;
uniform float u_blurFraction;
#ifdef WELKIN_SPRITE_KIND
const int u_sprite = WELKIN_SPRITE_KIND;
#else
uniform int u_sprite;
#endif

flat out vec4 v_color;
flat out vec2 v_center;
flat out vec2 v_size;
flat out vec2 v_axis;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1)) * 2.0 - 1.0;
    vec2 h = spriteSupport(u_sprite, size, u_blurFraction * size.x) + 1.0;
    vec2 local = corner * h;
    vec2 p = center + local.x * axis + local.y * vec2(-axis.y, axis.x);
    gl_Position = vec4(p.x / u_pixelSize.x * 2.0 - 1.0, 1.0 - p.y / u_pixelSize.y * 2.0, 0.0, 1.0);
    v_color = color;
    v_center = center;
    v_size = size;
    v_axis = axis;
}
