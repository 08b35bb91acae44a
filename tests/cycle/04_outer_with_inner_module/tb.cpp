// Four calls with (rows, cols) = (4, 16), (10, 64), (32, 1), (7, 40).
#include <cstdio>

#include "kernel.h"

int main() {
  static int m[RN_ROWS][RN_COLS], out[RN_ROWS];
  const int rows[4] = {4, 10, 32, 7};
  const int cols[4] = {16, 64, 1, 40};
  int errors = 0;
  for (int call = 0; call < 4; call++) {
    for (int r = 0; r < RN_ROWS; r++)
      for (int c = 0; c < RN_COLS; c++) m[r][c] = (r * 31 + c * 17 + call) % 201 - 100;
    row_norm(m, out, rows[call], cols[call]);
    for (int r = 0; r < rows[call]; r++) {
      int s = 0;
      for (int c = 0; c < cols[call]; c++) s += m[r][c] < 0 ? -m[r][c] : m[r][c];
      errors += out[r] != s + (s >> 3);
    }
  }
  std::printf("04_outer_with_inner_module: %d errors\n", errors);
  return errors != 0;
}
