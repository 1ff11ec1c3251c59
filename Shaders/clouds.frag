#version 330 core
// clouds.frag: the `clouds` layer's march, one fragment per grid pixel (clouds.glsl), into the
// pass's grid target; clouds-upsample.frag then composites it at the output's size.

#include "clouds.glsl"

out vec4 fragColor;
#if WELKIN_CLOUDS_SLICE
uniform int u_slice;        // which pixel of each n×n block (x + n·y within it)
uniform int u_sliceBlock;   // n: 4 for a still frame's refinement, 2 for a playing frame's phases
uniform int u_sliceRows;    // the slices' rows in the slice target: ⌈grid height / n⌉
#endif

void main() {
#if WELKIN_CLOUDS_SLICE
    // The viewer's refinement and phases: pixel u_slice of each n×n block of the grid, one
    // fragment each, in the slice's band of the slice target (its rows bottom-up from
    // u_slice · u_sliceRows, as the grid's are); clouds-interleave.frag puts the slices back in
    // their places (CloudsPass).
    int n = u_sliceBlock;
    int gx = n * int(gl_FragCoord.x) + u_slice % n;
    int gy = n * (u_sliceRows - 1 - (int(gl_FragCoord.y) - u_slice * u_sliceRows)) + u_slice / n;
    if (gx >= u_clouds.gridSize.x || gy >= u_clouds.gridSize.y) { fragColor = vec4(0.0); return; }
#else
    // The grid's rows top-down, as CloudsRaster fills them.
    int gx = int(gl_FragCoord.x);
    int gy = u_clouds.gridSize.y - 1 - int(gl_FragCoord.y);
#endif
    fragColor = cloudsColor(gx, gy);
}
