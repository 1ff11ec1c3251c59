#version 330 core
// clouds.frag: the `clouds` layer's march, one fragment per grid pixel (clouds.glsl), into the
// pass's grid target; clouds-upsample.frag then composites it at the output's size.

#include "clouds.glsl"

out vec4 fragColor;
#if WELKIN_CLOUDS_SLICE
uniform int u_slice;        // which pixel of each 4×4 block (x + 4y within it)
uniform int u_sliceRows;    // the slices' rows in the slice target: ⌈grid height / 4⌉
#endif

void main() {
#if WELKIN_CLOUDS_SLICE
    // The viewer's refinement: pixel u_slice of each 4×4 block of the grid, one fragment each, in
    // the slice's band of the slice target (its rows bottom-up from u_slice · u_sliceRows, as the
    // grid's are); clouds-interleave.frag puts the 16 slices back in their places (CloudsPass).
    int gx = 4 * int(gl_FragCoord.x) + (u_slice & 3);
    int gy = 4 * (u_sliceRows - 1 - (int(gl_FragCoord.y) - u_slice * u_sliceRows)) + (u_slice >> 2);
    if (gx >= u_clouds.gridSize.x || gy >= u_clouds.gridSize.y) { fragColor = vec4(0.0); return; }
#else
    // The grid's rows top-down, as CloudsRaster fills them.
    int gx = int(gl_FragCoord.x);
    int gy = u_clouds.gridSize.y - 1 - int(gl_FragCoord.y);
#endif
    fragColor = cloudsColor(gx, gy);
}
