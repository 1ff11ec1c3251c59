#version 330 core
// clouds.frag: the `clouds` layer's march, one fragment per grid pixel (clouds.glsl), into the
// pass's grid target; clouds-upsample.frag then composites it at the output's size.

#include "clouds.glsl"

out vec4 fragColor;
#if WELKIN_CLOUDS_SLICE
uniform int u_slice;
#endif

void main() {
    // The grid's rows top-down, as CloudsRaster fills them.
    int gx = int(gl_FragCoord.x);
    int gy = u_clouds.gridSize.y - 1 - int(gl_FragCoord.y);
#if WELKIN_CLOUDS_SLICE
    // The viewer's refinement: one pixel of each 4×4 block this frame (CloudsPass).
    if ((gx & 3) + 4 * (gy & 3) != u_slice) discard;
#endif
    fragColor = cloudsColor(gx, gy);
}
