// Three calls with n = 8, 100, 256.
#include <cstdio>

#include "kernel.h"

int main() {
  static int x[CP_MAX + 1], y[CP_MAX + 1];
  const int sizes[3] = {8, 100, 256};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i <= CP_MAX; i++) {
      x[i] = (i * 19 + call) % 61 - 30;
      y[i] = (i * 23 + 3 * call) % 57 - 28;
    }
    int cross = 0, lag1 = 0;
    corr_pair(x, y, n, &cross, &lag1);
    int rc = 0, rl = 0;
    for (int i = 0; i < n; i++) {
      rc += x[i] * y[i];
      rl += y[i] * y[i + 1];
    }
    errors += (cross != rc) + (lag1 != rl);
  }
  std::printf("06_numbered_copies: %d errors\n", errors);
  return errors != 0;
}
