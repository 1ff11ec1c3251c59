#version 330 core
// clouds-interleave.frag: a `clouds` grid put together from its slices. Each slice marched pixel
// k = x + n·y of every n×n block of the grid into its own band of the slice target (clouds.frag,
// WELKIN_CLOUDS_SLICE: one fragment a pixel, where marching the whole grid with the other pixels
// discarded cost llvmpipe nearly the whole grid each slice): a still viewer frame's 16 slices of
// the final grid (n = 4), a playing frame's four phases of the viewer's grid (n = 2). This pass
// puts every pixel back in its place. The same values, moved.
//
// WELKIN_CLOUDS_REPROJECT (built with WELKIN_PROJECTION_KIND): a playing frame whose camera turned,
// or whose clouds moved too far for the kept phases to stand where they are (CloudsPass.phaseLag), takes
// the phase marched this frame (u_phase) from the slices and every other pixel from the frame
// before's grid (u_history), moved (Nubis' reprojection): the cloud a pixel looks at now, taken on
// the base's shell (its height u_reproject.x km, where a deck is seen from below), stood
// u_reproject.yz km (the wind's drift since that frame, x east, y north) back then, and the frame
// before's camera (u_lastProjection) saw it at a pixel of its grid, read there (historyAt). A turn
// of the camera moves every pixel exactly; the drift, exactly for the base.

uniform sampler2D u_slices;
uniform ivec2 u_gridSize;
uniform int u_sliceRows;
uniform int u_block;

out vec4 fragColor;

#ifdef WELKIN_CLOUDS_REPROJECT
#include "camera.glsl"
#include "clouds-shell.glsl"
uniform SkyProjection u_lastProjection;
uniform sampler2D u_history;
uniform int u_phase;
uniform vec2 u_gridScale;       // output pixels per grid pixel
uniform vec3 u_reproject;       // the base's height (km), the drift since the frame before (km, east, north)

// The output pixel the frame before's camera showed direction v at (camera.glsl's
// projectionAngles undone); false where it showed no such direction.
bool lastPixel(vec3 v, out vec2 p) {
    float degrees = 180.0 / PI;
    if (projectionKind == PROJECTION_EQUIRECT || projectionKind == PROJECTION_PANORAMA) {
        float az = atan(v.x, v.y) * degrees, el = atan(v.z, sqrt(v.x * v.x + v.y * v.y)) * degrees;
        if (projectionKind == PROJECTION_EQUIRECT) {
            az = az - 360.0 * floor(az * (1.0 / 360.0));
            p = vec2(az / u_lastProjection.scale.x, (90.0 - el) / u_lastProjection.scale.y);
        } else {
            float d = az - u_lastProjection.azimuth;
            d = d - 360.0 * floor(d * (1.0 / 360.0) + 0.5);
            p = vec2(u_lastProjection.center.x + d / u_lastProjection.scale.x, u_lastProjection.center.y - el / u_lastProjection.scale.y);
        }
        return true;
    }
    float f = dot(v, u_lastProjection.forward);
    float a = dot(v, u_lastProjection.right), b = dot(v, u_lastProjection.up);
    if (projectionKind == PROJECTION_RECTILINEAR) {
        if (!(f > 1e-4)) { p = vec2(0.0); return false; }
        p = vec2(u_lastProjection.center.x + a / (f * u_lastProjection.scale.x), u_lastProjection.center.y - b / (f * u_lastProjection.scale.y));
        return true;
    }
    float s = sqrt(a * a + b * b);
    float theta = atan(s, f);
    if (theta > u_lastProjection.limit) { p = vec2(0.0); return false; }
    vec2 q = s > 1e-9 ? vec2(a, b) * (theta / s) : vec2(0.0);
    p = vec2(u_lastProjection.center.x + q.x / u_lastProjection.scale.x, u_lastProjection.center.y - q.y / u_lastProjection.scale.x);
    return true;
}

// The unit direction output pixel p looks at (camera.glsl's projectionAngles, as a vector: a
// pinhole's and a fisheye's without the angles' round trip); false outside a fisheye's circle.
bool lookingAt(vec2 p, out vec3 d) {
    if (projectionKind == PROJECTION_RECTILINEAR) {
        d = normalize(u_projection.forward + u_projection.right * ((p.x - u_projection.center.x) * u_projection.scale.x)
                      + u_projection.up * ((u_projection.center.y - p.y) * u_projection.scale.y));
        return true;
    }
    if (projectionKind == PROJECTION_FISHEYE) {
        vec2 q = vec2(p.x - u_projection.center.x, u_projection.center.y - p.y) * u_projection.scale.x;
        float theta = sqrt(q.x * q.x + q.y * q.y);
        if (theta > u_projection.limit) { d = vec3(0.0, 0.0, 1.0); return false; }
        float s = theta > 1e-6 ? sin(theta) / theta : 1.0;
        d = u_projection.forward * cos(theta) + (u_projection.right * q.x + u_projection.up * q.y) * s;
        return true;
    }
    vec2 a;
    projectionAngles(p, a);
    float elr = a.y * (PI / 180.0), azr = a.x * (PI / 180.0);
    float ce = cos(elr);
    d = vec3(ce * sin(azr), ce * cos(azr), sin(elr));
    return true;
}

