// Buffer A: the aurora's curtains, blended with the last frame so their rays glow and trail as
// they ripple (a camera's exposure would smear them the same way).
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;
    float x = uv.x * iResolution.x / iResolution.y;
    float t = iTime;
    vec3 light = vec3(0);
    for (int k = 0; k < 2; k++) {
        float fk = float(k);
        // Where the curtain's lower edge hangs, folding slowly.
        float base = 0.42 + 0.16 * fk + 0.16 * (fbm(vec2(x * 0.9 + fk * 3.1, t * 0.04 + fk)) - 0.5);
        float above = uv.y - base;
        // Vertical rays that shimmer along the curtain.
        float rays = fbm(vec2(x * 9.0 + 2.0 * fbm(vec2(x * 1.7, t * 0.1 + fk)), t * 0.25 + fk * 5.0));
        rays = pow(rays, 2.5) * 3.0;
        float height = above > 0.0 ? exp(-above / (0.18 + 0.08 * fk)) : exp(above * 60.0);
        vec3 color = mix(vec3(0.15, 1.0, 0.45), vec3(0.55, 0.25, 0.85), smoothstep(0.02, 0.28, above));
        light += color * rays * height * (0.55 - 0.2 * fk);
    }
    vec3 last = texture(iChannel0, uv).rgb;
    fragColor = vec4(iFrame == 0 ? light : mix(light, last, 0.9), 1.0);
}
