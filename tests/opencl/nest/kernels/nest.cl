// Perfect loop nests for `#pragma loop_coalesce`: probed as one unit where probes become
// hardware (begin and end around the outer loop, the trip count in the innermost body), so the
// nest the compiler coalesces is the one written here. `first_negative` leaves its inner loop
// with a break: not a perfect nest, a probe per loop.
#define ROWS 4
#define COLS 3

__kernel void scale(__global int *restrict a, int rows) {
  #pragma loop_coalesce 2
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < COLS; j++) {
      a[i * COLS + j] *= 2;
    }
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void cube(__global int *restrict a) {
  #pragma loop_coalesce
  plane: for (int i = 0; i < 2; i++)
    row: for (int j = 0; j < ROWS; j++)
      col: for (int k = 0; k < COLS; k++)
        a[(i * ROWS + j) * COLS + k] += i + j + k;
}

__kernel void first_negative(__global int *restrict a) {
  for (int i = 0; i < ROWS; i++) {
    for (int j = 0; j < COLS; j++) {
      if (a[i * COLS + j] < 0) break;
      a[i * COLS + j] = 0;
    }
  }
}
