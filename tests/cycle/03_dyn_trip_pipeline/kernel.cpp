#include "kernel.h"

int prefix_sum(const int in[PS_MAX], int out[PS_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
  if (n < 1) n = 1;
  if (n > PS_MAX) n = PS_MAX;
  int acc = 0;
scan:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    acc += in[i];
    out[i] = acc;
  }
  return acc;
}
