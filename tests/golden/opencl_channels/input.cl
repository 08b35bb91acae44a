// Single-work-item kernels with Intel channels, an autorun kernel and a helper with early returns.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int data_ch __attribute__((depth(4)));
channel float results[2] __attribute__((depth(8)));

int clamp_index(int i, int n) {
  if (i < 0) return 0;
  if (i >= n) return n - 1;
  return i;
}

__kernel void producer(__global const int *restrict in, int n) {
  #pragma unroll 4
  for (int i = 0; i < n; i++) {
    write_channel_intel(data_ch, in[clamp_index(i, n)]);
  }
}

__attribute__((autorun))
__attribute__((max_global_work_dim(0)))
__attribute__((num_compute_units(2)))
kernel void scaler() {
  int id = get_compute_id(0);
  while (1) {
    int v = read_channel_intel(data_ch);
    write_channel_intel(results[id], (float)v * 2.0f);
  }
}

__kernel void consumer(__global float *restrict out, __local float *scratch, int n) {
  float acc = 0.0f;
  #pragma ivdep
  outer: for (int i = 0; i < n; i++) {
    float a = read_channel_intel(results[0]);
    float b = read_channel_intel(results[1]);
    scratch[i % 16] = a + b;
    if (a < 0.0f) break;
    acc += a + b;
  }
  out[0] = acc;
  if (n == 0) return;
  out[1] = scratch[0];
}
