// The image pass of Scenes/star-trails.json: the exposure (Buffer A, star-trails-exposure.frag) over
// a night sky fading to a faint glow of distant towns at the horizon, behind a line of hills.

float hash(float x) { return fract(sin(x * 127.1) * 43758.5453); }

float noise(float x) {
    float i = floor(x), f = fract(x);
    return mix(hash(i), hash(i + 1.0), f * f * (3.0 - 2.0 * f));
}

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;
    // The sky: deep blue overhead, a teal and then warm glow near the horizon.
    vec3 top = vec3(0.010, 0.016, 0.045), middle = vec3(0.025, 0.05, 0.10), low = vec3(0.16, 0.11, 0.09);
    vec3 sky = mix(middle, top, smoothstep(0.25, 1.0, uv.y));
    sky = mix(low, sky, smoothstep(0.0, 0.32, uv.y - 0.1));
    vec3 trails = texelFetch(iChannel0, ivec2(fragCoord), 0).rgb;
    vec3 c = sky + trails * 0.9;
    // The hills: two ridges, the nearer darker.
    float x = uv.x * 6.0;
    float far = 0.14 + 0.05 * noise(x * 1.3 + 4.0) + 0.02 * noise(x * 4.1);
    float near = 0.07 + 0.07 * noise(x * 0.8 + 11.0) + 0.012 * noise(x * 9.0);
    float edge = 1.0 / iResolution.y;
    c = mix(c, vec3(0.030, 0.032, 0.045), smoothstep(far + edge, far - edge, uv.y));
    c = mix(c, vec3(0.010, 0.011, 0.016), smoothstep(near + edge, near - edge, uv.y));
    fragColor = vec4(c, 1.0);
}
