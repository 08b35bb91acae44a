#include "analytic.h"

void pipe_top(const int in[AN_MAX_N], int out[AN_MAX_N], int n) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0 depth=1024
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem1 depth=1024
scale_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
    out[i] = in[i] * 3 + 1;
  }
}

int nest_top(int a[AN_MAX_N], int n, int limit) {
outer:
  for (int i = 0; i < n; i++) {
    int acc = a[i];
  inner:
    for (int j = 0; j < i; j++) {
#pragma HLS PIPELINE II=1
      acc += j & 7;
    }
    a[i] = acc;
  }
  int k = 0;
search:
  while (k < n) {
    if (a[k] > limit) break;
    k++;
  }
  return k;
}
