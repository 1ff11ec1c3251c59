#version 330 core
// gradient-band.vert: one band of a linear gradient, drawn as geometry.
//
// Along a linear gradient the colour is affine in pixel position between two stops, so the
// renderer cuts the frame into bands (one per stop segment, plus the two pads), each a convex
// polygon with the colour at its corners; the rasteriser then interpolates the colour exactly as
// the per-pixel maths would, and gradient-band.frag does almost nothing. See GradientBands.swift.

uniform vec2 u_pixelSize;

in vec2 a_position;   // pixels, y down (Welkin's pixel space)
in vec4 a_color;      // premultiplied, in the interpolation space
in vec2 a_band;       // the clamped t this band owns: [a_band.x, a_band.y)

noperspective out vec4 v_color;
flat out vec2 v_band;

void main() {
    vec2 clip = a_position / u_pixelSize * 2.0 - 1.0;
    gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
    v_color = a_color;
    v_band = a_band;
}
