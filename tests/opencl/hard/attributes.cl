// Attributes in every position an Intel FPGA kernel puts them.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel uint tokens __attribute__((depth(8)));

// Before `__kernel`, one per line.
__attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((num_simd_work_items(4)))
__attribute__((uses_global_work_offset(0)))
__kernel void scale(__global float *restrict out, __global const float *restrict in, float k) {
  size_t gid = get_global_id(0);
  out[gid] = in[gid] * k;
}

// Between `__kernel` and the return type, and between the return type and the name.
__kernel __attribute__((max_work_group_size(256))) void __attribute__((uses_global_work_offset(0)))
add(__global int *a, __global const int *b) {
  size_t i = get_global_id(0);
  a[i] += b[i];
}

// On parameters, after the declarator.
__attribute__((max_global_work_dim(0)))
__kernel void copy(__global int *restrict dst __attribute__((buffer_location("DDR"))),
                   __global const int *restrict src __attribute__((buffer_location("QDR"))),
                   int n) {
  for (int i = 0; i < n; i++) {
    dst[i] = src[i];
  }
}

// Several attributes in one list, and a multi-line list.
__attribute__((max_global_work_dim(0), autorun))
__attribute__((
    num_compute_units(2)
))
__kernel void ticker() {
  uint t = 0;
  while (1) {
    write_channel_intel(tokens, t++);
  }
}

// A helper with an attribute after its parameter list (GCC style).
int clamp_to(int v, int hi) __attribute__((always_inline));
int clamp_to(int v, int hi) {
  if (v > hi) return hi;
  return v;
}

__kernel __attribute__((max_global_work_dim(0))) void drain(__global uint *out, int n) {
  // Intel memory attributes on locals, inside the body.
  __attribute__((memory, numbanks(4), bankwidth(4))) uint ring[16];
  int __attribute__((register)) last = 0;
  for (int i = 0; i < n; i++) {
    ring[i & 15] = read_channel_intel(tokens);
    last = i;
  }
  out[clamp_to(last, 15)] = ring[last & 15];
}

// An empty kernel, on one line.
__kernel void nop(void) {}
