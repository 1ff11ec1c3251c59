// pixel.glsl: where this fragment is, in Welkin's pixel space (origin top-left, y down).
//
// GL's window origin is bottom-left; the CPU reference counts rows from the top. Both are exact
// in float: gl_FragCoord holds pixel centres (x + 0.5, y + 0.5).

#ifdef WELKIN_FLAT_PIXEL_SIZE
flat in vec2 v_pixelSize;   // the frame's size in pixels, from a vertex shader that has it (sky.vert)
#define u_pixelSize v_pixelSize
#else
uniform vec2 u_pixelSize;   // the frame's size in pixels
#endif

// The pixel centre in pixel space: (x + 0.5, y + 0.5) with y = 0 the top row.
vec2 pixelPosition() {
    return vec2(gl_FragCoord.x, u_pixelSize.y - gl_FragCoord.y);
}

// The integer pixel coordinate, y = 0 the top row.
ivec2 pixelCoordinate() {
    return ivec2(int(gl_FragCoord.x), int(u_pixelSize.y) - 1 - int(gl_FragCoord.y));
}

// GL's texel (bottom-up rows) of a frame-sized target at a top-down pixel coordinate.
ivec2 texel(ivec2 p) {
    return ivec2(p.x, int(u_pixelSize.y) - 1 - p.y);
}
