#version 330 core
// clouds-cover-tiles.frag: one pixel a TILE × TILE block of the clouds' box means
// (clouds-box.frag): 1 where every texel the block's pixels read is exactly opaque, else 0. What
// clouds-cover.vert reads to draw a block's quad or nothing (GLRenderer's cover, FramePlan.cover).

uniform sampler2D u_grid;          // the box means, (W + 1) × (H + 1), GL's rows bottom-up
uniform ivec2 u_gridSize;          // W, H: the march's grid

out vec4 fragColor;

const int TILE = 4;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int a = t.x * TILE, b = min(a + TILE, u_gridSize.x);
    int c = t.y * TILE, d = min(c + TILE, u_gridSize.y);
    float least = 1.0;
    for (int j = c; j <= d; j++) {
        for (int i = a; i <= b; i++) least = min(least, texelFetch(u_grid, ivec2(i, j), 0).w);
    }
    fragColor = vec4(least >= 1.0 ? 1.0 : 0.0);
}
