#include "hlsinstr_probe.cl" // hlsinstr
// Single-work-item kernels with Intel channels, an autorun kernel and a helper with early returns.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int data_ch __attribute__((depth(4)));
channel float results[2] __attribute__((depth(8)));

int clamp_index(int i, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0);
  if (i < 0) return HLSINSTR_RETURN(0, P, 0);
  if (i >= n) return HLSINSTR_RETURN(0, P, n - 1);
  return HLSINSTR_RETURN(0, P, i);
}

__kernel void producer(__global const int *restrict in, int n) { HLSINSTR_FUNC_BEGIN(1, P, 0); HLSINSTR_LOOP_BEGIN(2, P, 0);
  #pragma unroll 4
  for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(2);
    write_channel_intel(data_ch, in[clamp_index(i, n)]);
  } HLSINSTR_LOOP_END(2, P, 0); HLSINSTR_FUNC_END(1, P, 0);
}

__attribute__((autorun))
__attribute__((max_global_work_dim(0)))
__attribute__((num_compute_units(2)))
kernel void scaler() { HLSINSTR_FUNC_BEGIN(3, P, 0);
  int id = get_compute_id(0);
  HLSINSTR_LOOP_BEGIN(4, P, 0); while (1) { HLSINSTR_LOOP_ITER(4);
    int v = read_channel_intel(data_ch);
    write_channel_intel(results[id], (float)v * 2.0f);
  } HLSINSTR_LOOP_END(4, P, 0); HLSINSTR_FUNC_END(3, P, 0);
}

__kernel void consumer(__global float *restrict out, __local float *scratch, int n) { HLSINSTR_FUNC_BEGIN(5, P, 0);
  float acc = 0.0f; HLSINSTR_LOOP_BEGIN(6, P, 0);
  #pragma ivdep
  outer: for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(6);
    float a = read_channel_intel(results[0]);
    float b = read_channel_intel(results[1]);
    scratch[i % 16] = a + b;
    if (a < 0.0f) break;
    acc += a + b;
  } HLSINSTR_LOOP_END(6, P, 0);
  out[0] = acc;
  if (n == 0) return HLSINSTR_RETURN_VOID(5, P);
  out[1] = scratch[0]; HLSINSTR_FUNC_END(5, P, 0);
}
