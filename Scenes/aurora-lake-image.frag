// Image: a night sky with stars, the aurora from Buffer A, and dark hills reflected in a lake.
vec3 sky(vec2 uv) {
    vec3 c = mix(vec3(0.02, 0.05, 0.09), vec3(0.005, 0.008, 0.025), smoothstep(0.2, 1.0, uv.y));
    // Stars: at most one in each 4×4-pixel cell, a soft point at a hashed place, twinkling.
    vec2 p = uv * iResolution.xy / 4.0;
    vec2 cell = floor(p);
    float h = hash12(cell);
    if (h > 0.975) {
        vec2 at = vec2(hash12(cell + 3.1), hash12(cell + 5.7)) * 0.6 + 0.2;
        float d = length(fract(p) - at) * 4.0;
        float bright = 0.25 + 1.5 * pow(hash12(cell + 7.0), 8.0);
        c += vec3(bright * exp(-d * d * 1.2)) * (0.5 + 0.5 * noise(vec2(h * 100.0, iTime * 3.0)));
    }
    return c + texture(iChannel0, uv).rgb;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;
    float shore = 0.24;
    float hills = shore + 0.02 + 0.12 * fbm(vec2(uv.x * 4.0, 1.0)) * smoothstep(0.0, 0.6, abs(uv.x - 0.45) + 0.1);
    vec3 c;
    if (uv.y > hills) {
        c = sky(uv);
    } else if (uv.y > shore) {
        c = vec3(0.008, 0.01, 0.015);
    } else {
        // The lake: the sky mirrored about the shore, darker, broken by ripples.
        float ripple = (noise(vec2(uv.x * 40.0, uv.y * 300.0 + iTime)) - 0.5) * 0.01;
        vec2 m = vec2(uv.x + ripple, 2.0 * shore - uv.y);
        c = m.y > hills ? sky(m) * 0.6 : vec3(0.006, 0.008, 0.012);
    }
    fragColor = vec4(c, 1.0);
}
