// Runs 5 blocks and checks the output; main returns the number of mismatches.
#include <cstdio>
#include "dfloop.h"

int main() {
  static int in[DL_BLOCK * DL_MAX_BLOCKS], out[DL_BLOCK * DL_MAX_BLOCKS];
  for (int i = 0; i < DL_BLOCK * DL_MAX_BLOCKS; i++) in[i] = i;
  dfloop_top(in, out, 5);
  int errors = 0;
  for (int i = 0; i < 5 * DL_BLOCK; i++) errors += out[i] != 2 * i;
  for (int i = 0; i < DL_BLOCK * DL_MAX_BLOCKS; i++) out[i] = 0;
  dfbody_top(in, out, 6);
  for (int i = 0; i < 6 * DL_BLOCK; i++) errors += out[i] != 2 * i;
  std::printf("dfloop: %d mismatches\n", errors);
  return errors;
}
