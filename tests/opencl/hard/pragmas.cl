// Intel FPGA loop pragmas before loops: unroll, ii, ivdep safelen, loop_coalesce, max_concurrency.
__attribute__((max_global_work_dim(0)))
__kernel void pragmas(__global int *restrict a, __global int *restrict b, int n) {
  #pragma unroll 4
  for (int i = 0; i < 16; i++) {
    a[i] = i;
  }
  #pragma ii 1
  for (int i = 0; i < n; i++) {
    b[i] += a[i & 15];
  }
  #pragma ivdep safelen(8)
  for (int i = 8; i < n; i++) {
    b[i] = b[i - 8] + 1;
  }
  #pragma loop_coalesce 2
  for (int r = 0; r < 4; r++) {
    #pragma ivdep array(b)
    for (int c = 0; c < 4; c++) {
      b[r * 4 + c] *= 2;
    }
  }
  #pragma max_concurrency 1
  #pragma speculated_iterations 0
  for (int i = 0; i < n; i++) {
    if (b[i] < 0) break;
  }
  int k = 0;
  #pragma disable_loop_pipelining
  while (k < n) {
    k += a[k & 15] + 1;
  }
  #pragma unroll
  do {
    k--;
  } while (k > 0);
}
