// Three calls with rows = 1, 7, 16 (the flattened Row_Col loop runs 32, 224, 512 trips).
#include <cstdio>

#include "kernel.h"

int main() {
  static int a[BL_ROWS][BL_COLS], b[BL_ROWS][BL_COLS], out[BL_ROWS][BL_COLS];
  const int rows[3] = {1, 7, 16};
  const int alphas[3] = {64, 200, 128};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    for (int r = 0; r < BL_ROWS; r++)
      for (int c = 0; c < BL_COLS; c++) {
        a[r][c] = (r * 11 + c * 5 + call) % 256;
        b[r][c] = (r * 3 + c * 17 + 2 * call) % 256;
      }
    blend(a, b, out, rows[call], alphas[call]);
    for (int r = 0; r < rows[call]; r++)
      for (int c = 0; c < BL_COLS; c++)
        errors += out[r][c] != ((a[r][c] * alphas[call] + b[r][c] * (256 - alphas[call])) >> 8);
  }
  std::printf("11_flattened_nest: %d errors\n", errors);
  return errors != 0;
}
