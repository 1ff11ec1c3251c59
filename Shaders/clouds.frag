#version 330 core
// clouds.frag: the `clouds` layer's march, one fragment per grid pixel (clouds.glsl), into the
// pass's grid target; clouds-upsample.frag then composites it at the output's size.

#include "clouds.glsl"

out vec4 fragColor;

void main() {
    // The grid's rows top-down, as CloudsRaster fills them.
    int gx = int(gl_FragCoord.x);
    int gy = u_clouds.gridSize.y - 1 - int(gl_FragCoord.y);
    fragColor = cloudsColor(gx, gy);
}
