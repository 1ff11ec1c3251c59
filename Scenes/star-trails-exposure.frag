// Buffer A of Scenes/star-trails.json: a long exposure of the turning sky, kept from frame to frame.
// Each frame adds the stars where they are now to what the buffer held (it reads its own last frame
// on iChannel0), keeping the brighter of the two, so each star draws its arc around the celestial
// pole as a camera left open for hours would. The sky turns once every 240 s here (the real one
// takes a sidereal day), so arcs grow visibly while you watch.

const float TURN = 6.28318530718;

float hash(vec2 p) {
    p = fract(p * vec2(123.34, 456.21));
    p += dot(p, p + 45.32);
    return fract(p.x * p.y);
}

// The light of the stars at pixel p with the sky turned by `angle` about `pole`. Stars sit in
// polar cells (rings `ring` pixels wide, each cut into sectors about `ring` long), at most one a
// cell, kept clear of the ring's edges so a star's core never straddles two rings.
vec3 stars(vec2 p, vec2 pole, float angle, float ring, float sigma) {
    vec2 d = p - pole;
    float r = length(d);
    float band = floor(r / ring);
    float sectors = max(1.0, floor(TURN * (band + 0.5)));
    float theta = atan(d.y, d.x) - angle;
    float k = floor(fract(theta / TURN) * sectors);
    vec3 light = vec3(0.0);
    for (int j = -1; j <= 1; j++) {
        float cell = mod(k + float(j), sectors);
        vec2 id = vec2(band, cell);
        if (hash(id + 0.31) > 0.22) continue;                  // about 2 cells in 10 hold a star
        float sr = (band + 0.25 + 0.5 * hash(id + 1.7)) * ring;
        float st = (cell + hash(id + 5.3)) / sectors * TURN + angle;
        vec2 s = pole + sr * vec2(cos(st), sin(st));
        float m = hash(id + 9.1);
        float brightness = 0.04 + 1.2 * pow(m, 8.0);              // many faint, a few bright
        float warm = hash(id + 2.9);
        vec3 tint = warm < 0.2 ? vec3(1.0, 0.72, 0.48) : warm > 0.8 ? vec3(0.7, 0.82, 1.0) : vec3(0.95, 0.95, 1.0);
        float e = length(p - s) / sigma;
        light += tint * brightness * exp(-0.5 * e * e);
    }
    return light;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    float s = iResolution.y / 360.0;
    vec2 pole = vec2(0.5 * iResolution.x, 1.18 * iResolution.y);
    float angle = iTime * TURN / 240.0;
    vec3 now = stars(fragCoord, pole, angle, 7.0 * s, 0.75 * s);
    vec3 last = iFrame == 0 ? vec3(0.0) : texelFetch(iChannel0, ivec2(fragCoord), 0).rgb;
    fragColor = vec4(max(last, now), 1.0);
}
