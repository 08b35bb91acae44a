// A three-stage dataflow pipeline: read_stage streams the input from off-chip memory,
// compute_stage runs a 4-tap FIR filter over it, write_stage streams the result back.
#ifndef DATAFLOW_PIPELINE_H
#define DATAFLOW_PIPELINE_H

#include "hls_stream.h"

// Largest number of samples per call.
const int DP_MAX_N = 256;
// Taps of the FIR filter (tap t weighs the sample t steps back by t + 1).
const int DP_TAPS = 4;

// out[i] = scale * sum over t < DP_TAPS of (t + 1) * in[i - t], taking samples before in[0] as
// zero, for i < n. Requires 0 <= n <= DP_MAX_N.
void pipeline_top(const int in[DP_MAX_N], int out[DP_MAX_N], int n, int scale);

#endif
