// Three calls with n = 64, 300, 1024.
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[SC_MAX], out[SC_MAX];
  const int sizes[3] = {64, 300, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < SC_MAX; i++) in[i] = (i * 53 + call * 7) % 401 - 200;
    stream_chain(in, out, n);
    for (int i = 0; i < n; i++) {
      int x1 = i >= 1 ? in[i - 1] : 0, x2 = i >= 2 ? in[i - 2] : 0;
      errors += out[i] != ((x2 + 2 * x1 + in[i]) >> 2);
    }
  }
  std::printf("19_stream_wrapper: %d errors\n", errors);
  return errors != 0;
}
