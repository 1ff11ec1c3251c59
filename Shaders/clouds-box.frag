#version 330 core
// clouds-box.frag: the `clouds` grid's 2×2 box means, (W + 1) × (H + 1): texel (a, b) is the mean
// of grid texels a − 1 … a by b − 1 … b (clamped at the edges), read as one bilinear sample halfway
// between them (weights of ½ on each axis, exact in any filter's precision). clouds-upsample.frag
// (WELKIN_CLOUDS_GRID_FILTERED) reads it once a pixel in place of four bilinear taps of the grid.

uniform sampler2D u_grid;   // filtered bilinearly, clamped to its edges
uniform ivec2 u_gridSize;

out vec4 fragColor;

void main() {
    fragColor = texture(u_grid, (gl_FragCoord.xy - 0.5) / vec2(u_gridSize));
}
