// Three calls with n = 32, 512, 100. The tab_fill loop runs 64 trips in every C call.
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[LA_MAX], out[LA_MAX];
  const int sizes[3] = {32, 512, 100};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < LA_MAX; i++) in[i] = (i * 41 + call * 5) % 1000;
    lut_apply(in, out, n);
    for (int i = 0; i < n; i++) {
      int k = in[i] & (LA_TAB - 1);
      int g = ((k * k) >> 4) + 2 * k + 16;
      errors += out[i] != ((in[i] * g) >> 6);
    }
  }
  std::printf("07_rom_table: %d errors\n", errors);
  return errors != 0;
}
