#include "hlsinstr/vitis.h" // hlsinstr
#include "hlsinstr_top.h" // hlsinstr
// The in-FPGA build's plumbing: FIFO parameters along the call path, a prototype, a call
// without arguments, a dataflow region, an early return inside a loop, a non-void top, and a
// testbench main whose call of the top goes to the new top.
#include "hls_stream.h"

int scale(int v, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7);

static int counter(HLSINSTR_PROBE& hlsinstr_p0) { HLSINSTR_FUNC_BEGIN(0, P, 0); return HLSINSTR_RETURN(0, P, 3); }

static void produce(const int *in, hls::stream<int> &s, int n, HLSINSTR_PROBE& hlsinstr_p1, HLSINSTR_PROBE& hlsinstr_p2) { HLSINSTR_FUNC_BEGIN(1, P, 0);
{/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(2, P, 0); produce_loop:
  for (int i = 0; i < n; i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); s.write(in[i]); }/*hlsinstr*/ HLSINSTR_LOOP_END(2, P, 0); }/*hlsinstr*/
HLSINSTR_FUNC_END(1, P, 0); }

static void consume(hls::stream<int> &s, int *out, int n, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p3, HLSINSTR_PROBE& hlsinstr_p4, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7) { HLSINSTR_FUNC_BEGIN(3, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(4, P, 0); for (int i = 0; i < n; i++)
    {/*hlsinstr*/ HLSINSTR_LOOP_ITER(4); out[i] = scale(s.read(), HLSINSTR_P(0), HLSINSTR_P(6), HLSINSTR_P(7)); }/*hlsinstr*/ HLSINSTR_LOOP_END(4, P, 0); }/*hlsinstr*/
HLSINSTR_FUNC_END(3, P, 0); }

static void stage(const int *in, int *out, int n, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p1, HLSINSTR_PROBE& hlsinstr_p2, HLSINSTR_PROBE& hlsinstr_p3, HLSINSTR_PROBE& hlsinstr_p4, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7) {
#pragma HLS dataflow
  hls::stream<int> s;
  produce(in, s, n, HLSINSTR_P(1), HLSINSTR_P(2));
  consume(s, out, n, HLSINSTR_P(0), HLSINSTR_P(3), HLSINSTR_P(4), HLSINSTR_P(6), HLSINSTR_P(7));
}

int scale(int v, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7) { HLSINSTR_FUNC_BEGIN(6, P, 0);
  {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(7, P, 0); for (int k = 0; k < 4; k++) { HLSINSTR_LOOP_ITER(7);
    if (v < 0) return HLSINSTR_RETURN(6, P, -v);
    v += counter(HLSINSTR_P(0));
  } HLSINSTR_LOOP_END(7, P, 0); }/*hlsinstr*/
  return HLSINSTR_RETURN(6, P, v);
}

int top(const int in[16], int out[16], int n, HLSINSTR_PROBE& hlsinstr_p0, HLSINSTR_PROBE& hlsinstr_p1, HLSINSTR_PROBE& hlsinstr_p2, HLSINSTR_PROBE& hlsinstr_p3, HLSINSTR_PROBE& hlsinstr_p4, HLSINSTR_PROBE& hlsinstr_p6, HLSINSTR_PROBE& hlsinstr_p7) {
#pragma HLS INTERFACE m_axi port=in bundle=gmem0 depth=16
#pragma HLS INTERFACE m_axi port=out bundle=gmem1 depth=16
  stage(in, out, n, HLSINSTR_P(0), HLSINSTR_P(1), HLSINSTR_P(2), HLSINSTR_P(3), HLSINSTR_P(4), HLSINSTR_P(6), HLSINSTR_P(7));
  return out[0];
}

int main() {
  int in[16] = {1, 2, 3}, out[16];
  return HLSINSTR_TB_CALL(top)(in, out, 3) == 13 ? 0 : 1;
}
