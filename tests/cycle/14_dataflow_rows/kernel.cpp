#include "kernel.h"

static void load_a(const int in[R_MAX], int row[R_MAX], int n) {
la:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=256
#pragma HLS PIPELINE II=1
    row[i] = in[i] + 1;
  }
}

static void load_b(const int in[R_MAX], int row[R_MAX]) {
lb:
  for (int i = 0; i < R_FIX; i++) {
#pragma HLS PIPELINE II=1
    row[i] = in[i] + 1;
  }
}

static void store_a(const int row[R_MAX], int out[R_MAX], int n) {
sa:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=256
#pragma HLS PIPELINE II=1
    out[i] = 2 * row[i];
  }
}

static void store_b(const int row[R_MAX], int out[R_MAX]) {
sb:
  for (int i = 0; i < R_FIX; i++) {
#pragma HLS PIPELINE II=1
    out[i] = 2 * row[i];
  }
}

void rows2(const int a[R_MAX], const int b[R_MAX], int oa[R_MAX], int ob[R_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS DATAFLOW
  int mid[2][R_MAX];
#pragma HLS ARRAY_PARTITION variable=mid dim=1 complete
  load_a(a, mid[0], n);
  load_b(b, mid[1]);
  store_a(mid[0], oa, n);
  store_b(mid[1], ob);
}
