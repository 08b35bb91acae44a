// The branch trace on OpenCL C: no destructors, so every `return` and the body's end record
// the return site; each function records into a unit of its own.
int pick(int a, __global int *out) {
  if (a > 3) return 1; else if (a > 1) { out[0] = 2; } else out[0] = 3;
  switch (a) { case 1: out[1]++; case 2: out[1] += 2; break; default: out[1]--; }
  for (int i = 0; i < a; i++)
    if (out[i] < 0) break;
  int k = a;
  while (k > 100) k -= 7;
  do { k++; } while (k < 3);
  return a > 0 && out[0]++ ? k : 0;
}

__attribute__((max_global_work_dim(0)))
__kernel void top(__global int *restrict out, int n) {
  if (n < 0)
    return;
  #pragma unroll 2
  for (int i = 0; i < n; i++) {
    if (i == 5) continue;
    out[i] = pick(i, out);
  }
  if (n == 0) {
  } else {
    goto done;
  }
  out[0] = 0;
done:
  out[1] = 1;
}

void empty(void) {}
