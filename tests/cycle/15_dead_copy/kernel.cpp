#include "kernel.h"

void dscale(const int *in, int *out, int n) {
#pragma HLS INTERFACE mode=m_axi port=in bundle=gmem0 depth=1024
#pragma HLS INTERFACE mode=m_axi port=out bundle=gmem1 depth=1024
#pragma HLS INTERFACE mode=s_axilite port=n
#pragma HLS INTERFACE mode=s_axilite port=return
  int shadow[DS_MAX];
keep:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    shadow[i] = in[i];
  }
scale:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    out[i] = 3 * in[i] + 1;
  }
}
