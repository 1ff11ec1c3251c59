#version 330 core
// group-blur.frag: one pass of a group shadow's separable Gaussian (GroupDraw.blurred, in
// WelkinCore's Group folder). Built with WELKIN_BLUR_HORIZONTAL 1: the masked
// content's alpha along the row; with 0: the horizontal pass's result along the column. Taps from
// −r to r in top-down order, those outside the frame skipped (alpha 0), weights from Swift.

#include "pixel.glsl"
#include "group-inputs.glsl"

uniform sampler2D u_horizontal;                  // the horizontal pass (vertical pass only)
uniform float u_weights[MAXIMUM_BLUR_TAPS + 1];  // ShadowDraw's kernel half: centre first
uniform int u_taps;

out vec4 fragColor;

float blurred(ivec2 p) {
    float sum = 0.0;
    for (int k = -u_taps; k <= u_taps; k += 1) {
#if WELKIN_BLUR_HORIZONTAL
        ivec2 q = ivec2(p.x + k, p.y);
        if (q.x >= 0 && q.x < int(u_pixelSize.x)) sum += u_weights[abs(k)] * maskedContent(q).w;
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
