/* Plain C reference for vscale/kernel.cl (SCALE = 3). */
#include <math.h>
#include <stdio.h>

static float clampf(float x, float lo, float hi) { return x < lo ? lo : hi < x ? hi : x; }
static float smooth(float e0, float e1, float x) { float t = clampf((x - e0) / (e1 - e0), 0, 1); return t * t * (3 - 2 * t); }
static float signf(float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : x; }

int main(void) {
    float x[12], y[12], in[16], out[16];
    int q[8];
    for (int i = 0; i < 12; i++) x[i] = 0.25f * i - 1.0f, y[i] = 1.0f * (i % 5);
    for (int i = 0; i < 12; i++) {
        float t = x[i] * 1.5f;
        t *= 3;
        t += 0.5f;
        y[i] = t * 0.5f + y[i];
        printf("saxpy %d %.6g\n", i, y[i]);
    }
    for (int i = 0; i < 16; i++) in[i] = 0.6f * i - 3.0f;
    for (int i = 0; i < 16; i++) {
        float v = in[i];
        float w = clampf(v * 2.0f - 1.0f, -40.0f, 40.0f);
        w = fmaxf(w, 0.25f) + expf(-fabsf(v)) + logf(1.0f + v * v) + powf(fabsf(v) + 1.0f, 1.5f);
        w = w + (sqrtf(fabsf(w)) - w) * 0.5f + smooth(0.0f, 4.0f, v) + (v < 1.0f ? 0.0f : 1.0f) + signf(v);
        out[i] = w;
    }
    for (int i = 0; i < 16; i++) printf("shape %d %.6g\n", i, out[i]);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 4; k++) {
            float lo = out[8 * i + k] * 1000.0f;
            int r = (int)nearbyintf(lo);
            int s = (int)floorf(out[8 * i + 4 + k]);
            int m = k == 0 ? 1 : k == 1 ? 10 : k == 2 ? 100 : 1000;
            q[4 * i + k] = r + s * m;
        }
    for (int i = 0; i < 8; i++) printf("q %d %d\n", i, q[i]);
    return 0;
}
