#version 330 core
// sky.vert: fullscreen.vert's one covering triangle, handing the sky parts' per-draw values to
// the fragments as flat varyings (see sky-values.glsl for why), a cell's sprite boxes where
// WELKIN_SPRITE_COUNT is defined, and the frame size for pixel.glsl.

#include "sky-values.glsl"

uniform vec2 u_pixelSize;
flat out vec2 v_pixelSize;
#if SKY_HAS_GRADIENT
uniform SkyValues u_sky;
flat out SkyValues sky;
#endif
#if SKY_HAS_PHYSICAL
uniform PhysicalValues u_physical;
flat out PhysicalValues physical;
#endif
#if SKY_HAS_COVER
uniform CoverValues u_cover;
flat out CoverValues cover;
#endif
#if SKY_HAS_SPRITES
uniform SpriteValues u_sprite;
flat out SpriteValues sprite;
#ifdef WELKIN_SPRITE_COUNT
uniform vec4 u_spriteBoxes[MAX_CLOUDS];
uniform vec4 u_spriteInfo[MAX_CLOUDS];
flat out vec4 spriteBoxes[WELKIN_SPRITE_COUNT];
flat out vec4 spriteInfo[WELKIN_SPRITE_COUNT];
#endif
#endif

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
    v_pixelSize = u_pixelSize;
#if SKY_HAS_GRADIENT
    sky = u_sky;
#endif
#if SKY_HAS_PHYSICAL
    physical = u_physical;
#endif
#if SKY_HAS_COVER
    cover = u_cover;
#endif
#if SKY_HAS_SPRITES
    sprite = u_sprite;
#ifdef WELKIN_SPRITE_COUNT
    for (int i = 0; i < WELKIN_SPRITE_COUNT; i++) {
        spriteBoxes[i] = u_spriteBoxes[i];
        spriteInfo[i] = u_spriteInfo[i];
    }
#endif
#endif
}
