// Two calls with n = 16, 100.
#include <cmath>
#include <cstdio>

#include "kernel.h"

int main() {
  static data_t a[FC_MAX], b[FC_MAX], out[FC_MAX];
  const int sizes[2] = {16, 100};
  int errors = 0;
  for (int call = 0; call < 2; call++) {
    const int n = sizes[call];
    double want = 0;
    for (int i = 0; i < FC_MAX; i++) {
      a[i] = (data_t)((i * 7 + call) % 13) - 6.0f;
      b[i] = (data_t)(i % 5) + 1.0f;
    }
    for (int i = 0; i < n; i++) want += (double)b[i] * b[i];
    double total = 0;
    fchain(a, b, out, &total, n);
    for (int i = 0; i < n; i++) errors += std::fabs(out[i] - (a[i] * b[i] + a[i]) / b[i]) > 1e-5f;
    errors += std::fabs(total - want) > 1e-9;
  }
  std::printf("18_float_chain: %d errors\n", errors);
  return errors != 0;
}
