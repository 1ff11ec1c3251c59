#version 330 core
// clouds-interleave.frag: a `clouds` grid put together from its slices. Each slice marched pixel
// k = x + n·y of every n×n block of the grid into its own band of the slice target (clouds.frag,
// WELKIN_CLOUDS_SLICE: one fragment a pixel, where marching the whole grid with the other pixels
// discarded cost llvmpipe nearly the whole grid each slice): a still viewer frame's 16 slices of
// the final grid (n = 4), a playing frame's four phases of the viewer's grid (n = 2). This pass
// puts every pixel back in its place. The same values, moved.

uniform sampler2D u_slices;
uniform ivec2 u_gridSize;
uniform int u_sliceRows;
uniform int u_block;

out vec4 fragColor;

void main() {
    // The grid's rows are bottom-up in GL; its pixel (x, y) with y top-down.
    int x = int(gl_FragCoord.x);
    int y = u_gridSize.y - 1 - int(gl_FragCoord.y);
    int n = u_block;
    int slice = x % n + n * (y % n);
    fragColor = texelFetch(u_slices, ivec2(x / n, slice * u_sliceRows + u_sliceRows - 1 - y / n), 0);
}
