// clouds-shell.glsl: the curved Earth's cloud shells, as WelkinSkyModel's CloudsDraw
// (Sources/WelkinSkyModel/Clouds/CloudsDraw.swift) computes them: a point's height over the curved
// ground and the distance along a ray to a shell. The march (clouds.glsl) and the viewer's moving of
// the grid (clouds-interleave.frag) share them.

#ifndef WELKIN_CLOUDS_SHELL_GLSL
#define WELKIN_CLOUDS_SHELL_GLSL

float heightOf(vec3 p) {
    return p.z + (p.x * p.x + p.y * p.y) * CLOUD_CURVATURE;
}

float shellDistance(float h, float dz) {
    float a = (1.0 - dz * dz) * CLOUD_CURVATURE;
    return 2.0 * h / (dz + sqrt(dz * dz + 4.0 * a * h));
}

#endif