// The frame before's grid at grid position g (texels, GL's rows), Catmull-Rom in five bilinear
// reads: a bilinear read alone blurs what it moves, and the kept pixels are moved up to three
// frames running before they are marched again. Clamped to the texels around it (no ringing).
vec4 historyAt(vec2 g) {
    vec2 size = vec2(u_gridSize);
    vec2 t1 = floor(g - 0.5) + 0.5;
    vec2 f = g - t1;
    vec2 w0 = f * (-0.5 + f * (1.0 - 0.5 * f));
    vec2 w1 = 1.0 + f * f * (-2.5 + 1.5 * f);
    vec2 w2 = f * (0.5 + f * (2.0 - 1.5 * f));
    vec2 w3 = f * f * (-0.5 + 0.5 * f);
    vec2 w12 = w1 + w2;
    vec2 t0 = (t1 - 1.0) / size, t3 = (t1 + 2.0) / size, t12 = (t1 + w2 / w12) / size;
    // The four corner reads weigh under 0.004 each (at most 1/16 × 1/16): left out, the rest renormalised.
    vec4 c = texture(u_history, vec2(t12.x, t0.y)) * (w12.x * w0.y)
           + texture(u_history, vec2(t0.x, t12.y)) * (w0.x * w12.y) + texture(u_history, vec2(t12.x, t12.y)) * (w12.x * w12.y)
           + texture(u_history, vec2(t3.x, t12.y)) * (w3.x * w12.y) + texture(u_history, vec2(t12.x, t3.y)) * (w12.x * w3.y);
    c = c / (w12.x * w0.y + w0.x * w12.y + w12.x * w12.y + w3.x * w12.y + w12.x * w3.y);
    ivec2 i = clamp(ivec2(floor(g - 0.5)), ivec2(0), u_gridSize - 1), j = min(i + 1, u_gridSize - 1);
    vec4 a = texelFetch(u_history, i, 0), b = texelFetch(u_history, ivec2(j.x, i.y), 0);
    vec4 d = texelFetch(u_history, ivec2(i.x, j.y), 0), e = texelFetch(u_history, j, 0);
    return clamp(c, min(min(a, b), min(d, e)), max(max(a, b), max(d, e)));
}
#endif

void main() {
    // The grid's rows are bottom-up in GL; its pixel (x, y) with y top-down.
    int x = int(gl_FragCoord.x);
    int y = u_gridSize.y - 1 - int(gl_FragCoord.y);
    int n = u_block;
    int slice = x % n + n * (y % n);
    vec4 marched = texelFetch(u_slices, ivec2(x / n, slice * u_sliceRows + u_sliceRows - 1 - y / n), 0);
#ifdef WELKIN_CLOUDS_REPROJECT
    vec2 here = (vec2(float(x), float(y)) + 0.5) * u_gridScale;
    vec3 d;
    vec2 there = here;
    if (slice != u_phase && lookingAt(here, d)) {
        if (d.z > 0.0) {
            // The base's shell along d, and the cloud there the frame before.
            d = d * shellDistance(u_reproject.x, d.z) - vec3(u_reproject.yz, 0.0);
        }
        vec2 p;
        if (lastPixel(d, p)) there = p;
    }
    vec2 g = there / u_gridScale;
    if (slice == u_phase) {
        fragColor = marched;
    } else if (g.x >= 0.0 && g.y >= 0.0 && g.x <= float(u_gridSize.x) && g.y <= float(u_gridSize.y)) {
        // The frame before's grid at that pixel (y up in GL).
        fragColor = historyAt(vec2(g.x, float(u_gridSize.y) - g.y));
    } else {
        // What the frame before did not see (the side a turn reveals): this frame's marched
        // pixels around it (its phase, every n-th pixel of the grid), bilinearly.
        vec2 f = (vec2(float(x), float(y)) - vec2(float(u_phase % n), float(u_phase / n))) / float(n);
        ivec2 band = ivec2((u_gridSize.x - 1 - u_phase % n) / n, (u_gridSize.y - 1 - u_phase / n) / n);
        vec2 c = clamp(f, vec2(0.0), vec2(band));
        ivec2 a = ivec2(floor(c)), b = min(a + 1, band);
        vec2 w = c - vec2(a);
        int row = u_phase * u_sliceRows + u_sliceRows - 1;
        vec4 top = mix(texelFetch(u_slices, ivec2(a.x, row - a.y), 0), texelFetch(u_slices, ivec2(b.x, row - a.y), 0), w.x);
        vec4 bottom = mix(texelFetch(u_slices, ivec2(a.x, row - b.y), 0), texelFetch(u_slices, ivec2(b.x, row - b.y), 0), w.x);
        fragColor = mix(top, bottom, w.y);
    }
#else
    fragColor = marched;
#endif
}
