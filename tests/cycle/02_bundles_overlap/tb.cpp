// Two calls of vmix with different data (the sizes are fixed: 128 samples, 64 weights).
#include <cstdio>

#include "kernel.h"

int main() {
  static int a[VM_N], w[VM_W], c[VM_N];
  int errors = 0;
  for (int call = 0; call < 2; call++) {
    for (int i = 0; i < VM_N; i++) a[i] = (i * 13 + call * 101) % 511 - 255;
    for (int k = 0; k < VM_W; k++) w[k] = (k * 7 + call) % 33 - 16;
    vmix(a, w, c);
    for (int i = 0; i < VM_N; i++) errors += c[i] != ((a[i] * w[i % VM_W]) >> 4);
  }
  std::printf("02_bundles_overlap: %d errors\n", errors);
  return errors != 0;
}
