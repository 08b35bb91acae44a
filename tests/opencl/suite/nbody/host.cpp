// Host for nbody/kernel.cl: 8 bodies, one step.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    float pos[32], vel[32], out[32];
    for (int i = 0; i < 8; i++) {
        pos[4 * i] = (float)(i % 3) - 1.0f;
        pos[4 * i + 1] = 0.5f * (float)(i % 4);
        pos[4 * i + 2] = 0.25f * (float)i - 1.0f;
        pos[4 * i + 3] = 1.0f + 0.1f * (float)i;
        vel[4 * i] = 0.1f * (float)i, vel[4 * i + 1] = -0.05f * (float)i, vel[4 * i + 2] = 0.02f, vel[4 * i + 3] = 0.0f;
    }
    const int n = 8;
    const float dt = 0.01f, eps2 = 0.01f;
    hlsinstr_emu::run("nbody_step", {pos, vel, out, n, dt, eps2}, hlsinstr_emu::NDRange(8), hlsinstr_emu::NDRange(4));
    for (int i = 0; i < 32; i++) std::printf("out %d %.6g\n", i, out[i]);
    for (int i = 0; i < 32; i++) std::printf("vel %d %.6g\n", i, vel[i]);
    return 0;
}
