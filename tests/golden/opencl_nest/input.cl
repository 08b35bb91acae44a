// Perfect nests under `#pragma loop_coalesce` (Intel FPGA SDK for OpenCL), one imperfect nest
// and one whose inner loop is left by a break.
#define ROWS 4
#define COLS 3

__kernel void scale(__global int *restrict a, int rows) {
  #pragma loop_coalesce 2
  for (int i = 0; i < rows; i++) {
    #pragma unroll 1
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
        a[(i * ROWS + j) * COLS + k] += 1;
}

__kernel void sums(__global const int *restrict a, __global int *restrict out) {
  for (int i = 0; i < ROWS; i++) {
    int s = 0;
    for (int j = 0; j < COLS; j++) s += a[i * COLS + j];
    out[i] = s;
  }
}

__kernel void first_negative(__global int *restrict a) {
  #pragma loop_coalesce 2
  for (int i = 0; i < ROWS; i++) {
    for (int j = 0; j < COLS; j++) {
      if (a[i * COLS + j] < 0) break;
      a[i * COLS + j] = 0;
    }
  }
}
