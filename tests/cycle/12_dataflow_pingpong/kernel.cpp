#include "kernel.h"

static void load(const int in[FR_MAX], int buf[FR_MAX], int n) {
ld:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE II=1
    buf[i] = in[i];
  }
}

static void reverse_scale(const int src[FR_MAX], int dst[FR_MAX], int n) {
rv:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE II=1
    dst[i] = 3 * src[n - 1 - i] + 1;
  }
}

static void store(const int buf[FR_MAX], int out[FR_MAX], int n) {
st:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=128
#pragma HLS PIPELINE II=1
    out[i] = buf[i];
  }
}

void frame_rev(const int in[FR_MAX], int out[FR_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS DATAFLOW
  int ping[FR_MAX];
  int pong[FR_MAX];
  load(in, ping, n);
  reverse_scale(ping, pong, n);
  store(pong, out, n);
}
