// The C baseline for `welkin bench`'s sim.1m entries: a plain loop, compiled -O3 (Package.swift).
#include "sim_baseline.h"

int welkin_sim_step(float *restrict px, float *restrict py, float *restrict vx, float *restrict vy,
                    float *restrict age, const float *restrict lifetime,
                    long count, float decay, float b, float c, float ax, float ay, float dt) {
    const float cx = ax * c, cy = ay * c, bx = ax * b, by = ay * b;
    int dead = 0;
    for (long i = 0; i < count; i++) {
        float u = vx[i], v = vy[i];
        px[i] = px[i] + u * b + cx;
        py[i] = py[i] + v * b + cy;
        vx[i] = u * decay + bx;
        vy[i] = v * decay + by;
        float a = age[i] + dt;
        age[i] = a;
        dead |= a >= lifetime[i];
    }
    return dead;
}
