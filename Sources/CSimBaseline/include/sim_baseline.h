// The plain C particle update `welkin bench` holds the Swift simulation to (sim.1m.c).
#ifndef WELKIN_SIM_BASELINE_H
#define WELKIN_SIM_BASELINE_H

/// One step of ParticleKernel.step in Sources/WelkinCore/Particles/ParticleStore.swift, the same
/// maths: p += v·b + a·c; v = v·decay + a·b; age += dt. Returns 1 when some age reached its lifetime.
int welkin_sim_step(float *px, float *py, float *vx, float *vy, float *age, const float *lifetime,
                    long count, float decay, float b, float c, float ax, float ay, float dt);

#endif
