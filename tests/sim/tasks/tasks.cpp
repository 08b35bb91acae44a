// A free-running design in Vitis' task style: two hls::task processes joined by a stream, in a
// dataflow top that the testbench calls once per batch. `offset` is the slower process.
#include "hls_stream.h"
#include "hls_task.h"

static void scale(hls::stream<int> &in, hls::stream<int> &mid) {
  int v = in.read();
  mid.write(3 * v);
}

static void offset(hls::stream<int> &mid, hls::stream<int> &out) {
  int v = mid.read();
  int acc = 0;
slow:
  for (int k = 0; k < 8; k++) acc += v;
  out.write(acc / 8 + 1);
}

void task_top(hls::stream<int> &in, hls::stream<int> &out) {
#pragma HLS dataflow
  hls_thread_local hls::stream<int, 8> s3;
  hls_thread_local hls::task t1(scale, in, s3);
  hls_thread_local hls::task t2(offset, s3, out);
}
