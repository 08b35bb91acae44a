#include <hls_stream.h>

static void produce(const int *in, hls::stream<int> &out, int n) {
produce_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
    out.write(in[i]);
  }
}

static void consume(hls::stream<int> &in, int *out, int n) {
consume_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
    out[i] = in.read() + 1;
  }
}

void top(const int *in, int *out, int n) {
#pragma HLS INTERFACE m_axi port=in bundle=gmem0
#pragma HLS INTERFACE m_axi port=out bundle=gmem1
#pragma HLS DATAFLOW
  hls::stream<int> s("s");
#pragma HLS STREAM variable=s depth=16
  produce(in, s, n);
  consume(s, out, n);
}
