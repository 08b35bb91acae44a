#include "kernel.h"

void path2(const int adj[P2_MAX][P2_MAX], int out[P2_MAX][P2_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS INTERFACE mode=ap_memory port=adj storage_type=ram_2p
  if (n > P2_MAX) n = P2_MAX;
row:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=0 max=12
#pragma HLS PIPELINE off
  col:
    for (int j = 0; j < n; j++) {
#pragma HLS LOOP_TRIPCOUNT min=0 max=12
#pragma HLS PIPELINE off
      int acc = 0;
    step:
      for (int k = 0; k < n; k++) {
#pragma HLS LOOP_TRIPCOUNT min=0 max=12
#pragma HLS PIPELINE off
        acc += adj[i][k] * adj[k][j];
      }
      out[i][j] = acc;
    }
  }
}
