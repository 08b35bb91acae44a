#include "dataflow_pipeline.h"

// Streams n samples from off-chip memory.
static void read_stage(const int *in, hls::stream<int> &samples, int n) {
read_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS loop_tripcount min=1 max=256 avg=128
#pragma HLS PIPELINE II=1
    samples.write(in[i]);
  }
}

// FIR filter over the sample stream: a shift register of the last DP_TAPS samples.
static void compute_stage(hls::stream<int> &samples, hls::stream<int> &filtered, int n, int scale) {
  int window[DP_TAPS];
#pragma HLS ARRAY_PARTITION variable=window complete
init_loop:
  for (int t = 0; t < DP_TAPS; t++) {
#pragma HLS UNROLL
    window[t] = 0;
  }

compute_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS loop_tripcount min=1 max=256 avg=128
    // II=4: the taps share one multiplier, so this stage is the pipeline's bottleneck (the
    // stall report finds it).
#pragma HLS PIPELINE II=4
  shift_loop:
    for (int t = DP_TAPS - 1; t > 0; t--) {
#pragma HLS UNROLL
      window[t] = window[t - 1];
    }
    window[0] = samples.read();

    int acc = 0;
  tap_loop:
    for (int t = 0; t < DP_TAPS; t++) {
#pragma HLS UNROLL
      acc += (t + 1) * window[t];
    }
    filtered.write(acc * scale);
  }
}

// Streams n results back to off-chip memory.
static void write_stage(hls::stream<int> &filtered, int *out, int n) {
write_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS loop_tripcount min=1 max=256 avg=128
#pragma HLS PIPELINE II=1
    out[i] = filtered.read();
  }
}

void pipeline_top(const int in[DP_MAX_N], int out[DP_MAX_N], int n, int scale) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0 depth=256
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem1 depth=256
#pragma HLS INTERFACE s_axilite port=n
#pragma HLS INTERFACE s_axilite port=scale
#pragma HLS INTERFACE s_axilite port=return
#pragma HLS dataflow
  hls::stream<int> samples("samples");
#pragma HLS STREAM variable=samples depth=8
  hls::stream<int> filtered("filtered");
#pragma HLS STREAM variable=filtered depth=8

  read_stage(in, samples, n);
  compute_stage(samples, filtered, n, scale);
  write_stage(filtered, out, n);
}
