#include "hlsinstr_probe.cl" // hlsinstr
// Statement-level conditionals in a kernel are probed around and inside; a conditional that
// splits braces leaves the kernel untouched, naming the directive.
__kernel void vadd(__global const float *a, __global float *c, int n) { HLSINSTR_FUNC_BEGIN(0, T, n);
  HLSINSTR_LOOP_BEGIN(1, T, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
#ifdef SCALE
    c[i] = a[i] * 2.0f;
#else
    c[i] = a[i];
#endif
  } HLSINSTR_LOOP_END(1, T, 0);
#ifdef TRACE
  printf("done\n");
#endif
HLSINSTR_FUNC_END(0, T, 0); }

__kernel void split(__global float *c, int n) {
#ifdef REVERSE
  for (int i = n - 1; i >= 0; i--) {
#else
  for (int i = 0; i < n; i++) {
#endif
    c[i] = i;
  }
}
