#include "hls_stream.h"
#include "kernel.h"

static void smooth(hls::stream<int> &src, hls::stream<int> &dst, int n) {
  int x1 = 0, x2 = 0;
smooth_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    int x = src.read();
    dst.write((x2 + 2 * x1 + x) >> 2);
    x2 = x1;
    x1 = x;
  }
}

void stream_chain(const int in[SC_MAX], int out[SC_MAX], int n) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
#pragma HLS DATAFLOW
  hls::stream<int> raw("raw");
  hls::stream<int> smoothed("smoothed");
#pragma HLS STREAM variable=raw depth=4
#pragma HLS STREAM variable=smoothed depth=4
read_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    raw.write(in[i]);
  }
  smooth(raw, smoothed, n);
write_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS LOOP_TRIPCOUNT min=1 max=1024
#pragma HLS PIPELINE II=1
    out[i] = smoothed.read();
  }
}
