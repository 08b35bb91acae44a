#include "kernel.h"

static int dot(const int a[CP_MAX + 1], const int b[CP_MAX + 1], int n) {
#pragma HLS INLINE off
  int acc = 0;
mac:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=256
#pragma HLS PIPELINE II=1
    acc += a[i] * b[i];
  }
  return acc;
}

void corr_pair(const int x[CP_MAX + 1], const int y[CP_MAX + 1], int n, int *cross, int *lag1) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS INTERFACE mode=ap_memory port=x storage_type=ram_1p
#pragma HLS INTERFACE mode=ap_memory port=y storage_type=ram_1p
  if (n < 1) n = 1;
  if (n > CP_MAX) n = CP_MAX;
  // dot: x and y are two memories, one read each per iteration: II=1.
  *cross = dot(x, y, n);
  // dot_1: both operands come from the single port of y (y[i] and y[i+1]): II=2.
  *lag1 = dot(y, y + 1, n);
}
