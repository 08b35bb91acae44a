// Testbench for cf_top. A straightforward reference computes every output and, for each loop,
// how many times it runs, from the exit points the kernel takes (first match, first value above
// a limit, a halt op-code, ...). Calls with an invalid n return -1 before any loop runs.
#include <cstdio>

#include "control_flow.h"

namespace {

unsigned tb_rng_state = 31337u;
int tb_rand(int lo, int hi) {
  tb_rng_state = tb_rng_state * 1103515245u + 12345u;
  return lo + static_cast<int>((tb_rng_state >> 16) % static_cast<unsigned>(hi - lo + 1));
}

// Everything the kernel should run, summed over all calls.
struct TbCounts {
  long top_calls, valid_calls, samples;
  long collatz_calls, collatz_execs, collatz_trips;
  long scan_trips, ops_trips;
  long pair_rows, pair_cols;   // row_loop trips (= col_loop executions), col_loop trips
  long check_rows, check_cols; // check_row trips (= check_col executions), check_col trips
  long digit_trips;
};

// Expected return value of cf_top, filling expect_out like the kernel fills out.
int tb_reference(const int *in, int *expect_out, int n, int key, TbCounts &c) {
  c.top_calls++;
  if (n < 1 || n > CF_N) return -1;
  c.valid_calls++;
  c.samples += n;

  // Classes and Collatz lengths.
  int hist[CF_BINS] = {0, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    int v = in[i];
    int cls = v < 0 ? -1 : v == 0 ? 0 : v % 3 == 0 ? 3 : v % 2 == 0 ? 1 : 2;
    hist[cls + 1]++;
    int steps = 0;
    if (cls > 0) {
      c.collatz_calls++;
      if (v > 1) {
        c.collatz_execs++;
        long long x = v;
        while (x != 1 && steps < CF_MAX_STEPS) {
          x = (x % 2) ? 3 * x + 1 : x / 2;
          steps++;
        }
        c.collatz_trips += steps; // the body runs once per step, the capped one included
        if (steps == CF_MAX_STEPS) steps = -1;
      }
    }
    expect_out[i] = 100 * cls + steps;
  }
  int weighted = hist[0] + 3 * hist[1] + 9 * hist[2] + 27 * hist[3] + 81 * hist[4];

  // Sum of the non-negative samples before the first non-negative one above key.
  int stop = n;
  for (int i = 0; i < n; i++) {
    if (in[i] >= 0 && in[i] > key) {
      stop = i;
      break;
    }
  }
  c.scan_trips += stop < n ? stop + 1 : n; // the breaking iteration counts
  int partial = 0;
  for (int i = 0; i < stop; i++)
    if (in[i] >= 0) partial += in[i];

  // The op-code program.
  int acc = 1;
  int executed = 0;
  bool halted = false;
  for (int pc = 0; pc < n && !halted; pc++) {
    executed++;
    int op = in[pc] < 0 ? -in[pc] : in[pc];
    int arg = op / 8;
    switch (op % 8) {
    case 0: acc += arg; break;
    case 1: acc -= arg; break;
    case 2: acc *= 3; break;
    case 3: break;
    case 7: halted = true; acc = -acc; break;
    default: acc ^= arg; break;
    }
    if (!halted && op % 8 != 3 && (acc > 30000 || acc < -30000)) acc %= 1000;
  }
  c.ops_trips += executed;
  int program = acc;

  // The zero-padded matrix: the first adjacent pair summing to key, the first value >= CF_LIMIT.
  int padded[CF_ROWS * CF_COLS];
  for (int i = 0; i < CF_ROWS * CF_COLS; i++) padded[i] = i < n ? in[i] : 0;
  int pair = -1;
  for (int i = 0; i < CF_ROWS * CF_COLS && pair < 0; i++)
    if (i % CF_COLS != CF_COLS - 1 && padded[i] + padded[i + 1] == key) pair = i;
  if (pair >= 0) {
    int row = pair / CF_COLS;
    c.pair_rows += row + 1;
    c.pair_cols += row * (CF_COLS - 1) + pair % CF_COLS + 1;
  } else {
    c.pair_rows += CF_ROWS;
    c.pair_cols += CF_ROWS * (CF_COLS - 1);
  }
  int first_high = -1;
  for (int i = 0; i < CF_ROWS * CF_COLS && first_high < 0; i++)
    if (padded[i] >= CF_LIMIT) first_high = i;
  if (first_high >= 0) {
    c.check_rows += first_high / CF_COLS + 1;
    c.check_cols += first_high + 1;
  } else {
    c.check_rows += CF_ROWS;
    c.check_cols += CF_ROWS * CF_COLS;
  }
  int high = first_high >= 0 ? 1 : 0;

  int checksum = weighted + 7 * (partial % 10007) + 13 * program + 31 * pair + 1000 * high;
  if (checksum < 0) checksum = -checksum;
  int digits = 1;
  for (int rest = checksum; rest >= 10; rest /= 10) digits++;
  c.digit_trips += digits;
  return checksum * 16 + digits;
}

} // namespace

