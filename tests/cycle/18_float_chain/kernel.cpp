#include "kernel.h"

void fchain(const data_t a[FC_MAX], const data_t b[FC_MAX], data_t out[FC_MAX], double *total, int n) {
quot:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE II=1
    data_t p = a[i] * b[i];
    data_t s = p + a[i];
    out[i] = s / b[i];
  }
  double acc = 0;
sum:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE off
    acc = acc + (double)b[i] * b[i];
  }
  *total = acc;
}
