#include <cstring>

#include "kernel.h"

void vmix(const int *a, const int *w, int *c) {
#pragma HLS INTERFACE m_axi port=a offset=slave bundle=gmem0 depth=128
#pragma HLS INTERFACE m_axi port=w offset=slave bundle=gmem1 depth=64
#pragma HLS INTERFACE m_axi port=c offset=slave bundle=gmem0 depth=128
#pragma HLS INTERFACE s_axilite port=return
  int la[VM_N];
  int lw[VM_W];
  int lc[VM_N];
  std::memcpy(la, a, VM_N * sizeof(int));  // vmix_Pipeline_1 on gmem0
  std::memcpy(lw, w, VM_W * sizeof(int));  // vmix_Pipeline_2 on gmem1: overlaps the copy above
mix:
  for (int i = 0; i < VM_N; i++) {
#pragma HLS PIPELINE II=1
    lc[i] = (la[i] * lw[i % VM_W]) >> 4;
  }
  std::memcpy(c, lc, VM_N * sizeof(int));  // vmix_Pipeline_3 on gmem0
}
