// Three calls with n = 16, 500, 1024.
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[DS_MAX], out[DS_MAX];
  const int sizes[3] = {16, 500, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < DS_MAX; i++) in[i] = (i * 29 + call) % 401 - 200;
    dscale(in, out, n);
    for (int i = 0; i < n; i++) errors += out[i] != 3 * in[i] + 1;
  }
  std::printf("15_dead_copy: %d errors\n", errors);
  return errors != 0;
}
