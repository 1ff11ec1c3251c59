// unit.glsl: clamping to 0…1 and the smoothstep over it, as WelkinSkyModel's clamp01 and smoothUnit
// (Sky/SkyDraw.swift); the sky's and the clouds' shaders share them.

float clamp01(float x) { return min(max(x, 0.0), 1.0); }
float smoothUnit(float x) { float t = clamp01(x); return t * t * (3.0 - 2.0 * t); }
