// hard OpenCL inputs
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int chs[4][2] __attribute__((depth(0)));
struct P { float4 v; int n; };
__kernel void proto(__global int *a);
#ifdef FAST
__attribute__((num_compute_units(4)))
#endif
__kernel __attribute__((max_global_work_dim(0))) void proto(__global int * __attribute__((buffer_location("DDR"))) a) {
  int channel = 1; /* a variable named channel */
  const char *s = "__kernel (";
  #pragma unroll 2
  for (int i = 0; i < 4; i++) {
    #pragma ivdep
    for (int j = 0; j < 2; j++)
      write_channel_intel(chs[i][j], a[i] + channel);
  }
  struct P p = { (float4)(1.0f), 2 };
  if (p.n) return;
}
int unterminated __attribute__((x(
