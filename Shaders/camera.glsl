// camera.glsl: output pixels → the direction they look at, and → the pixel of the panorama view the
// sky's parts were resolved for. Mirrors WelkinSkyModel's SkyProjection (Sources/WelkinSkyModel/Sky/Projection.swift)
// line for line: same names, same order of operations.

#ifndef WELKIN_CAMERA_GLSL
#define WELKIN_CAMERA_GLSL

// SkyProjection.Kind: PROJECTION_EQUIRECT, _RECTILINEAR, _FISHEYE, _PANORAMA (the constants prelude).

struct SkyProjection {
    int kind;
    vec2 center;
    vec2 scale;
    float limit;
    float azimuth;
    vec3 right;
    vec3 up;
    vec3 forward;
    float viewAzimuth;
    vec2 viewCenter;
    float inverseViewDegreesPerPixel;
};
uniform SkyProjection u_projection;

// The projection's kind is constant over a draw: compiled in (WELKIN_PROJECTION_KIND, SkyProjection.Kind),
// so a CPU rasteriser runs one projection, not all four on every pixel. u_projection.kind stays in
// the struct for code export, which reads it.
#ifndef WELKIN_PROJECTION_KIND
#error camera.glsl is built with WELKIN_PROJECTION_KIND (SkyPass.Variant, CloudsPass.MarchVariant)
#endif
const int projectionKind = WELKIN_PROJECTION_KIND;

// The direction output pixel p looks at as (azimuth, elevation) in degrees; false outside a fisheye's circle.
bool projectionAngles(vec2 p, out vec2 angles) {
    vec3 v;
    if (projectionKind == PROJECTION_EQUIRECT) {
        angles = vec2(p.x * u_projection.scale.x, 90.0 - p.y * u_projection.scale.y);
        return true;
    } else if (projectionKind == PROJECTION_PANORAMA) {
        angles = vec2(u_projection.azimuth + (p.x - u_projection.center.x) * u_projection.scale.x,
                      (u_projection.center.y - p.y) * u_projection.scale.y);
        return true;
    } else if (projectionKind == PROJECTION_RECTILINEAR) {
        v = u_projection.forward + u_projection.right * ((p.x - u_projection.center.x) * u_projection.scale.x)
            + u_projection.up * ((u_projection.center.y - p.y) * u_projection.scale.y);
    } else {
        vec2 q = vec2(p.x - u_projection.center.x, u_projection.center.y - p.y) * u_projection.scale.x;
        float theta = sqrt(q.x * q.x + q.y * q.y);
        if (theta > u_projection.limit) { angles = vec2(0.0); return false; }
        float s = theta > 1e-6 ? sin(theta) / theta : 1.0;
        v = u_projection.forward * cos(theta) + (u_projection.right * q.x + u_projection.up * q.y) * s;
    }
    float degrees = 180.0 / PI;
    angles = vec2(atan(v.x, v.y) * degrees, atan(v.z, sqrt(v.x * v.x + v.y * v.y)) * degrees);
    return true;
}

// The panorama view's pixel looking where output pixel p does; false where nothing is drawn.
bool projectionViewPixel(vec2 p, out vec2 view) {
    vec2 a;
    if (!projectionAngles(p, a)) { view = vec2(0.0); return false; }
    float d = a.x - u_projection.viewAzimuth;
    d = d - 360.0 * floor(d * (1.0 / 360.0) + 0.5);
    view = vec2(u_projection.viewCenter.x + d * u_projection.inverseViewDegreesPerPixel,
                u_projection.viewCenter.y - a.y * u_projection.inverseViewDegreesPerPixel);
    return true;
}

#endif
