// The in-FPGA build's plumbing: FIFO parameters along the call path, a prototype, a call
// without arguments, a dataflow region, an early return inside a loop, a non-void top, and a
// testbench main whose call of the top goes to the new top.
#include "hls_stream.h"

int scale(int v);

static int counter() { return 3; }

static void produce(const int *in, hls::stream<int> &s, int n) {
produce_loop:
  for (int i = 0; i < n; i++) s.write(in[i]);
}

static void consume(hls::stream<int> &s, int *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = scale(s.read());
}

static void stage(const int *in, int *out, int n) {
#pragma HLS dataflow
  hls::stream<int> s;
  produce(in, s, n);
  consume(s, out, n);
}

int scale(int v) {
  for (int k = 0; k < 4; k++) {
    if (v < 0) return -v;
    v += counter();
  }
  return v;
}

int top(const int in[16], int out[16], int n) {
#pragma HLS INTERFACE m_axi port=in bundle=gmem0 depth=16
#pragma HLS INTERFACE m_axi port=out bundle=gmem1 depth=16
  stage(in, out, n);
  return out[0];
}

int main() {
  int in[16] = {1, 2, 3}, out[16];
  return top(in, out, 3) == 13 ? 0 : 1;
}
