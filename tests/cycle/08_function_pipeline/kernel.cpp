#include "kernel.h"

int leading_run(const int v[LR_N], int limit) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS ARRAY_PARTITION variable=v complete dim=1
#pragma HLS PIPELINE II=1
  int sum = 0;
scan:
  for (int i = 0; i < LR_N; i++) {
    if (v[i] > limit) break;
    sum += v[i];
  }
  return sum;
}
