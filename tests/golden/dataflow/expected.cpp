#include "hlsinstr/probe.h" // hlsinstr
#include <hls_stream.h>

static void produce(const int *in, hls::stream<int> &out, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0); HLSINSTR_STREAM_NAME(out);
HLSINSTR_LOOP_BEGIN(1, P, 0); produce_loop:
  for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
#pragma HLS PIPELINE II=1
    out.write(in[i]);
  } HLSINSTR_LOOP_END(1, P, 0); HLSINSTR_FUNC_END(0, P, 0);
}

static void consume(hls::stream<int> &in, int *out, int n) { HLSINSTR_FUNC_BEGIN(2, P, 0); HLSINSTR_STREAM_NAME(in);
HLSINSTR_LOOP_BEGIN(3, P, 0); consume_loop:
  for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(3);
#pragma HLS PIPELINE II=1
    out[i] = in.read() + 1;
  } HLSINSTR_LOOP_END(3, P, 0); HLSINSTR_FUNC_END(2, P, 0);
}

void top(const int *in, int *out, int n) { HLSINSTR_FUNC_BEGIN(4, P, 0);
#pragma HLS INTERFACE m_axi port=in bundle=gmem0
#pragma HLS INTERFACE m_axi port=out bundle=gmem1
#pragma HLS DATAFLOW
  hls::stream<int> s("s"); HLSINSTR_STREAM_NAME(s);
#pragma HLS STREAM variable=s depth=16
  produce(in, s, n);
  consume(s, out, n); HLSINSTR_FUNC_END(4, P, 0);
}
