#version 330 core
// bare.frag: the floor `welkin bench` measures a frame against: one full-screen pass that does
// nothing but write a per-pixel value into the RGBA8 target.
//
// Why not a constant: llvmpipe recognises a fragment shader whose output does not vary and fills
// the pixels without running it, which is cheaper than any real pass can be. A value read from
// gl_FragCoord cannot be folded, so this pays what every pass pays (rasterising, running a shader
// per 4×4 block, converting to 8 bits, storing) and nothing more.

uniform vec2 u_invSize;   // 1 / the target's size in pixels

out vec4 fragColor;

void main() {
    fragColor = vec4(gl_FragCoord.xy * u_invSize, 0.0, 1.0);
}
