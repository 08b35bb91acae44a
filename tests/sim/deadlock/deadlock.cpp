// A dataflow region that deadlocks in hardware: the consumer reads one item more than the
// producer writes, so it waits forever on an empty stream.
#include "hls_stream.h"

static void produce(hls::stream<int> &link, int n) {
produce_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
    link.write(i);
  }
}

static void consume(hls::stream<int> &link, int *out, int n) {
  int acc = 0;
consume_loop:
  for (int i = 0; i <= n; i++) { // one read too many
#pragma HLS PIPELINE II=1
    acc += link.read();
  }
  out[0] = acc;
}

void dl_top(int *out, int n) {
#pragma HLS dataflow
  hls::stream<int> link("link");
  produce(link, n);
  consume(link, out, n);
}
