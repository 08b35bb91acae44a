/* Plain C reference for nbody/kernel.cl. */
#include <math.h>
#include <stdio.h>

int main(void) {
    float pos[32], vel[32], out[32];
    for (int i = 0; i < 8; i++) {
        pos[4 * i] = (float)(i % 3) - 1.0f;
        pos[4 * i + 1] = 0.5f * (float)(i % 4);
        pos[4 * i + 2] = 0.25f * (float)i - 1.0f;
        pos[4 * i + 3] = 1.0f + 0.1f * (float)i;
        vel[4 * i] = 0.1f * (float)i, vel[4 * i + 1] = -0.05f * (float)i, vel[4 * i + 2] = 0.02f, vel[4 * i + 3] = 0.0f;
    }
    for (int i = 0; i < 8; i++) {
        float *p = &pos[4 * i], acc[3] = {0, 0, 0};
        for (int j = 0; j < 8; j++) {
            float *q = &pos[4 * j];
            float d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
            float r2 = fmaf(d[0], d[0], fmaf(d[1], d[1], fmaf(d[2], d[2], 0.01f)));
            float inv = 1.0f / sqrtf(r2);
            float s = q[3] * inv * inv * inv;
            for (int k = 0; k < 3; k++) acc[k] += d[k] * s;
        }
        float v[4];
        for (int k = 0; k < 3; k++) v[k] = vel[4 * i + k] + acc[k] * 0.01f;
        v[3] = vel[4 * i + 3] + 0.0f;
        for (int k = 0; k < 4; k++) vel[4 * i + k] = v[k];
        float c[3] = {v[1] * 1.0f - v[2] * 0.0f, v[2] * 0.0f - v[0] * 1.0f, v[0] * 0.0f - v[1] * 0.0f};
        float cl = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        float ax = cl == 0 ? c[0] : c[0] / cl, ay = cl == 0 ? c[1] : c[1] / cl;
        out[4 * i] = p[0] + v[0] * 0.01f;
        out[4 * i + 1] = p[1] + v[1] * 0.01f;
        out[4 * i + 2] = sqrtf(acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2]);
        out[4 * i + 3] = ax + ay;
    }
    for (int i = 0; i < 32; i++) printf("out %d %.6g\n", i, out[i]);
    for (int i = 0; i < 32; i++) printf("vel %d %.6g\n", i, vel[i]);
    return 0;
}
