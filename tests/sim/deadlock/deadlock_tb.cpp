#include <cstdio>

void dl_top(int *out, int n);

int main() {
  int out[1] = {0};
  dl_top(out, 8);
  std::printf("sum %d\n", out[0]);
  return out[0] == 28 ? 0 : 1;
}
