#include "control_flow.h"

// Class of a sample: -1 negative, 0 zero, 3 a positive multiple of 3, else 1 (even) or 2 (odd).
static int classify(int v) {
  if (v < 0) return -1;
  if (v == 0)
    return 0;
  return v % 3 == 0 ? 3 : 1 + (v & 1);
}

// Steps of the Collatz sequence from x down to 1, or -1 when it takes CF_MAX_STEPS or more.
static int collatz_steps(int x) {
  if (x <= 1) return 0;
  int steps = 0;
collatz_loop:
  do {
#pragma HLS loop_tripcount min=1 max=40 avg=20
    if (x & 1)
      x = 3 * x + 1;
    else
      x = x / 2;
    steps++;
    if (steps == CF_MAX_STEPS) return -1;
  } while (x != 1);
  return steps;
}

// Sum of the non-negative samples before the first sample above `limit`.
static int sum_until(const int *a, int n, int limit) {
  int sum = 0;
scan_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS loop_tripcount min=1 max=32 avg=16
    if (a[i] < 0) continue;
    if (a[i] > limit) break;
    sum += a[i];
  }
  return sum;
}

// Runs |ops[i]| as a tiny program: the low 3 bits select the operation, the rest is its argument.
// Operation 7 halts the program with the negated accumulator.
static int run_ops(const int *ops, int n) {
  int acc = 1;
  int pc = 0;
ops_loop:
  while (pc < n) {
#pragma HLS loop_tripcount min=1 max=32 avg=8
    int op = ops[pc];
    pc++;
    if (op < 0) op = -op;
    int arg = op >> 3;
    switch (op & 7) {
    case 0:
      acc += arg;
      break;
    case 1:
      acc -= arg;
      break;
    case 2:
      acc *= 3;
      break;
    case 3:
      continue; // no-op; also skips the wrap-around below
    case 7:
      return -acc;
    default:
      acc ^= arg;
      break;
    }
    if (acc > 30000 || acc < -30000) acc = acc % 1000;
  }
  return acc;
}

// Row-major position of the first pair m[r][c], m[r][c + 1] that sums to `target`, or -1. A
// goto leaves both loops as soon as the pair is found.
static int find_pair(const int m[CF_ROWS][CF_COLS], int target) {
  int r = 0;
  int c = 0;
row_loop:
  for (r = 0; r < CF_ROWS; r++) {
  col_loop:
    for (c = 0; c + 1 < CF_COLS; c++) {
      if (m[r][c] + m[r][c + 1] == target) goto found;
    }
  }
  return -1;
found:
  return r * CF_COLS + c;
}

// Whether every element of m is below `limit`; returns from inside both loops at the first one
// that is not.
static bool all_below(const int m[CF_ROWS][CF_COLS], int limit) {
check_row:
  for (int r = 0; r < CF_ROWS; r++) {
  check_col:
    for (int c = 0; c < CF_COLS; c++) {
      if (m[r][c] >= limit) return false;
    }
  }
  return true;
}

int cf_top(const int in[CF_N], int out[CF_N], int n, int key) {
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem0 depth=32
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem1 depth=32
#pragma HLS INTERFACE s_axilite port=n
#pragma HLS INTERFACE s_axilite port=key
#pragma HLS INTERFACE s_axilite port=return
  if (n < 1 || n > CF_N) return -1;

  int local[CF_N];
copy_loop:
  for (int i = 0; i < n; i++)
    local[i] = in[i];

  int hist[CF_BINS] = {0, 0, 0, 0, 0};
sample_loop:
  for (int i = 0; i < n; i++) {
#pragma HLS loop_tripcount min=1 max=32 avg=16
    int cls = classify(local[i]);
    hist[cls + 1]++;
    int steps = 0;
    if (cls > 0) steps = collatz_steps(local[i]);
    out[i] = 100 * cls + steps;
  }

  int weighted = 0;
  int weight = 1;
hist_loop:
  for (int count : hist) {
    weighted += weight * count;
    weight *= 3;
  }

  int m[CF_ROWS][CF_COLS];
fill_row:
  for (int r = 0; r < CF_ROWS; r++) {
  fill_col:
    for (int c = 0; c < CF_COLS; c++) {
      int i = r * CF_COLS + c;
      m[r][c] = i < n ? local[i] : 0;
    }
  }

  int partial = sum_until(local, n, key);
  int program = run_ops(local, n);
  int pair = find_pair(m, key);
  int high = all_below(m, CF_LIMIT) ? 0 : 1;

  int checksum = weighted + 7 * (partial % 10007) + 13 * program + 31 * pair + 1000 * high;
  if (checksum < 0) checksum = -checksum;

  // Number of decimal digits of the checksum, in an endless loop left by break.
  int digits = 0;
  int rest = checksum;
digit_loop:
  for (;;) {
#pragma HLS loop_tripcount min=1 max=10 avg=5
    digits++;
    rest /= 10;
    if (rest == 0) break;
  }
  return checksum * 16 + digits;
}
