// Three calls with n = 4, 9, 16.
#include <cstdio>

#include "kernel.h"

int main() {
  static int m[RS_MAX][RS_MAX], out[RS_MAX];
  const int sizes[3] = {4, 9, 16};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    const int n = sizes[call];
    for (int i = 0; i < RS_MAX; i++)
      for (int j = 0; j < RS_MAX; j++) m[i][j] = (i * 7 + j * 3 + call) % 11;
    row_sums(m, out, n);
    for (int i = 0; i < n; i++) {
      int ref = 0;
      for (int j = 0; j < n; j++) ref += m[i][j];
      errors += out[i] != ref;
    }
  }
  std::printf("17_guarded_nest: %d errors\n", errors);
  return errors != 0;
}
