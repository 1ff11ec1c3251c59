#version 330 core
// text.vert: one glyph per instance, a quad of four vertices (triangle strip) on whole pixels.
//
// The per-instance attributes are WelkinText's GlyphQuad fields under the same names: the quad's
// top-left pixel and size (y down) and the top-left texel of its coverage in the atlas. The quad's
// edges lie on pixel edges, so it covers exactly the pixels it copies.

layout(location = 0) in ivec2 origin;
layout(location = 1) in ivec2 size;
layout(location = 2) in ivec2 atlasOrigin;

uniform vec2 u_pixelSize;

flat out ivec2 v_origin;
flat out ivec2 v_atlasOrigin;

void main() {
    ivec2 corner = ivec2(gl_VertexID & 1, (gl_VertexID >> 1) & 1);
    vec2 p = vec2(origin + corner * size);
    gl_Position = vec4(p.x / u_pixelSize.x * 2.0 - 1.0, 1.0 - p.y / u_pixelSize.y * 2.0, 0.0, 1.0);
    v_origin = origin;
    v_atlasOrigin = atlasOrigin;
}
