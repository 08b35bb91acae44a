// Three calls with n = 16, 300, 1024.
#include <cstdio>

#include "kernel.h"

int main() {
  static const short coef[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  static int in[LM_MAX], out[LM_MAX];
  const int sizes[3] = {16, 300, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < LM_MAX; i++) in[i] = (i * 13 + call) % 97 - 48;
    lut_mix(in, out, n);
    for (int i = 0; i < n; i++) errors += out[i] != in[i] * (2 * (i % 64) + 16) + 3 * coef[i % 16] + 1;
  }
  std::printf("16_const_tables: %d errors\n", errors);
  return errors != 0;
}
