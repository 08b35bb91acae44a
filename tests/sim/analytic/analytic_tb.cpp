// Calls both tops and prints what the cycle model must find (`expect ...` lines).
#include <cstdio>
#include "analytic.h"

int main() {
  static int in[AN_MAX_N], out[AN_MAX_N], a[AN_MAX_N];
  const int sizes[3] = {100, 37, 0};
  int errors = 0;
  for (int s = 0; s < 3; s++) {
    for (int i = 0; i < AN_MAX_N; i++) in[i] = i - 50;
    pipe_top(in, out, sizes[s]);
    for (int i = 0; i < sizes[s]; i++) errors += out[i] != in[i] * 3 + 1;
  }
  std::printf("expect pipe scale_loop runs 3 trips 137\n");

  const int n = 40, limit = 100;
  for (int i = 0; i < n; i++) a[i] = i % 5;
  int found = nest_top(a, n, limit);
  // The reference: the same computation in plain C++.
  int ref[n];
  for (int i = 0; i < n; i++) {
    int acc = i % 5;
    for (int j = 0; j < i; j++) acc += j & 7;
    ref[i] = acc;
  }
  int k = 0;
  while (k < n && ref[k] <= limit) k++;
  errors += found != k;
  for (int i = 0; i < n; i++) errors += a[i] != ref[i];
  std::printf("expect nest n %d search_trips %d\n", n, k);
  std::printf("analytic: %d errors\n", errors);
  return errors;
}
