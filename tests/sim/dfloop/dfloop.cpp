// A dataflow region called once per iteration of a loop: consecutive invocations overlap, so
// the loop costs one region latency plus (n - 1) times the slowest process, not n latencies.
#include "dfloop.h"
#include "hls_stream.h"

static void produce(const int *in, hls::stream<int> &s, int base) {
produce_loop:
  for (int i = 0; i < DL_BLOCK; i++) {
#pragma HLS PIPELINE II=1
    s.write(in[base + i]);
  }
}

static void consume(hls::stream<int> &s, int *out, int base) {
consume_loop:
  for (int i = 0; i < DL_BLOCK; i++) {
#pragma HLS PIPELINE II=2
    out[base + i] = s.read() * 2;
  }
}

static void block(const int *in, int *out, int base) {
#pragma HLS dataflow
  hls::stream<int> s;
  produce(in, s, base);
  consume(s, out, base);
}

void dfloop_top(const int in[DL_BLOCK * DL_MAX_BLOCKS], int out[DL_BLOCK * DL_MAX_BLOCKS], int n_blocks) {
blocks:
  for (int b = 0; b < n_blocks; b++) block(in, out, b * DL_BLOCK);
}

// The same blocks with the dataflow pragma in the loop body: each iteration is a region and
// iterations overlap, so the loop costs about n times its slowest process.
void dfbody_top(const int in[DL_BLOCK * DL_MAX_BLOCKS], int out[DL_BLOCK * DL_MAX_BLOCKS], int n_blocks) {
body_loop:
  for (int b = 0; b < n_blocks; b++) {
#pragma HLS dataflow
    hls::stream<int> s;
    produce(in, s, b * DL_BLOCK);
    consume(s, out, b * DL_BLOCK);
  }
}
