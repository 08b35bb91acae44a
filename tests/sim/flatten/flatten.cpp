#include "flatten.h"

static int cube(const int in[FL_MAX * FL_MAX], int cols) {
  int acc = 0;
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 3; q++)
      for (int r = 0; r < cols; r++) acc += in[p * 3 * FL_MAX + q * FL_MAX + r] & 15;
  return acc;
}

void grid_top(const int in[FL_MAX * FL_MAX], int out[FL_MAX * FL_MAX], int rows, int cols) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0 depth=4096
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem1 depth=4096
Row:
  for (int i = 0; i < FL_ROWS; i++) {
  Col:
    for (int j = 0; j < FL_COLS; j++) {
#pragma HLS PIPELINE II=1
      out[i * FL_COLS + j] = in[i * FL_COLS + j] * 2;
    }
  }
Tile_Row:
  for (int i = 0; i < rows; i++) {
  Tile_Col:
    for (int j = 0; j < cols; j++) {
#pragma HLS PIPELINE II=1
      out[FL_ROWS * FL_COLS + i * FL_MAX + j] = in[i * FL_MAX + j] + 1;
    }
  }
  out[FL_MAX * FL_MAX - 1] = cube(in, cols);
}
