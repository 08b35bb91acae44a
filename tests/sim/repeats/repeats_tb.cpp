#include <cstdio>

#include "repeats.h"

int main() {
  int data[RP_N];
  for (int i = 0; i < RP_N; i++) data[i] = i * 7 - 50;
  long sum = 0;
  for (int c = 0; c < 40; c++) sum += rp_top(0, data);
  for (int c = 0; c < 3; c++) sum += rp_top(1, data);
  std::printf("sum %ld\n", sum);
  return 0;
}
