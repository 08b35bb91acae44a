// Leaf loops (no loop or call in their text), whose runs the event log stores inline and writes
// as one record (hls-lib probe.h, the leaf probes), in the places where a run's trip count
// matters beyond a sum: trips that change from run to run (a selection sort's inner loop), runs
// of zero trips, a pipelined leaf ((trips - 1) x II + depth), more runs in one parent than the
// store holds, a leaf left by `break`, and a leaf that calls a probed function where the rewrite
// cannot see it (through a macro), which the runtime turns into an ordinary loop when the call
// records. rewriter/tests/sim_repeats.rs checks that the log with leaf runs gives the report the
// log with one begin and end per run gives.
#include "leaf_runs.h"

static int bump(int x) { return x + 1; }

// The call is in the macro: the loop's text shows none.
#define BUMP_X x = bump(x)

int lr_top(int mode, int data[LR_N]) {
  if (mode == 0) return 0;
  int acc = 0;
Sort:
  for (int i = 0; i < 13; i++) {
  Inner:
    for (int j = i + 1; j < LR_N; j++) {
      if (data[j] < data[i]) {
        int t = data[i];
        data[i] = data[j];
        data[j] = t;
      }
    }
  Some:
    for (int k = 0; k < i % 3; k++) acc += data[k];
  }
Many:
  for (int r = 0; r < 100; r++) {
  Taps:
    for (int k = 0; k < r % 5; k++) acc += data[(r + k) % LR_N];
  }
Outer:
  for (int r = 0; r < 6; r++) {
  Piped:
    for (int k = 0; k < 2 + r; k++) {
#pragma HLS PIPELINE II=2
      acc += data[k] * r;
    }
  Stop:
    for (int k = 0; k < LR_N; k++) {
      if (data[k] > 40 + r) break;
      acc ^= data[k];
    }
  }
Hidden:
  for (int r = 0; r < 3; r++) {
    acc += bump(r);
  Calls:
    for (int k = 0; k < 2; k++) {
      int x = acc + k;
      BUMP_X;
      acc += x;
    }
  }
  return acc;
}
