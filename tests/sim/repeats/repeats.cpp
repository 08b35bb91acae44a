// Runs of identical leaves, the ones the event log folds (hls-lib event_log.h, end_leaf), in
// every place the cycle model treats them differently: under a plain loop, as calls of a
// function called from two places, as a flattened nest's inner loop, under a pipelined loop,
// and as whole calls of the top (mode 0 runs no loop). rewriter/tests/sim_repeats.rs checks
// that the folded log gives the report the unfolded one gives.
#include "repeats.h"

static int scale(int x) { return x * 3 + 1; }

static int fold(int x) { return (x >> 1) ^ x; }

int rp_top(int mode, const int data[RP_N]) {
  if (mode == 0) return 0;
  int acc = 0;
Rows:
  for (int i = 0; i < RP_N; i++) {
  Blocks:
    for (int b = 0; b < 6; b++) {
    Taps:
      for (int k = 0; k < (i < 20 ? 4 : 3); k++) acc += data[(i + b + k) % RP_N];
    }
    acc += scale(data[i]);
    acc += scale(acc);
    for (int c = 0; c < 3; c++) acc += fold(acc + c);
  }
Nest_I:
  for (int i = 0; i < 4; i++) {
  Nest_J:
    for (int j = 0; j < 8; j++) {
#pragma HLS PIPELINE II=1
      acc += data[i * 8 + j];
    }
  }
Piped:
  for (int i = 0; i < 8; i++) {
#pragma HLS PIPELINE II=1
    acc += fold(data[i]);
  }
  return acc;
}
