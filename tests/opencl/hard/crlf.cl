// CRLF line endings throughout.
#define N 4

__attribute__((max_global_work_dim(0)))
__kernel void crlf(__global float *restrict out) {
  #pragma unroll
  for (int i = 0; i < N; i++) {
    out[i] = (float)i * 0.5f;
  }
  if (out[0] > 1.0f) return;
  out[1] = 0.0f;
}
