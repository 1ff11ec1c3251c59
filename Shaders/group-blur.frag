#version 330 core
// group-blur.frag: a group shadow's separable Gaussian (GroupDraw.blurred, in WelkinCore's Group
// folder), in three passes (GroupPass):
//   WELKIN_BLUR_ALPHA 1: the masked (and transformed) content's alpha, once per pixel, into an R32F
//     target, so the taps below read one texel each instead of redoing the mask and the transform's
//     bilinear read at every tap (the same numbers: each tap read the same value before);
//   WELKIN_BLUR_HORIZONTAL 1: that alpha along the row; 0: the horizontal pass along the column.
// Taps from −r to r in top-down order, those outside the frame skipped (alpha 0), weights from Swift.

#include "pixel.glsl"
#include "group-inputs.glsl"

out vec4 fragColor;

#if WELKIN_BLUR_ALPHA
void main() {
    fragColor = vec4(maskedContent(pixelCoordinate()).w, 0.0, 0.0, 0.0);
}
#else
uniform sampler2D u_horizontal;                  // the pass before: the alpha pass, or the horizontal blur
uniform float u_weights[MAXIMUM_BLUR_TAPS + 1];  // ShadowDraw's kernel half: centre first
uniform int u_taps;

float blurred(ivec2 p) {
    float sum = 0.0;
    for (int k = -u_taps; k <= u_taps; k += 1) {
#if WELKIN_BLUR_HORIZONTAL
        ivec2 q = ivec2(p.x + k, p.y);
        if (q.x >= 0 && q.x < int(u_pixelSize.x)) sum += u_weights[abs(k)] * texelFetch(u_horizontal, texel(q), 0).r;
#else
        ivec2 q = ivec2(p.x, p.y + k);
        if (q.y >= 0 && q.y < int(u_pixelSize.y)) sum += u_weights[abs(k)] * texelFetch(u_horizontal, texel(q), 0).r;
#endif
    }
    return sum;
}

void main() {
    fragColor = vec4(blurred(pixelCoordinate()), 0.0, 0.0, 0.0);
}
#endif
