// Calls grid_top with tiles of several shapes (the Tile nest's trip count differs per call,
// including calls where one of its loops runs no trip) and checks the outputs.
#include <cstdio>
#include "flatten.h"

int main() {
  static int in[FL_MAX * FL_MAX], out[FL_MAX * FL_MAX];
  for (int i = 0; i < FL_MAX * FL_MAX; i++) in[i] = i % 97;
  const int shapes[4][2] = {{3, 5}, {4, 7}, {0, 9}, {2, 0}};
  int errors = 0;
  for (int s = 0; s < 4; s++) {
    const int rows = shapes[s][0], cols = shapes[s][1];
    grid_top(in, out, rows, cols);
    for (int i = 0; i < FL_ROWS * FL_COLS; i++) errors += out[i] != in[i] * 2;
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) errors += out[FL_ROWS * FL_COLS + i * FL_MAX + j] != in[i * FL_MAX + j] + 1;
    int acc = 0;
    for (int p = 0; p < 2; p++)
      for (int q = 0; q < 3; q++)
        for (int r = 0; r < cols; r++) acc += in[p * 3 * FL_MAX + q * FL_MAX + r] & 15;
    errors += out[FL_MAX * FL_MAX - 1] != acc;
  }
  std::printf("flatten: %d errors\n", errors);
  return errors;
}
