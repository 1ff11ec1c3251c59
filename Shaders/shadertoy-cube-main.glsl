// shadertoy-cube-main.glsl: the main() put after a Cube A file (ShadertoyWrapping), drawn once per
// face of the cube map (UserShaderPass's ShaderBuffers).
//
// rayDir is the direction GL's cube-map lookup takes to this texel of this face, so
// texture(iChannelN, dir) on the finished cube map reads what mainCubemap wrote for dir:
// face + s·sAxis + t·tAxis with s, t the texel centre in −1…1 (the basis per face is
// ShaderBuffers.cubeBases: WelkinSkyModel's CubeFace.glBasis, the GL selection table read backwards).
// rayOri is the origin, as Shadertoy gives it. The colour is kept whole (alpha too), as a buffer's.

uniform mat3 welkin_cubeBasis;   // columns: sAxis, tAxis, the face's outward normal

out vec4 welkin_fragColor;

void main() {
    vec2 st = gl_FragCoord.xy / iResolution.xy * 2.0 - 1.0;
    vec3 direction = normalize(welkin_cubeBasis * vec3(st, 1.0));
    vec4 color = vec4(0.0, 0.0, 0.0, 1.0);
    mainCubemap(color, gl_FragCoord.xy, vec3(0.0), direction);
    welkin_fragColor = color;
}
