// group-packing.glsl: where a group shadow's blur keeps its rows (GroupPass.packedSize). GL's side
// alone: the CPU reference blurs one row at a time, so there is nothing to mirror.
//
// The blur's targets (group-blur.frag) hold four rows a texel: channel c of packed row j (top-down)
// is pixel row 4j + c; the frame's rows round up to whole packed rows. Needs pixel.glsl's u_pixelSize.

int packedRows() {
    return (int(u_pixelSize.y) + 3) / 4;
}

// GL's texel (bottom-up rows) of packed row j (top-down) at column x.
ivec2 packedTexel(int x, int j) {
    return ivec2(x, packedRows() - 1 - j);
}
