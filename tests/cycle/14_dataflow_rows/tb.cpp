// Four calls with n = 16, 100, 256, 64.
#include <cstdio>

#include "kernel.h"

int main() {
  static int a[R_MAX], b[R_MAX], oa[R_MAX], ob[R_MAX];
  const int sizes[4] = {16, 100, 256, 64};
  int errors = 0;
  for (int call = 0; call < 4; call++) {
    const int n = sizes[call];
    for (int i = 0; i < R_MAX; i++) {
      a[i] = (i * 37 + call) % 211 - 100;
      b[i] = (i * 53 + 2 * call) % 173 - 80;
    }
    rows2(a, b, oa, ob, n);
    for (int i = 0; i < n; i++) errors += oa[i] != 2 * (a[i] + 1);
    for (int i = 0; i < R_FIX; i++) errors += ob[i] != 2 * (b[i] + 1);
  }
  std::printf("14_dataflow_rows: %d errors\n", errors);
  return errors != 0;
}
