#version 330 core
// mesh.frag: one mesh gradient layer (see composite.glsl for how layers reach the picture).
//
// Where triangles overlap (a mesh folding over itself) the later triangle must replace the
// earlier one, not blend over it. So a translucent mesh drawn into the float target is built with
// WELKIN_MESH_OVER_COPY: it composites over a copy of the target taken before the layer, with
// blending off; when the target holds nothing but its clear colour yet (the first layer over the
// background, or a group's first), WELKIN_MESH_OVER_COLOR composites over that colour instead (the
// same numbers, without the copy). An opaque mesh blends as usual (alpha 1 replaces); as the frame's last pass
// (WELKIN_RESOLVE) it composites over the float target, which it does not write.

#include "pixel.glsl"
#include "mesh.glsl"
#include "composite.glsl"

in vec2 v_parameter;
flat in int v_patch;

#ifdef WELKIN_MESH_OVER_COPY
uniform sampler2D u_destinationCopy;
#endif
#ifdef WELKIN_MESH_OVER_COLOR
uniform vec4 u_destinationColor;   // what the target holds everywhere: nothing drawn into it yet
#endif

void main() {
    vec4 source = meshColor(v_patch, v_parameter);
#ifdef WELKIN_MESH_OVER_COPY
    source = source + texelFetch(u_destinationCopy, ivec2(gl_FragCoord.xy), 0) * (1.0 - source.w);
#endif
#ifdef WELKIN_MESH_OVER_COLOR
    source = source + u_destinationColor * (1.0 - source.w);
#endif
    writeLayer(source);
}
