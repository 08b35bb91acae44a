// Three calls with n = 16, 128, 50.
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[FR_MAX], out[FR_MAX];
  const int sizes[3] = {16, 128, 50};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < FR_MAX; i++) in[i] = (i * 71 + call * 3) % 301 - 150;
    frame_rev(in, out, n);
    for (int i = 0; i < n; i++) errors += out[i] != 3 * in[n - 1 - i] + 1;
  }
  std::printf("12_dataflow_pingpong: %d errors\n", errors);
  return errors != 0;
}
