#include "kernel.h"

void hist_bias(const unsigned char samples[HB_MAX], int hist_out[HB_BINS], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
  // Written to below, so not a ROM: Vitis fills it with a module of its own, hist_bias_Pipeline_1.
  int hist[HB_BINS] = {4, 4, 3, 3, 2, 2, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4};
  if (n < 1) n = 1;
  if (n > HB_MAX) n = HB_MAX;
count:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=2
    hist[samples[i] & (HB_BINS - 1)]++;
  }
copy_out:
  for (int k = 0; k < HB_BINS; k++) {
#pragma HLS PIPELINE II=1
    hist_out[k] = hist[k];
  }
}
