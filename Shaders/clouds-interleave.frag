#version 330 core
// clouds-interleave.frag: the viewer's refinement of a still `clouds` layer put together. Each of
// the 16 slices marched pixel k = x + 4y of every 4×4 block of the final grid into its own band of
// the slice target (clouds.frag, WELKIN_CLOUDS_SLICE: one fragment a pixel, where marching the
// whole grid with the other pixels discarded cost llvmpipe nearly the whole grid each slice);
// this pass puts every pixel back in its place in the grid. The same values, moved.

uniform sampler2D u_slices;
uniform ivec2 u_gridSize;
uniform int u_sliceRows;

out vec4 fragColor;

void main() {
    // The grid's rows are bottom-up in GL; its pixel (x, y) with y top-down.
    int x = int(gl_FragCoord.x);
    int y = u_gridSize.y - 1 - int(gl_FragCoord.y);
    int slice = (x & 3) + 4 * (y & 3);
    fragColor = texelFetch(u_slices, ivec2(x >> 2, slice * u_sliceRows + u_sliceRows - 1 - (y >> 2)), 0);
}
