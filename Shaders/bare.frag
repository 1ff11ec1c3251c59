#version 330 core
// bare.frag: a full-screen pass that does nothing but write a constant; `welkin bench` times it
// as the floor for one pass.

out vec4 fragColor;

void main() {
    fragColor = vec4(0.0, 0.0, 0.0, 1.0);
}
