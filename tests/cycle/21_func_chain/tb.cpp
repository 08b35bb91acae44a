// Two calls with different data.
#include <cstdio>

#include "kernel.h"

int main() {
  int a[2][FC_N];
  float x[4];
  int errors = 0;
  for (int call = 0; call < 2; call++) {
    int want_s = 0;
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < FC_N; j++) {
        a[i][j] = (i * 7 + j * 3 + call) % 11 - 5;
        want_s += a[i][j];
      }
    }
    for (int k = 0; k < 4; k++) x[k] = 0.5f * (float)(k + call) - 1.0f;
    const float want_y = x[0] * x[1] + x[2];
    float y = 0.0f;
    int s = 0;
    funcchain(a, x, &y, &s);
    errors += y != want_y;
    errors += s != want_s;
  }
  if (errors) std::printf("%d errors\n", errors);
  return errors != 0;
}
