#include "kernel.h"

void blend(const int a[BL_ROWS][BL_COLS], const int b[BL_ROWS][BL_COLS], int out[BL_ROWS][BL_COLS],
           int rows, int alpha) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
  if (rows < 1) rows = 1;
  if (rows > BL_ROWS) rows = BL_ROWS;
Row:
  for (int r = 0; r < rows; r++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=16
  Col:
    for (int c = 0; c < BL_COLS; c++) {
#pragma HLS PIPELINE II=1
      out[r][c] = (a[r][c] * alpha + b[r][c] * (256 - alpha)) >> 8;
    }
  }
}
