// Three calls with n = 16, 200, 1024: the scan loop runs n trips.
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[PS_MAX], out[PS_MAX];
  const int sizes[3] = {16, 200, 1024};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    for (int i = 0; i < PS_MAX; i++) in[i] = (i * 29 + call) % 97 - 48;
    int total = prefix_sum(in, out, sizes[call]);
    int acc = 0;
    for (int i = 0; i < sizes[call]; i++) {
      acc += in[i];
      errors += out[i] != acc;
    }
    errors += total != acc;
  }
  std::printf("03_dyn_trip_pipeline: %d errors\n", errors);
  return errors != 0;
}
