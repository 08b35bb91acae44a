// Statement-level conditionals in a kernel are probed around and inside; a conditional that
// splits braces leaves the kernel untouched, naming the directive.
__kernel void vadd(__global const float *a, __global float *c, int n) {
  for (int i = 0; i < n; i++) {
#ifdef SCALE
    c[i] = a[i] * 2.0f;
#else
    c[i] = a[i];
#endif
  }
#ifdef TRACE
  printf("done\n");
#endif
}

__kernel void split(__global float *c, int n) {
#ifdef REVERSE
  for (int i = n - 1; i >= 0; i--) {
#else
  for (int i = 0; i < n; i++) {
#endif
    c[i] = i;
  }
}
