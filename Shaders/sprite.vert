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
uniform float u_pointMargin;   // WELKIN_SPRITE_POINTS: how far the viewport reaches past the frame
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
#ifdef WELKIN_SPRITE_POINTS
    // The support and a quarter pixel (far more than the transform's rounding): every pixel centre
    // where the coverage is not 0 lies inside.
    vec2 h = spriteSupport(u_sprite, size, u_blurFraction * size.x) + 0.25;
    // One point per sprite (GL_POINTS, one vertex each): a square centred on the sprite that holds
    // its turned support, so it covers every pixel the quad below gives a non-zero coverage; the
    // pixels either adds lie outside the support, where the fragment shader's coverage is exactly 0.
    // Cheaper than two triangles on software rasterisers. ParticlePass keeps sprites too big for a
    // point on quads.
    vec2 box = abs(h.x * axis) + abs(h.y * vec2(-axis.y, axis.x));
    gl_PointSize = 2.0 * max(box.x, box.y);
    vec2 p = center;
    // The viewport is grown by u_pointMargin pixels on every side (ParticlePass).
    vec2 grown = u_pixelSize + 2.0 * u_pointMargin;
    gl_Position = vec4((p.x + u_pointMargin) / grown.x * 2.0 - 1.0, 1.0 - (p.y + u_pointMargin) / grown.y * 2.0, 0.0, 1.0);
#else
    vec2 h = spriteSupport(u_sprite, size, u_blurFraction * size.x) + 1.0;
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1)) * 2.0 - 1.0;
    vec2 local = corner * h;
    vec2 p = center + local.x * axis + local.y * vec2(-axis.y, axis.x);
    gl_Position = vec4(p.x / u_pixelSize.x * 2.0 - 1.0, 1.0 - p.y / u_pixelSize.y * 2.0, 0.0, 1.0);
#endif
    v_color = color;
    v_center = center;
    v_size = size;
    v_axis = axis;
}
