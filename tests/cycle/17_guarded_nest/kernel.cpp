#include "kernel.h"

void row_sums(const int m[RS_MAX][RS_MAX], int out[RS_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
  if (n >= 4 && n <= RS_MAX) {
  rows:
    for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE off
      int acc = 0;
    cols:
      for (int j = 0; j < n; j++) {
#pragma HLS PIPELINE off
        acc += m[i][j];
      }
      out[i] = acc;
    }
  }
}
