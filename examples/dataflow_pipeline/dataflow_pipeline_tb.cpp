// Testbench for pipeline_top: checks the filtered output against a direct convolution and
// predicts how often each stage and loop runs (every stage handles all n samples once per call).
#include <cstdio>

#include "dataflow_pipeline.h"

namespace {

unsigned tb_rng_state = 99u;
int tb_rand(int range) {
  tb_rng_state = tb_rng_state * 1103515245u + 12345u;
  return static_cast<int>((tb_rng_state >> 16) % static_cast<unsigned>(range));
}

} // namespace

int main() {
  // Sample counts per call: full, odd, empty, a single sample (shorter than the filter).
  const int kRuns = 4;
  const int lengths[kRuns] = {DP_MAX_N, 37, 0, 1};
  const int scales[kRuns] = {1, -3, 5, 7};
  const int kSentinel = 0x5eed;

  int in[DP_MAX_N];
  int out[DP_MAX_N];
  int errors = 0;
  long checked = 0, samples = 0;

  for (int run = 0; run < kRuns; run++) {
    int n = lengths[run];
    for (int i = 0; i < DP_MAX_N; i++) {
      in[i] = tb_rand(2001) - 1000;
      out[i] = kSentinel;
    }

    pipeline_top(in, out, n, scales[run]);
    samples += n;

    for (int i = 0; i < DP_MAX_N; i++) {
      long long expect = kSentinel; // outputs past n are not written
      if (i < n) {
        expect = 0;
        for (int back = 0; back < DP_TAPS && back <= i; back++) expect += (back + 1) * in[i - back];
        expect *= scales[run];
      }
      checked++;
      if (out[i] != expect) {
        if (errors < 10) std::printf("mismatch: run %d out[%d]: got %d, expected %lld\n", run, i, out[i], expect);
        errors++;
      }
    }
  }

  std::printf("dataflow_pipeline: %d runs, %ld samples, %ld outputs checked, %d mismatches\n", kRuns,
              samples, checked, errors);
  std::printf("hlsinstr-expect calls pipeline_top %d\n", kRuns);
  std::printf("hlsinstr-expect calls read_stage %d\n", kRuns);
  std::printf("hlsinstr-expect calls compute_stage %d\n", kRuns);
  std::printf("hlsinstr-expect calls write_stage %d\n", kRuns);
  std::printf("hlsinstr-expect execs read_stage read_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips read_stage read_loop %ld\n", samples);
  std::printf("hlsinstr-expect execs compute_stage init_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips compute_stage init_loop %d\n", kRuns * DP_TAPS);
  std::printf("hlsinstr-expect execs compute_stage compute_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips compute_stage compute_loop %ld\n", samples);
  std::printf("hlsinstr-expect execs compute_stage shift_loop %ld\n", samples);
  std::printf("hlsinstr-expect trips compute_stage shift_loop %ld\n", samples * (DP_TAPS - 1));
  std::printf("hlsinstr-expect execs compute_stage tap_loop %ld\n", samples);
  std::printf("hlsinstr-expect trips compute_stage tap_loop %ld\n", samples * DP_TAPS);
  std::printf("hlsinstr-expect execs write_stage write_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips write_stage write_loop %ld\n", samples);
  // m_axi bytes (`--probes ...,maxi`): every sample read once by read_stage, written once by write_stage.
  std::printf("hlsinstr-expect read read_stage in %ld\n", samples * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect written write_stage out %ld\n", samples * static_cast<long>(sizeof(int)));
  return errors;
}