int main() {
  const int kRuns = 6;
  const int lengths[kRuns] = {CF_N, 20, 0, CF_N + 1, CF_N, 1};
  const int kSentinel = -4242;

  int in[CF_N];
  int out[CF_N];
  int expect_out[CF_N];
  TbCounts counts = {};
  int errors = 0;
  long checked = 0;

  for (int run = 0; run < kRuns; run++) {
    int n = lengths[run];
    for (int i = 0; i < CF_N; i++) {
      in[i] = run == 4 ? tb_rand(0, 200) : tb_rand(-40, 300);
      if (run == 4 && in[i] % 8 == 7) in[i]--; // no halt op-code: the program runs to its end
      out[i] = kSentinel;
      expect_out[i] = kSentinel;
    }
    int key = 100000; // run 1 and the invalid runs: no pair matches, nothing is above the key
    if (run == 0) {
      in[3] = 27; // a Collatz sequence longer than CF_MAX_STEPS
      in[5] = 1;  // Collatz length 0, no loop
      in[6] = 0;
      in[9] = 3;  // a no-op op-code
      key = in[2 * CF_COLS + 3] + in[2 * CF_COLS + 4]; // a pair in row 2 (or earlier) matches
    } else if (run == 4) {
      key = -1; // the first non-negative sample stops the scan
    } else if (run == 5) {
      in[0] = 7; // halts the op-code program at once
      key = 7;
    }

    int got = cf_top(in, out, n, key);
    int expect = tb_reference(in, expect_out, n, key, counts);

    checked++;
    if (got != expect) {
      std::printf("mismatch: run %d: returned %d, expected %d\n", run, got, expect);
      errors++;
    }
    for (int i = 0; i < CF_N; i++) {
      checked++;
      if (out[i] != expect_out[i]) {
        if (errors < 10) std::printf("mismatch: run %d out[%d]: got %d, expected %d\n", run, i, out[i], expect_out[i]);
        errors++;
      }
    }
  }

  const TbCounts &c = counts;
  std::printf("control_flow: %d runs (%ld valid), %ld samples, %ld values checked, %d mismatches\n", kRuns,
              c.valid_calls, c.samples, checked, errors);
  std::printf("hlsinstr-expect calls cf_top %ld\n", c.top_calls);
  std::printf("hlsinstr-expect execs cf_top copy_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips cf_top copy_loop %ld\n", c.samples);
  std::printf("hlsinstr-expect execs cf_top sample_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips cf_top sample_loop %ld\n", c.samples);
  std::printf("hlsinstr-expect calls classify %ld\n", c.samples);
  std::printf("hlsinstr-expect calls collatz_steps %ld\n", c.collatz_calls);
  std::printf("hlsinstr-expect execs collatz_steps collatz_loop %ld\n", c.collatz_execs);
  std::printf("hlsinstr-expect trips collatz_steps collatz_loop %ld\n", c.collatz_trips);
  std::printf("hlsinstr-expect execs cf_top hist_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips cf_top hist_loop %ld\n", c.valid_calls * CF_BINS);
  std::printf("hlsinstr-expect execs cf_top fill_row %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips cf_top fill_row %ld\n", c.valid_calls * CF_ROWS);
  std::printf("hlsinstr-expect execs cf_top fill_col %ld\n", c.valid_calls * CF_ROWS);
  std::printf("hlsinstr-expect trips cf_top fill_col %ld\n", c.valid_calls * CF_ROWS * CF_COLS);
  std::printf("hlsinstr-expect calls sum_until %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect execs sum_until scan_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips sum_until scan_loop %ld\n", c.scan_trips);
  std::printf("hlsinstr-expect calls run_ops %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect execs run_ops ops_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips run_ops ops_loop %ld\n", c.ops_trips);
  std::printf("hlsinstr-expect calls find_pair %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect execs find_pair row_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips find_pair row_loop %ld\n", c.pair_rows);
  std::printf("hlsinstr-expect execs find_pair col_loop %ld\n", c.pair_rows);
  std::printf("hlsinstr-expect trips find_pair col_loop %ld\n", c.pair_cols);
  std::printf("hlsinstr-expect calls all_below %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect execs all_below check_row %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips all_below check_row %ld\n", c.check_rows);
  std::printf("hlsinstr-expect execs all_below check_col %ld\n", c.check_rows);
  std::printf("hlsinstr-expect trips all_below check_col %ld\n", c.check_cols);
  std::printf("hlsinstr-expect execs cf_top digit_loop %ld\n", c.valid_calls);
  std::printf("hlsinstr-expect trips cf_top digit_loop %ld\n", c.digit_trips);
  // m_axi bytes (`--probes ...,maxi`): valid calls copy their n samples in and write n results out.
  std::printf("hlsinstr-expect read cf_top in %ld\n", c.samples * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect written cf_top out %ld\n", c.samples * static_cast<long>(sizeof(int)));
  return errors;
}
