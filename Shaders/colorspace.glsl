// colorspace.glsl: colour spaces for gradient interpolation.
//
// Mirrors WelkinSkyModel's ColorMath (Sources/WelkinSkyModel/Color/ColorSpace.swift) with the same
// constants and the same order of operations. Space codes match ColorSpace.code.

// COLOR_SPACE_* (ColorSpace.code) come from the constants prelude (ShaderConstants.swift).

// sRGB electro-optical transfer: encoded → linear.
float srgbToLinear(float c) {
    float a = abs(c);
    float v = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4);
    return c < 0.0 ? -v : v;
}

// Inverse transfer: linear → encoded.
float linearToSRGB(float c) {
    float a = abs(c);
    float v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1.0 / 2.4) - 0.055;
    return c < 0.0 ? -v : v;
}

// Linear → encoded for c in [0, 1] without pow: above the linear toe, a degree-5 polynomial in
// c^(1/4), fitted minimax to 1.055·c^(1/2.4) − 0.055; within 7e-6 of linearToSRGB, increasing
// but for a 7e-6 step down at the toe.
// ColorMath.encodeSRGBUnit on the CPU: same constants, same order.
float encodeSRGBUnit(float c) {
    float t = sqrt(sqrt(c));
    float v = -0.068148486;
    v = v * t + 0.28953743;
    v = v * t - 0.57748955;
    v = v * t + 1.2554096;
    v = v * t + 0.16202442;
    v = v * t - 0.061339982;
    return c <= 0.0031308 ? c * 12.92 : v;
}

vec3 encodeSRGBUnit(vec3 c) {
    return vec3(encodeSRGBUnit(c.x), encodeSRGBUnit(c.y), encodeSRGBUnit(c.z));
}

vec3 srgbToLinear(vec3 c) {
    return vec3(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z));
}

vec3 linearToSRGB(vec3 c) {
    return vec3(linearToSRGB(c.x), linearToSRGB(c.y), linearToSRGB(c.z));
}

// C's cbrtf: GLSL's pow is undefined for negative x.
float cbrt(float x) {
    float r = pow(abs(x), 1.0 / 3.0);
    return x < 0.0 ? -r : r;
}

// Linear sRGB → OKLab.
vec3 linearToOklab(vec3 c) {
    float l = 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z;
    float m = 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z;
    float s = 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z;
    float l_ = cbrt(l), m_ = cbrt(m), s_ = cbrt(s);
    return vec3(0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_);
}

// OKLab → linear sRGB.
vec3 oklabToLinear(vec3 c) {
    float l_ = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z;
    float m_ = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z;
    float s_ = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z;
    float l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
    return vec3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s);
}

// Premultiplied components in `space` → premultiplied sRGB-encoded (what compositing uses).
// Not clamped: the working space is extended sRGB, and only the output transform clips.
vec4 fromInterpolationSpace(vec4 p, int space) {
    if (space == COLOR_SPACE_SRGB) return p;
    float a = p.w;
    if (a <= 0.0) return vec4(0.0);
    vec3 v = p.xyz / a;
    vec3 rgb;
    if (space == COLOR_SPACE_LINEAR_SRGB) rgb = linearToSRGB(v);
    else rgb = linearToSRGB(oklabToLinear(v));
    return vec4(rgb * a, a);
}

// A premultiplied sRGB-encoded colour as premultiplied linear light (scene-linear output).
// ColorMath.linearizePremultiplied on the CPU.
vec4 linearizePremultiplied(vec4 c) {
    if (!(c.w > 0.0)) return vec4(0.0);
    vec3 straight = c.xyz / c.w;
    vec3 l = srgbToLinear(straight) * c.w;
    return vec4(l, c.w);
}
