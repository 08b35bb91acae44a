// Preprocessor conditionals around whole kernels, inside bodies and around attributes.
#pragma OPENCL EXTENSION cl_intel_channels : enable
#define USE_FAST 1

#ifdef USE_FAST
__kernel void fast(__global int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] <<= 1;
  }
}
#else
__kernel void fast(__global int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] *= 2;
  }
}
#endif

#if USE_FAST
__attribute__((max_global_work_dim(0)))
#else
__attribute__((reqd_work_group_size(64, 1, 1)))
#endif
__kernel void attr_under_if(__global int *a) {
  a[0] = 1;
}

__kernel void inside_body(__global int *a, int n) {
  int s = 0;
#if defined(USE_FAST) && USE_FAST > 0
  s = n;
#endif
  for (int i = 0; i < n; i++) {
#ifdef DEBUG_TRACE
    printf("%d\n", i);
#endif
    s += a[i];
  }
  a[0] = s;
}

// Braces split by #if: each branch opens the loop differently.
__kernel void split(__global int *a, int n) {
#if USE_FAST
  for (int i = 0; i < n; i += 2) {
#else
  for (int i = 0; i < n; i++) {
#endif
    a[i] = 0;
  }
}

#if 0
__kernel void disabled(__global int *a) { a[0] = } // never compiled, does not parse
#endif

#ifndef NO_TAIL
__kernel void tail(__global int *a) {
  if (a[0]) return;
  a[1] = 2;
}
#endif
