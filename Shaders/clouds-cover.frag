#version 330 core
// clouds-cover.frag: the cover's fragments (clouds-cover.vert) write only the stencil; the colour
// is masked off.

out vec4 fragColor;

void main() {
    fragColor = vec4(0.0);
}
