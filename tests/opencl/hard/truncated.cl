// Cut off in the middle of the second kernel.
__kernel void whole(__global int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = i;
  }
}

__kernel void cut(__global int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 