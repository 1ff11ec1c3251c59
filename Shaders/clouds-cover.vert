#version 330 core
// clouds-cover.vert: GLRenderer's cover (FramePlan.cover), a block of the clouds' box means at a
// time. The accumulation's stencil starts at 1 (covered) everywhere; one instance a TILE × TILE
// block of clouds-box.frag's texels draws a quad writing 0 over every output pixel whose upsample
// (clouds-upsample.frag, WELKIN_CLOUDS_GRID_FILTERED) reads a texel of the block, unless every
// texel of the block is exactly opaque (clouds-cover-tiles.frag): then those pixels read only
// alpha-1 texels, and the bilinear read of equal texels is that value exactly. So a pixel left at 1
// is exactly opaque, and the layers below draw where the stencil is 0 — the quads cost only where
// the deck is not closed. Only the stencil is written (clouds-cover.frag, colour masked off).
//
// The upsample reads box texel-space x at P = u + 1, u = (x + 0.5) × inverseGridScale.x − 0.5:
// taps floor(P − ½) and the next, both within [a, b] when (x + 0.5) ∈ [a, b) / inverseGridScale.x.
// Rows (GL's, bottom-up) at Q = H − v: taps within [c, d] when (y + 0.5) ∈ ((H − d), (H − c)] /
// inverseGridScale.y for Welkin's y (top-down).

uniform sampler2D u_tiles;         // clouds-cover-tiles.frag: 1 where a block is opaque throughout
uniform ivec2 u_gridSize;          // W, H: the march's grid
uniform vec2 u_inverseGridScale;   // grid pixels per output pixel
uniform vec2 u_pixelSize;          // the output's size
uniform int u_tilesAcross;

const int TILE = 4;

void main() {
    int tx = gl_InstanceID % u_tilesAcross, ty = gl_InstanceID / u_tilesAcross;
    int a = tx * TILE, b = min(a + TILE, u_gridSize.x);
    int c = ty * TILE, d = min(c + TILE, u_gridSize.y);
    float opaque = texelFetch(u_tiles, ivec2(tx, ty), 0).x;
    // Every pixel centre whose taps lie in the block, and a thousandth of a pixel more on each side
    // (a centre on an edge is in both blocks); the first and last blocks reach past the frame's
    // edges (where the upsample clamps its taps to them).
    float far = 1e6;
    float x0 = a == 0 ? -far : float(a) / u_inverseGridScale.x - 1e-3;
    float x1 = b >= u_gridSize.x ? far : float(b) / u_inverseGridScale.x + 1e-3;
    float H = float(u_gridSize.y);
    float y0 = d >= u_gridSize.y ? -far : (H - float(d)) / u_inverseGridScale.y - 1e-3;
    float y1 = c == 0 ? far : (H - float(c)) / u_inverseGridScale.y + 1e-3;
    if (opaque > 0.5) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);   // outside the clip volume: nothing drawn
        return;
    }
    // Two triangles: corners (0,0) (1,0) (0,1), (0,1) (1,0) (1,1).
    int k = gl_VertexID;
    float fx = (k == 1 || k == 4 || k == 5) ? 1.0 : 0.0;
    float fy = (k == 2 || k == 3 || k == 5) ? 1.0 : 0.0;
    float x = mix(x0, x1, fx);
    // Welkin's y (top-down) to GL's window y (bottom-up).
    float y = u_pixelSize.y - mix(y0, y1, fy);
    gl_Position = vec4(x / u_pixelSize.x * 2.0 - 1.0, y / u_pixelSize.y * 2.0 - 1.0, 0.0, 1.0);
}
