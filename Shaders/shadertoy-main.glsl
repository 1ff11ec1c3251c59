// shadertoy-main.glsl: the main() put after a user's `mainImage` file (ShadertoyWrapping.swift).
//
// gl_FragCoord is Shadertoy's fragCoord: pixel centres, origin bottom-left. The colour goes out as
// a Welkin user shader's does (straight alpha, sRGB; layer.frag composites it). Alpha is 1, as
// Shadertoy shows its image pass, unless the layer says "alpha": "shader".

// ShadertoyWrapping.alphaUniform: 1 when the layer's "alpha" is "shader". An int, not a bool: SPIR-V
// for OpenGL keeps loose uniforms in UniformConstant, where spirv-val allows no bool (code export).
uniform int welkin_shaderAlpha;

out vec4 welkin_fragColor;

void main() {
    vec4 color = vec4(0.0, 0.0, 0.0, 1.0);
    mainImage(color, gl_FragCoord.xy);
    welkin_fragColor = vec4(color.rgb, welkin_shaderAlpha != 0 ? color.a : 1.0);
}
