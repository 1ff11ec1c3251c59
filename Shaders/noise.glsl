// noise.glsl: integer hashing and value noise, bit for bit as WelkinCore's Noise
// (Sources/WelkinCore/Sky/Noise.swift): same names, same constants, same order of operations.
// The hash is exact integer arithmetic; the noise is continuous, so a one-ulp rounding difference
// between GPU and CPU stays a one-ulp difference. No sin-based hashing.

// A 32-bit integer hash with good avalanche (lowbias32).
uint hash32(uint value) {
    uint x = value;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// The hash of an integer lattice cell and a seed.
uint hashCell(int x, int y, uint seed) {
    return hash32(uint(x) ^ hash32(uint(y) ^ hash32(seed)));
}

// The next hash in a sequence drawn from one cell.
uint hashNext(uint h) {
    return hash32(h ^ 0x9e3779b9u);
}

// A hash as a float in [0, 1), from its top 24 bits (exact in float).
float unitFloat(uint h) {
    return float(h >> 8) * (1.0 / 16777216.0);
}

// a + (b − a)·t, written out so both paths round the same way.
float lerp(float a, float b, float t) {
    return a + (b - a) * t;
}

// Value noise in [0, 1): lattice values from hashCell, smoothstep-interpolated (C1).
float valueNoise(float x, float y, uint seed) {
    float ix = floor(x), iy = floor(y);
    float fx = x - ix, fy = y - iy;
    int cx = int(ix), cy = int(iy);
    // hashCell's inner hashes, shared by the four corners (the same values, fewer hashes).
    uint hs = hash32(seed);
    uint h0 = hash32(uint(cy) ^ hs), h1 = hash32(uint(cy + 1) ^ hs);
    uint x0 = uint(cx), x1 = uint(cx + 1);
    float a = unitFloat(hash32(x0 ^ h0));
    float b = unitFloat(hash32(x1 ^ h0));
    float c = unitFloat(hash32(x0 ^ h1));
    float d = unitFloat(hash32(x1 ^ h1));
    float ux = fx * fx * (3.0 - 2.0 * fx);
    float uy = fy * fy * (3.0 - 2.0 * fy);
    return lerp(lerp(a, b, ux), lerp(c, d, ux), uy);
}

// Fractal Brownian motion: octaves of value noise at doubling frequency and halving amplitude,
// turned by a fixed rotation (0.8, 0.6). Normalised to [0, 1).
float fbm(float x, float y, uint seed, int octaves) {
    float px = x, py = y;
    float sum = 0.0, amplitude = 0.5, total = 0.0;
    uint s = seed;
    for (int i = 0; i < octaves; i++) {
        sum += amplitude * valueNoise(px, py, s);
        total += amplitude;
        float nx = 1.6 * px - 1.2 * py + 17.0;
        float ny = 1.2 * px + 1.6 * py - 31.0;
        px = nx; py = ny;
        amplitude *= 0.5;
        s = s + 0x68e31da4u;
    }
    return sum / total;
}
