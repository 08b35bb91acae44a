// Leaf parents (loops whose only loops are leaves, no call in their text), whose begins and ends
// the event log stores beside their leaves' runs (hls-lib probe.h, the leaf-parent probes), in
// the places where it matters: trips that change from run to run (a selection sort, its parent
// running 0-12 trips), a parent of zero trips, two different leaves in one parent, a parent left
// by `break`, more entries in one parent run than the store holds, a leaf that calls a probed
// function where the rewrite cannot see it (through a macro), which the runtime turns, with its
// parent, into ordinary loops when the call records; and two loops that are no leaf parents: one
// with a leaf and a loop that calls a function, one with a leaf two levels down.
// rewriter/tests/sim_repeats.rs checks that the log with stored runs gives the report the log
// with one begin and end per run gives.
#include "leaf_parents.h"

static int bump(int x) { return x + 1; }

// The call is in the macro: the loop's text shows none.
#define BUMP_X x = bump(x)

int lp_top(int mode, int data[LP_N]) {
  int acc = 0;
Rounds:
  for (int c = 0; c < 3; c++) {
  Sort:
    for (int i = 0; i < (mode + c) % 13; i++) {
    Inner:
      for (int j = i + 1; j < LP_N; j++) {
        if (data[j] < data[i]) {
          int t = data[i];
          data[i] = data[j];
          data[j] = t;
        }
      }
    Some:
      for (int k = 0; k < i % 3; k++) acc += data[k];
    }
  }
Stop:
  for (int r = 0; r < LP_N; r++) {
    if (data[r] > 40 + mode) break;
  Taps:
    for (int k = 0; k < r % 4; k++) acc ^= data[k];
  }
Many:
  for (int r = 0; r < 100; r++) {
  Short:
    for (int k = 0; k < r % 2; k++) acc += k;
  Long:
    for (int k = 0; k < r % 7; k++) {
#pragma HLS PIPELINE II=2
      acc += data[k] * r;
    }
  }
Hidden:
  for (int r = 0; r < 3; r++) {
  Calls:
    for (int k = 0; k < 2; k++) {
      int x = acc + k;
      BUMP_X;
      acc += x;
    }
  }
Mixed:
  for (int r = 0; r < 4; r++) {
  Leaf:
    for (int k = 0; k < r; k++) acc += k;
  Called:
    for (int k = 0; k < 2; k++) acc += bump(k);
  }
Deep:
  for (int r = 0; r < 3; r++) {
  Mid:
    for (int q = 0; q < 2; q++) {
    Low:
      for (int k = 0; k < r; k++) acc += k + q;
    }
  }
  return acc;
}
