// Testbench for qsort_top: checks every batch against std::sort and predicts how often each
// module and loop runs, from a reference quicksort that partitions exactly like the kernel.
#include <algorithm>
#include <cstdio>

#include "quicksort.h"

namespace {

// What the kernel's qsort_comp does on one batch, counted.
struct TbQsortCounts {
  long ranges;          // ranges popped from the stack (stack_loop trips)
  long partitions;      // ranges of two or more elements (partition_loop executions)
  long partition_steps; // elements compared with a pivot (partition_loop trips)
};

// Recursive reference with the same pivot choice and partition scheme as the kernel. The
// kernel visits the same ranges in another order; every range is partitioned identically.
void tb_reference_sort(int *a, int lo, int hi, TbQsortCounts &c) {
  c.ranges++;
  if (hi <= lo) return;
  c.partitions++;
  int pivot = a[hi];
  int s = lo;
  for (int j = lo; j < hi; j++) {
    c.partition_steps++;
    if (a[j] < pivot) {
      std::swap(a[j], a[s]);
      s++;
    }
  }
  a[hi] = a[s];
  a[s] = pivot;
  if (s > lo) tb_reference_sort(a, lo, s - 1, c);
  if (hi > s) tb_reference_sort(a, s + 1, hi, c);
}

unsigned tb_rng_state = 12345u;
int tb_rand(int range) {
  tb_rng_state = tb_rng_state * 1103515245u + 12345u;
  return static_cast<int>((tb_rng_state >> 16) % static_cast<unsigned>(range));
}

} // namespace

int main() {
  const int kRuns = 3;
  const int run_batches[kRuns] = {QS_MAX_BATCHES, 3, 0};
  const int kSentinel = -7777;

  int in[QS_MAX_N];
  int out[QS_MAX_N];
  int errors = 0;
  int checked = 0;
  long top_calls = 0, batches = 0;
  TbQsortCounts counts = {0, 0, 0};

  for (int run = 0; run < kRuns; run++) {
    // Run 0: random values with many duplicates. Run 1: an ascending, a descending and a
    // constant batch (quicksort's worst cases), then random data it must not touch.
    for (int i = 0; i < QS_MAX_N; i++) {
      int b = i / QS_BATCH, k = i % QS_BATCH;
      if (run == 1 && b == 0) in[i] = k * 3;
      else if (run == 1 && b == 1) in[i] = 1000 - k * 7;
      else if (run == 1 && b == 2) in[i] = 42;
      else in[i] = tb_rand(100) - 20;
      out[i] = kSentinel;
    }

    qsort_top(in, out, run_batches[run]);
    top_calls++;

    int n_batches = std::min(run_batches[run], QS_MAX_BATCHES);
    for (int b = 0; b < QS_MAX_BATCHES; b++) {
      int expect[QS_BATCH];
      if (b < n_batches) {
        std::copy(in + b * QS_BATCH, in + (b + 1) * QS_BATCH, expect);
        std::sort(expect, expect + QS_BATCH);
        int copy[QS_BATCH];
        std::copy(in + b * QS_BATCH, in + (b + 1) * QS_BATCH, copy);
        tb_reference_sort(copy, 0, QS_BATCH - 1, counts);
        batches++;
      } else {
        std::fill(expect, expect + QS_BATCH, kSentinel); // batches past n_batches stay untouched
      }
      for (int k = 0; k < QS_BATCH; k++) {
        checked++;
        if (out[b * QS_BATCH + k] != expect[k]) {
          if (errors < 10)
            std::printf("mismatch: run %d batch %d element %d: got %d, expected %d\n", run, b, k,
                        out[b * QS_BATCH + k], expect[k]);
          errors++;
        }
      }
    }
  }

  std::printf("quicksort: %d runs, %ld batches sorted, %d elements checked, %d mismatches\n", kRuns,
              batches, checked, errors);
  std::printf("hlsinstr-expect calls qsort_top %ld\n", top_calls);
  std::printf("hlsinstr-expect execs qsort_top batch_loop %ld\n", top_calls);
  std::printf("hlsinstr-expect trips qsort_top batch_loop %ld\n", batches);
  std::printf("hlsinstr-expect calls load %ld\n", batches);
  std::printf("hlsinstr-expect calls qsort_comp %ld\n", batches);
  std::printf("hlsinstr-expect calls store %ld\n", batches);
  std::printf("hlsinstr-expect execs load load_loop %ld\n", batches);
  std::printf("hlsinstr-expect trips load load_loop %ld\n", batches * QS_BATCH);
  std::printf("hlsinstr-expect execs store store_loop %ld\n", batches);
  std::printf("hlsinstr-expect trips store store_loop %ld\n", batches * QS_BATCH);
  std::printf("hlsinstr-expect execs qsort_comp stack_loop %ld\n", batches);
  std::printf("hlsinstr-expect trips qsort_comp stack_loop %ld\n", counts.ranges);
  std::printf("hlsinstr-expect execs qsort_comp partition_loop %ld\n", counts.partitions);
  std::printf("hlsinstr-expect trips qsort_comp partition_loop %ld\n", counts.partition_steps);
  // m_axi bytes (`--probes ...,maxi`): load reads and store writes whole batches; the top only
  // passes its ports on, so its own accesses move nothing.
  std::printf("hlsinstr-expect read load in %ld\n", batches * QS_BATCH * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect written store out %ld\n", batches * QS_BATCH * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect read qsort_top in 0\n");
  std::printf("hlsinstr-expect written qsort_top out 0\n");
  return errors;
}
