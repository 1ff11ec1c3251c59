// clouds.frag: drifting fair-weather clouds for Scenes/shadertoy-clouds.json, written as a
// Shadertoy image shader: no #version, no main, just mainImage. Welkin wraps it (docs/shaders.md,
// "Shadertoy shaders") and feeds iTime, iResolution and iChannel0, a 64×64 texture of noise bytes
// (Scenes/noise-rgba.png, linear filter, repeat), so the file runs unchanged on shadertoy.com with
// that texture in channel 0.

// Value noise from the texture: one texel per lattice point. Smoothing the fraction before the
// bilinear fetch makes the interpolation smooth across texels (no creases along the grid).
float noise(vec2 p) {
    vec2 cell = floor(p);
    vec2 f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return texture(iChannel0, (cell + f + 0.5) / iChannelResolution[0].xy).r;
}

// Five octaves, each turned and shifted so the lattices do not line up.
float fbm(vec2 p) {
    const mat2 turn = mat2(0.8, -0.6, 0.6, 0.8);
    float sum = 0.0, amplitude = 0.5;
    for (int octave = 0; octave < 5; octave++) {
        sum += amplitude * noise(p);
        p = turn * p * 2.03 + vec2(11.3, 5.7);
        amplitude *= 0.5;
    }
    return sum;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;               // (0, 0) bottom-left
    float aspect = iResolution.x / iResolution.y;

    // The sky: deep blue overhead, paler and warmer towards the horizon at the bottom.
    vec3 zenith = vec3(0.20, 0.45, 0.85), horizon = vec3(0.72, 0.84, 0.95);
    vec3 sky = mix(horizon, zenith, pow(uv.y, 0.6));

    // A flat layer of cloud seen from below: screen rows map to distances, so clouds shrink and
    // crowd towards the horizon. The wind blows them along x and slowly towards the viewer.
    float depth = 1.0 / (uv.y + 0.22);
    vec2 p = vec2((uv.x - 0.5) * aspect * depth, depth) * 1.6;
    vec2 wind = vec2(0.35, -0.06) * iTime;
    float warp = fbm(p * 0.6 + wind * 0.4);
    vec2 q = p + wind + 1.2 * vec2(warp, warp * 0.5);
    float density = fbm(q);
    float cover = smoothstep(0.42, 0.72, density);

    // Sunlit tops, grey-blue bases: a cloud is darker where it is thicker a little towards the sun.
    float thickness = fbm(q + vec2(0.10, 0.16));
    float shadow = clamp((thickness - density) * 4.0 + 0.5 * cover, 0.0, 1.0);
    vec3 cloud = mix(vec3(1.0, 0.99, 0.96), vec3(0.58, 0.63, 0.73), shadow);

    // Haze: far clouds melt into the horizon's colour.
    float haze = smoothstep(0.0, 0.35, uv.y);
    vec3 colour = mix(sky, mix(horizon, cloud, haze), cover * mix(0.35, 1.0, haze));
    fragColor = vec4(colour, 1.0);
}
