/* A C kernel (not C++), as Vitis accepts it: docs/probes.md builds it with gcc after rewrite. */
int sum(const int *a, int n) {
  int s = 0;
add:
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
