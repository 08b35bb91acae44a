// Four calls with n = 3, 7, 12, 5.
#include <cstdio>

#include "kernel.h"

int main() {
  static int adj[P2_MAX][P2_MAX], out[P2_MAX][P2_MAX];
  const int sizes[4] = {3, 7, 12, 5};
  int errors = 0;
  for (int call = 0; call < 4; call++) {
    const int n = sizes[call];
    for (int i = 0; i < P2_MAX; i++)
      for (int j = 0; j < P2_MAX; j++) adj[i][j] = ((i * 5 + j * 3 + call) % 4) == 0;
    path2(adj, out, n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        int ref = 0;
        for (int k = 0; k < n; k++) ref += adj[i][k] * adj[k][j];
        errors += out[i][j] != ref;
      }
  }
  std::printf("10_dyn_triple_loop: %d errors\n", errors);
  return errors != 0;
}
