// Three calls with n = 10, 500, 1024.
#include <cstdio>

#include "kernel.h"

int main() {
  static unsigned char samples[HB_MAX];
  int hist_out[HB_BINS];
  const int prior[HB_BINS] = {4, 4, 3, 3, 2, 2, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4};
  const int sizes[3] = {10, 500, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < HB_MAX; i++) samples[i] = static_cast<unsigned char>((i * 37 + call * 11) % 251);
    hist_bias(samples, hist_out, n);
    int ref[HB_BINS];
    for (int k = 0; k < HB_BINS; k++) ref[k] = prior[k];
    for (int i = 0; i < n; i++) ref[samples[i] & (HB_BINS - 1)]++;
    for (int k = 0; k < HB_BINS; k++) errors += hist_out[k] != ref[k];
  }
  std::printf("13_initialiser: %d errors\n", errors);
  return errors != 0;
}
