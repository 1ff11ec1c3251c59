// sprite.glsl: the procedural particle sprites, evaluated per pixel.
//
// Mirrors WelkinCore's SpriteShape (Sources/WelkinCore/Particles/SpriteShape.swift) line for line:
// same names, same constants, same order of operations. q is the pixel in the sprite's local frame
// (along its axis, across it), in pixels from its centre. Every function is exactly 0 outside
// spriteSupport, and the quad drawn is the support grown by one pixel.

// SPRITE_* (SpriteKind codes), FLAKE_ARM_WIDTH (SpriteShape.flakeArmWidth) and BLUR_REACH
// (SpriteShape.blurReach) come from the constants prelude (ShaderConstants.swift).
const float flakeArmWidth = FLAKE_ARM_WIDTH;
const float blurReach = BLUR_REACH;
const vec3 cloudPuffs[3] = vec3[3](vec3(-0.45, 0.15, 0.5), vec3(0.0, -0.15, 0.6), vec3(0.45, 0.15, 0.5));

// Half extents in the local frame outside which the sprite is 0 (blur in pixels).
vec2 spriteSupport(int kind, vec2 size, float blur) {
    float r = size.x * 0.5;
    if (kind == SPRITE_DOT) return vec2(r + 0.5);
    if (kind == SPRITE_SOFT_DOT) return vec2(r + blurReach * blur + 0.5);
    if (kind == SPRITE_FLAKE) return vec2(r + max(0.5, size.x * flakeArmWidth) + 0.5);
    if (kind == SPRITE_STREAK) return size * 0.5 + 0.5;
    if (kind == SPRITE_CLOUD) return vec2(r + max(1.0, blur) + 0.5);
    return size * 0.5;
}

// Abramowitz and Stegun 7.1.26: erfc(x) for x ≥ 0; erfc(−x) = 2 − erfc(x).
float erfcApprox(float x) {
    float z = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * z);
    float poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    float e = poly * exp(-z * z);
    return x >= 0.0 ? e : 2.0 - e;
}

// C's atan2f: GLSL's atan(y, x) is undefined at the origin, where atan2f gives 0.
float spriteAtan2(float y, float x) {
    if (x == 0.0 && y == 0.0) return 0.0;
    return atan(y, x);
}

// Coverage 0…1 of a procedural sprite at local point q.
float spriteCoverage(int kind, vec2 q, vec2 size, float blur) {
    vec2 h = spriteSupport(kind, size, blur);
    if (abs(q.x) >= h.x || abs(q.y) >= h.y) return 0.0;
    float r = size.x * 0.5;
    float d = sqrt(q.x * q.x + q.y * q.y);
    if (kind == SPRITE_DOT) {
        return min(max(r - d + 0.5, 0.0), 1.0);
    }
    if (kind == SPRITE_SOFT_DOT) {
        if (blur <= 0.0) return min(max(r - d + 0.5, 0.0), 1.0);
        if (d >= r + blurReach * blur) return 0.0;
        return 0.5 * erfcApprox((d - r) / (blur * 1.41421356));
    }
    if (kind == SPRITE_FLAKE) {
        // Fold the angle into one 60° sector around +x; distance to the arm from 0 to r.
        float w = max(0.5, size.x * flakeArmWidth);
        const float sector = 1.04719755;
        float angle = spriteAtan2(q.y, q.x);
        float folded = angle - sector * floor(angle / sector + 0.5);
        float x = d * cos(folded), y = d * sin(folded);
        float along = min(max(x, 0.0), r);
        float dist = sqrt((x - along) * (x - along) + y * y);
        return min(max(w - dist + 0.5, 0.0), 1.0);
    }
    if (kind == SPRITE_STREAK) {
        float halfLength = size.x * 0.5, radius = size.y * 0.5;
        float reach = max(halfLength - radius, 0.0);
        float along = min(max(q.x, -reach), reach);
        float dist = sqrt((q.x - along) * (q.x - along) + q.y * q.y);
        float edge = min(max(radius - dist + 0.5, 0.0), 1.0);
        float fade = min(max((q.x + halfLength) / size.x, 0.0), 1.0);
        return edge * fade;
    }
    if (kind == SPRITE_CLOUD) {
        float e = max(1.0, blur);
        float c = 0.0;
        for (int i = 0; i < 3; i++) {
            vec3 puff = cloudPuffs[i];
            float dx = q.x - puff.x * r, dy = q.y - puff.y * r;
            float dist = sqrt(dx * dx + dy * dy);
            c = max(c, min(max((puff.z * r - dist) / e + 0.5, 0.0), 1.0));
        }
        return c;
    }
    return 0.0;
}
