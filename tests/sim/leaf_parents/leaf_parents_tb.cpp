#include <cstdio>

#include "leaf_parents.h"

int main() {
  long sum = 0;
  for (int c = 0; c < 6; c++) {
    int data[LP_N];
    for (int i = 0; i < LP_N; i++) data[i] = (i * 37 + c * 11) % 53;
    sum += lp_top(c, data);
  }
  std::printf("sum %ld\n", sum);
  return 0;
}
