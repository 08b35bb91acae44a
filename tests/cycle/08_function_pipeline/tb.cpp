// Four calls; the scan loop exits after 0, 5, 16 and 11 trips in C simulation.
#include <cstdio>

#include "kernel.h"

int main() {
  int v[LR_N];
  const int stop_at[4] = {0, 5, LR_N, 11};  // index of the first entry above the limit
  const int limit = 50;
  int errors = 0;
  for (int call = 0; call < 4; call++) {
    for (int i = 0; i < LR_N; i++) v[i] = i < stop_at[call] ? (i * 7 + call) % 50 : 60 + i;
    int ref = 0;
    for (int i = 0; i < stop_at[call]; i++) ref += v[i];
    errors += leading_run(v, limit) != ref;
  }
  std::printf("08_function_pipeline: %d errors\n", errors);
  return errors != 0;
}
