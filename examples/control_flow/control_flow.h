// A kernel made of the control flow a probe must survive: early returns, break and continue,
// a do-while, a switch inside a loop, an unbraced loop body, a goto out of two loop levels, a
// return from inside two loop levels, an endless loop left by break and a range-for.
#ifndef CONTROL_FLOW_H
#define CONTROL_FLOW_H

const int CF_N = 32;         // largest number of samples per call
const int CF_ROWS = 4;       // the samples seen as a CF_ROWS x CF_COLS matrix (zero padded)
const int CF_COLS = 8;
const int CF_MAX_STEPS = 40; // a Collatz sequence of this many steps or more is "too long" (-1)
const int CF_BINS = 5;       // classes -1..3 of a sample
const int CF_LIMIT = 250;    // the matrix check looks for a sample of at least this value

// Processes samples in[0..n) with `key` as a search parameter.
//   out[i] = 100 * class(in[i]) + Collatz steps of in[i] (class > 0 only, -1 when too long).
// Returns a checksum of the class histogram, the sum of the non-negative samples before the
// first one above `key`, the result of running the samples as an op-code program, the position
// of the first adjacent pair summing to `key` and whether some sample reaches CF_LIMIT, or -1
// (nothing written) when n is not in 1..CF_N.
int cf_top(const int in[CF_N], int out[CF_N], int n, int key);

#endif
