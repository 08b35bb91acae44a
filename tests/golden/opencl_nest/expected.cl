#include "hlsinstr_probe.cl" // hlsinstr
// Perfect nests under `#pragma loop_coalesce` (Intel FPGA SDK for OpenCL), one imperfect nest
// and one whose inner loop is left by a break.
#define ROWS 4
#define COLS 3

__kernel void scale(__global int *restrict a, int rows) { HLSINSTR_FUNC_BEGIN(0, S, 0); HLSINSTR_LOOP_BEGIN(1, S, 0);
  #pragma loop_coalesce 2
  for (int i = 0; i < rows; i++) {
    #pragma unroll 1
    for (int j = 0; j < COLS; j++) { HLSINSTR_LOOP_ITER(1);
      a[i * COLS + j] *= 2;
    }
  } HLSINSTR_LOOP_END(1, S, 0); HLSINSTR_FUNC_END(0, S, 0);
}

__attribute__((max_global_work_dim(0)))
__kernel void cube(__global int *restrict a) { HLSINSTR_FUNC_BEGIN(2, S, 0); HLSINSTR_LOOP_BEGIN(3, S, 0);
  #pragma loop_coalesce
  plane: for (int i = 0; i < 2; i++)
    row: for (int j = 0; j < ROWS; j++)
      col: for (int k = 0; k < COLS; k++)
        {/*hlsinstr*/ HLSINSTR_LOOP_ITER(3); a[(i * ROWS + j) * COLS + k] += 1; }/*hlsinstr*/ HLSINSTR_LOOP_END(3, S, 0);
HLSINSTR_FUNC_END(2, S, 0); }

__kernel void sums(__global const int *restrict a, __global int *restrict out) { HLSINSTR_FUNC_BEGIN(4, S, 0);
  HLSINSTR_LOOP_BEGIN(5, S, 0); for (int i = 0; i < ROWS; i++) { HLSINSTR_LOOP_ITER(5);
    int s = 0;
    HLSINSTR_LOOP_BEGIN(6, S, 0); for (int j = 0; j < COLS; j++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(6); s += a[i * COLS + j]; }/*hlsinstr*/ HLSINSTR_LOOP_END(6, S, 0);
    out[i] = s;
  } HLSINSTR_LOOP_END(5, S, 0); HLSINSTR_FUNC_END(4, S, 0);
}

__kernel void first_negative(__global int *restrict a) { HLSINSTR_FUNC_BEGIN(7, S, 0); HLSINSTR_LOOP_BEGIN(8, S, 0);
  #pragma loop_coalesce 2
  for (int i = 0; i < ROWS; i++) { HLSINSTR_LOOP_ITER(8);
    HLSINSTR_LOOP_BEGIN(9, S, 0); for (int j = 0; j < COLS; j++) { HLSINSTR_LOOP_ITER(9);
      if (a[i * COLS + j] < 0) break;
      a[i * COLS + j] = 0;
    } HLSINSTR_LOOP_END(9, S, 0);
  } HLSINSTR_LOOP_END(8, S, 0); HLSINSTR_FUNC_END(7, S, 0);
}
