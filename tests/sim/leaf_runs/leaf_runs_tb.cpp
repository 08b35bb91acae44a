#include <cstdio>

#include "leaf_runs.h"

int main() {
  long sum = 0;
  for (int c = 0; c < 4; c++) {
    int data[LR_N];
    for (int i = 0; i < LR_N; i++) data[i] = (i * 37 + c * 11) % 53;
    sum += lr_top(c == 1 ? 0 : 1, data);
  }
  std::printf("sum %ld\n", sum);
  return 0;
}
