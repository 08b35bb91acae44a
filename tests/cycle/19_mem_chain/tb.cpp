// Two calls with n = 16, 100.
#include <cstdio>

#include "kernel.h"

int main() {
  static int idx[MC_MAX], w[MC_MAX];
  static float v[MC_MAX];
  const int sizes[2] = {16, 100};
  int errors = 0;
  for (int call = 0; call < 2; call++) {
    const int n = sizes[call];
    for (int i = 0; i < MC_MAX; i++) {
      idx[i] = (i * 37 + call) % MC_MAX;
      w[i] = (i * 5 + call) % 7 - 3;
      v[i] = (float)((i * 11) % 17) - 4.0f;
    }
    float want_best = 0.0f;
    int want_dot = 0;
    for (int i = 0; i < n; i++) {
      if (w[i] > 0 && v[idx[i]] > want_best) want_best = v[idx[i]];
      want_dot += w[i] * w[idx[i]];
    }
    float best = -1.0f;
    int dot = -1;
    memchain(idx, v, w, &best, &dot, n);
    errors += best != want_best;
    errors += dot != want_dot;
  }
  if (errors) std::printf("%d errors\n", errors);
  return errors != 0;
}
