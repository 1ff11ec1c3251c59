// noise.glsl: integer hashing and value noise, bit for bit as WelkinSkyModel's Noise
// (Sources/WelkinSkyModel/Sky/Noise.swift): same names, same constants, same order of operations.
// The hash is exact integer arithmetic; the noise is continuous, so a one-ulp rounding difference
// between GPU and CPU stays a one-ulp difference. No sin-based hashing.

// A 32-bit integer hash with good avalanche (lowbias32).
uint hash32(uint value) {
    uint x = value;
    x ^= x >> 16;
    x *= HASH_MULTIPLIER_1;
    x ^= x >> 15;
    x *= HASH_MULTIPLIER_2;
    x ^= x >> 16;
    return x;
}

// The hash of an integer lattice cell and a seed.
uint hashCell(int x, int y, uint seed) {
    return hash32(uint(x) ^ hash32(uint(y) ^ hash32(seed)));
}

// The next hash in a sequence drawn from one cell.
uint hashNext(uint h) {
    return hash32(h ^ SEQUENCE_STEP);
}

// A hash as a float in [0, 1), from its top 24 bits (exact in float). Through int: the value
// fits, and a signed conversion is one instruction where an unsigned one is several.
float unitFloat(uint h) {
    return float(int(h >> 8)) * (1.0 / 16777216.0);
}

// a + (b − a)·t, written out so both paths round the same way.
float lerp(float a, float b, float t) {
    return a + (b - a) * t;
}

// LATTICE_X and LATTICE_Y, latticeHash's odd multipliers per axis, come with the other shared
// constants in the prelude Welkin puts before every shader (ShaderConstants.swift).

// The mixing step of latticeHash: one multiply by lowbias32's first odd constant (the top bits,
// all that unitFloat and whole24 read, depend on every input bit; see Noise.mixHash).
uint mixHash(uint value) {
    return value * HASH_MULTIPLIER_1;
}

// A hash's top 24 bits as a whole float in [0, 2^24) (exact): unitFloat without its 2^-24.
float whole24(uint h) {
    return float(int(h >> 8));
}

// The hash of lattice point (x, y) for a key (a seed already through hash32).
uint latticeHash(int x, int y, uint key) {
    return mixHash((uint(x) * LATTICE_X) ^ ((uint(y) * LATTICE_Y) ^ key));
}

// Value noise × 2^24, in [0, 2^24): lattice values from latticeHash, smoothstep-interpolated
// (C1). Scaling by a power of two commutes with every rounding here, so × 2^-24 is bit for bit
// the noise of unitFloat lattice values; callers fold that factor into theirs.
float latticeNoise24(float x, float y, uint key) {
    float ix = floor(x), iy = floor(y);
    float fx = x - ix, fy = y - iy;
    int cx = int(ix), cy = int(iy);
    // latticeHash written out for the four corners: (c + 1)·k = c·k + k, so the products are shared.
    uint h0 = (uint(cy) * LATTICE_Y) ^ key, h1 = ((uint(cy) * LATTICE_Y) + LATTICE_Y) ^ key;
    uint x0 = uint(cx) * LATTICE_X, x1 = x0 + LATTICE_X;
    float a = whole24(mixHash(x0 ^ h0));
    float b = whole24(mixHash(x1 ^ h0));
    float c = whole24(mixHash(x0 ^ h1));
    float d = whole24(mixHash(x1 ^ h1));
    float ux = fx * fx * (3.0 - 2.0 * fx);
    float uy = fy * fy * (3.0 - 2.0 * fy);
    return lerp(lerp(a, b, ux), lerp(c, d, ux), uy);
}

// Value noise for a plain seed.
float valueNoise(float x, float y, uint seed) {
    return latticeNoise24(x, y, hash32(seed)) * (1.0 / 16777216.0);
}

// Fractal Brownian motion: octaves of value noise at doubling frequency and halving amplitude,
// turned by a fixed rotation (0.8, 0.6). Normalised to [0, 1). The seed is hashed once; octave i
// is keyed by that hash + i·OCTAVE_KEY_STEP. fbmKeyed takes the hash (a layer's, hashed once per draw).
float fbmKeyed(float x, float y, uint key, int octaves) {
    float px = x, py = y;
    float sum = 0.0, amplitude = 0.5, total = 0.0;
    uint s = key;
    for (int i = 0; i < octaves; i++) {
        sum += (amplitude * (1.0 / 16777216.0)) * latticeNoise24(px, py, s);
        total += amplitude;
        float nx = 1.6 * px - 1.2 * py + 17.0;
        float ny = 1.2 * px + 1.6 * py - 31.0;
        px = nx; py = ny;
        amplitude *= 0.5;
        s = s + OCTAVE_KEY_STEP;
    }
    return sum / total;
}

float fbm(float x, float y, uint seed, int octaves) {
    return fbmKeyed(x, y, hash32(seed), octaves);
}
