/* Plain C reference for nn/kernel.cl. */
#include <math.h>
#include <stdio.h>

int main(void) {
    float loc[20], pts[24], ctr[12];
    for (int i = 0; i < 10; i++) loc[2 * i] = 0.5f * i, loc[2 * i + 1] = 3.0f - 0.25f * i;
    for (int i = 0; i < 10; i++) {
        float dx = loc[2 * i] - 1.5f, dy = loc[2 * i + 1] - 2.0f;
        printf("nn %d %.6g\n", i, sqrtf(dx * dx + dy * dy));
    }
    for (int i = 0; i < 24; i++) pts[i] = (float)((i * 7) % 11) - 4.0f;
    for (int i = 0; i < 12; i++) ctr[i] = (float)((i * 5) % 7) - 2.0f;
    for (int p = 0; p < 6; p++) {
        float best = 3.0e38f;
        int index = 0;
        for (int c = 0; c < 3; c++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += (pts[4 * p + k] - ctr[4 * c + k]) * (pts[4 * p + k] - ctr[4 * c + k]);
            float d = sqrtf(s);
            if (d < best) best = d, index = c;
        }
        printf("km %d %d %.6g\n", p, index, fminf(best, 1000.0f));
    }
    return 0;
}
