// A byte order mark before the first line.
__kernel void bom(__global int *a) {
  for (int i = 0; i < 4; i++) {
    a[i] = -a[i];
  }
}
