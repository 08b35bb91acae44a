// Host for vscale/kernel.cl: 3 float4 through saxpy4, 2 float8 through shape.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    float x[12], y[12];
    for (int i = 0; i < 12; i++) x[i] = 0.25f * i - 1.0f, y[i] = 1.0f * (i % 5);
    const float a = 1.5f;
    const int n4 = 3;
    hlsinstr_emu::run("saxpy4", {x, y, a, n4});
    for (int i = 0; i < 12; i++) std::printf("saxpy %d %.6g\n", i, y[i]);
    float in[16], out[16];
    int q[8];
    for (int i = 0; i < 16; i++) in[i] = 0.6f * i - 3.0f;
    const int n8 = 2;
    hlsinstr_emu::run("shape", {in, out, q, n8});
    for (int i = 0; i < 16; i++) std::printf("shape %d %.6g\n", i, out[i]);
    for (int i = 0; i < 8; i++) std::printf("q %d %d\n", i, q[i]);
    return 0;
}
