// Three calls of vscale with different gains; the trip counts are the same every call (256).
#include <cstdio>

#include "kernel.h"

int main() {
  static int in[VS_N], out[VS_N];
  const int gains[3] = {3, -7, 1};
  int errors = 0;
  for (int call = 0; call < 3; call++) {
    for (int i = 0; i < VS_N; i++) in[i] = (i * 37 + call * 11) % 1000 - 500;
    vscale(in, out, gains[call]);
    for (int i = 0; i < VS_N; i++) errors += out[i] != in[i] * gains[call] + (in[i] >> 3);
  }
  std::printf("01_memcpy_local: %d errors\n", errors);
  return errors != 0;
}
