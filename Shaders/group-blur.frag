#version 330 core
// group-blur.frag: a group shadow's separable Gaussian (GroupDraw.blurred, in WelkinCore's Group
// folder), in three passes (GroupPass), into RGBA32F targets that hold four rows a texel
// (group-packing.glsl's packedTexel: channel c of packed row j is pixel row 4j + c), so each tap's
// fetch brings four rows' values and the blur's fetches, which bound it on llvmpipe, are a quarter:
//   WELKIN_BLUR_ALPHA 1: the masked (and transformed) content's alpha, once per pixel, so the taps
//     below read one texel each instead of redoing the mask and the transform's bilinear read at
//     every tap (the same numbers: each tap read the same value before); rows outside u_rows (the
//     rows a later pass reads) are 0, as are the rows past the frame's last;
//   WELKIN_BLUR_HORIZONTAL 1: that alpha along the row, four rows at once; 0: the horizontal pass
//     along the column, each of the four rows with its own taps.
// Every output row sums the same products in the same order as a one-row-a-texel blur would: taps
// from −r to r in top-down order, those outside the frame skipped (alpha 0), weights from Swift.

#include "pixel.glsl"
#include "group-inputs.glsl"
#include "group-packing.glsl"

out vec4 fragColor;

// This fragment's packed texel: (column, packed row j, top-down).
ivec2 packedCoordinate() {
    return ivec2(int(gl_FragCoord.x), packedRows() - 1 - int(gl_FragCoord.y));
}

#if WELKIN_BLUR_ALPHA
uniform ivec2 u_rows;   // [first, end): rows whose alpha a later pass reads; the others 0

void main() {
    ivec2 p = packedCoordinate();
    vec4 alpha = vec4(0.0);
    for (int c = 0; c < 4; c += 1) {
        int y = 4 * p.y + c;
        if (y >= u_rows.x && y < u_rows.y) alpha[c] = maskedContent(ivec2(p.x, y)).w;
    }
    fragColor = alpha;
}
#else
uniform sampler2D u_horizontal;                  // the pass before: the alpha pass, or the horizontal blur
uniform float u_weights[MAXIMUM_BLUR_TAPS + 1];  // ShadowDraw's kernel half: centre first
uniform int u_taps;

#if WELKIN_BLUR_HORIZONTAL
// Four rows along the row at once: the same taps for each.
vec4 blurred(ivec2 p) {
    vec4 sum = vec4(0.0);
    for (int k = -u_taps; k <= u_taps; k += 1) {
        int x = p.x + k;
        if (x >= 0 && x < int(u_pixelSize.x)) sum += u_weights[abs(k)] * texelFetch(u_horizontal, packedTexel(x, p.y), 0);
    }
    return sum;
}
#else
// Rows 4j … 4j + 3 along the column: the packed rows around j in order, and in each its four rows
// in order, every row added to each output row it is a tap of (k = its row − the output's row).
#define TAP(hc, C, sc) { int k = base - C; if (k >= -u_taps && k <= u_taps) sum.sc += u_weights[abs(k)] * h.hc; }
#define ROW(hc, CP) { int base = 4 * m + CP; TAP(hc, 0, x) TAP(hc, 1, y) TAP(hc, 2, z) TAP(hc, 3, w) }
vec4 blurred(ivec2 p) {
    vec4 sum = vec4(0.0);
    int rows = packedRows();
    int reach = (u_taps + 3) / 4;
    for (int m = -reach; m <= reach; m += 1) {
        int j = p.y + m;
        if (j < 0 || j >= rows) continue;   // outside the frame: skipped
        vec4 h = texelFetch(u_horizontal, packedTexel(p.x, j), 0);
        ROW(x, 0) ROW(y, 1) ROW(z, 2) ROW(w, 3)
    }
    return sum;
}
#endif

void main() {
    fragColor = blurred(packedCoordinate());
}
#endif
