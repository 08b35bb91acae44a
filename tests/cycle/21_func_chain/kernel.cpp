#include "kernel.h"

// Pipelined with its caller: the loops unroll, 16 reads of `a`, 8 from each row's memory.
static int total(const int a[2][FC_N]) {
#pragma HLS PIPELINE
  int t = 0;
rows:
  for (int i = 0; i < 2; i++) {
cols:
    for (int j = 0; j < FC_N; j++) {
      t += a[i][j];
    }
  }
  return t;
}

void funcchain(const int a[2][FC_N], const float x[4], float *y, int *s) {
#pragma HLS PIPELINE II=1
#pragma HLS ARRAY_PARTITION variable=a complete dim=1
  float p = x[0] * x[1];
  *y = p + x[2];
  *s = total(a);
}
