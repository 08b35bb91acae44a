// Testbench for matmul_top: checks C against a plain 64-bit triple loop and predicts how often
// each module and loop runs from the tiling (MM_TILE rows at a time, the last tile partial).
#include <cstdio>

#include "matmul.h"

namespace {

unsigned tb_rng_state = 77u;
int tb_rand(int range) {
  tb_rng_state = tb_rng_state * 1103515245u + 12345u;
  return static_cast<int>((tb_rng_state >> 16) % static_cast<unsigned>(range));
}

} // namespace

int main() {
  // Rows requested: all, a partial last tile, none, more than exist (clamped to MM_M).
  const int kRuns = 4;
  const int requested[kRuns] = {MM_M, 7, 0, MM_M + 5};
  const long long kSentinel = -123456;

  mm_in_t a[MM_M * MM_K];
  mm_in_t b[MM_K * MM_N];
  mm_out_t c[MM_M * MM_N];
  long long a_ref[MM_M * MM_K];
  long long b_ref[MM_K * MM_N];
  int errors = 0;
  long checked = 0;

  // What the kernel should run: modules per tile, and loop executions/trips per tile.
  long tiles = 0, tile_rows = 0;

  for (int run = 0; run < kRuns; run++) {
    for (int i = 0; i < MM_M * MM_K; i++) {
      a_ref[i] = tb_rand(601) - 300;
      a[i] = static_cast<mm_in_t>(a_ref[i]);
    }
    for (int i = 0; i < MM_K * MM_N; i++) {
      b_ref[i] = tb_rand(601) - 300;
      b[i] = static_cast<mm_in_t>(b_ref[i]);
    }
    for (int i = 0; i < MM_M * MM_N; i++) c[i] = static_cast<mm_out_t>(kSentinel);

    matmul_top(a, b, c, requested[run]);

    int rows = requested[run] < MM_M ? requested[run] : MM_M;
    for (int left = rows; left > 0; left -= MM_TILE) {
      tiles++;
      tile_rows += left < MM_TILE ? left : MM_TILE;
    }

    for (int i = 0; i < MM_M; i++) {
      for (int j = 0; j < MM_N; j++) {
        long long expect = kSentinel;
        if (i < rows) {
          expect = 0;
          for (int k = 0; k < MM_K; k++) expect += a_ref[i * MM_K + k] * b_ref[k * MM_N + j];
        }
        long long got = c[i * MM_N + j];
        checked++;
        if (got != expect) {
          if (errors < 10)
            std::printf("mismatch: run %d C[%d][%d]: got %lld, expected %lld\n", run, i, j, got, expect);
          errors++;
        }
      }
    }
  }

  std::printf("matmul: %d runs, %ld tiles, %ld rows computed, %ld elements checked, %d mismatches\n",
              kRuns, tiles, tile_rows, checked, errors);
  std::printf("hlsinstr-expect calls matmul_top %d\n", kRuns);
  std::printf("hlsinstr-expect execs matmul_top tile_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips matmul_top tile_loop %ld\n", tiles);
  std::printf("hlsinstr-expect calls load_b %d\n", kRuns);
  std::printf("hlsinstr-expect execs load_b load_b_row %d\n", kRuns);
  std::printf("hlsinstr-expect trips load_b load_b_row %d\n", kRuns * MM_K);
  std::printf("hlsinstr-expect execs load_b load_b_col %d\n", kRuns * MM_K);
  std::printf("hlsinstr-expect trips load_b load_b_col %d\n", kRuns * MM_K * MM_N);
  std::printf("hlsinstr-expect calls load_a_tile %ld\n", tiles);
  std::printf("hlsinstr-expect execs load_a_tile load_a_row %ld\n", tiles);
  std::printf("hlsinstr-expect trips load_a_tile load_a_row %ld\n", tile_rows);
  std::printf("hlsinstr-expect execs load_a_tile load_a_col %ld\n", tile_rows);
  std::printf("hlsinstr-expect trips load_a_tile load_a_col %ld\n", tile_rows * MM_K);
  std::printf("hlsinstr-expect calls compute_tile %ld\n", tiles);
  std::printf("hlsinstr-expect execs compute_tile row_loop %ld\n", tiles);
  std::printf("hlsinstr-expect trips compute_tile row_loop %ld\n", tile_rows);
  std::printf("hlsinstr-expect execs compute_tile col_loop %ld\n", tile_rows);
  std::printf("hlsinstr-expect trips compute_tile col_loop %ld\n", tile_rows * MM_N);
  std::printf("hlsinstr-expect execs compute_tile prod_loop %ld\n", tile_rows * MM_N);
  std::printf("hlsinstr-expect trips compute_tile prod_loop %ld\n", tile_rows * MM_N * MM_K);
  std::printf("hlsinstr-expect calls store_tile %ld\n", tiles);
  std::printf("hlsinstr-expect execs store_tile store_loop %ld\n", tiles);
  std::printf("hlsinstr-expect trips store_tile store_loop %ld\n", tile_rows * MM_N);
  // m_axi bytes (`--probes ...,maxi`): all of B once per call, each computed row of A once, each
  // computed row of C once.
  std::printf("hlsinstr-expect read load_b b %ld\n", kRuns * MM_K * MM_N * static_cast<long>(sizeof(mm_in_t)));
  std::printf("hlsinstr-expect read load_a_tile a %ld\n", tile_rows * MM_K * static_cast<long>(sizeof(mm_in_t)));
  std::printf("hlsinstr-expect written store_tile c %ld\n", tile_rows * MM_N * static_cast<long>(sizeof(mm_out_t)));
  return errors;
}
