#include "kernel.h"

void memchain(const int idx[MC_MAX], const float v[MC_MAX], const int w[MC_MAX], float *best, int *dot, int n) {
  float m = 0.0f;
scan:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE off
    m = (w[i] > 0 && v[idx[i]] > m) ? v[idx[i]] : m;
  }
  int s = 0;
mac:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE off
    s += w[i] * w[idx[i]];
  }
  *best = m;
  *dot = s;
}
