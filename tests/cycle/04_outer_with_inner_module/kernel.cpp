#include "kernel.h"

void row_norm(const int m[RN_ROWS][RN_COLS], int out[RN_ROWS], int rows, int cols) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
row:
  for (int r = 0; r < rows; r++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=32
    int s = 0;
    // Pipelined inner loop: Vitis moves it into row_norm_Pipeline_sum, called from the row loop.
  sum:
    for (int c = 0; c < cols; c++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=64
#pragma HLS PIPELINE II=1
      int v = m[r][c];
      s += v < 0 ? -v : v;
    }
    out[r] = s + (s >> 3);
  }
}
