// Three calls with n = 16, 300, 1024. The expected sums come from the header's own
// sum_squares(), called here outside the top: those calls are not the design's.
#include <cstdio>

#include "kernel.h"
#include <acc.h>

int main() {
  static int in[SQ_MAX];
  const int sizes[3] = {16, 300, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    for (int i = 0; i < SQ_MAX; i++) in[i] = (i * 13 + call) % 41 - 20;
    errors += sum_sq(in, sizes[call]) != sum_squares(in, sizes[call]);
  }
  std::printf("22_header_helpers: %d errors\n", errors);
  return errors != 0;
}
